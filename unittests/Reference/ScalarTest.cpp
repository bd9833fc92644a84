//===- ScalarTest.cpp - element codes, E8M0 rules, f16/bf16 ---------------===//
#include "mxq/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace mxq;
using namespace mxq::ref;

namespace {
const ElementFormat kFormats[] = {ElementFormat::E4M3FN, ElementFormat::E5M2,
                                  ElementFormat::E2M3FN, ElementFormat::E3M2FN,
                                  ElementFormat::E2M1FN};
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

/// An independent oracle: the nearest finite code by exhaustive search over
/// the format's positive codes; ties go to the code with an even mantissa;
/// beyond the largest value saturates.
uint8_t nearestCodeBySearch(float v, ElementFormat f) {
  const FormatInfo &info = formatInfo(f);
  double m = std::fabs(double(v));
  if (m >= info.maxFinite) // saturating conversion
    return std::signbit(v) ? uint8_t(info.maxCode | info.signBit())
                           : info.maxCode;
  uint8_t best = 0;
  double bestDist = std::numeric_limits<double>::infinity();
  for (unsigned c = 0; c <= info.maxCode; ++c) {
    double value = decodeElement(uint8_t(c), f);
    double dist = std::fabs(value - m);
    if (dist < bestDist || (dist == bestDist && (c & 1) == 0)) {
      best = uint8_t(c);
      bestDist = dist;
    }
  }
  return std::signbit(v) ? uint8_t(best | info.signBit()) : best;
}
} // namespace

TEST(RCeil, PyTorchScalarTable) {
  // make_f32_to_e8m0_rceil_cases (mx-semantics §2.3).
  struct Case {
    uint32_t bits;
    uint8_t byte;
  } cases[] = {{0x00000000, 0},   {0x00000001, 0},   {0x00400000, 0},
               {0x00400001, 1},   {0x007FFFFF, 1},   {0x00800000, 1},
               {0x1F800000, 63},  {0x1F800001, 64},  {0x3F7FFFFF, 127},
               {0x3F800000, 127}, {0x3F800001, 128}, {0x7F000000, 254},
               {0x7F000001, 255}, {0x7F7FFFFF, 255}, {0x7F800000, 255},
               {0x7FC00000, 255}};
  for (const Case &c : cases)
    EXPECT_EQ(rceilE8M0(fromBits(c.bits)), c.byte) << std::hex << c.bits;
}

TEST(RCeil, MultiplyNotDivide) {
  // The one amax per maximum where fl32(a * fl32(1/max)) and a / max differ
  // (§1.4): kernels multiply and get byte 0.
  EXPECT_EQ(scaleByte(fromBits(0x04600001), ScaleAlgorithm::RCeil,
                      InfPolicy::NaN, ElementFormat::E4M3FN),
            0);
  EXPECT_EQ(scaleByte(fromBits(0x01400001), ScaleAlgorithm::RCeil,
                      InfPolicy::NaN, ElementFormat::E2M1FN),
            0);
}

TEST(RCeil, IsFloorPlusMantissaStep) {
  // RCEIL = FLOOR + [mantissa(a) > mantissa(max)] whenever d is normal.
  uint32_t state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 1664525u + 1013904223u;
    uint32_t exponent = 20 + (state >> 8) % 200, mantissa = state & 0x7FFFFF;
    float a = fromBits(exponent << 23 | mantissa);
    uint8_t fl = scaleByte(a, ScaleAlgorithm::Floor, InfPolicy::NaN,
                           ElementFormat::E4M3FN);
    uint8_t rc = scaleByte(a, ScaleAlgorithm::RCeil, InfPolicy::NaN,
                           ElementFormat::E4M3FN);
    ASSERT_EQ(rc, fl + (mantissa > 0x600000)) << std::hex << bitsOf(a);
    fl = scaleByte(a, ScaleAlgorithm::Floor, InfPolicy::NaN,
                   ElementFormat::E2M1FN);
    rc = scaleByte(a, ScaleAlgorithm::RCeil, InfPolicy::NaN,
                   ElementFormat::E2M1FN);
    ASSERT_EQ(rc, fl + (mantissa > 0x400000)) << std::hex << bitsOf(a);
  }
}

