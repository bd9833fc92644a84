//===- TwoLevelQuantize.cpp - the coalesced two-level quantize ------------===//
#include "Kernels.h"

namespace mxq::nvvm::coalesced {
namespace {

/// two_level_quantize (CANN DynamicDualLevelMxQuant) of a 16-bit input: a
/// warp per 512-element level-0 block, each lane two 16-byte chunks (lane l
/// elements [8l, 8l+8) and [256+8l, 256+8l+8), so each of the two loads is
/// one contiguous 512 bytes across the warp). The level-0 maximum is
/// combined over the warp (5 shuffles), each 32-element group's largest
/// exponent over its 4 lanes (2 shuffles); lane 0 stores the fp32 level-0
/// scale, the first lane of each group its E8M0 byte. Every number is
/// TwoLevelSteps' (the shared expansion's).
struct CoalescedTwoLevelQuantize
    : loops::NumericsPattern<dialect::TwoLevelQuantizeOp> {
  CoalescedTwoLevelQuantize(MLIRContext *ctx,
                            std::shared_ptr<const num::NativeConverts> native)
      : NumericsPattern(ctx, std::move(native), /*benefit=*/2) {}

  LogicalResult matchAndRewrite(dialect::TwoLevelQuantizeOp op,
                                PatternRewriter &rw) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    int64_t rank = inType.getRank();
    Type inElt = inType.getElementType();
    Type codeElt = op.getY().getType().getElementType();
    Type scaleElt = op.getLevel1Scales().getType().getElementType();
    constexpr int64_t kL0 = ::mxq::kTwoLevelBlock0;
    constexpr int64_t kL1 = ::mxq::kTwoLevelBlock1;
    if (!(inElt.isBF16() || inElt.isF16()) || kL0 != 512 || kL1 != 32)
      return rw.notifyMatchFailure(op, "16-bit input, blocks of 512 and 32");
    Location loc = op.getLoc();
    auto rules = loops::TwoLevelSteps::of(op);
    const num::NativeConverts *nat = native();
    ReifiedRankedShapedTypeDims dims;
    if (failed(loops::resultSizes(op, rw, dims)))
      return failure();
    Value input = bufferOf(rw, loc, op.getInput());
    Value smooth = op.getSmooth() ? bufferOf(rw, loc, op.getSmooth()) : Value();
    Value codes = allocate(rw, loc, dims[0], codeElt);
    Value level0 = allocate(rw, loc, dims[1], rw.getF32Type());
    Value level1 = allocate(rw, loc, dims[2], scaleElt);
    SmallVector<Value> shape = sizesOf(rw, loc, input);
    Value size = shape.back();
    Value numBlocks = arith::CeilDivUIOp::create(rw, loc, size, idx(rw, loc, kL0));
    Value numGroups = arith::CeilDivUIOp::create(rw, loc, size, idx(rw, loc, kL1));
    launchLanes(
        rw, loc, shape, numBlocks, /*lanesPerBlock=*/32, /*elems=*/8,
        [&](OpBuilder &b, Location l, LanePlace &p) {
          LanePlace half[2] = {p, shifted(b, l, p, size, 256, 8)};
          Value x[2];
          Value bits;
          for (int h = 0; h < 2; ++h) {
            x[h] = loops::toF32(b, l, readLane(b, l, input, half[h], 8));
            if (smooth) {
              LanePlace s = half[h];
              s.lead.clear();
              x[h] = rules.smoothed(
                  b, l, x[h], loops::toF32(b, l, readLane(b, l, smooth, s, 8)));
            }
            Value m = rules.finiteMaxBits(b, l, x[h]);
            bits = h ? arith::MaxUIOp::create(b, l, bits, m).getResult() : m;
          }
          bits = laneMax(b, l, bits, {1, 2, 4, 8, 16});
          Value l0 = rules.level0(b, l, bits);
          Value first = arith::AndIOp::create(
              b, l, p.valid,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, p.lane,
                                    idx(b, l, 0)));
          {
            auto st = scf::IfOp::create(b, l, first, false);
            OpBuilder sb = st.getThenBodyBuilder();
            SmallVector<Value> at(p.lead);
            at.push_back(p.blk);
            memref::StoreOp::create(sb, l, l0, level0, at);
          }
          Value groupLane = arith::RemUIOp::create(b, l, p.lane, idx(b, l, 4));
          for (int h = 0; h < 2; ++h) {
            Value temp = rules.temp(b, l, x[h], l0);
            Value maxExp = laneMax(b, l, rules.maxExponent(b, l, temp), {1, 2});
            auto [byte, mult] = rules.level1(b, l, maxExp);
            writeLane(b, l, rules.codes(b, l, temp, mult, nat), codes, half[h],
                      codeElt);
            // The group's first lane stores its byte, where the group exists.
            Value live = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::ult, half[h].col0, size);
            Value store = arith::AndIOp::create(
                b, l, arith::AndIOp::create(b, l, p.valid, live),
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, groupLane,
                                      idx(b, l, 0)));
            auto st = scf::IfOp::create(b, l, store, false);
            OpBuilder sb = st.getThenBodyBuilder();
            Value g = arith::DivUIOp::create(sb, l, half[h].col0,
                                             idx(sb, l, kL1));
            SmallVector<Value> ivs(p.lead);
            ivs.push_back(half[h].col0);
            SmallVector<Value> at = loops::scaleIndex(
                sb, l, ivs, rank - 1, g, numGroups, dialect::ScaleLayout::pairs);
            memref::StoreOp::create(
                sb, l, loops::toSmallFloat(sb, l, byte, scaleElt), level1, at);
            storePairPadding(sb, l, p.lead, g, numGroups, level1, scaleElt);
          }
        },
        /*blockElems=*/kL0);
    loops::replaceWithResultTypes(
        rw, op,
        {asTensor(rw, loc, codes), asTensor(rw, loc, level0),
         asTensor(rw, loc, level1)});
    return success();
  }

};

} // namespace

void populateTwoLevelQuantize(
    RewritePatternSet &patterns,
    std::shared_ptr<const num::NativeConverts> native) {
  patterns.add<CoalescedTwoLevelQuantize>(patterns.getContext(), std::move(native));
}

} // namespace mxq::nvvm::coalesced
