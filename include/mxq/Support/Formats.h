//===- Formats.h - MX element and scale formats, one table ------*- C++ -*-===//
//
// The single description of every element format mxq knows. The dialect's
// verifiers, the reference and the numerics expansion all read this table;
// nothing else spells out a bias, a maximum or a NaN code.
//
// This header depends on nothing but the C++ standard library so that the
// reference stays a plain C++ library.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_SUPPORT_FORMATS_H
#define MXQ_SUPPORT_FORMATS_H

#include <cstdint>

namespace mxq {

/// Element formats of MX codes. The enumerator order is part of the C API.
enum class ElementFormat : uint8_t { E4M3FN, E5M2, E2M3FN, E3M2FN, E2M1FN };

/// Scale algorithms; values match the `ScaleAlgorithm` enum attribute.
/// Floor to Even derive an E8M0 byte; Encode and Decode an E4M3 byte under
/// an fp32 outer scale (NVFP4: TransformerEngine's encode-scale sequence and
/// torchao's decode-scale sequence, docs/Rationale.md "NVFP4").
enum class ScaleAlgorithm : uint32_t {
  Floor = 0,
  RCeil = 1,
  Ceil = 2,
  Even = 3,
  Encode = 4,
  Decode = 5,
  Tosa = 6
};
/// Whether `a` is one of the two conventions of a scale stored as a value
/// (Encode, Decode) rather than an E8M0 byte derived from the amax: with
/// E4M3 scales (NVFP4) or fp32 scales (blockwise FP8).
constexpr bool isE4M3Scale(ScaleAlgorithm a) {
  return a == ScaleAlgorithm::Encode || a == ScaleAlgorithm::Decode;
}
/// How fp32 block scales divide (values match `Division`): `Exact` divides
/// (amax / max, x / s: DeepSeek), `Reciprocal` multiplies by the fp32
/// reciprocal (amax * fl32(1/max), x * fl32(1/s): DeepGEMM, PyTorch's
/// CUDA division by a scalar).
enum class Division : uint32_t { Exact = 0, Reciprocal = 1 };
/// Scale byte of a block holding an infinity and no NaN; values match
/// `InfPolicy`.
enum class InfPolicy : uint32_t { NaN = 0, Saturate = 1, Exponent = 2 };
/// Element rounding; values match `Rounding`.
enum class Rounding : uint32_t { RNE = 0, Away = 1, Floor = 2 };
/// Code of a NaN element in a format without NaN; values match `NanElement`.
enum class NanElement : uint32_t { Max = 0, Zero = 1 };
/// Multiplier of a block with a tiny floor scale; values match `Underflow`.
enum class Underflow : uint32_t { Keep = 0, FlushE0 = 1, FlushLeEmax = 2 };
/// Precision of the scaled element; values match `Product`.
enum class Product : uint32_t { F32 = 0, BF16 = 1 };
/// Subnormals in the two-level division; values match `DivDenormals`.
enum class DivDenormals : uint32_t { IEEE = 0, FTZ = 1 };
/// Scale layouts; values match `ScaleLayout`.
enum class ScaleLayout : uint32_t { Linear = 0, Swizzle32x4x4 = 1, Pairs = 2 };
/// Source (wide) float types.
enum class SourceType : uint8_t { F32, F16, BF16 };
/// The largest finite value of a source type.
constexpr float sourceMaxFinite(SourceType t) {
  return t == SourceType::F16    ? 65504.0f
         : t == SourceType::BF16 ? 0x1.fep127f
                                 : 0x1.fffffep127f;
}

/// What a stored fp32 block scale (blockwise FP8) asks of each block: the
/// words of a quantize with f32 scales (ref: f32BlockScale;
/// mxq::recipes::f32BlockScale states it for the targets).
struct F32ScaleRule {
  ScaleAlgorithm algorithm; ///< Encode (TE) or Decode (DeepSeek, DeepGEMM)
  ElementFormat format;     ///< of the codes
  float amaxFloor;
  bool pow2;
  Division division;
  SourceType source; ///< the input's type
};

/// Whether the elements of a block are divided by its factor (the stored
/// scale: decode with exact division) rather than multiplied by it. Under
/// `pow2` the scale is 2^k with k in [-126, 127], whose reciprocal 2^-k is
/// exact (2^-127 a subnormal), and x * 2^-k is the same real number as
/// x / 2^k, so correctly rounded it is the same f32: the factor is then the
/// reciprocal and the elements multiply (a division costs several
/// multiplies on every target).
inline bool f32ScaleDivides(const F32ScaleRule &r) {
  return r.algorithm == ScaleAlgorithm::Decode &&
         r.division == Division::Exact && !r.pow2;
}

struct FormatInfo {
  const char *name;  ///< MLIR spelling of the type.
  unsigned bits;     ///< Storage bits of one code (sign included).
  unsigned ebits;    ///< Exponent bits.
  unsigned mbits;    ///< Mantissa bits.
  int bias;          ///< Exponent bias; the smallest normal is 2^(1-bias).
  int emax;          ///< Exponent of the largest power of two <= maxFinite.
  float maxFinite;   ///< Largest finite value.
  uint8_t maxCode;   ///< Code of +maxFinite.
  bool hasNaN;       ///< The format encodes NaN ...
  uint8_t nanCode;   ///< ... as this (positive, canonical) code.
  bool hasInf;       ///< The format encodes infinities (E5M2).
  int emin() const { return 1 - bias; }
  uint8_t signBit() const { return uint8_t(1u << (bits - 1)); }
};

inline const FormatInfo &formatInfo(ElementFormat f) {
  static const FormatInfo table[] = {
      {"f8E4M3FN", 8, 4, 3, 7, 8, 448.0f, 0x7E, true, 0x7F, false},
      {"f8E5M2", 8, 5, 2, 15, 15, 57344.0f, 0x7B, true, 0x7F, true},
      {"f6E2M3FN", 6, 2, 3, 1, 2, 7.5f, 0x1F, false, 0, false},
      {"f6E3M2FN", 6, 3, 2, 3, 4, 28.0f, 0x1F, false, 0, false},
      {"f4E2M1FN", 4, 2, 1, 1, 2, 6.0f, 0x7, false, 0, false},
  };
  return table[static_cast<unsigned>(f)];
}

/// Block sizes of two-level quantization (CANN DynamicDualLevelMxQuant): an
/// fp32 scale per 512 elements, an E8M0 scale per 32.
constexpr int64_t kTwoLevelBlock0 = 512;
constexpr int64_t kTwoLevelBlock1 = 32;

/// The TOSA specification's `out_max` of a format (calc_block_scale, since
/// its March 2026 fix): the largest value plus half an ulp, the smallest
/// bound below which every element rounds into the format (464, 61440,
/// 7.75, 30, 7).
inline float tosaOutMax(const FormatInfo &info) {
  float halfUlp = 1.0f;
  for (int k = 0; k < info.emax - int(info.mbits) - 1; ++k)
    halfUlp *= 2.0f;
  for (int k = 0; k > info.emax - int(info.mbits) - 1; --k)
    halfUlp *= 0.5f;
  return info.maxFinite + halfUlp;
}

/// The block size of NVFP4 (an E4M3 scale per 16 FP4 codes).
constexpr int64_t kNVFP4Block = 16;

/// The byte of the E8M0 NaN.
constexpr uint8_t kScaleNaN = 0xFF;
/// The largest finite E8M0 byte (2^127).
constexpr uint8_t kScaleMax = 0xFE;
/// Padding byte of swizzled and paired scale layouts (2^-127).
constexpr uint8_t kScalePad = 0x00;

} // namespace mxq

#endif // MXQ_SUPPORT_FORMATS_H
