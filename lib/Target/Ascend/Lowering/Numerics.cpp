//===- Numerics.cpp - the MX rules as vtile instructions --------------------===//
//
// Every MX rule the Ascend lowering states: the scale byte and multiplier,
// element codes by cast or by integer code, decodes and scale values. The
// rules are the reference's (docs/Rationale.md names each); this file is
// the only place in lib/Target/Ascend that restates them.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::vtile::lowering {

/// From the amax bits of each block (bb.am), its scale byte (bb.s, ref:
/// scaleByte) and the bits of its f32 multiplier (bb.mb, ref:
/// blockMultiplier).
void emitScaleAndMultiplier(Emitter &e, const BlockBuffers &bb,
                            const BlockPolicy &pol) {
  OpBuilder &b = e.b;
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  auto u32v = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  const int64_t n = bb.lanes, emax = formatInfo(pol.format).emax;
  // The scale byte, per algorithm (ref: scaleByte), from the amax bits.
  // E: the amax's exponent field (also what the underflow policy tests).
  e.scalar(BinaryKind::shr, bb.e, bb.am, u32v(23), u32, n);
  auto clampFloor = [&](Value src) { // clamp(src - emax, 0, 254)
    e.scalar(BinaryKind::max, bb.s, src, u32v(emax), u32, n);
    e.scalar(BinaryKind::sub, bb.s, bb.s, u32v(emax), u32, n);
    e.scalar(BinaryKind::min, bb.s, bb.s, u32v(254), u32, n);
  };
  auto selectConst = [&](CmpPredicate pred, Value src, int64_t against,
                         Value dst, int64_t value) {
    e.cmps(pred, bb.mask, src, u32v(against), u32, bb.maskLanes);
    e.dup(bb.cst, u32v(value), u32, bb.maskLanes);
    e.sel(dst, bb.mask, bb.cst, dst, u32, bb.maskLanes);
  };
  switch (pol.algorithm) {
  case dialect::ScaleAlgorithm::floor:
    clampFloor(bb.e);
    break;
  case dialect::ScaleAlgorithm::ceil: // E + (mantissa != 0)
    e.scalar(BinaryKind::And, bb.t, bb.am, u32v(0x7FFFFF), u32, n);
    e.scalar(BinaryKind::min, bb.t, bb.t, u32v(1), u32, n);
    e.binary(BinaryKind::add, bb.t, bb.e, bb.t, u32, n);
    clampFloor(bb.t);
    break;
  case dialect::ScaleAlgorithm::even: { // round to the element's mantissa
    int64_t half = int64_t(1) << (22 - formatInfo(pol.format).mbits);
    e.scalar(BinaryKind::add, bb.t, bb.am, u32v(half), u32, n);
    e.scalar(BinaryKind::shr, bb.t, bb.t, u32v(23), u32, n);
    clampFloor(bb.t);
    // A carry into the Inf exponent: 0xFE when saturating, else 0xFF.
    selectConst(CmpPredicate::eq, bb.t, 255, bb.s,
                pol.inf == dialect::InfPolicy::saturate ? 254 : 255);
    break;
  }
  case dialect::ScaleAlgorithm::rceil: { // d = amax * fl32(1/max), up
    e.scalar(BinaryKind::mul, bb.mb, bb.am,
             FloatAttr::get(f32, 1.0f / formatInfo(pol.format).maxFinite), f32,
             n);
    e.scalar(BinaryKind::shr, bb.s, bb.mb, u32v(23), u32, n);
    e.scalar(BinaryKind::And, bb.t, bb.mb, u32v(0x7FFFFF), u32, n);
    // Up by one: a normal d with a mantissa, a subnormal one above 2^-127.
    e.scalar(BinaryKind::add, bb.t2, bb.t, u32v(0x3FFFFF), u32, n);
    e.scalar(BinaryKind::shr, bb.t2, bb.t2, u32v(23), u32, n);
    e.scalar(BinaryKind::min, bb.t, bb.t, u32v(1), u32, n);
    e.cmps(CmpPredicate::eq, bb.mask, bb.s, u32v(0), u32, bb.maskLanes);
    e.sel(bb.t, bb.mask, bb.t2, bb.t, u32, bb.maskLanes);
    e.binary(BinaryKind::add, bb.s, bb.s, bb.t, u32, n);
    e.scalar(BinaryKind::min, bb.s, bb.s, u32v(255), u32, n);
    break;
  }
  }
  // A block holding an infinity (and no NaN) per inf_policy; one holding a
  // NaN gets 0xFF.
  int64_t infScale = pol.inf == dialect::InfPolicy::nan ? 255
                     : pol.inf == dialect::InfPolicy::saturate
                         ? 254
                         : std::min<int64_t>(255 - emax, 254);
  selectConst(CmpPredicate::eq, bb.am, 0x7F800000, bb.s, infScale);
  selectConst(CmpPredicate::gt, bb.am, 0x7F800000, bb.s, 255);

  // The multiplier bits: (254 - s) << 23; 2^-127 for s = 254, NaN for 255,
  // 0 where the underflow policy flushes the block.
  e.scalar(BinaryKind::mul, bb.mb, bb.s, u32v(0xFFFFFFFF), u32, n);
  e.scalar(BinaryKind::add, bb.mb, bb.mb, u32v(254), u32, n);
  e.scalar(BinaryKind::shl, bb.mb, bb.mb, u32v(23), u32, n);
  selectConst(CmpPredicate::eq, bb.s, 254, bb.mb, 0x00400000);
  selectConst(CmpPredicate::eq, bb.s, 255, bb.mb, 0x7FC00000);
  if (pol.underflow == dialect::Underflow::flush_e0)
    selectConst(CmpPredicate::eq, bb.e, 0, bb.mb, 0);
  else if (pol.underflow == dialect::Underflow::flush_le_emax)
    selectConst(CmpPredicate::le, bb.e, emax, bb.mb, 0);
}

