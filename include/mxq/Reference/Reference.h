//===- Reference.h - the executable semantics of every mxq op ---*- C++ -*-===//
//
// A plain C++ implementation of every mxq op on buffers, written for clarity,
// not speed. It is the oracle: every lowering (CPU, GPU, Ascend-like) is
// compared against it bit for bit. The rules follow
// shared/docs/mx-semantics.md; docs/Rationale.md says where mxq had to choose.
//
// Values travel as fp32: f16 and bf16 inputs are widened exactly, and results
// of those types are rounded with roundToSource(). Codes travel unpacked, one
// code per byte (the low bits); packFP4() gives the two-per-byte storage.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_REFERENCE_REFERENCE_H
#define MXQ_REFERENCE_REFERENCE_H

#include "mxq/Support/Formats.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mxq::ref {

using Shape = std::vector<int64_t>;

int64_t numElements(const Shape &shape);

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

uint32_t bitsOf(float v);
float fromBits(uint32_t bits);

/// Round a real (given as fp32) to the nearest f16 / bf16, ties to even;
/// overflow gives infinity. Returns the bit pattern.
uint16_t toF16Bits(float v);
uint16_t toBF16Bits(float v);
float fromF16Bits(uint16_t bits);
float fromBF16Bits(uint16_t bits);
/// Rounds to `type` and widens back (identity for F32).
float roundToSource(SourceType type, float v);

/// The code of `v` in `format`: rounded with `rounding`, saturated to the
/// largest finite value (infinities too), NaN to the format's NaN or, where it
/// has none, to `nanElement`. The sign of zero is kept.
uint8_t encodeElement(float v, ElementFormat format,
                      Rounding rounding = Rounding::RNE,
                      NanElement nanElement = NanElement::Max);
/// The value of a code (NaN codes give NaN, E5M2 infinities infinity).
float decodeElement(uint8_t code, ElementFormat format);

/// The E8M0 scale byte of a block whose absolute maximum is `amax` (NaN if
/// the block holds a NaN).
uint8_t scaleByte(float amax, ScaleAlgorithm algorithm, InfPolicy inf,
                  ElementFormat format);
/// The round-up E8M0 byte of a positive fp32 `d` (PyTorch MXFP_E8M0_RU, no
/// saturation): Inf and NaN give 0xFF, byte 0 is 2^-127.
uint8_t rceilE8M0(float d);
/// 2^(127 - s) as fp32 (exact; 2^-127 is subnormal), NaN for 0xFF.
float scaleMultiplier(uint8_t s);
/// The multiplier of a block with absolute maximum `amax` and scale byte
/// `s`: scaleMultiplier(s), or 0 where `underflow` flushes the block (its
/// fp32 exponent field E is 0 for FlushE0, at most the format's emax for
/// FlushLeEmax).
float blockMultiplier(float amax, uint8_t s, Underflow underflow,
                      ElementFormat format);
/// 2^(s - 127) as fp32, NaN for 0xFF.
float scaleValue(uint8_t s);

//===----------------------------------------------------------------------===//
// NVFP4: E4M3 block scales under an fp32 outer scale
//===----------------------------------------------------------------------===//
//
// Two conventions, each the operation sequence of its library in fp32
// arithmetic (every step rounded to nearest even; fminf as C's, NaN giving
// the other operand), docs/Rationale.md "NVFP4":
// - Encode (TransformerEngine, core_nvfp4.cuh): the outer value is the amax
//   A of the tensor (or of the row); S_enc = nvfp4EncodeScale(A); a block
//   of amax a (NaN ignored, as fmaxf does) gets the byte
//   e4m3(fminf(a * fl32(S_enc * fl32(1/6)), FLT_MAX)) and its elements are
//   multiplied by fminf(1 / (float(byte) * fl32(1/S_enc)), FLT_MAX).
// - Decode (torchao, nvfp4_quantize): the outer value is the decode scale P
//   (torchao's per_tensor_scale, amax / (448 * 6); 1 for single-level
//   scaling, which gives the same bytes); a block of amax a (NaN
//   propagated, as torch.amax does) gets the byte
//   e4m3(clamp(fl32(fl32(a / 6) / P), 2^-6, 448)) and its elements are
//   divided by fl32(P * float(byte)).
// e4m3 is nearest-even with saturation to 448 (NaN to 0x7F); the codes are
// E2M1 of the scaled element, nearest even, saturating.

