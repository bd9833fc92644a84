//===- Recipes.h - the MX block rules, once, for any lanes ------*- C++ -*-===//
//
// The block-level MX rules (the scale byte of every algorithm and Inf
// policy, the multiplier, the underflow flush, the scale value) written
// once as templates over a *lane domain* D: a set of operations on lanes of
// 32-bit integers (fp32 bit patterns) that each target instantiates. The
// arith/vector domain is lib/Numerics (num::scaleByte and friends build IR
// through it: CPU and NVVM); the vtile domain is the Ascend lowering's
// (lib/Target/Ascend/Lowering/Numerics.cpp: values in UB buffers, scratch
// allocated by liveness, the same recipe counted to size the UB). Each
// recipe names the reference function it states (lib/Reference).
//
// A domain D provides:
//   using V = ...;                a lane vector of i32, or of lane masks
//   V c(int64_t)                  a constant
//   V add, sub, andi, ori, shl, shr (logical), minu, maxs, mins (V, V)
//   V eq, ne, ugt, uge, ule (V, V)      lane masks
//   V sel(V mask, V a, V b)       a or b per lane (a, b values or masks)
//   V zext(V mask)                1 or 0 per lane
//   V mulF32(V bits, float k)     the bits of float(bits) * k (f32, RNE)
//   V mulF, divF (V, V)           f32 product and quotient of two lanes'
//                                 bits (IEEE, RNE; the stored-scale rules)
//   V e8m0RoundUp(V dBits)        a native instruction's E8M0 byte of the
//                                 smallest power of two >= the finite
//                                 positive d, or a null V where none
//   bool has(const V &)           whether a V is not null
//
// Plain C++: depends on the format table only.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_NUMERICS_RECIPES_H
#define MXQ_NUMERICS_RECIPES_H

#include "mxq/Support/Formats.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <utility>

