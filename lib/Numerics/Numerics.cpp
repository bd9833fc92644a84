//===- Numerics.cpp - exact MX numerics as integer IR ---------------------===//
//
// Mirrors lib/Reference rule by rule; the comments name the reference
// function each builder reproduces.
//
//===----------------------------------------------------------------------===//
#include "mxq/Numerics/Numerics.h"
#include "mxq/Numerics/Recipes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/bit.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace mxq::numerics {

/// `elt` with the shape of `like` (a vector) or `elt` itself.
static Type shaped(Type like, Type elt) {
  if (auto v = dyn_cast<VectorType>(like))
    return VectorType::get(v.getShape(), elt);
  return elt;
}

Value i32Const(OpBuilder &b, Location loc, Type like, int64_t value) {
  Type t = shaped(like, b.getI32Type());
  TypedAttr attr = b.getI32IntegerAttr(static_cast<int32_t>(value));
  if (auto v = dyn_cast<VectorType>(t))
    attr = DenseElementsAttr::get(v, attr);
  return arith::ConstantOp::create(b, loc, t, attr);
}

Value f32Const(OpBuilder &b, Location loc, Type like, float value) {
  Type t = shaped(like, b.getF32Type());
  TypedAttr attr = b.getF32FloatAttr(value);
  if (auto v = dyn_cast<VectorType>(t))
    attr = DenseElementsAttr::get(v, attr);
  return arith::ConstantOp::create(b, loc, t, attr);
}

