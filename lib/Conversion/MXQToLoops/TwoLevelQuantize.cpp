//===- TwoLevelQuantize.cpp - two_level_quantize to loops -----------------===//
//
// CANN DynamicDualLevelMxQuant: an fp32 scale per 512 elements, an E8M0 scale
// per 32, FP4 codes; the kernel's order of roundings.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::loops {

TwoLevelSteps TwoLevelSteps::of(dialect::TwoLevelQuantizeOp op) {
  return {op.getInput().getType().getElementType(),
          op.getDivDenormals() == dialect::DivDenormals::ftz,
          dialect::toSupport(op.getRounding()),
          dialect::toSupport(op.getNanElement())};
}

Value TwoLevelSteps::smoothed(OpBuilder &b, Location l, Value x,
                              Value smooth) const {
  return roundTo(b, l, arith::MulFOp::create(b, l, x, smooth), elt);
}

Value TwoLevelSteps::finiteMaxBits(OpBuilder &b, Location l, Value x) const {
  Type i32v = shapedLike(x.getType(), b.getI32Type());
  Value absBits = num::absBits(b, l, x);
  Value finite = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                       absBits,
                                       num::i32Const(b, l, i32v, 0x7F800000));
  absBits = arith::SelectOp::create(b, l, finite, absBits,
                                    num::i32Const(b, l, i32v, 0));
  return vector::ReductionOp::create(b, l, vector::CombiningKind::MAXUI,
                                     absBits)
      .getResult();
}

Value TwoLevelSteps::level0(OpBuilder &b, Location l, Value bits) const {
  Value amax = arith::BitcastOp::create(b, l, b.getF32Type(), bits);
  Value l0 = arith::MulFOp::create(
      b, l, amax,
      num::f32Const(b, l, amax.getType(),
                    1.0f / formatInfo(ElementFormat::E2M1FN).maxFinite));
  Value l0Bits = arith::BitcastOp::create(b, l, b.getI32Type(), l0);
  Value subnormal = arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::ult, l0Bits,
      num::i32Const(b, l, b.getI32Type(), 0x00800000));
  return arith::SelectOp::create(b, l, subnormal,
                                 num::f32Const(b, l, l0.getType(), 0.0f), l0);
}

Value TwoLevelSteps::temp(OpBuilder &b, Location l, Value x, Value l0) const {
  Value l0v = vector::BroadcastOp::create(b, l, x.getType(), l0);
  Value zeroV = num::f32Const(b, l, x.getType(), 0.0f);
  Value isZero =
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, x, zeroV);
  // With div_denormals = ftz the kernel's Div flushes subnormal dividends
  // and quotients.
  Value dividend = ftz ? num::flushSubnormal(b, l, x) : x;
  Value quotient = arith::DivFOp::create(b, l, dividend, l0v);
  if (ftz)
    quotient = num::flushSubnormal(b, l, quotient);
  return arith::SelectOp::create(b, l, isZero, x,
                                 roundTo(b, l, quotient, elt));
}

Value TwoLevelSteps::maxExponent(OpBuilder &b, Location l, Value temp) const {
  Type i32v = shapedLike(temp.getType(), b.getI32Type());
  Value exps = arith::ShRUIOp::create(b, l, num::absBits(b, l, temp),
                                      num::i32Const(b, l, i32v, 23));
  return vector::ReductionOp::create(b, l, vector::CombiningKind::MAXUI, exps)
      .getResult();
}

std::pair<Value, Value> TwoLevelSteps::level1(OpBuilder &b, Location l,
                                              Value maxExp) const {
  auto s = [&](int64_t v) { return num::i32Const(b, l, b.getI32Type(), v); };
  auto eq = [&](Value x, int64_t v) {
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, s(v));
  };
  // The largest bf16 exponent field; Inf and NaN count as 0xFF.
  const int64_t emax = formatInfo(ElementFormat::E2M1FN).emax;
  Value byte = arith::SubIOp::create(
      b, l, arith::MaxUIOp::create(b, l, maxExp, s(emax)), s(emax));
  byte = arith::SelectOp::create(b, l, eq(maxExp, 0xFF), s(::mxq::kScaleNaN),
                                 byte);
  Value mult = num::scaleMultiplier(b, l, byte);
  mult = arith::SelectOp::create(b, l, eq(maxExp, 0),
                                 num::f32Const(b, l, b.getF32Type(), 0.0f),
                                 mult);
  return {byte, mult};
}