/// The NaN lanes of the f32 lanes `p` replaced by `value` (through the
/// scratch lanes `w` and the lane mask `mask`).
void replaceNaNLanes(Emitter &e, Value p, Value w, Value mask, Attribute value,
                     Type valueType, int64_t lanes) {
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  e.scalar(BinaryKind::And, w, p, IntegerAttr::get(u32, 0x7FFFFFFF), u32,
           lanes);
  e.cmps(CmpPredicate::gt, mask, w, IntegerAttr::get(u32, 0x7F800000), u32,
         lanes);
  e.dup(w, value, valueType, lanes);
  e.sel(p, mask, w, p, valueType, lanes);
}

/// Puts the f32 values `p` on the grid of `format` in `mode`, exactly: the
/// quantum 2^(max(e, emin) - mbits) from the exponent field, divide by it
/// (a power of two: exact), Truncate<float, mode> (keeps a zero's sign),
/// multiply back. Inf stays Inf. For E2M1 this is CANN's FP4 pre-rounding
/// (ascend-model.md, "Elements, FP4": the bf16 cast after it is exact and
/// the FP4 cast does not round again); the integer-code casts use it for
/// every format. `w` (n f32 lanes) is scratch.
void roundToGrid(Emitter &e, ElementFormat format, Value p, Value w,
                 RoundMode mode, int64_t n) {
  const FormatInfo &info = formatInfo(format);
  Type f32 = e.b.getF32Type();
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](uint32_t v) { return IntegerAttr::get(u32, v); };
  e.scalar(BinaryKind::And, w, p, u(0x7F800000), u32, n);
  e.scalar(BinaryKind::max, w, w, u(uint32_t(127 + info.emin()) << 23), u32, n);
  e.scalar(BinaryKind::sub, w, w, u(info.mbits << 23), u32, n);
  e.binary(BinaryKind::div, p, p, w, f32, n);
  e.cast(p, f32, p, f32, mode, false, n);
  e.binary(BinaryKind::mul, p, p, w, f32, n);
}

