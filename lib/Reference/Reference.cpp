//===- Reference.cpp - the executable semantics of every mxq op -----------===//
//
// Written for clarity. Rounding is done on exact magnitudes in double
// precision (every fp32 value divided by a power of two is exact there), so
// each rule reads like its definition.
//
//===----------------------------------------------------------------------===//
#include "mxq/Reference/Reference.h"
#include "mxq/Support/ScaleLayout.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace mxq::ref {

int64_t numElements(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

uint32_t bitsOf(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

float fromBits(uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

//===----------------------------------------------------------------------===//
// Rounding onto a float grid
//===----------------------------------------------------------------------===//

/// Rounds the magnitude `m` > 0 onto the grid of a binary float format with
/// `mbits` mantissa bits and smallest normal exponent `emin` (no upper bound).
/// `negative` says the value being rounded is negative (for Floor).
static double roundMagnitude(double m, int mbits, int emin, Rounding rounding,
                             bool negative) {
  int e;
  std::frexp(m, &e); // m = f * 2^e, f in [0.5, 1)
  e = std::max(e - 1, emin);
  double quantum = std::ldexp(1.0, e - mbits);
  double n = m / quantum; // exact
  double whole = std::floor(n), frac = n - whole;
  bool up = false;
  switch (rounding) {
  case Rounding::RNE:
    up = frac > 0.5 || (frac == 0.5 && std::fmod(whole, 2.0) == 1.0);
    break;
  case Rounding::Away:
    up = frac >= 0.5;
    break;
  case Rounding::Floor: // toward -inf on the signed value
    up = negative && frac > 0;
    break;
  }
  return (whole + (up ? 1 : 0)) * quantum;
}

/// The unsigned code of an on-grid, in-range magnitude.
static uint32_t encodeMagnitude(double m, int mbits, int bias) {
  if (m == 0)
    return 0;
  int emin = 1 - bias;
  if (m < std::ldexp(1.0, emin)) // subnormal: exponent field 0
    return static_cast<uint32_t>(m / std::ldexp(1.0, emin - mbits));
  int e;
  std::frexp(m, &e);
  e -= 1;
  uint32_t mant =
      static_cast<uint32_t>(m / std::ldexp(1.0, e - mbits)) - (1u << mbits);
  return (static_cast<uint32_t>(e + bias) << mbits) | mant;
}

/// The magnitude of an unsigned finite code.
static double decodeMagnitude(uint32_t code, int mbits, int bias) {
  uint32_t exp = code >> mbits, mant = code & ((1u << mbits) - 1);
  if (exp == 0)
    return std::ldexp(static_cast<double>(mant), 1 - bias - mbits);
  return std::ldexp(static_cast<double>(mant + (1u << mbits)),
                    static_cast<int>(exp) - bias - mbits);
}

/// IEEE-style formats with infinities (f16, bf16): RNE, overflow to infinity.
static uint16_t toIEEEBits(float v, int ebits, int mbits) {
  int bias = (1 << (ebits - 1)) - 1;
  uint16_t sign = std::signbit(v) ? uint16_t(1u << (ebits + mbits)) : 0;
  uint16_t infBits = uint16_t(((1u << ebits) - 1) << mbits);
  // A NaN keeps its sign and the top of its payload (quiet where nothing of
  // the payload is left), so that a 16-bit value widened by fromIEEEBits
  // comes back bit for bit: an op that passes a value through
  // (fake_quant_grad) passes its bits, as the compiled select does.
  if (std::isnan(v)) {
    uint32_t payload = (bitsOf(v) & 0x7fffffu) >> (23 - mbits);
    if (payload == 0)
      payload = 1u << (mbits - 1);
    return sign | infBits | uint16_t(payload);
  }
  if (std::isinf(v))
    return sign | infBits;
  double m = std::fabs(static_cast<double>(v));
  if (m == 0)
    return sign;
  double r = roundMagnitude(m, mbits, 1 - bias, Rounding::RNE, false);
  double maxFinite = std::ldexp(2.0 - std::ldexp(1.0, -mbits), bias);
  if (r > maxFinite)
    return sign | infBits;
  return sign | uint16_t(encodeMagnitude(r, mbits, bias));
}

static float fromIEEEBits(uint16_t bits, int ebits, int mbits) {
  int bias = (1 << (ebits - 1)) - 1;
  bool negative = bits >> (ebits + mbits);
  uint32_t code = bits & ((1u << (ebits + mbits)) - 1);
  uint32_t exp = code >> mbits;
  float v;
  if (exp == (1u << ebits) - 1 && (code & ((1u << mbits) - 1))) {
    // A NaN widens with its payload, exactly (see toIEEEBits).
    uint32_t payload = (code & ((1u << mbits) - 1)) << (23 - mbits);
    uint32_t b = (negative ? 0x80000000u : 0u) | 0x7f800000u | payload;
    float nan;
    std::memcpy(&nan, &b, 4);
    return nan;
  }
  if (exp == (1u << ebits) - 1)
    v = std::numeric_limits<float>::infinity();
  else
    v = static_cast<float>(decodeMagnitude(code, mbits, bias));
  return negative ? -v : v;
}

uint16_t toF16Bits(float v) { return toIEEEBits(v, 5, 10); }
uint16_t toBF16Bits(float v) { return toIEEEBits(v, 8, 7); }
float fromF16Bits(uint16_t bits) { return fromIEEEBits(bits, 5, 10); }
float fromBF16Bits(uint16_t bits) { return fromIEEEBits(bits, 8, 7); }

float roundToSource(SourceType type, float v) {
  switch (type) {
  case SourceType::F32:
    return v;
  case SourceType::F16:
    return fromF16Bits(toF16Bits(v));
  case SourceType::BF16:
    return fromBF16Bits(toBF16Bits(v));
  }
  return v;
}

//===----------------------------------------------------------------------===//
// Element codes
//===----------------------------------------------------------------------===//

uint8_t encodeElement(float v, ElementFormat format, Rounding rounding,
                      NanElement nanElement) {
  const FormatInfo &info = formatInfo(format);
  if (std::isnan(v)) {
    if (nanElement == NanElement::Zero)
      return 0;
    return info.hasNaN ? info.nanCode : info.maxCode;
  }
  bool negative = std::signbit(v);
  uint8_t sign = negative ? info.signBit() : 0;
  if (std::isinf(v)) // saturating conversion
    return sign | info.maxCode;
  double m = std::fabs(static_cast<double>(v));
  if (m == 0)
    return sign;
  double r = roundMagnitude(m, info.mbits, info.emin(), rounding, negative);
  if (r > info.maxFinite)
    return sign | info.maxCode;
  return sign | uint8_t(encodeMagnitude(r, info.mbits, info.bias));
}

float decodeElement(uint8_t code, ElementFormat format) {
  const FormatInfo &info = formatInfo(format);
  bool negative = code & info.signBit();
  uint32_t magnitude = code & (info.signBit() - 1);
  float v;
  if (format == ElementFormat::E4M3FN && magnitude == 0x7F)
    v = std::numeric_limits<float>::quiet_NaN();
  else if (format == ElementFormat::E5M2 && (magnitude >> 2) == 0x1F)
    v = (magnitude & 3) ? std::numeric_limits<float>::quiet_NaN()
                        : std::numeric_limits<float>::infinity();
  else
    v = static_cast<float>(decodeMagnitude(magnitude, info.mbits, info.bias));
  return negative ? -v : v;
}

//===----------------------------------------------------------------------===//
// E8M0 scales
//===----------------------------------------------------------------------===//

/// OCP floor on a biased fp32 exponent field: 2^(floor(log2 a) - emax).
static uint8_t floorFromExponent(uint32_t exponent, int emax) {
  if (exponent <= static_cast<uint32_t>(emax))
    return 0;
  return static_cast<uint8_t>(std::min<uint32_t>(exponent - emax, kScaleMax));
}

uint8_t scaleByte(float amax, ScaleAlgorithm algorithm, InfPolicy inf,
                  ElementFormat format) {
  const FormatInfo &info = formatInfo(format);
  if (std::isnan(amax))
    return kScaleNaN;
  if (std::isinf(amax)) {
    switch (inf) {
    case InfPolicy::NaN:
      return kScaleNaN;
    case InfPolicy::Saturate:
      return kScaleMax;
    case InfPolicy::Exponent: // the floor path on the exponent field 0xFF
      return floorFromExponent(0xFF, info.emax);
    }
  }
  uint32_t bits = bitsOf(amax);
  uint32_t exponent = (bits >> 23) & 0xFF, mantissa = bits & 0x7FFFFF;
  switch (algorithm) {
  case ScaleAlgorithm::Floor:
    return floorFromExponent(exponent, info.emax);
  case ScaleAlgorithm::Ceil: {
    int64_t s = int64_t(exponent) + (mantissa != 0) - info.emax;
    return static_cast<uint8_t>(std::clamp<int64_t>(s, 0, kScaleMax));
  }
  case ScaleAlgorithm::Even: {
    uint32_t rounded = bits + (1u << (23 - info.mbits - 1));
    // Rounding to the element's mantissa width carried into the Inf
    // exponent: the block is treated as one holding an infinity (NaN byte,
    // or 0xFE when saturating); never the floor exponent path (that policy
    // is for floor only, and the verifier says so).
    if (((rounded >> 23) & 0xFF) == 0xFF)
      return inf == InfPolicy::Saturate ? kScaleMax : kScaleNaN;
    return floorFromExponent((rounded >> 23) & 0xFF, info.emax);
  }
  case ScaleAlgorithm::Encode:
  case ScaleAlgorithm::Decode:
    assert(false && "an E4M3 scale (nvfp4Block), not an E8M0 byte");
    return kScaleNaN;
  case ScaleAlgorithm::Tosa: {
    // TOSA calc_block_scale: 2^(floor(log2(amax / out_max)) + 1), or
    // 2^ceil(log2(amax / out_max)) for E4M3, clipped to [2^-127, 2^127]; a
    // zero block 2^-127. The quotient is exact (the specification's
    // precision text), in double: amax / out_max is exact there to far
    // more than the bits that decide the floor.
    if (amax == 0.0f)
      return 0;
    double r = double(amax) / double(tosaOutMax(info));
    int e;
    double m = std::frexp(r, &e); // r = m * 2^e, m in [0.5, 1)
    int fl = e - 1;               // floor(log2 r)
    bool power = m == 0.5;
    int k = format == ElementFormat::E4M3FN ? (power ? fl : fl + 1) : fl + 1;
    return static_cast<uint8_t>(std::clamp(k + 127, 0, int(kScaleMax)));
  }
  case ScaleAlgorithm::RCeil: {
    // The fp32 multiply by fl32(1/max) of every kernel, then round d up to a
    // power of two; byte 0 is 2^-127, an fp32 subnormal.
    return rceilE8M0(amax * (1.0f / info.maxFinite));
  }
  }
  return kScaleNaN;
}

uint8_t rceilE8M0(float d) {
  uint32_t bits = bitsOf(d);
  uint32_t e = (bits >> 23) & 0xFF, m = bits & 0x7FFFFF;
  if (e == 0xFF)
    return kScaleNaN;
  bool up = e == 0 ? m > 0x400000 : m != 0;
  return static_cast<uint8_t>(e + up); // 255 only for d > 2^127
}

float scaleMultiplier(uint8_t s) {
  if (s == kScaleNaN)
    return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, 127 - int(s));
}

float saturateToSource(SourceType type, float v) {
  if (std::isnan(v))
    return 0.0f;
  float r = roundToSource(type, v);
  if (!std::isinf(r))
    return r;
  return std::copysign(sourceMaxFinite(type), r);
}

float blockMultiplier(float amax, uint8_t s, Underflow underflow,
                      ElementFormat format) {
  uint32_t e = (bitsOf(amax) >> 23) & 0xFF;
  if ((underflow == Underflow::FlushE0 && e == 0) ||
      (underflow == Underflow::FlushLeEmax &&
       e <= uint32_t(formatInfo(format).emax)))
    return 0.0f;
  return scaleMultiplier(s);
}

float scaleValue(uint8_t s) {
  if (s == kScaleNaN)
    return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, int(s) - 127);
}

//===----------------------------------------------------------------------===//
// NVFP4
//===----------------------------------------------------------------------===//

/// C's fminf(v, FLT_MAX): NaN gives FLT_MAX.
static float minFltMax(float v) {
  float m = std::numeric_limits<float>::max();
  return std::isnan(v) || v > m ? m : v;
}

float nvfp4EncodeScale(float amax) {
  const float e4m3Max = formatInfo(ElementFormat::E4M3FN).maxFinite;
  const float e2m1Max = formatInfo(ElementFormat::E2M1FN).maxFinite;
  float s = minFltMax((e4m3Max * e2m1Max) / amax); // 2688, exact
  if (amax == 0.0f || s == 0.0f)
    return 1.0f;
  return s;
}

NVFP4Block nvfp4Block(float amax, float outer, ScaleAlgorithm algorithm) {
  const float e2m1Max = formatInfo(ElementFormat::E2M1FN).maxFinite;
  const FormatInfo &e4m3 = formatInfo(ElementFormat::E4M3FN);
  NVFP4Block b;
  if (algorithm == ScaleAlgorithm::Encode) {
    float k = outer * (1.0f / e2m1Max);
    b.scale = encodeElement(minFltMax(amax * k), ElementFormat::E4M3FN);
    float sDec = 1.0f / outer;
    b.factor = minFltMax(1.0f / (decodeElement(b.scale, ElementFormat::E4M3FN) *
                                 sDec));
    return b;
  }
  assert(algorithm == ScaleAlgorithm::Decode && "not an NVFP4 convention");
  float scaled = (amax / e2m1Max) / outer;
  // torch.clamp: NaN stays NaN.
  float tiny = std::ldexp(1.0f, e4m3.emin());
  if (scaled < tiny)
    scaled = tiny;
  if (scaled > e4m3.maxFinite)
    scaled = e4m3.maxFinite;
  b.scale = encodeElement(scaled, ElementFormat::E4M3FN);
  b.factor = outer * decodeElement(b.scale, ElementFormat::E4M3FN);
  return b;
}

float nvfp4Scaled(float x, float factor, ScaleAlgorithm algorithm) {
  return algorithm == ScaleAlgorithm::Encode ? x * factor : x / factor;
}

//===----------------------------------------------------------------------===//
// Blockwise FP8
//===----------------------------------------------------------------------===//

F32BlockScale f32BlockScale(float amax, const QuantizeOptions &o) {
  const float m = formatInfo(o.format).maxFinite;
  float a = amax < o.amaxFloor ? o.amaxFloor : amax; // NaN stays NaN
  F32BlockScale r;
  if (o.algorithm == ScaleAlgorithm::Encode) {
    float e = 1.0f;
    if (!(std::isinf(a) || a == 0.0f || std::isnan(a))) {
      e = m / a;
      if (std::isinf(e))
        e = sourceMaxFinite(o.source);
      if (o.pow2)
        e = fromBits(bitsOf(e) & 0xFF800000u);
    }
    r.stored = 1.0f / e;
    r.factor = e;
    return r;
  }
  assert(o.algorithm == ScaleAlgorithm::Decode && "not a stored-scale rule");
  bool exact = o.division == Division::Exact;
  float s = exact ? a / m : a * (1.0f / m);
  if (o.pow2) {
    uint32_t bits = bitsOf(std::fabs(s));
    int64_t e = int64_t((bits >> 23) & 0xFF) + ((bits & 0x7FFFFF) != 0);
    e = std::clamp<int64_t>(e, 1, 254);
    s = fromBits(uint32_t(e) << 23);
  }
  r.stored = s;
  r.factor = exact ? s : 1.0f / s;
  return r;
}

float f32Scaled(float x, float factor, const QuantizeOptions &o) {
  if (o.algorithm == ScaleAlgorithm::Decode && o.division == Division::Exact)
    return x / factor;
  return x * factor;
}

//===----------------------------------------------------------------------===//
// Walking blocks and placing their scales
//===----------------------------------------------------------------------===//

namespace {
/// A tensor seen as [outer, n, inner] around `axis`, split into blocks along
/// n; knows where the scale of block (o, b, i) lives in each layout.
struct BlockGrid {
  Shape shape;
  int64_t axis, block, outer = 1, n, inner = 1, blocks;
  ScaleLayout layout;
  Shape scalesShape;
  int64_t swizzleRows = 0, swizzleBytesPerBatch = 0;

  BlockGrid(const Shape &shape, int64_t axis, int64_t block,
            ScaleLayout layout)
      : shape(shape), axis(axis), block(block), layout(layout) {
    for (int64_t d = 0; d < axis; ++d)
      outer *= shape[d];
    n = shape[axis];
    for (size_t d = axis + 1; d < shape.size(); ++d)
      inner *= shape[d];
    blocks = ceilDiv(n, block);
    std::string error;
    bool ok = scaleShape(shape, axis, block, layout, scalesShape, error);
    assert(ok && "the scale layout cannot hold this input");
    (void)ok;
    if (layout == ScaleLayout::Swizzle32x4x4) {
      int64_t rank = shape.size();
      swizzleRows = axis == rank - 1 ? shape[rank - 2] : shape[rank - 1];
      swizzleBytesPerBatch = swizzleBytes(swizzleRows, blocks);
    }
  }

  int64_t index(int64_t o, int64_t k, int64_t i) const {
    return (o * n + k) * inner + i;
  }

  int64_t scaleOffset(int64_t o, int64_t b, int64_t i) const {
    switch (layout) {
    case ScaleLayout::Linear:
      return (o * blocks + b) * inner + i;
    case ScaleLayout::Pairs:
      return pairsOffsetOf<int64_t>(o, b, i, ceilDiv(blocks, 2), inner);
    case ScaleLayout::Swizzle32x4x4: {
      int64_t rank = shape.size();
      // axis = rank-1: o runs over [batch, rows], inner is 1.
      // axis = rank-2: o runs over batch, the row is the inner index.
      int64_t batch = axis == rank - 1 ? o / swizzleRows : o;
      int64_t row = axis == rank - 1 ? o % swizzleRows : i;
      return batch * swizzleBytesPerBatch + swizzleOffset(row, b, blocks);
    }
    }
    return 0;
  }
};
} // namespace

Quantized quantize(const std::vector<float> &x, const Shape &shape,
                   const QuantizeOptions &options) {
  BlockGrid grid(shape, options.axis, options.blockSize, options.layout);
  Quantized q;
  q.codesShape = shape;
  q.codes.assign(x.size(), 0);
  q.scalesShape = grid.scalesShape;
  bool f32 = options.f32Scales;
  if (f32)
    q.scaleValues.assign(numElements(grid.scalesShape), 0.0f);
  else
    q.scales.assign(numElements(grid.scalesShape), kScalePad);
  bool nvfp4 = isE4M3Scale(options.algorithm) && !f32;
  // TE's amax (fmaxf) ignores NaN; every other rule's block amax is NaN
  // where the block holds one.
  bool ignoreNaN = options.algorithm == ScaleAlgorithm::Encode;
  auto combine = [&](float amax, float v) {
    float a = std::fabs(v);
    if (std::isnan(a))
      return ignoreNaN ? amax : std::numeric_limits<float>::quiet_NaN();
    return std::isnan(amax) ? amax : std::max(amax, a);
  };
  // The outer value of each line: S_enc (Encode) or P (Decode).
  float tensorOuter = 1.0f;
  if (nvfp4 && options.outer.size() <= 1) {
    float v = options.outer.empty() ? 1.0f : options.outer[0];
    if (options.algorithm == ScaleAlgorithm::Encode) {
      if (options.outer.empty()) {
        v = 0;
        for (float e : x)
          v = combine(v, e);
      }
      v = nvfp4EncodeScale(v);
    }
    tensorOuter = v;
  }
  auto lineOuter = [&](int64_t o, int64_t i) {
    if (options.outer.size() <= 1)
      return tensorOuter;
    float v = options.outer[o * grid.inner + i];
    return options.algorithm == ScaleAlgorithm::Encode ? nvfp4EncodeScale(v)
                                                       : v;
  };
  for (int64_t o = 0; o < grid.outer; ++o)
    for (int64_t i = 0; i < grid.inner; ++i) {
      float outer = nvfp4 ? lineOuter(o, i) : 0.0f;
      for (int64_t b = 0; b < grid.blocks; ++b) {
        int64_t begin = b * grid.block,
                end = std::min(grid.n, begin + grid.block);
        float amax = 0;
        for (int64_t k = begin; k < end; ++k)
          amax = combine(amax, x[grid.index(o, k, i)]);
        uint8_t s = 0;
        float r;
        if (f32) {
          F32BlockScale fb = f32BlockScale(amax, options);
          q.scaleValues[grid.scaleOffset(o, b, i)] = fb.stored;
          r = fb.factor;
        } else if (nvfp4) {
          NVFP4Block nb = nvfp4Block(amax, outer, options.algorithm);
          s = nb.scale;
          r = nb.factor;
        } else {
          s = scaleByte(amax, options.algorithm, options.inf, options.format);
          r = blockMultiplier(amax, s, options.underflow, options.format);
        }
        if (!f32)
          q.scales[grid.scaleOffset(o, b, i)] = s;
        for (int64_t k = begin; k < end; ++k) {
          int64_t idx = grid.index(o, k, i);
          float p = f32     ? f32Scaled(x[idx], r, options)
                    : nvfp4 ? nvfp4Scaled(x[idx], r, options.algorithm)
                            : x[idx] * r;
          if (options.product == Product::BF16)
            p = roundToSource(SourceType::BF16, p);
          q.codes[idx] = encodeElement(p, options.format, options.rounding,
                                       options.nanElement);
        }
      }
    }
  return q;
}

/// Every code times its block's scale value `scaleAt(offset)` (the offset
/// of the block's scale in the grid's layout), in fp32; NaN canonical.
template <typename ScaleAt>
static std::vector<float> dequantizeBlocks(const std::vector<uint8_t> &codes,
                                           const BlockGrid &grid,
                                           ElementFormat format,
                                           ScaleAt scaleAt) {
  std::vector<float> y(codes.size());
  for (int64_t o = 0; o < grid.outer; ++o)
    for (int64_t i = 0; i < grid.inner; ++i)
      for (int64_t b = 0; b < grid.blocks; ++b) {
        float scale = scaleAt(grid.scaleOffset(o, b, i));
        int64_t begin = b * grid.block,
                end = std::min(grid.n, begin + grid.block);
        for (int64_t k = begin; k < end; ++k) {
          int64_t idx = grid.index(o, k, i);
          float v = decodeElement(codes[idx], format) * scale;
          y[idx] = std::isnan(v) ? std::numeric_limits<float>::quiet_NaN() : v;
        }
      }
  return y;
}

std::vector<float> dequantize(const std::vector<uint8_t> &codes,
                              const Shape &shape,
                              const std::vector<uint8_t> &scales, int64_t axis,
                              int64_t blockSize, ScaleLayout layout,
                              ElementFormat format) {
  return dequantizeBlocks(
      codes, BlockGrid(shape, axis, blockSize, layout), format,
      [&](int64_t at) { return scaleValue(scales[at]); });
}

std::vector<float> dequantizeF32Scales(const std::vector<uint8_t> &codes,
                                       const Shape &shape,
                                       const std::vector<float> &scales,
                                       int64_t axis, int64_t blockSize,
                                       ElementFormat format) {
  return dequantizeBlocks(
      codes, BlockGrid(shape, axis, blockSize, ScaleLayout::Linear), format,
      [&](int64_t at) { return scales[at]; });
}

std::vector<float> dequantizeNVFP4(const std::vector<uint8_t> &codes,
                                   const Shape &shape,
                                   const std::vector<uint8_t> &scales,
                                   int64_t axis, ScaleLayout layout,
                                   ScaleAlgorithm algorithm,
                                   const std::vector<float> &outer) {
  assert(isE4M3Scale(algorithm) && "not an NVFP4 convention");
  BlockGrid grid(shape, axis, kNVFP4Block, layout);
  const float e4m3Max = formatInfo(ElementFormat::E4M3FN).maxFinite;
  const float e2m1Max = formatInfo(ElementFormat::E2M1FN).maxFinite;
  const float inv = 1.0f / (e4m3Max * e2m1Max); // fl32(1/2688)
  std::vector<float> y(codes.size());
  for (int64_t o = 0; o < grid.outer; ++o)
    for (int64_t i = 0; i < grid.inner; ++i) {
      float t = outer.empty()        ? 1.0f
                : outer.size() == 1 ? outer[0]
                                     : outer[o * grid.inner + i];
      for (int64_t b = 0; b < grid.blocks; ++b) {
        float s = decodeElement(scales[grid.scaleOffset(o, b, i)],
                                ElementFormat::E4M3FN);
        float scale =
            algorithm == ScaleAlgorithm::Encode ? (s * t) * inv : t * s;
        int64_t begin = b * grid.block,
                end = std::min(grid.n, begin + grid.block);
        for (int64_t k = begin; k < end; ++k) {
          int64_t idx = grid.index(o, k, i);
          float v = decodeElement(codes[idx], ElementFormat::E2M1FN) * scale;
          y[idx] = std::isnan(v) ? std::numeric_limits<float>::quiet_NaN() : v;
        }
      }
    }
  return y;
}

std::vector<uint8_t> convertScaleLayout(const std::vector<uint8_t> &scales,
                                        const Shape &codesShape, int64_t axis,
                                        int64_t blockSize, ScaleLayout from,
                                        ScaleLayout to, Shape &resultShape) {
  BlockGrid src(codesShape, axis, blockSize, from);
  BlockGrid dst(codesShape, axis, blockSize, to);
  resultShape = dst.scalesShape;
  std::vector<uint8_t> out(numElements(dst.scalesShape), kScalePad);
  for (int64_t o = 0; o < src.outer; ++o)
    for (int64_t i = 0; i < src.inner; ++i)
      for (int64_t b = 0; b < src.blocks; ++b)
        out[dst.scaleOffset(o, b, i)] = scales[src.scaleOffset(o, b, i)];
  return out;
}

DualQuantized dualQuantize(const std::vector<float> &x, const Shape &shape,
                           const QuantizeOptions &options) {
  int64_t rank = shape.size();
  int64_t m = shape[rank - 2], k = shape[rank - 1];
  int64_t batch = numElements(Shape(shape.begin(), shape.end() - 2));
  QuantizeOptions opts = options;
  opts.axis = rank - 1;
  opts.blockSize = 32;
  opts.layout = ScaleLayout::Swizzle32x4x4;
  DualQuantized result;
  result.rows = quantize(x, shape, opts);
  Shape tshape = shape;
  std::swap(tshape[rank - 1], tshape[rank - 2]);
  std::vector<float> xt(x.size());
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t r = 0; r < m; ++r)
      for (int64_t c = 0; c < k; ++c)
        xt[(p * k + c) * m + r] = x[(p * m + r) * k + c];
  result.columns = quantize(xt, tshape, opts);
  return result;
}