namespace {
/// Short spellings for the integer IR below (all i32, unsigned where it
/// matters).
struct I {
  OpBuilder &b;
  Location loc;
  Type like;
  Value c(int64_t v) { return i32Const(b, loc, like, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value ori(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value shr(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value minu(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value maxs(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value mins(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value eq(Value x, Value y) { return cmp(arith::CmpIPredicate::eq, x, y); }
  Value ne(Value x, Value y) { return cmp(arith::CmpIPredicate::ne, x, y); }
  Value ugt(Value x, Value y) { return cmp(arith::CmpIPredicate::ugt, x, y); }
  Value uge(Value x, Value y) { return cmp(arith::CmpIPredicate::uge, x, y); }
  Value ule(Value x, Value y) { return cmp(arith::CmpIPredicate::ule, x, y); }
  Value sel(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value andb(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value orb(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value zext(Value bit) {
    return arith::ExtUIOp::create(b, loc, shaped(like, b.getI32Type()), bit);
  }
  Value bitsOf(Value f) {
    return arith::BitcastOp::create(b, loc, shaped(like, b.getI32Type()), f);
  }
  Value floatOf(Value i) {
    return arith::BitcastOp::create(b, loc, shaped(like, b.getF32Type()), i);
  }
};

/// The arith/vector lane domain of the recipes (mxq/Numerics/Recipes.h):
/// I's operations, an f32 multiply on bit patterns and the target's native
/// E8M0 round-up.
struct ArithLanes : I {
  using V = Value;
  const NativeConverts *native = nullptr;
  static bool has(Value v) { return bool(v); }
  /// The f32 of `bits`: a bitcast's own operand where `bits` is one.
  Value floatOf(Value bits) {
    if (auto cast = bits.getDefiningOp<arith::BitcastOp>())
      if (getElementTypeOrSelf(cast.getIn().getType()).isF32())
        return cast.getIn();
    return I::floatOf(bits);
  }
  Value mulF32(Value bits, float k) {
    Value f = floatOf(bits);
    return bitsOf(arith::MulFOp::create(
        b, loc, f, f32Const(b, loc, f.getType(), k)));
  }
  Value e8m0RoundUp(Value dBits) {
    return native ? native->e8m0RoundUp(b, loc, floatOf(dBits)) : Value();
  }
  Value mulF(Value x, Value y) {
    return bitsOf(arith::MulFOp::create(b, loc, floatOf(x), floatOf(y)));
  }
  Value divF(Value x, Value y) {
    return bitsOf(arith::DivFOp::create(b, loc, floatOf(x), floatOf(y)));
  }
};
} // namespace

NativeConverts::~NativeConverts() = default;

Value NativeConverts::encodeFiniteRNE(OpBuilder &, Location, Value,
                                      ElementFormat) const {
  return {};
}

Value NativeConverts::e8m0RoundUp(OpBuilder &, Location, Value) const {
  return {};
}

Value scaleByte(OpBuilder &b, Location loc, Value amax,
                ScaleAlgorithm algorithm, InfPolicy inf, ElementFormat format,
                const NativeConverts *native) {
  ArithLanes i{{b, loc, amax.getType()}, native};
  return recipes::scaleByte(i, i.bitsOf(amax), algorithm, inf, format);
}

Value scaleMultiplier(OpBuilder &b, Location loc, Value s) {
  ArithLanes i{{b, loc, s.getType()}};
  return i.I::floatOf(recipes::scaleMultiplierBits(i, s));
}

Value blockMultiplier(OpBuilder &b, Location loc, Value amax, Value s,
                      Underflow underflow, ElementFormat format) {
  Value r = scaleMultiplier(b, loc, s);
  ArithLanes i{{b, loc, amax.getType()}};
  Value flush = recipes::underflowFlush(i, i.bitsOf(amax), underflow, format);
  if (!flush)
    return r;
  return arith::SelectOp::create(b, loc, flush,
                                 f32Const(b, loc, amax.getType(), 0.0f), r);
}

Value scaleValue(OpBuilder &b, Location loc, Value s) {
  ArithLanes i{{b, loc, s.getType()}};
  return i.I::floatOf(recipes::scaleValueBits(i, s));
}

/// RNE (the production rounding) in fewer operations: normal results round
/// the fp32 bit pattern itself (the carry moves into the exponent), results
/// below the smallest normal are rounded by an fp32 addition of
/// 2^(emin - mbits + 23), whose ulp is the format's subnormal quantum.
static Value encodeMagnitudeRNE(I &i, OpBuilder &b, Location loc, Value abs,
                                const FormatInfo &info) {
  int drop = 23 - int(info.mbits);
  Value lsb = i.andi(i.shr(abs, i.c(drop)), i.c(1));
  Value rounded = i.add(abs, i.add(i.c((1 << (drop - 1)) - 1), lsb));
  Value normal = i.sub(i.shr(rounded, i.c(drop)),
                       i.c((127 - info.bias) << info.mbits));
  float magic = std::ldexp(1.0f, info.emin() - int(info.mbits) + 23);
  Value sum = arith::AddFOp::create(b, loc, i.floatOf(abs),
                                    f32Const(b, loc, i.like, magic));
  Value sub = i.sub(i.bitsOf(sum), i.c(int64_t(llvm::bit_cast<uint32_t>(magic))));
  uint32_t minNormal = uint32_t(127 + info.emin()) << 23;
  return i.sel(i.cmp(arith::CmpIPredicate::ult, abs, i.c(minNormal)), sub,
               normal);
}

/// ref: encodeElement's NaN rule: the format's NaN code, or what the policy
/// says for a format without one.
static int64_t nanCodeOf(const FormatInfo &info, NanElement nanElement) {
  if (nanElement == NanElement::Zero)
    return 0;
  return info.hasNaN ? info.nanCode : info.maxCode;
}

Value encodeElement(OpBuilder &b, Location loc, Value x, ElementFormat format,
                    Rounding rounding, NanElement nanElement,
                    const NativeConverts *native) {
  if (rounding == Rounding::RNE) {
    const FormatInfo &info = formatInfo(format);
    I i{b, loc, x.getType()};
    Value bits = i.bitsOf(x);
    Value abs = i.andi(bits, i.c(0x7FFFFFFF));
    int64_t nanCode = nanCodeOf(info, nanElement);
    if (Value code = native ? native->encodeFiniteRNE(b, loc, x, format)
                            : Value()) {
      // The instruction sees every value; Inf (saturated to the signed
      // maximum) and NaN (the format's or the policy's code) are chosen
      // here so that nothing rests on how the instruction treats them.
      Value signedMax = i.ori(i.c(info.maxCode),
                              i.shl(i.shr(bits, i.c(31)), i.c(info.bits - 1)));
      Value special = i.sel(i.ugt(abs, i.c(0x7F800000)), i.c(nanCode),
                            signedMax);
      return i.sel(i.uge(abs, i.c(0x7F800000)), special, code);
    }
    Value code = i.minu(encodeMagnitudeRNE(i, b, loc, abs, info),
                        i.c(info.maxCode)); // saturation (Inf included)
    // NaN takes nanCode, without the sign. A NaN's magnitude code saturates
    // to maxCode (its rounded exponent field alone is at least
    // (128 + bias) << mbits), so where nanCode is maxCode (FP4, FP6: no NaN
    // code) the magnitude is already right and only the sign is dropped.
    if (nanCode != int64_t(info.maxCode))
      code = i.sel(i.ugt(abs, i.c(0x7F800000)), i.c(nanCode), code);
    // The sign bit for the negative values but NaN: as signed integers,
    // they are exactly the bit patterns below -0x7FFFFF (0xFF800000, -Inf,
    // and all below it). One comparison instead of a shift, a mask and the
    // NaN test (the same codes for all 2^32 inputs: bench/RESULTS.md).
    Value negative = i.cmp(arith::CmpIPredicate::slt, bits, i.c(-0x7FFFFF));
    return i.ori(code, i.sel(negative, i.c(int64_t(1) << (info.bits - 1)),
                             i.c(0)));
  }
  return encodeElementGeneral(b, loc, x, format, rounding, nanElement);
}

Value encodeElementGeneral(OpBuilder &b, Location loc, Value x,
                           ElementFormat format, Rounding rounding,
                           NanElement nanElement) {
  // ref: encodeElement. The value is mant * 2^(eE - 150) with the implicit
  // bit in mant; it is rounded to n quanta of 2^(te - mbits) where te is its
  // exponent clamped to the format's smallest normal exponent. The code is
  // then ((te - emin) << mbits) + n, which carries into the exponent by
  // itself.
  const FormatInfo &info = formatInfo(format);
  I i{b, loc, x.getType()};
  Value bits = i.bitsOf(x);
  Value sign = i.shr(bits, i.c(31));
  Value abs = i.andi(bits, i.c(0x7FFFFFFF));
  Value exponent = i.shr(abs, i.c(23));
  Value isSub = i.eq(exponent, i.c(0));
  Value mant = i.andi(abs, i.c(0x7FFFFF));
  mant = i.sel(isSub, mant, i.ori(mant, i.c(0x800000)));
  Value eE = i.sel(isSub, i.c(1), exponent);
  // te - emin = max(eE - 127 - emin, 0); shift = te - eE + 150 - mbits.
  Value teMinusEmin = i.maxs(i.sub(eE, i.c(127 + info.emin())), i.c(0));
  Value shift = i.sub(i.add(teMinusEmin, i.c(info.emin() + 150 - info.mbits)),
                      eE);
  shift = i.mins(shift, i.c(26));
  Value n = i.shr(mant, shift);
  Value rem = i.andi(mant, i.sub(i.shl(i.c(1), shift), i.c(1)));
  Value half = i.shl(i.c(1), i.sub(shift, i.c(1)));
  Value up;
  switch (rounding) {
  case Rounding::RNE:
    up = i.orb(i.ugt(rem, half),
               i.andb(i.eq(rem, half), i.ne(i.andi(n, i.c(1)), i.c(0))));
    break;
  case Rounding::Away:
    up = i.uge(rem, half);
    break;
  case Rounding::Floor:
    up = i.andb(i.ne(sign, i.c(0)), i.ne(rem, i.c(0)));
    break;
  }
  n = i.add(n, i.zext(up));
  Value code = i.add(i.shl(teMinusEmin, i.c(info.mbits)), n);
  code = i.minu(code, i.c(info.maxCode)); // saturation (Inf included)
  code = i.ori(code, i.shl(sign, i.c(info.bits - 1)));
  int64_t nanCode = nanCodeOf(info, nanElement);
  return i.sel(i.ugt(abs, i.c(0x7F800000)), i.c(nanCode), code);
}

Value decodeElement(OpBuilder &b, Location loc, Value code,
                    ElementFormat format) {
  // ref: decodeElement.
  const FormatInfo &info = formatInfo(format);
  I i{b, loc, code.getType()};
  code = i.andi(code, i.c((1 << info.bits) - 1));
  Value sign = i.shl(i.shr(code, i.c(info.bits - 1)), i.c(31));
  Value mag = i.andi(code, i.c(info.signBit() - 1));
  Value expField = i.shr(mag, i.c(info.mbits));
  Value mant = i.andi(mag, i.c((1 << info.mbits) - 1));
  // Normal: rebias the exponent, widen the mantissa.
  Value normal =
      i.ori(i.shl(i.add(expField, i.c(127 - info.bias)), i.c(23)),
            i.shl(mant, i.c(23 - info.mbits)));
  // Subnormal: mant * 2^(emin - mbits), exact in f32.
  Value subF = arith::MulFOp::create(
      b, loc,
      arith::UIToFPOp::create(b, loc, shaped(code.getType(), b.getF32Type()),
                              mant),
      f32Const(b, loc, code.getType(),
               std::ldexp(1.0f, info.emin() - int(info.mbits))));
  Value magBits = i.sel(i.eq(expField, i.c(0)), i.bitsOf(subF), normal);
  if (format == ElementFormat::E4M3FN)
    magBits = i.sel(i.eq(mag, i.c(0x7F)), i.c(0x7FC00000), magBits);
  if (format == ElementFormat::E5M2) {
    Value special = i.eq(expField, i.c(0x1F));
    Value infOrNaN =
        i.sel(i.eq(mant, i.c(0)), i.c(0x7F800000), i.c(0x7FC00000));
    magBits = i.sel(special, infOrNaN, magBits);
  }
  return i.floatOf(i.ori(magBits, sign));
}

Value bf16BitsOf(OpBuilder &b, Location loc, Value x) {
  I i{b, loc, x.getType()};
  Value bits = i.bitsOf(x);
  Value lsb = i.andi(i.shr(bits, i.c(16)), i.c(1));
  Value rounded = i.shr(i.add(bits, i.add(i.c(0x7FFF), lsb)), i.c(16));
  Value nan = i.ori(i.shl(i.shr(bits, i.c(31)), i.c(15)), i.c(0x7FC0));
  Value isNaN = i.ugt(i.andi(bits, i.c(0x7FFFFFFF)), i.c(0x7F800000));
  return i.sel(isNaN, nan, rounded);
}

Value bf16ToF32(OpBuilder &b, Location loc, Value x) {
  Value bits =
      arith::BitcastOp::create(b, loc, shaped(x.getType(), b.getI16Type()), x);
  I i{b, loc, x.getType()};
  Value wide =
      arith::ExtUIOp::create(b, loc, shaped(x.getType(), b.getI32Type()), bits);
  return i.floatOf(i.shl(wide, i.c(16)));
}

Value absBits(OpBuilder &b, Location loc, Value x) {
  I i{b, loc, x.getType()};
  return i.andi(i.bitsOf(x), i.c(0x7FFFFFFF));
}

Value blockAmax(OpBuilder &b, Location loc, Value x,
                llvm::ArrayRef<bool> reduced, bool ignoreNaN) {
  auto type = cast<VectorType>(x.getType());
  Value bits = absBits(b, loc, x);
  if (ignoreNaN) {
    // A NaN lane counts as 0 (|0| is the least).
    I i{b, loc, bits.getType()};
    bits = i.sel(i.ugt(bits, i.c(0x7F800000)), i.c(0), bits);
  }
  if (reduced.empty()) {
    Value m = vector::ReductionOp::create(b, loc, vector::CombiningKind::MAXUI,
                                          bits);
    return arith::BitcastOp::create(b, loc, b.getF32Type(), m);
  }
  // Rows of a [G, B] tile, G and B powers of two, G at most
  // min(B, kTreeLanes): a tree over pieces no wider than kTreeLanes lanes
  // (one 512-bit register of i32). Each row is halved (its first half
  // against its second) down to kTreeLanes lanes; then neighbouring pieces
  // merge, the first half of every row's lanes of both against the second
  // halves (two rows of n lanes become one piece of two rows of n/2),
  // until every row is one lane and (G being that small) one piece holds
  // them all, the result. The same maxima as a halving tree on the flat
  // tile, but no shuffle is wider than two registers: LLVM's code generator
  // spent most of a kernel's compile time combining the flat tree's
  // 128- to 1024-lane shuffles. Any kTreeLanes gives the same bits. Taller
  // tiles (no caller has them) take the multi_reduction below.
  constexpr int64_t kTreeLanes = 16;
  if (type.getRank() == 2 && reduced.size() == 2 && !reduced[0] &&
      reduced[1] && llvm::isPowerOf2_64(type.getDimSize(1)) &&
      llvm::isPowerOf2_64(type.getDimSize(0)) && type.getDimSize(0) > 1 &&
      type.getDimSize(0) <= std::min(type.getDimSize(1), kTreeLanes)) {
    int64_t rows = type.getDimSize(0), len = type.getDimSize(1);
    auto maxOf = [&](Value a, Value c, ArrayRef<int64_t> lo,
                     ArrayRef<int64_t> hi) -> Value {
      return arith::MaxUIOp::create(b, loc,
                                    vector::ShuffleOp::create(b, loc, a, c, lo),
                                    vector::ShuffleOp::create(b, loc, a, c, hi));
    };
    // Each piece holds `per` rows' `n` lanes each, row after row.
    SmallVector<Value> pieces;
    for (int64_t g = 0; g < rows; ++g)
      pieces.push_back(vector::ExtractOp::create(b, loc, bits, g));
    int64_t per = 1, n = len;
    for (; n > kTreeLanes; n /= 2) {
      SmallVector<int64_t> lo, hi;
      for (int64_t j = 0; j < n / 2; ++j) {
        lo.push_back(j);
        hi.push_back(n / 2 + j);
      }
      for (Value &p : pieces)
        p = maxOf(p, p, lo, hi);
    }
    while (n > 1) {
      if (pieces.size() > 1) {
        // Merge neighbours: lanes of the second piece follow the first's
        // (indices from per * n on).
        SmallVector<int64_t> lo, hi;
        for (int64_t half : {int64_t(0), per * n})
          for (int64_t r = 0; r < per; ++r)
            for (int64_t j = 0; j < n / 2; ++j) {
              lo.push_back(half + r * n + j);
              hi.push_back(half + r * n + n / 2 + j);
            }
        SmallVector<Value> merged;
        for (size_t k = 0; k + 1 < pieces.size(); k += 2)
          merged.push_back(maxOf(pieces[k], pieces[k + 1], lo, hi));
        pieces = std::move(merged);
        per *= 2;
      } else {
        SmallVector<int64_t> lo, hi;
        for (int64_t r = 0; r < per; ++r)
          for (int64_t j = 0; j < n / 2; ++j) {
            lo.push_back(r * n + j);
            hi.push_back(r * n + n / 2 + j);
          }
        pieces[0] = maxOf(pieces[0], pieces[0], lo, hi);
      }
      n /= 2;
    }
    // At most min(B, kTreeLanes) rows: the merges have made one piece.
    return arith::BitcastOp::create(
        b, loc, VectorType::get({rows}, b.getF32Type()), pieces[0]);
  }
  SmallVector<int64_t> kept;
  for (auto [d, r] : llvm::enumerate(reduced))
    if (!r)
      kept.push_back(type.getDimSize(d));
  auto keptI32 = VectorType::get(kept, b.getI32Type());
  Value m = vector::MultiDimReductionOp::create(
      b, loc, bits, i32Const(b, loc, keptI32, 0), reduced,
      vector::CombiningKind::MAXUI);
  return arith::BitcastOp::create(
      b, loc, VectorType::get(kept, b.getF32Type()), m);
}

Value flushSubnormal(OpBuilder &b, Location loc, Value x) {
  // |x| < 2^-126 (NaN compares false) becomes x * 0, zero of x's sign. Float
  // compare and multiply keep a GPU kernel's register count down.
  Value small = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OLT, math::AbsFOp::create(b, loc, x),
      f32Const(b, loc, x.getType(), 0x1p-126f));
  Value zero = arith::MulFOp::create(b, loc, x,
                                     f32Const(b, loc, x.getType(), 0.0f));
  return arith::SelectOp::create(b, loc, small, zero, x);
}

Value clampKeepingNaN(OpBuilder &b, Location loc, Value x, float lo,
                      float hi) {
  Value l = f32Const(b, loc, x.getType(), lo);
  Value h = f32Const(b, loc, x.getType(), hi);
  x = arith::SelectOp::create(
      b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, l),
      l, x);
  return arith::SelectOp::create(
      b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, h, x),
      h, x);
}

Value canonicalizeNaN(OpBuilder &b, Location loc, Value x) {
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  return arith::SelectOp::create(
      b, loc, isNaN, f32Const(b, loc, x.getType(),
                              std::numeric_limits<float>::quiet_NaN()),
      x);
}

Value packedFP4Code(OpBuilder &b, Location loc, Value bytes, Value k) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value byte = vector::ExtractOp::create(
      b, loc, bytes,
      ArrayRef<OpFoldResult>{
          arith::ShRUIOp::create(b, loc, k, one).getResult()});
  Value shift = arith::MulIOp::create(
      b, loc,
      arith::IndexCastUIOp::create(b, loc, b.getI8Type(),
                                   arith::AndIOp::create(b, loc, k, one)),
      arith::ConstantIntOp::create(b, loc, 4, 8));
  return arith::AndIOp::create(b, loc,
                               arith::ShRUIOp::create(b, loc, byte, shift),
                               arith::ConstantIntOp::create(b, loc, 0xF, 8));
}

//===----------------------------------------------------------------------===//
// NVFP4 (ref: nvfp4EncodeScale, nvfp4Block, nvfp4Scaled)
//===----------------------------------------------------------------------===//

/// C's fminf(v, FLT_MAX): FLT_MAX where v is above it or NaN.
static Value minFltMax(OpBuilder &b, Location loc, Value v) {
  Value m = f32Const(b, loc, v.getType(), std::numeric_limits<float>::max());
  Value above =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, v, m);
  return arith::SelectOp::create(b, loc, above, m, v);
}

Value nvfp4EncodeScale(OpBuilder &b, Location loc, Value amax) {
  Type t = amax.getType();
  const float e4m3Max = formatInfo(ElementFormat::E4M3FN).maxFinite;
  const float e2m1Max = formatInfo(ElementFormat::E2M1FN).maxFinite;
  Value s = minFltMax(
      b, loc,
      arith::DivFOp::create(b, loc, f32Const(b, loc, t, e4m3Max * e2m1Max),
                            amax));
  Value zero = f32Const(b, loc, t, 0.0f);
  Value one = arith::OrIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, amax, zero),
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, s, zero));
  return arith::SelectOp::create(b, loc, one, f32Const(b, loc, t, 1.0f), s);
}

std::pair<Value, Value> nvfp4Block(OpBuilder &b, Location loc, Value amax,
                                   Value outer, ScaleAlgorithm algorithm,
                                   const NativeConverts *native) {
  Type t = amax.getType();
  if (outer.getType() != t)
    outer = vector::BroadcastOp::create(b, loc, t, outer);
  const float e2m1Max = formatInfo(ElementFormat::E2M1FN).maxFinite;
  const FormatInfo &e4m3 = formatInfo(ElementFormat::E4M3FN);
  auto byteOf = [&](Value v) {
    return encodeElement(b, loc, v, ElementFormat::E4M3FN, Rounding::RNE,
                         NanElement::Max, native);
  };
  auto valueOf = [&](Value byte) {
    return decodeElement(b, loc, byte, ElementFormat::E4M3FN);
  };
  if (algorithm == ScaleAlgorithm::Encode) {
    Value k = arith::MulFOp::create(b, loc, outer,
                                    f32Const(b, loc, t, 1.0f / e2m1Max));
    Value byte =
        byteOf(minFltMax(b, loc, arith::MulFOp::create(b, loc, amax, k)));
    Value sDec =
        arith::DivFOp::create(b, loc, f32Const(b, loc, t, 1.0f), outer);
    Value factor = minFltMax(
        b, loc,
        arith::DivFOp::create(
            b, loc, f32Const(b, loc, t, 1.0f),
            arith::MulFOp::create(b, loc, valueOf(byte), sDec)));
    return {byte, factor};
  }
  assert(algorithm == ScaleAlgorithm::Decode && "not an NVFP4 convention");
  Value scaled = arith::DivFOp::create(
      b, loc,
      arith::DivFOp::create(b, loc, amax, f32Const(b, loc, t, e2m1Max)),
      outer);
  // torch.clamp(v, 2^-6, 448): NaN stays NaN.
  scaled = clampKeepingNaN(b, loc, scaled, std::ldexp(1.0f, e4m3.emin()),
                           e4m3.maxFinite);
  Value byte = byteOf(scaled);
  return {byte, arith::MulFOp::create(b, loc, outer, valueOf(byte))};
}

Value nvfp4ScaleValue(OpBuilder &b, Location loc, Value byte, Value outer,
                      ScaleAlgorithm algorithm) {
  Value s = decodeElement(b, loc, byte, ElementFormat::E4M3FN);
  Type t = s.getType();
  if (outer.getType() != t)
    outer = vector::BroadcastOp::create(b, loc, t, outer);
  if (algorithm == ScaleAlgorithm::Decode)
    return arith::MulFOp::create(b, loc, outer, s);
  const float e4m3Max = formatInfo(ElementFormat::E4M3FN).maxFinite;
  const float e2m1Max = formatInfo(ElementFormat::E2M1FN).maxFinite;
  return arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, s, outer),
      f32Const(b, loc, t, 1.0f / (e4m3Max * e2m1Max)));
}

Value nvfp4Scaled(OpBuilder &b, Location loc, Value x, Value factor,
                  ScaleAlgorithm algorithm) {
  if (algorithm == ScaleAlgorithm::Encode)
    return arith::MulFOp::create(b, loc, x, factor);
  return arith::DivFOp::create(b, loc, x, factor);
}

//===----------------------------------------------------------------------===//
// Blockwise FP8 (ref: f32BlockScale, f32Scaled)
//===----------------------------------------------------------------------===//

std::pair<Value, Value> f32BlockScale(OpBuilder &b, Location loc, Value amax,
                                      const F32ScaleRule &rule) {
  ArithLanes i{{b, loc, amax.getType()}};
  auto [stored, factor] = recipes::f32BlockScale(i, i.bitsOf(amax), rule);
  return {stored, i.floatOf(factor)};
}

Value f32Scaled(OpBuilder &b, Location loc, Value x, Value factor,
                const F32ScaleRule &rule) {
  if (f32ScaleDivides(rule))
    return arith::DivFOp::create(b, loc, x, factor);
  return arith::MulFOp::create(b, loc, x, factor);
}

} // namespace mxq::numerics