Value TwoLevelSteps::codes(OpBuilder &b, Location l, Value temp, Value mult,
                           const num::NativeConverts *native) const {
  Value v = arith::MulFOp::create(
      b, l, temp, vector::BroadcastOp::create(b, l, temp.getType(), mult));
  if (elt.isBF16())
    v = roundTo(b, l, v, elt);
  return num::encodeElement(b, l, v, ::mxq::ElementFormat::E2M1FN, rounding,
                            nanElement, native);
}

namespace {

/// Reads `len` elements along the last axis of `source` at `at` as f32
/// (zeros past the end).
Value readLastAxisF32(OpBuilder &b, Location loc, Value source,
                      ArrayRef<Value> at, int64_t len, bool inBounds = false) {
  auto type = cast<RankedTensorType>(source.getType());
  Value zero =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(type.getElementType(), 0.0));
  Value v = vector::TransferReadOp::create(
      b, loc, VectorType::get({len}, type.getElementType()), source, at, zero,
      AffineMap::getMinorIdentityMap(type.getRank(), 1, b.getContext()),
      ArrayRef<bool>{inBounds});
  return toF32(b, loc, v);
}

/// CANN DynamicDualLevelMxQuant (ref: twoLevelQuantize): one loop nest over
/// the 512-blocks computes the fp32 level-0 scales, a second over the
/// 32-groups recomputes each group's temp from them and emits its E8M0 byte
/// and FP4 codes.
struct TwoLevelQuantizeLowering
    : NumericsPattern<dialect::TwoLevelQuantizeOp> {
  using NumericsPattern::NumericsPattern;

  LogicalResult matchAndRewrite(dialect::TwoLevelQuantizeOp op,
                                PatternRewriter &rw) const override {
    constexpr int64_t kL0 = ::mxq::kTwoLevelBlock0, kL1 = ::mxq::kTwoLevelBlock1;
    Location loc = op.getLoc();
    Value input = op.getInput(), smooth = op.getSmooth();
    auto inType = op.getInput().getType();
    int64_t rank = inType.getRank(), last = rank - 1;
    Type codeElt = op.getY().getType().getElementType();
    Type scaleElt = op.getLevel1Scales().getType().getElementType();

    ReifiedRankedShapedTypeDims dims;
    if (failed(resultSizes(op, rw, dims)))
      return failure();
    Value codes = tensor::EmptyOp::create(rw, loc, dims[0], codeElt);
    Value level0 = tensor::EmptyOp::create(rw, loc, dims[1], rw.getF32Type());
    Value level1 = tensor::EmptyOp::create(rw, loc, dims[2], scaleElt);
    Value pad = toSmallFloat(
        rw, loc, num::i32Const(rw, loc, rw.getI32Type(), ::mxq::kScalePad),
        scaleElt);
    level1 = linalg::FillOp::create(rw, loc, ValueRange{pad}, ValueRange{level1})
                 .getResult(0);
    Value n = tensor::DimOp::create(rw, loc, input, last);
    TwoLevelSteps rules = TwoLevelSteps::of(op);

    // x (times smooth, rounded to the input type) for `len` elements at k0.
    auto smoothed = [&](OpBuilder &b, Location l, ValueRange ivs, Value k0,
                        int64_t len, bool inBounds = false) {
      SmallVector<Value> at(ivs.begin(), ivs.end());
      at[last] = k0;
      Value x = readLastAxisF32(b, l, input, at, len, inBounds);
      if (!smooth)
        return x;
      Value sm = readLastAxisF32(b, l, smooth, {k0}, len, inBounds);
      return rules.smoothed(b, l, x, sm);
    };

    // Level 0.
    SmallVector<Value> lbs, ubs, steps;
    blockLoopBounds(rw, loc, input, last, kL0, lbs, ubs, steps);
    scf::LoopNest nest0 = scf::buildLoopNest(
        rw, loc, lbs, ubs, steps, ValueRange{level0},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iters) -> scf::ValueVector {
          Value k0 = arith::MulIOp::create(b, l, ivs[last], indexConst(b, l, kL0));
          // The maximum of the finite |x| (Inf and NaN do not take part),
          // as fp32 bits (they order like the values), over the block's
          // 32-element chunks: whole chunks unmasked, the ragged one masked.
          Type i32 = b.getI32Type();
          auto chunkMax = [&](OpBuilder &cb, Location cl, Value kc,
                              bool inBounds) {
            return rules.finiteMaxBits(cb, cl,
                                       smoothed(cb, cl, ivs, kc, kL1, inBounds));
          };
          auto chunks = scf::ForOp::create(
              b, l, indexConst(b, l, 0), indexConst(b, l, kL0 / kL1),
              indexConst(b, l, 1),
              ValueRange{num::i32Const(b, l, i32, 0)},
              [&](OpBuilder &fb, Location fl, Value c, ValueRange m) {
                Value kc = arith::AddIOp::create(
                    fb, fl, k0,
                    arith::MulIOp::create(fb, fl, c, indexConst(fb, fl, kL1)));
                Value live = arith::CmpIOp::create(
                    fb, fl, arith::CmpIPredicate::ult, kc, n);
                auto inside = scf::IfOp::create(
                    fb, fl, live,
                    [&](OpBuilder &tb, Location tl) {
                      SmallVector<Value> r = splitOnWholeBlock(
                          tb, tl, n, kc, kL1,
                          [&](OpBuilder &wb, Location wl, bool inBounds)
                              -> SmallVector<Value> {
                            return {arith::MaxUIOp::create(
                                wb, wl, m[0], chunkMax(wb, wl, kc, inBounds))};
                          });
                      scf::YieldOp::create(tb, tl, r);
                    },
                    [&](OpBuilder &eb, Location el) {
                      scf::YieldOp::create(eb, el, m[0]);
                    });
                scf::YieldOp::create(fb, fl, inside.getResults());
              });
          Value l0 = rules.level0(b, l, chunks.getResult(0));
          Value t = tensor::InsertOp::create(b, l, l0, iters[0], ivs);
          return {t};
        });
    markParallel(nest0);
    level0 = nest0.results[0];

    // Level 1.
    lbs.clear();
    ubs.clear();
    steps.clear();
    blockLoopBounds(rw, loc, input, last, kL1, lbs, ubs, steps);
    Value numGroups = ubs[last];
    scf::LoopNest nest1 = scf::buildLoopNest(
        rw, loc, lbs, ubs, steps, ValueRange{codes, level1},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iters) -> scf::ValueVector {
          Value g = ivs[last];
          Value k0 = arith::MulIOp::create(b, l, g, indexConst(b, l, kL1));
          // Whole groups unmasked, the ragged tail masked.
          auto emit = [&](OpBuilder &b, Location l,
                          bool inBounds) -> SmallVector<Value> {
          Value x = smoothed(b, l, ivs, k0, kL1, inBounds);
          SmallVector<Value> l0At(ivs.begin(), ivs.end());
          l0At[last] = arith::DivUIOp::create(b, l, g,
                                              indexConst(b, l, kL0 / kL1));
          Value l0 = tensor::ExtractOp::create(b, l, level0, l0At);
          Value temp = rules.temp(b, l, x, l0);
          auto [byte, mult] =
              rules.level1(b, l, rules.maxExponent(b, l, temp));
          Value code = rules.codes(b, l, temp, mult, native());
          SmallVector<Value> at(ivs.begin(), ivs.end());
          at[last] = k0;
          Value newCodes = writeCodes(b, l, code, iters[0], at, last,
                                      blockCount(b, l, n, k0, kL1), inBounds);
          SmallVector<Value> sIdx = scaleIndex(b, l, ivs, last, g, numGroups,
                                               dialect::ScaleLayout::pairs);
          Value newScales = tensor::InsertOp::create(
              b, l, toSmallFloat(b, l, byte, scaleElt), iters[1], sIdx);
          return {newCodes, newScales};
          };
          return splitOnWholeBlock(b, l, n, k0, kL1, emit);
        });
    markParallel(nest1);
    replaceWithResultTypes(rw, op, {nest1.results[0], level0, nest1.results[1]});
    return success();
  }
};

} // namespace

void populateTwoLevelQuantizeLowering(
    RewritePatternSet &patterns,
    std::shared_ptr<const num::NativeConverts> native) {
  patterns.add<TwoLevelQuantizeLowering>(patterns.getContext(),
                                         std::move(native));
}

} // namespace mxq::loops