TwoLevelQuantized twoLevelQuantize(const std::vector<float> &x,
                                   const Shape &shape, SourceType type,
                                   const std::vector<float> *smooth,
                                   Rounding rounding, NanElement nanElement,
                                   DivDenormals divDenormals) {
  constexpr int64_t kLevel0 = kTwoLevelBlock0, kLevel1 = kTwoLevelBlock1;
  int64_t n = shape.back();
  int64_t rows = n == 0 ? 0 : numElements(shape) / n;
  TwoLevelQuantized out;
  out.codes.assign(x.size(), 0);
  out.level0Shape = shape;
  out.level0Shape.back() = ceilDiv(n, kLevel0);
  std::string error;
  scaleShape(shape, static_cast<int64_t>(shape.size()) - 1, kLevel1,
             ScaleLayout::Pairs, out.level1Shape, error);
  out.level0.assign(numElements(out.level0Shape), 0.0f);
  out.level1.assign(numElements(out.level1Shape), kScalePad);
  int64_t l0PerRow = ceilDiv(n, kLevel0),
          l1PerRow = rows ? numElements(out.level1Shape) / rows : 0;

  std::vector<float> xs(n), temp(n);
  for (int64_t row = 0; row < rows; ++row) {
    const float *in = x.data() + row * n;
    for (int64_t j = 0; j < n; ++j)
      xs[j] = smooth ? roundToSource(type, in[j] * (*smooth)[j]) : in[j];
    // Level 0: fp32 scale per 512, the maximum ignores Inf and NaN.
    for (int64_t b0 = 0; b0 < l0PerRow; ++b0) {
      int64_t begin = b0 * kLevel0, end = std::min(n, begin + kLevel0);
      float amax = 0;
      for (int64_t j = begin; j < end; ++j)
        if (std::isfinite(xs[j]))
          amax = std::max(amax, std::fabs(xs[j]));
      float l0 = amax * (1.0f / formatInfo(ElementFormat::E2M1FN).maxFinite);
      if (bitsOf(l0) < 0x00800000u) // zero or fp32 subnormal
        l0 = 0;
      out.level0[row * l0PerRow + b0] = l0;
      // FTZ (the kernel's Div): subnormal dividends and quotients are +-0.
      auto ftz = [&](float v) {
        return divDenormals == DivDenormals::FTZ && std::isfinite(v) &&
                       (bitsOf(v) & 0x7FFFFFFFu) < 0x00800000u
                   ? std::copysign(0.0f, v)
                   : v;
      };
      for (int64_t j = begin; j < end; ++j)
        temp[j] = xs[j] == 0 ? xs[j]
                             : roundToSource(type, ftz(ftz(xs[j]) / l0));
    }
    // Level 1: OCP floor (emax 2) on the bf16 exponent field of temp.
    for (int64_t b1 = 0; b1 < ceilDiv(n, kLevel1); ++b1) {
      int64_t begin = b1 * kLevel1, end = std::min(n, begin + kLevel1);
      uint32_t maxExp = 0;
      for (int64_t j = begin; j < end; ++j) {
        uint32_t e = std::isfinite(temp[j]) ? (bitsOf(temp[j]) >> 23) & 0xFF
                                            : 0xFF;
        maxExp = std::max(maxExp, e);
      }
      uint8_t byte;
      float multiplier;
      if (maxExp == 0xFF) {
        byte = kScaleNaN;
        multiplier = std::numeric_limits<float>::quiet_NaN();
      } else if (maxExp == 0) {
        byte = 0;
        multiplier = 0.0f;
      } else {
        int emax = formatInfo(ElementFormat::E2M1FN).emax;
        byte = static_cast<uint8_t>(std::max<uint32_t>(maxExp, emax) - emax);
        multiplier = scaleMultiplier(byte);
      }
      out.level1[row * l1PerRow + b1] = byte;
      for (int64_t j = begin; j < end; ++j) {
        float v = roundToSource(SourceType::BF16 == type ? SourceType::BF16
                                                         : SourceType::F32,
                                temp[j] * multiplier);
        out.codes[row * n + j] =
            encodeElement(v, ElementFormat::E2M1FN, rounding, nanElement);
      }
    }
  }
  return out;
}