TEST(Floor, ExponentRule) {
  auto floorE4M3 = [](float a) {
    return scaleByte(a, ScaleAlgorithm::Floor, InfPolicy::NaN,
                     ElementFormat::E4M3FN);
  };
  EXPECT_EQ(floorE4M3(0.0f), 0);
  EXPECT_EQ(floorE4M3(fromBits(0x00000001)), 0); // subnormal amax
  EXPECT_EQ(floorE4M3(fromBits(0x04000000)), 0); // E = 8
  EXPECT_EQ(floorE4M3(fromBits(0x04800000)), 1); // E = 9
  EXPECT_EQ(floorE4M3(1.0f), 119);
  EXPECT_EQ(floorE4M3(std::numeric_limits<float>::max()), 254 - 8);
  EXPECT_EQ(scaleByte(1.0f, ScaleAlgorithm::Floor, InfPolicy::NaN,
                      ElementFormat::E2M1FN),
            125);
}

TEST(Scale, CeilAndEven) {
  // ceil: 2^(ceil(log2 a) - emax); even: floor after rounding a to the
  // element's mantissa width.
  EXPECT_EQ(scaleByte(1.0f, ScaleAlgorithm::Ceil, InfPolicy::NaN,
                      ElementFormat::E4M3FN),
            119);
  EXPECT_EQ(scaleByte(1.5f, ScaleAlgorithm::Ceil, InfPolicy::NaN,
                      ElementFormat::E4M3FN),
            120);
  EXPECT_EQ(scaleByte(fromBits(0x00000001), ScaleAlgorithm::Ceil,
                      InfPolicy::NaN, ElementFormat::E4M3FN),
            0);
  // E4M3 keeps 3 mantissa bits: 1.9375 = 1.1111b rounds up to 2.
  EXPECT_EQ(scaleByte(1.9375f, ScaleAlgorithm::Even, InfPolicy::NaN,
                      ElementFormat::E4M3FN),
            120);
  EXPECT_EQ(scaleByte(1.875f, ScaleAlgorithm::Even, InfPolicy::NaN,
                      ElementFormat::E4M3FN),
            119);
  // E2M1 keeps 1 bit: 1.75 rounds up to 2, 1.5 stays.
  EXPECT_EQ(scaleByte(1.75f, ScaleAlgorithm::Even, InfPolicy::NaN,
                      ElementFormat::E2M1FN),
            126);
  EXPECT_EQ(scaleByte(1.5f, ScaleAlgorithm::Even, InfPolicy::NaN,
                      ElementFormat::E2M1FN),
            125);
}