/// The codes of `format` for the f32 values `p` by integer code, for a
/// format the core cannot cast to (FP6 on every chip; FP8 and FP4 on a
/// chip without MX casts, a2): the values are put on the format's grid
/// (roundToGrid, with the format's own quantum 2^(max(e, emin) -
/// mbits)) and clamped to +-max (saturation), then the code is read off the
/// f32 bits: a normal value's exponent field rebiased and its top mbits, a
/// subnormal's mantissa from v + 2^emin (exact), and the sign. NaN lanes
/// give +0 (`nanZero`), the NaN code where the format has one, else +max.
/// FP4 codes are then packed two a byte (element 2i in the low nibble),
/// the others one a byte. `w`, `x` (n u32 lanes each) and `mask` are
/// scratch; `p` is clobbered.
void emitEmulatedCodes(Emitter &e, ElementFormat format, RoundMode mode,
                       bool nanZero, Value p, Value w, Value x, Value mask,
                       Value codes, int64_t n) {
  const FormatInfo &info = formatInfo(format);
  Type f32 = e.b.getF32Type();
  MLIRContext *ctx = e.b.getContext();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u16 = IntegerType::get(ctx, 16, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  auto u = [&](uint32_t v) { return IntegerAttr::get(u32, v); };
  auto f = [&](float v) { return FloatAttr::get(f32, v); };
  int emin = info.emin(), m = int(info.mbits);
  bool nanCode = info.hasNaN && !nanZero;
  if (nanCode) {
    // x: the NaN code on NaN lanes, 0 elsewhere (ORed in with the sign);
    // NaN lanes then encode +0.
    e.scalar(BinaryKind::And, w, p, u(0x7FFFFFFF), u32, n);
    e.cmps(CmpPredicate::gt, mask, w, u(0x7F800000), u32, n);
    e.dup(x, u(info.nanCode), u32, n);
    e.dup(w, u(0), u32, n);
    e.sel(x, mask, x, w, u32, n);
    e.sel(p, mask, w, p, u32, n);
  } else {
    replaceNaNLanes(e, p, w, mask, f(nanZero ? 0.0f : info.maxFinite), f32, n);
  }
  roundToGrid(e, format, p, w, mode, n);
  e.scalar(BinaryKind::min, p, p, f(info.maxFinite), f32, n);
  e.scalar(BinaryKind::max, p, p, f(-info.maxFinite), f32, n);
  // |v| in w, the sign at the code's sign bit (and any NaN code) in p.
  e.scalar(BinaryKind::And, w, p, u(0x7FFFFFFF), u32, n);
  e.scalar(BinaryKind::And, p, p, u(0x80000000), u32, n);
  e.scalar(BinaryKind::shr, p, p, u(32 - info.bits), u32, n);
  if (nanCode)
    e.binary(BinaryKind::Or, p, p, x, u32, n);
  // Subnormal lanes (|v| < 2^emin) read v + 2^emin less one exponent step,
  // normal lanes |v|; both then lose (126 + emin) exponent steps and keep
  // their top m mantissa bits.
  uint32_t minNormal = uint32_t(127 + emin) << 23;
  e.scalar(BinaryKind::add, x, w, f(std::ldexp(1.0f, emin)), f32, n);
  e.scalar(BinaryKind::sub, x, x, u(1u << 23), u32, n);
  e.cmps(CmpPredicate::lt, mask, w, u(minNormal), u32, n);
  e.sel(x, mask, x, w, u32, n);
  e.scalar(BinaryKind::sub, x, x, u(uint32_t(126 + emin) << 23), u32, n);
  e.scalar(BinaryKind::shr, x, x, u(uint32_t(23 - m)), u32, n);
  e.binary(BinaryKind::Or, x, x, p, u32, n);
  if (format != ElementFormat::E2M1FN)
    return e.cast(codes, u8, x, u32, RoundMode::none, false, n);
  // FP4: one code a byte in w, then each 16-bit pair (lo | hi << 8) packed
  // to lo | hi << 4.
  e.cast(w, u8, x, u32, RoundMode::none, false, n);
  e.scalar(BinaryKind::shr, p, w, IntegerAttr::get(u16, 4), u16, n / 2);
  e.scalar(BinaryKind::And, p, p, IntegerAttr::get(u16, 0xF0), u16, n / 2);
  e.scalar(BinaryKind::And, w, w, IntegerAttr::get(u16, 0x0F), u16, n / 2);
  e.binary(BinaryKind::Or, p, p, w, u16, n / 2);
  e.cast(codes, u8, p, u16, RoundMode::none, false, n / 2);
}

/// The f32 values `d` of the codes of `format` in `w` (u32 lanes), by
/// integer code, for a format the core cannot cast from (FP6 on every chip;
/// FP8 and FP4 without MX casts): the sign moved to bit 31; a normal code's
/// exponent field rebiased by 126 + emin steps above its mantissa; a
/// subnormal's value (code + 2^m) * 2^(emin - m) less 2^emin (exact). E4M3's
/// NaN codes read as +-480 there and become NaN; E5M2's exponent field 31
/// reads as 2^16 or more and becomes +-Inf or NaN. `x` (n u32 lanes) and
/// `mask` are scratch; `w` is clobbered.
void emitEmulatedDecode(Emitter &e, ElementFormat format, Value w, Value x,
                        Value mask, Value d, int64_t n) {
  const FormatInfo &info = formatInfo(format);
  Type f32 = e.b.getF32Type();
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](uint32_t v) { return IntegerAttr::get(u32, v); };
  int emin = info.emin(), m = int(info.mbits);
  e.scalar(BinaryKind::shr, x, w, u(info.bits - 1), u32, n);
  e.scalar(BinaryKind::shl, x, x, u(31), u32, n);
  e.scalar(BinaryKind::And, w, w, u(info.signBit() - 1u), u32, n);
  e.cmps(CmpPredicate::lt, mask, w, u(1u << m), u32, n);
  e.scalar(BinaryKind::shl, w, w, u(uint32_t(23 - m)), u32, n);
  e.scalar(BinaryKind::add, w, w, u(uint32_t(126 + emin) << 23), u32, n);
  e.scalar(BinaryKind::add, d, w, u(1u << 23), u32, n);
  e.scalar(BinaryKind::add, d, d, FloatAttr::get(f32, -std::ldexp(1.0f, emin)),
           f32, n);
  e.sel(d, mask, d, w, u32, n);
  e.binary(BinaryKind::Or, d, d, x, u32, n);
  if (format == ElementFormat::E4M3FN) { // 0x7F, 0xFF: NaN (read as 480)
    e.scalar(BinaryKind::And, w, d, u(0x7FFFFFFF), u32, n);
    e.cmps(CmpPredicate::eq, mask, w, u(0x43F00000), u32, n);
    e.dup(x, u(0x7FC00000), u32, n);
    e.sel(d, mask, x, d, u32, n);
  } else if (format == ElementFormat::E5M2) { // exponent field 31
    e.scalar(BinaryKind::And, w, d, u(0x7FFFFFFF), u32, n);
    e.cmps(CmpPredicate::gt, mask, w, u(0x47800000), u32, n); // NaN codes
    e.dup(x, u(0x7FC00000), u32, n);
    e.sel(d, mask, x, d, u32, n);
    e.cmps(CmpPredicate::eq, mask, w, u(0x47800000), u32, n); // +-Inf
    e.scalar(BinaryKind::add, x, d, u(0x7F800000 - 0x47800000), u32, n);
    e.sel(d, mask, x, d, u32, n);
  }
}