/// The channel of element `idx` along `axis` (0 for per-tensor parameters).
static int64_t channelOf(int64_t idx, const Shape &shape,
                         std::optional<int64_t> axis) {
  if (!axis)
    return 0;
  int64_t inner = 1;
  for (size_t d = *axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  return (idx / inner) % shape[*axis];
}

std::vector<float> fakeQuant(const std::vector<float> &x, const Shape &shape,
                             SourceType type, const std::vector<float> &step,
                             const std::vector<float> &zeroPoint,
                             ElementFormat format, float quantMin,
                             float quantMax, std::optional<int64_t> axis) {
  std::vector<float> y(x.size());
  for (size_t idx = 0; idx < x.size(); ++idx) {
    int64_t c = channelOf(idx, shape, axis);
    float s = step[c], z = zeroPoint[c];
    float t = x[idx] / s + z;
    if (!std::isnan(t))
      t = std::min(std::max(t, quantMin), quantMax);
    float q = decodeElement(encodeElement(t, format), format);
    float v = (q - z) * s;
    if (std::isnan(v))
      v = std::numeric_limits<float>::quiet_NaN();
    y[idx] = roundToSource(type, v);
  }
  return y;
}

std::vector<float> fakeQuantGrad(const std::vector<float> &grad,
                                 const std::vector<float> &x,
                                 const Shape &shape,
                                 const std::vector<float> &step, float quantMin,
                                 float quantMax, std::optional<int64_t> axis) {
  std::vector<float> g(x.size());
  for (size_t idx = 0; idx < x.size(); ++idx) {
    float s = step[channelOf(idx, shape, axis)];
    float lower = quantMin * s, upper = quantMax * s;
    g[idx] = (x[idx] >= lower && x[idx] <= upper) ? grad[idx] : 0.0f;
  }
  return g;
}

std::vector<uint8_t> packFP4(const std::vector<uint8_t> &codes,
                             const Shape &shape) {
  int64_t n = shape.empty() ? 1 : shape.back();
  int64_t rows = n == 0 ? 0 : numElements(shape) / n;
  int64_t packedN = ceilDiv(n, 2);
  std::vector<uint8_t> packed(rows * packedN, 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < n; ++j)
      packed[r * packedN + j / 2] |= uint8_t((codes[r * n + j] & 0xF)
                                             << (j % 2 ? 4 : 0));
  return packed;
}

std::vector<uint8_t> unpackFP4(const std::vector<uint8_t> &packed,
                               const Shape &shape) {
  int64_t n = shape.empty() ? 1 : shape.back();
  int64_t rows = n == 0 ? 0 : numElements(shape) / n;
  int64_t packedN = ceilDiv(n, 2);
  std::vector<uint8_t> codes(rows * n);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < n; ++j)
      codes[r * n + j] = (packed[r * packedN + j / 2] >> (j % 2 ? 4 : 0)) & 0xF;
  return codes;
}

} // namespace mxq::ref