/// TE's global encode scale of an amax A: fminf(fl32(2688 / A), FLT_MAX),
/// or 1 where A is 0 or the quotient is 0 (A infinite).
float nvfp4EncodeScale(float amax);
/// The E4M3 byte of a block and the factor its elements are multiplied by
/// (Encode) or divided by (Decode), given the line's outer value: S_enc
/// (Encode, from nvfp4EncodeScale) or P (Decode).
struct NVFP4Block {
  uint8_t scale;
  float factor;
};
NVFP4Block nvfp4Block(float amax, float outer, ScaleAlgorithm algorithm);
/// The scaled element of `x` in a block of `factor` (fl32(x * factor) for
/// Encode, fl32(x / factor) for Decode).
float nvfp4Scaled(float x, float factor, ScaleAlgorithm algorithm);

//===----------------------------------------------------------------------===//
// Blockwise FP8: fp32 block scales
//===----------------------------------------------------------------------===//
//
// Two conventions (docs/Rationale.md "Blockwise FP8"), each its library's
// fp32 sequence; `a` is the block's amax raised to `amaxFloor` where below
// it (NaN stays NaN), M the code format's largest value:
// - Decode (DeepSeek act_quant with Division::Exact, DeepGEMM
//   per_token_cast_to_fp8 with Division::Reciprocal): the amax propagates
//   NaN; s = a / M (exact) or a * fl32(1/M) (reciprocal); with pow2, s
//   rounded up to a power of two on its bits (DeepGEMM's ceil_to_ue8m0:
//   exponent field plus one where the mantissa is not zero, clamped to
//   [1, 254]); the elements are x / s (exact) or x * fl32(1/s)
//   (reciprocal); s is stored.
// - Encode (TransformerEngine compute_scale_from_amax): the amax ignores
//   NaN (fmaxf); e = M / a, 1 where a is 0 or infinite, the input type's
//   largest value where the quotient is infinite; with pow2, e's mantissa
//   bits cleared; the elements are x * e; fl32(1/e) is stored.

struct QuantizeOptions;
/// The stored fp32 scale of a block and the factor its elements are
/// divided by (Decode, Exact) or multiplied by (otherwise).
struct F32BlockScale {
  float stored;
  float factor;
};
/// `amax` is the block's, NaN per the convention (propagated for Decode,
/// ignored for Encode).
F32BlockScale f32BlockScale(float amax, const QuantizeOptions &options);
/// The scaled element of `x` in a block of `factor`.
float f32Scaled(float x, float factor, const QuantizeOptions &options);

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

struct QuantizeOptions {
  int64_t axis = 0;
  int64_t blockSize = 32;
  ElementFormat format = ElementFormat::E4M3FN;
  ScaleAlgorithm algorithm = ScaleAlgorithm::RCeil;
  InfPolicy inf = InfPolicy::NaN;
  Rounding rounding = Rounding::RNE;
  NanElement nanElement = NanElement::Max;
  ScaleLayout layout = ScaleLayout::Linear;
  Underflow underflow = Underflow::Keep;
  Product product = Product::F32;
  /// Encode and Decode only: the outer value, one (per tensor) or one per
  /// line (numElements(shape) / shape[axis], row-major over the other
  /// dimensions): the amax A (Encode) or the decode scale P (Decode). Empty:
  /// Encode takes A of the whole tensor (NaN ignored), Decode P = 1.
  std::vector<float> outer;
  /// Blockwise FP8: fp32 scales (Encode or Decode), in Quantized::scaleValues.
  bool f32Scales = false;
  float amaxFloor = 0.0f;
  bool pow2 = false;
  Division division = Division::Exact;
  /// The input's type (Encode's largest value where M / a is infinite).
  SourceType source = SourceType::F32;
};

struct Quantized {
  std::vector<uint8_t> codes; ///< One code per element, shape of the input.
  Shape codesShape;
  std::vector<uint8_t> scales; ///< E8M0 (E4M3) bytes in the requested layout.
  Shape scalesShape;
  std::vector<float> scaleValues; ///< fp32 scales instead (f32Scales).
};

/// mxq.quantize. `x` holds numElements(shape) values in row-major order.
Quantized quantize(const std::vector<float> &x, const Shape &shape,
                   const QuantizeOptions &options);

