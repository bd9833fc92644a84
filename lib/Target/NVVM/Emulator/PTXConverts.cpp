//===- PTXConverts.cpp - software models of PTX's narrow converts ---------===//
#include "mxq/Target/NVVM/PTXConverts.h"
#include "mxq/Support/Formats.h"

#include <cmath>
#include <cstring>

namespace mxq::ptx {
namespace {

struct Layout {
  int exponentBits, mantissaBits, bias;
  double maxFinite;
  bool hasNaN;     ///< the format encodes NaN ...
  uint8_t nanCode; ///< ... as this code (cvt's canonical NaN)
};

/// The fields of a PTX narrow format, from the one format table.
Layout layoutOf(NarrowFormat f) {
  ElementFormat e = ElementFormat::E4M3FN;
  switch (f) {
  case NarrowFormat::E4M3:
    e = ElementFormat::E4M3FN;
    break;
  case NarrowFormat::E5M2:
    e = ElementFormat::E5M2;
    break;
  case NarrowFormat::E2M3:
    e = ElementFormat::E2M3FN;
    break;
  case NarrowFormat::E3M2:
    e = ElementFormat::E3M2FN;
    break;
  case NarrowFormat::E2M1:
    e = ElementFormat::E2M1FN;
    break;
  }
  const FormatInfo &i = formatInfo(e);
  return {int(i.ebits), int(i.mbits), i.bias, double(i.maxFinite), i.hasNaN,
          i.nanCode};
}

/// The magnitude code (no sign) of the finite, non-negative `a`, rounded to
/// nearest even on the format's grid and clamped to the largest finite value.
unsigned encodeMagnitude(double a, const Layout &l) {
  if (a == 0)
    return 0;
  int minExponent = 1 - l.bias; // of the normal numbers
  int e;
  std::frexp(a, &e);           // a = m * 2^e, m in [0.5, 1)
  int exponent = std::max(e - 1, minExponent);
  // The spacing of the grid around a: exact, a power of two.
  double quantum = std::ldexp(1.0, exponent - l.mantissaBits);
  double rounded = std::nearbyint(a / quantum) * quantum; // ties to even
  if (rounded > l.maxFinite)
    rounded = l.maxFinite;
  if (rounded == 0)
    return 0;
  std::frexp(rounded, &e);
  exponent = e - 1;
  if (exponent < minExponent) // subnormal: exponent field 0
    return unsigned(std::ldexp(rounded, l.mantissaBits - minExponent));
  unsigned mantissa = unsigned(std::ldexp(rounded, l.mantissaBits - exponent)) -
                      (1u << l.mantissaBits);
  return (unsigned(exponent + l.bias) << l.mantissaBits) | mantissa;
}

} // namespace

uint8_t convertRNSatFinite(float x, NarrowFormat format, bool relu) {
  Layout l = layoutOf(format);
  unsigned width = 1 + l.exponentBits + l.mantissaBits;
  unsigned signBit = 1u << (width - 1);
  if (std::isnan(x))
    // The canonical NaN of FP8; FP6 and FP4 have none (see the header).
    return uint8_t(l.hasNaN ? l.nanCode : encodeMagnitude(l.maxFinite, l));
  bool negative = std::signbit(x);
  if (relu && negative)
    return 0;
  double a = std::fabs(double(x));
  unsigned magnitude = std::isinf(a) ? encodeMagnitude(l.maxFinite, l)
                                     : encodeMagnitude(a, l);
  return uint8_t((negative ? signBit : 0u) | magnitude);
}

uint8_t convertUE8M0(float x, bool roundUp, bool satfinite) {
  if (std::isnan(x))
    return 0xFF;
  if (std::isinf(x))
    return x > 0 ? (satfinite ? 0xFE : 0xFF) : 0x00;
  if (!(x > 0))
    return 0x00; // zero and negative values: the smallest power, 2^-127
  int e;
  double m = std::frexp(double(x), &e); // x = m * 2^e, m in [0.5, 1)
  int exponent = e - 1;                 // floor(log2 x)
  if (roundUp && m != 0.5)
    ++exponent; // not a power of two: ceil
  if (exponent < -127)
    return 0x00;
  if (exponent > 127)
    return satfinite ? 0xFE : 0xFF;
  return uint8_t(exponent + 127);
}

} // namespace mxq::ptx

using namespace mxq::ptx;

static NarrowFormat formatOf(int32_t f) {
  switch (f) {
  case 1:
    return NarrowFormat::E5M2;
  case 2:
    return NarrowFormat::E2M3;
  case 3:
    return NarrowFormat::E3M2;
  case 4:
    return NarrowFormat::E2M1;
  default:
    return NarrowFormat::E4M3;
  }
}

extern "C" uint16_t mxq_emu_cvt_f8x2(float a, float b, int32_t format,
                                     int32_t relu) {
  NarrowFormat f = formatOf(format);
  return uint16_t(convertRNSatFinite(a, f, relu) << 8 |
                  convertRNSatFinite(b, f, relu));
}

extern "C" uint16_t mxq_emu_cvt_f6x2(float a, float b, int32_t format,
                                     int32_t relu) {
  return mxq_emu_cvt_f8x2(a, b, format, relu);
}

extern "C" uint8_t mxq_emu_cvt_f4x2(float a, float b, int32_t relu) {
  return uint8_t(convertRNSatFinite(a, NarrowFormat::E2M1, relu) << 4 |
                 convertRNSatFinite(b, NarrowFormat::E2M1, relu));
}

extern "C" uint16_t mxq_emu_cvt_ue8m0x2(float a, float b, int32_t roundUp,
                                        int32_t satfinite) {
  return uint16_t(convertUE8M0(a, roundUp, satfinite) << 8 |
                  convertUE8M0(b, roundUp, satfinite));
}