TEST(Scale, TosaCalcBlockScale) {
  // TOSA calc_block_scale, out_max = largest + half an ulp: E4M3 takes
  // ceil(log2(amax / 464)), the others floor(log2(amax / out_max)) + 1.
  auto tosa = [](float amax, ElementFormat f) {
    return scaleByte(amax, ScaleAlgorithm::Tosa, InfPolicy::NaN, f);
  };
  EXPECT_EQ(tosaOutMax(formatInfo(ElementFormat::E4M3FN)), 464.0f);
  EXPECT_EQ(tosaOutMax(formatInfo(ElementFormat::E5M2)), 61440.0f);
  EXPECT_EQ(tosaOutMax(formatInfo(ElementFormat::E2M3FN)), 7.75f);
  EXPECT_EQ(tosaOutMax(formatInfo(ElementFormat::E3M2FN)), 30.0f);
  EXPECT_EQ(tosaOutMax(formatInfo(ElementFormat::E2M1FN)), 7.0f);
  // 464 / 464 = 1: ceil(0) = 0, byte 127; just above, 128; 448: 127.
  EXPECT_EQ(tosa(464.0f, ElementFormat::E4M3FN), 127);
  EXPECT_EQ(tosa(464.00003f, ElementFormat::E4M3FN), 128);
  EXPECT_EQ(tosa(448.0f, ElementFormat::E4M3FN), 127);
  // 7 / 7 = 1: floor(0) + 1 = 1, byte 128; 6.5: floor(-0.1) + 1 = 0.
  EXPECT_EQ(tosa(7.0f, ElementFormat::E2M1FN), 128);
  EXPECT_EQ(tosa(6.5f, ElementFormat::E2M1FN), 127);
  EXPECT_EQ(tosa(3.5f, ElementFormat::E2M1FN), 127);
  EXPECT_EQ(tosa(3.4999998f, ElementFormat::E2M1FN), 126);
  EXPECT_EQ(tosa(61440.0f, ElementFormat::E5M2), 128);
  EXPECT_EQ(tosa(57344.0f, ElementFormat::E5M2), 127);
  // Where even and tosa part for E4M3: 1.8125 * 2^8 < amax < 1.875 * 2^8.
  EXPECT_EQ(tosa(470.0f, ElementFormat::E4M3FN), 128);
  EXPECT_EQ(scaleByte(470.0f, ScaleAlgorithm::Even, InfPolicy::NaN,
                      ElementFormat::E4M3FN),
            127);
  // The one FP4 amax where the pseudocode's division in the input type and
  // the exact quotient part: 7 * 2^-127 - 2^-148 (bits 0x015FFFFF). Exact:
  // just below 2^-127, floor(log2) + 1 = -127, byte 0; fl32(amax / 7) rounds
  // up to 2^-127 (a subnormal), which would give byte 1. mxq takes the
  // exact quotient (docs/Rationale.md, "TOSA ingress").
  EXPECT_EQ(tosa(fromBits(0x015FFFFF), ElementFormat::E2M1FN), 0);
  EXPECT_EQ(tosa(fromBits(0x01600000), ElementFormat::E2M1FN), 1);
  // Zero: 2^-127; a subnormal amax clips there too; the largest finite amax
  // is far from 2^127.
  EXPECT_EQ(tosa(0.0f, ElementFormat::E2M1FN), 0);
  EXPECT_EQ(tosa(1e-40f, ElementFormat::E2M1FN), 0);
  EXPECT_EQ(tosa(std::numeric_limits<float>::max(), ElementFormat::E2M1FN),
            253);
}

TEST(Scale, SpecialValuePolicies) {
  for (ScaleAlgorithm a : {ScaleAlgorithm::Floor, ScaleAlgorithm::RCeil,
                           ScaleAlgorithm::Ceil, ScaleAlgorithm::Even,
                           ScaleAlgorithm::Tosa})
    for (InfPolicy p : {InfPolicy::NaN, InfPolicy::Saturate})
      for (ElementFormat f : kFormats) {
        EXPECT_EQ(scaleByte(kNaN, a, p, f), 0xFF);
        EXPECT_EQ(scaleByte(kInf, a, p, f), p == InfPolicy::NaN ? 0xFF : 0xFE);
        EXPECT_EQ(scaleByte(0.0f, a, p, f), 0);
      }
  // PyPTO OCP: an infinity follows the floor exponent path.
  EXPECT_EQ(scaleByte(kInf, ScaleAlgorithm::Floor, InfPolicy::Exponent,
                      ElementFormat::E4M3FN),
            247);
  EXPECT_EQ(scaleByte(kInf, ScaleAlgorithm::Floor, InfPolicy::Exponent,
                      ElementFormat::E2M1FN),
            253);
  EXPECT_EQ(scaleByte(kNaN, ScaleAlgorithm::Floor, InfPolicy::Exponent,
                      ElementFormat::E2M1FN),
            0xFF);
}

TEST(Scale, Multipliers) {
  EXPECT_EQ(bitsOf(scaleMultiplier(0)), 0x7F000000u);   // 2^127
  EXPECT_EQ(bitsOf(scaleMultiplier(254)), 0x00400000u); // 2^-127, subnormal
  EXPECT_EQ(scaleMultiplier(127), 1.0f);
  EXPECT_TRUE(std::isnan(scaleMultiplier(255)));
  EXPECT_EQ(bitsOf(scaleValue(0)), 0x00400000u);
  EXPECT_EQ(bitsOf(scaleValue(254)), 0x7F000000u);
  EXPECT_TRUE(std::isnan(scaleValue(255)));
  for (int s = 0; s < 255; ++s)
    EXPECT_EQ(scaleMultiplier(s) * scaleValue(s), 1.0f) << s;
}