namespace mxq::recipes {

/// ref: floorFromExponent: the floor scale byte of a biased exponent field,
/// clamp(e - emax, 0, 254).
template <typename D>
typename D::V floorFromExponent(D &i, typename D::V exponent, int emax) {
  typename D::V s = i.minu(i.sub(exponent, i.c(emax)), i.c(kScaleMax));
  return i.sel(i.ule(exponent, i.c(emax)), i.c(0), s);
}

/// ref: scaleByte: the E8M0 byte of a block whose absolute maximum has the
/// f32 bits `bits` (non-negative or NaN), per algorithm and Inf policy.
template <typename D>
typename D::V scaleByte(D &i, typename D::V bits, ScaleAlgorithm algorithm,
                        InfPolicy inf, ElementFormat format) {
  using V = typename D::V;
  const FormatInfo &info = formatInfo(format);
  V exponent = i.andi(i.shr(bits, i.c(23)), i.c(0xFF));
  V mantissa = i.andi(bits, i.c(0x7FFFFF));
  V s;
  switch (algorithm) {
  case ScaleAlgorithm::Floor:
    s = floorFromExponent(i, exponent, info.emax);
    break;
  case ScaleAlgorithm::Ceil: {
    V up = i.zext(i.ne(mantissa, i.c(0)));
    V raw = i.sub(i.add(exponent, up), i.c(info.emax));
    s = i.mins(i.maxs(raw, i.c(0)), i.c(kScaleMax));
    break;
  }
  case ScaleAlgorithm::Even: {
    // A carry into the Inf exponent counts as Inf.
    V rounded = i.add(bits, i.c(1 << (23 - info.mbits - 1)));
    V roundedExp = i.andi(i.shr(rounded, i.c(23)), i.c(0xFF));
    s = floorFromExponent(i, roundedExp, info.emax);
    s = i.sel(i.eq(roundedExp, i.c(0xFF)),
              i.c(inf == InfPolicy::Saturate ? kScaleMax : kScaleNaN), s);
    break;
  }
  case ScaleAlgorithm::Tosa: {
    // ref: scaleByte's Tosa: with amax = 2^(e-127) (1 + f) and out_max =
    // 2^emax (1 + g), 2^k * out_max > amax (floor + 1) holds from k = e -
    // 127 - emax + (f >= g), and 2^k * out_max >= amax (ceil, E4M3) from
    // e - 127 - emax + (f > g): the byte is e - emax plus that bump, clamped
    // to [0, 254] (a subnormal or zero amax clamps to 0, 2^-127).
    float outMax = tosaOutMax(info);
    int64_t g = int64_t(outMax / float(int64_t(1) << info.emax) *
                        float(1 << 23)) -
                (int64_t(1) << 23);
    V bump = format == ElementFormat::E4M3FN ? i.ugt(mantissa, i.c(g))
                                             : i.uge(mantissa, i.c(g));
    V raw = i.add(i.sub(exponent, i.c(info.emax)), i.zext(bump));
    s = i.mins(i.maxs(raw, i.c(0)), i.c(kScaleMax));
    break;
  }
  case ScaleAlgorithm::Encode:
  case ScaleAlgorithm::Decode:
    // E4M3 scales (NVFP4) are not E8M0 bytes: num::nvfp4Block states them.
    assert(false && "scaleByte of an E4M3 scale algorithm");
    return i.c(kScaleNaN);
  case ScaleAlgorithm::RCeil: {
    // ref: rceilE8M0(amax * fl32(1/max)).
    V db = i.mulF32(bits, 1.0f / info.maxFinite);
    V native = i.e8m0RoundUp(db);
    if (i.has(native)) {
      // Amax 0 (d = 0) has byte 0; Inf and NaN are replaced below.
      s = i.sel(i.eq(db, i.c(0)), i.c(0), native);
      break;
    }
    V e = i.andi(i.shr(db, i.c(23)), i.c(0xFF));
    V m = i.andi(db, i.c(0x7FFFFF));
    V up = i.sel(i.eq(e, i.c(0)), i.ugt(m, i.c(0x400000)), i.ne(m, i.c(0)));
    s = i.add(e, i.zext(up));
    break;
  }
  }
  V infByte;
  switch (inf) {
  case InfPolicy::NaN:
    infByte = i.c(kScaleNaN);
    break;
  case InfPolicy::Saturate:
    infByte = i.c(kScaleMax);
    break;
  case InfPolicy::Exponent:
    infByte = floorFromExponent(i, i.c(0xFF), info.emax);
    break;
  }
  V absBits = i.andi(bits, i.c(0x7FFFFFFF));
  s = i.sel(i.eq(absBits, i.c(0x7F800000)), infByte, s);
  return i.sel(i.ugt(absBits, i.c(0x7F800000)), i.c(kScaleNaN), s);
}

/// ref: scaleMultiplier: the bits of 2^(127 - s) (2^-127 is subnormal),
/// NaN for s = 0xFF.
template <typename D>
typename D::V scaleMultiplierBits(D &i, typename D::V s) {
  typename D::V bits = i.shl(i.sub(i.c(254), s), i.c(23));
  bits = i.sel(i.eq(s, i.c(254)), i.c(0x00400000), bits);
  return i.sel(i.eq(s, i.c(kScaleNaN)), i.c(0x7FC00000), bits);
}

/// ref: blockMultiplier's flush: the lanes whose block of absolute maximum
/// bits `amaxBits` `underflow` multiplies by 0, or a null V (Keep).
template <typename D>
typename D::V underflowFlush(D &i, typename D::V amaxBits, Underflow underflow,
                             ElementFormat format) {
  if (underflow == Underflow::Keep)
    return typename D::V();
  typename D::V e = i.andi(i.shr(amaxBits, i.c(23)), i.c(0xFF));
  return underflow == Underflow::FlushE0
             ? i.eq(e, i.c(0))
             : i.ule(e, i.c(formatInfo(format).emax));
}

/// ref: scaleValue: the bits of 2^(s - 127) (2^-127 for s = 0), NaN for
/// s = 0xFF.
template <typename D> typename D::V scaleValueBits(D &i, typename D::V s) {
  typename D::V bits = i.shl(s, i.c(23));
  bits = i.sel(i.eq(s, i.c(0)), i.c(0x00400000), bits);
  return i.sel(i.eq(s, i.c(kScaleNaN)), i.c(0x7FC00000), bits);
}

/// ref: f32BlockScale: the bits of the stored fp32 scale and of the element
/// factor of a block whose absolute maximum has the f32 bits `amax`
/// (non-negative or NaN). Every comparison is on the bits, which order as
/// the values do for a non-negative amax (a NaN above +Inf).
template <typename D>
std::pair<typename D::V, typename D::V>
f32BlockScale(D &i, typename D::V amax, const F32ScaleRule &rule) {
  using V = typename D::V;
  const float m = formatInfo(rule.format).maxFinite;
  auto f = [&](float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return i.c(int64_t(bits));
  };
  const int64_t inf = 0x7F800000;
  V a = amax;
  if (rule.amaxFloor > 0) // a < floor ? floor : a (NaN stays NaN)
    a = i.sel(i.ugt(f(rule.amaxFloor), a), f(rule.amaxFloor), a);
  if (rule.algorithm == ScaleAlgorithm::Encode) {
    // TE: e = m / a, the source's largest finite where that overflows
    // (pow2: the exponent only); 1 where a is 0, Inf or NaN.
    V e = i.divF(f(m), a);
    e = i.sel(i.eq(e, i.c(inf)), f(sourceMaxFinite(rule.source)), e);
    if (rule.pow2)
      e = i.andi(e, i.c(0xFF800000));
    e = i.sel(i.eq(a, i.c(0)), f(1.0f), e);
    e = i.sel(i.uge(a, i.c(inf)), f(1.0f), e);
    return {i.divF(f(1.0f), e), e};
  }
  assert(rule.algorithm == ScaleAlgorithm::Decode && "not a stored-scale rule");
  bool exact = rule.division == Division::Exact;
  // s = a / m (or a * fl32(1/m)); a NaN amax gives the canonical NaN, as
  // every NaN mxq computes is (the amax of the lanes' bits keeps an input
  // NaN's payload, which the division would carry).
  V s = exact ? i.divF(a, f(m)) : i.mulF32(a, 1.0f / m);
  s = i.sel(i.ugt(i.andi(s, i.c(0x7FFFFFFF)), i.c(inf)), i.c(0x7FC00000), s);
  if (rule.pow2) {
    // DeepGEMM's ceil_to_ue8m0 on the bits of |s|: the exponent field, plus
    // one where the mantissa is not zero, clamped to [1, 254].
    V sb = i.andi(s, i.c(0x7FFFFFFF));
    V e = i.add(i.shr(sb, i.c(23)),
                i.zext(i.ne(i.andi(sb, i.c(0x7FFFFF)), i.c(0))));
    e = i.minu(i.maxs(e, i.c(1)), i.c(kScaleMax));
    s = i.shl(e, i.c(23));
  }
  return {s, f32ScaleDivides(rule) ? s : i.divF(f(1.0f), s)};
}

} // namespace mxq::recipes

#endif // MXQ_NUMERICS_RECIPES_H