/// The FP8 codes of the f32 values `p` by the core's saturating cast,
/// which gives +0 for a NaN (ascend-model.md §3.3: CTRL[50] is 0, as the
/// vendor's kernels leave it): that is `nan_element = zero` as it stands;
/// with `nanCode` the NaN lanes (those not equal to themselves) get the
/// format's NaN code after the cast. `mask` is scratch; `w` (n bytes) too,
/// written only after the cast, so it may be `p`.
void emitFP8Cast(Emitter &e, Type codeType, bool nanCode, Value p, Value w,
                 Value mask, Value codes, int64_t n) {
  Type f32 = e.b.getF32Type();
  Type u8 = IntegerType::get(e.b.getContext(), 8, IntegerType::Unsigned);
  if (nanCode)
    e.cmp(CmpPredicate::eq, mask, p, p, f32, n);
  e.cast(codes, codeType, p, f32, RoundMode::rint, true, n);
  if (!nanCode)
    return;
  const FormatInfo &info = formatInfo(*dialect::getElementFormat(codeType));
  e.dup(w, IntegerAttr::get(u8, info.nanCode), u8, n);
  e.sel(codes, mask, codes, w, u8, n);
}

/// The codes of the f32 products `p` (ref: quantize's encode): rounded to
/// bf16 first under `product = bf16`; NaN lanes made +0 (`nan_element =
/// zero`) or, for FP4 whose cast gives 0, the largest code (+max); then the
/// FP8 cast, or for FP4 the cast to bf16 (exact for a bf16 element's
/// product down to 2^-126; below, `floor` keeps a negative product negative
/// so that its code rounds the same: docs/Rationale.md) and the FP4 cast.
/// With `preRound` (FP4 from f16 or f32 input, whose f32 products a cast to
/// bf16 would round once before the FP4 cast rounds again), CANN's
/// pre-rounding first puts each product on the E2M1 grid in f32: e =
/// max(unbiased exponent, 0) - 1, divide by 2^e (exact), truncate to an
/// integral value in the user's mode, multiply by 2^e; the bf16 cast is then
/// exact and the FP4 cast does not round. `q` (bf16 lanes), `w` and `mask`
/// are scratch.
void emitCodes(Emitter &e, Type codeType, dialect::Rounding rounding,
               bool productBF16, bool nanZero, bool preRound, bool emulate,
               Value p, Value q, Value w, Value mask, Value codes, int64_t n) {
  Type f32 = e.b.getF32Type(), bf16 = e.b.getBF16Type();
  bool fp4 = isa<Float4E2M1FNType>(codeType);
  if (productBF16) {
    e.cast(q, bf16, p, f32, RoundMode::rint, false, n);
    e.cast(p, f32, q, bf16, RoundMode::none, false, n);
  }
  ElementFormat format = *dialect::getElementFormat(codeType);
  RoundMode mode = rounding == dialect::Rounding::away    ? RoundMode::round
                   : rounding == dialect::Rounding::floor ? RoundMode::floor
                                                          : RoundMode::rint;
  if (emulate) // `q` holds u32 lanes then
    return emitEmulatedCodes(e, format, mode, nanZero, p, w, q, mask, codes, n);
  if (!fp4)
    return emitFP8Cast(e, codeType, !nanZero, p, /*w=*/p, mask, codes, n);
  if (!nanZero) // the FP4 cast gives +0 for a NaN: the largest code instead
    replaceNaNLanes(
        e, p, w, mask,
        FloatAttr::get(f32, formatInfo(ElementFormat::E2M1FN).maxFinite), f32,
        n);
  if (preRound)
    roundToGrid(e, ElementFormat::E2M1FN, p, w, mode, n);
  RoundMode toBF16 =
      rounding == dialect::Rounding::floor ? RoundMode::floor : RoundMode::rint;
  e.cast(q, bf16, p, f32, toBF16, false, n);
  e.cast(codes, codeType, q, bf16, mode, true, n);
}