TEST(Element, E4M3Edges) {
  auto e = [](float v) { return encodeElement(v, ElementFormat::E4M3FN); };
  EXPECT_EQ(e(448.0f), 0x7E);
  EXPECT_EQ(e(464.0f), 0x7E); // tie to even stays 448
  EXPECT_EQ(e(480.0f), 0x7E); // saturates (480 would be the NaN code)
  EXPECT_EQ(e(1e30f), 0x7E);
  EXPECT_EQ(e(-1e30f), 0xFE);
  EXPECT_EQ(e(kInf), 0x7E);
  EXPECT_EQ(e(-kInf), 0xFE);
  EXPECT_EQ(e(kNaN), 0x7F);
  EXPECT_EQ(e(-0.0f), 0x80);
  EXPECT_EQ(e(std::ldexp(1.0f, -9)), 0x01);  // smallest subnormal
  EXPECT_EQ(e(std::ldexp(1.0f, -10)), 0x00); // tie to even: 0
  EXPECT_EQ(e(-std::ldexp(1.0f, -10)), 0x80);
  EXPECT_EQ(e(std::ldexp(3.0f, -11)), 0x01);
  EXPECT_EQ(e(std::ldexp(1.0f, -6)), 0x08); // smallest normal
  EXPECT_EQ(e(17.0f), 0x58);                // tie 16 | 18 -> 16
  EXPECT_EQ(e(240.0f), 0x77);
}

TEST(Element, E5M2E2M3E3M2Edges) {
  EXPECT_EQ(encodeElement(57344.0f, ElementFormat::E5M2), 0x7B);
  EXPECT_EQ(encodeElement(61440.0f, ElementFormat::E5M2), 0x7B); // tie, sat
  EXPECT_EQ(encodeElement(kInf, ElementFormat::E5M2), 0x7B);
  EXPECT_EQ(encodeElement(kNaN, ElementFormat::E5M2), 0x7F);
  EXPECT_TRUE(std::isinf(decodeElement(0x7C, ElementFormat::E5M2)));
  EXPECT_TRUE(std::isnan(decodeElement(0x7D, ElementFormat::E5M2)));
  EXPECT_EQ(encodeElement(7.5f, ElementFormat::E2M3FN), 0x1F);
  EXPECT_EQ(encodeElement(100.0f, ElementFormat::E2M3FN), 0x1F);
  EXPECT_EQ(encodeElement(0.125f, ElementFormat::E2M3FN), 0x01);
  EXPECT_EQ(encodeElement(-7.5f, ElementFormat::E2M3FN), 0x3F);
  EXPECT_EQ(encodeElement(28.0f, ElementFormat::E3M2FN), 0x1F);
  EXPECT_EQ(encodeElement(0.0625f, ElementFormat::E3M2FN), 0x01);
  EXPECT_EQ(encodeElement(kNaN, ElementFormat::E3M2FN), 0x1F);
  EXPECT_EQ(encodeElement(kNaN, ElementFormat::E3M2FN, Rounding::RNE,
                          NanElement::Zero),
            0x00);
}