/// mxq.dequantize: fp32 values (round with roundToSource for f16/bf16). A NaN
/// result is the canonical quiet NaN (0x7FC00000), as in every NaN result of
/// mxq.
std::vector<float> dequantize(const std::vector<uint8_t> &codes,
                              const Shape &shape,
                              const std::vector<uint8_t> &scales, int64_t axis,
                              int64_t blockSize, ScaleLayout layout,
                              ElementFormat format);
/// mxq.dequantize of NVFP4 (E4M3 `scales`, FP4 codes, blocks of 16) made by
/// `algorithm` (Encode or Decode), with the outer values of quantize (one
/// or one per line; Decode may have none, P = 1): Encode (TE)
/// code * fl32(fl32(scale * A) * fl32(1/2688)), Decode (torchao)
/// code * fl32(P * scale).
std::vector<float> dequantizeNVFP4(const std::vector<uint8_t> &codes,
                                   const Shape &shape,
                                   const std::vector<uint8_t> &scales,
                                   int64_t axis, ScaleLayout layout,
                                   ScaleAlgorithm algorithm,
                                   const std::vector<float> &outer);

/// mxq.dequantize of blockwise FP8 (fp32 `scales`, linear):
/// fl32(decode(code) * s).
std::vector<float> dequantizeF32Scales(const std::vector<uint8_t> &codes,
                                       const Shape &shape,
                                       const std::vector<float> &scales,
                                       int64_t axis, int64_t blockSize,
                                       ElementFormat format);

/// The value of fp32 `v` in `type` (rounded to nearest even) with a
/// saturating cast: NaN becomes +0, a value that rounds beyond the type's
/// range (or is infinite) its largest finite value of that sign.
float saturateToSource(SourceType type, float v);

/// mxq.convert_scale_layout: the scales of codes of `codesShape` moved from
/// layout `from` to layout `to` (padding 0x00). Returns the new bytes and
/// sets `resultShape`.
std::vector<uint8_t> convertScaleLayout(const std::vector<uint8_t> &scales,
                                        const Shape &codesShape, int64_t axis,
                                        int64_t blockSize, ScaleLayout from,
                                        ScaleLayout to, Shape &resultShape);

struct DualQuantized {
  Quantized rows;    ///< codes [B..., M, K], swizzled scales.
  Quantized columns; ///< codes [B..., K, M], swizzled scales.
};
/// mxq.dual_quantize (options.axis, blockSize and layout are ignored).
DualQuantized dualQuantize(const std::vector<float> &x, const Shape &shape,
                           const QuantizeOptions &options);

struct TwoLevelQuantized {
  std::vector<uint8_t> codes; ///< FP4 codes, shape of the input.
  std::vector<float> level0;  ///< [..., ceil(n/512)]
  Shape level0Shape;
  std::vector<uint8_t> level1; ///< [..., ceil(n/64), 2]
  Shape level1Shape;
};
/// mxq.two_level_quantize; `type` is F16 or BF16, `x` (and `smooth`) hold
/// values of that type.
TwoLevelQuantized twoLevelQuantize(const std::vector<float> &x,
                                   const Shape &shape, SourceType type,
                                   const std::vector<float> *smooth,
                                   Rounding rounding, NanElement nanElement,
                                   DivDenormals divDenormals =
                                       DivDenormals::IEEE);

/// mxq.fake_quant; `step` and `zeroPoint` have one element, or one per index
/// of `axis`.
std::vector<float> fakeQuant(const std::vector<float> &x, const Shape &shape,
                             SourceType type, const std::vector<float> &step,
                             const std::vector<float> &zeroPoint,
                             ElementFormat format, float quantMin,
                             float quantMax, std::optional<int64_t> axis);

/// mxq.fake_quant_grad.
std::vector<float> fakeQuantGrad(const std::vector<float> &grad,
                                 const std::vector<float> &x,
                                 const Shape &shape,
                                 const std::vector<float> &step, float quantMin,
                                 float quantMax, std::optional<int64_t> axis);

/// FP4 storage: two codes per byte along the last axis, element 2i in the low
/// nibble; the last dimension becomes ceil(n/2) (an odd tail's high nibble is
/// 0).
std::vector<uint8_t> packFP4(const std::vector<uint8_t> &codes,
                             const Shape &shape);
std::vector<uint8_t> unpackFP4(const std::vector<uint8_t> &packed,
                               const Shape &shape);

} // namespace mxq::ref

#endif // MXQ_REFERENCE_REFERENCE_H