CodeScratch codeScratch(ElementFormat format, dialect::NanElement nanElement,
                        bool emulate) {
  CodeScratch s;
  s.w = format == ElementFormat::E2M1FN || emulate;
  s.mask = s.w || nanElement != dialect::NanElement::zero;
  return s;
}

/// The f32 values `dBuf` of a dequantize's codes at `codesUB` (exact): the
/// core's casts, or integer code (FP6, and every format on a2). `qBuf`
/// (bf16 lanes, u32 when emulated), `wBuf` and `laneMask` are scratch.
void emitDecode(Emitter &e, const DequantizePlan &p, Value codesUB, Value qBuf,
                Value wBuf, Value laneMask, Value dBuf, int64_t N) {
  MLIRContext *ctx = e.b.getContext();
  Type f32 = e.b.getF32Type(), bf16 = e.b.getBF16Type();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  bool fp4 = p.codeBits == 4;
  if (p.emulate && fp4) {
    // Nibbles to bytes: each packed byte (u16 lane lo | hi << 4) becomes
    // lo | hi << 8, one code a byte, then one a u32 lane.
    Type u16 = IntegerType::get(ctx, 16, IntegerType::Unsigned);
    auto u16v = [&](int64_t v) { return IntegerAttr::get(u16, v); };
    e.cast(qBuf, u16, codesUB, u8, RoundMode::none, false, N / 2);
    e.scalar(BinaryKind::And, wBuf, qBuf, u16v(0x0F), u16, N / 2);
    e.scalar(BinaryKind::And, qBuf, qBuf, u16v(0xF0), u16, N / 2);
    e.scalar(BinaryKind::shl, qBuf, qBuf, u16v(4), u16, N / 2);
    e.binary(BinaryKind::Or, qBuf, qBuf, wBuf, u16, N / 2);
    e.cast(wBuf, u32, qBuf, u8, RoundMode::none, false, N);
    emitEmulatedDecode(e, p.format, wBuf, qBuf, laneMask, dBuf, N);
  } else if (p.emulate) {
    e.cast(wBuf, u32, codesUB, u8, RoundMode::none, false, N);
    emitEmulatedDecode(e, p.format, wBuf, qBuf, laneMask, dBuf, N);
  } else if (fp4) {
    e.cast(qBuf, bf16, codesUB, p.codeType, RoundMode::none, false, N);
    e.cast(dBuf, f32, qBuf, bf16, RoundMode::none, false, N);
  } else {
    e.cast(dBuf, f32, codesUB, p.codeType, RoundMode::none, false, N);
  }
}