TEST(Element, E2M1TiesAndModes) {
  auto e = [](float v, Rounding r = Rounding::RNE) {
    return encodeElement(v, ElementFormat::E2M1FN, r);
  };
  // RNE ties (§1.3).
  EXPECT_EQ(e(0.25f), 0x0);
  EXPECT_EQ(e(0.75f), 0x2);
  EXPECT_EQ(e(1.25f), 0x2);
  EXPECT_EQ(e(1.75f), 0x4);
  EXPECT_EQ(e(2.5f), 0x4);
  EXPECT_EQ(e(3.5f), 0x6);
  EXPECT_EQ(e(5.0f), 0x6);
  EXPECT_EQ(e(7.0f), 0x7);
  EXPECT_EQ(e(-0.3f), 0x9); // keeps the sign in (-0.5, -0.25)
  EXPECT_EQ(e(-0.25f), 0x8);
  EXPECT_EQ(e(kNaN), 0x7);
  EXPECT_EQ(encodeElement(kNaN, ElementFormat::E2M1FN, Rounding::RNE,
                          NanElement::Zero),
            0x0);
  EXPECT_EQ(e(-kInf), 0xF);
  // CANN "round": ties away from zero.
  EXPECT_EQ(e(0.25f, Rounding::Away), 0x1);
  EXPECT_EQ(e(2.5f, Rounding::Away), 0x5);
  EXPECT_EQ(e(-1.25f, Rounding::Away), 0xB);
  EXPECT_EQ(e(1.2f, Rounding::Away), 0x2);
  // CANN "floor": toward -inf on the signed value.
  EXPECT_EQ(e(1.25f, Rounding::Floor), 0x2);
  EXPECT_EQ(e(1.99f, Rounding::Floor), 0x3);
  EXPECT_EQ(e(-1.25f, Rounding::Floor), 0xB);
  EXPECT_EQ(e(-0.1f, Rounding::Floor), 0x9);
  EXPECT_EQ(e(0.1f, Rounding::Floor), 0x0);
  EXPECT_EQ(e(7.0f, Rounding::Floor), 0x7);
  EXPECT_EQ(e(-7.0f, Rounding::Floor), 0xF);
}

TEST(Element, EveryCodeRoundTrips) {
  for (ElementFormat f : kFormats) {
    const FormatInfo &info = formatInfo(f);
    for (unsigned c = 0; c < (1u << info.bits); ++c) {
      float v = decodeElement(uint8_t(c), f);
      if (std::isnan(v) || std::isinf(v))
        continue;
      EXPECT_EQ(encodeElement(v, f), c) << info.name << " code " << c;
    }
  }
}

TEST(Element, ExhaustiveF16AndBF16AgainstSearch) {
  for (ElementFormat f : kFormats)
    for (int kind = 0; kind < 2; ++kind)
      for (uint32_t b = 0; b < 0x10000; ++b) {
        float v = kind == 0 ? fromF16Bits(uint16_t(b)) : fromBF16Bits(uint16_t(b));
        if (std::isnan(v))
          continue;
        ASSERT_EQ(encodeElement(v, f), nearestCodeBySearch(v, f))
            << formatInfo(f).name << (kind ? " bf16 " : " f16 ") << std::hex
            << b << " value " << v;
      }
}

TEST(Source, F16AndBF16Rounding) {
  EXPECT_EQ(toF16Bits(65504.0f), 0x7BFF);
  EXPECT_EQ(toF16Bits(65519.0f), 0x7BFF);
  EXPECT_EQ(toF16Bits(65520.0f), 0x7C00); // rounds past the maximum
  EXPECT_EQ(toF16Bits(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(toF16Bits(std::ldexp(1.0f, -25)), 0x0000); // tie to even
  EXPECT_EQ(toF16Bits(std::ldexp(3.0f, -26)), 0x0001);
  EXPECT_EQ(toF16Bits(-kInf), 0xFC00);
  EXPECT_EQ(toBF16Bits(1.0f + std::ldexp(1.0f, -8)), 0x3F80); // tie to even
  EXPECT_EQ(toBF16Bits(1.0f + std::ldexp(3.0f, -9)), 0x3F81);
  EXPECT_EQ(toBF16Bits(1.0f + std::ldexp(3.0f, -8)), 0x3F82); // tie to even
  EXPECT_EQ(toBF16Bits(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(toBF16Bits(fromBits(0x00010000)), 0x0001); // subnormal
  for (uint32_t b = 0; b < 0x10000; ++b) {
    float h = fromF16Bits(uint16_t(b)), g = fromBF16Bits(uint16_t(b));
    if (!std::isnan(h)) {
      ASSERT_EQ(toF16Bits(h), b) << std::hex << b;
    }
    if (!std::isnan(g)) {
      ASSERT_EQ(toBF16Bits(g), b) << std::hex << b;
      ASSERT_EQ(bitsOf(g), b << 16) << std::hex << b;
    }
  }
}