/// The scale values 2^(s - 127) as f32 bits from the widened scale bytes
/// `sBuf`: s << 23, 2^-127 for s = 0, NaN for 0xFF (ref: scaleValue).
void emitScaleValues(Emitter &e, Value sBuf, Value mbBuf, Value constBuf,
                     Value blockMask, int64_t NB, int64_t maskLanes) {
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u32v = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  e.scalar(BinaryKind::shl, mbBuf, sBuf, u32v(23), u32, NB);
  auto selectConst = [&](CmpPredicate pred, Value src, int64_t against,
                         Value dst, int64_t value) {
    e.cmps(pred, blockMask, src, u32v(against), u32, maskLanes);
    e.dup(constBuf, u32v(value), u32, maskLanes);
    e.sel(dst, blockMask, constBuf, dst, u32, maskLanes);
  };
  selectConst(CmpPredicate::eq, sBuf, 0, mbBuf, 0x00400000);
  selectConst(CmpPredicate::eq, sBuf, 255, mbBuf, 0x7FC00000);
}

/// The level-0 scales of a two-level quantize from the maxima of the finite
/// |x| of each 512 (`l0`, f32 lanes, in place): times fl32(1/6), and 0 below
/// 2^-126 (ref: twoLevelQuantize, level 0). `mask` and `cst` are scratch.
void emitLevel0Scales(Emitter &e, Value l0, Value mask, Value cst,
                      int64_t lanes) {
  Type f32 = e.b.getF32Type();
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  e.scalar(BinaryKind::mul, l0, l0,
           FloatAttr::get(f32,
                          1.0f / formatInfo(ElementFormat::E2M1FN).maxFinite),
           f32, lanes);
  e.cmps(CmpPredicate::lt, mask, l0, IntegerAttr::get(u32, 0x00800000), u32,
         lanes);
  e.dup(cst, IntegerAttr::get(u32, 0), u32, lanes);
  e.sel(l0, mask, cst, l0, u32, lanes);
}

/// v = ftz(v): subnormal f32 lanes become zeros of their sign (the CANN
/// kernel's Div, `div_denormals = ftz`). `w` and `mask` are scratch.
void emitFlushSubnormals(Emitter &e, Value v, Value w, Value mask,
                         int64_t n) {
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](uint32_t c) { return IntegerAttr::get(u32, c); };
  e.scalar(BinaryKind::And, w, v, u(0x7FFFFFFF), u32, n);
  e.cmps(CmpPredicate::lt, mask, w, u(0x00800000), u32, n);
  e.scalar(BinaryKind::And, w, v, u(0x80000000), u32, n);
  e.sel(v, mask, w, v, u32, n);
}

} // namespace mxq::vtile::lowering
