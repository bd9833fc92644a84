//===- LanesTest.cpp - the vector unit's lane model on its own ------------===//
//
// The simulator's lane model (mxq/Target/Ascend/Lanes.h) against what the
// vector unit is published to do (ascend-model.md §3.3) and against
// brute-force oracles written here: a cast's result is found by searching
// the sorted values of the target format for the neighbours of the input
// and choosing between them by the round mode's definition, with no
// rounding arithmetic at all. Nothing here includes the reference.
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/Ascend/Lanes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace mxq::vtile;
using lanes::LaneType;

namespace {

uint32_t bitsOf(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}
float fromBits(uint32_t b) {
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}
float fromBF16(uint32_t b) { return fromBits(b << 16); }

const RoundMode kModes[] = {RoundMode::rint, RoundMode::round,
                            RoundMode::floor, RoundMode::ceil,
                            RoundMode::trunc};

/// A target format as the oracle sees it: its positive finite values with
/// their codes, sorted, and the value one step above the largest (where an
/// unbounded exponent would put it) with whether its code would be even.
struct Grid {
  LaneType type;
  unsigned bits;
  std::vector<std::pair<double, uint32_t>> values; // (value, code)
  double beyond;
  bool beyondEven;
  uint32_t signBit() const { return 1u << (bits - 1); }
};

/// The grid of a code or narrow float type, from its decode (checked
/// against literals and for monotonicity below).
Grid gridOf(LaneType t) {
  Grid g;
  g.type = t;
  g.bits = lanes::widthOf(t);
  LaneType wide = t == LaneType::E2M1 ? LaneType::BF16 : LaneType::F32;
  for (uint32_t c = 0; c < (1u << (g.bits - 1)); ++c) {
    uint32_t d = lanes::cast(t, wide, RoundMode::none, false, c);
    double v = wide == LaneType::BF16 ? double(fromBF16(d))
                                      : double(fromBits(d));
    if (t == LaneType::BF16 || t == LaneType::F16)
      v = double(lanes::floatOf(c, t));
    if (std::isfinite(v))
      g.values.push_back({v, c});
  }
  std::sort(g.values.begin(), g.values.end());
  double max = g.values.back().first, below = g.values[g.values.size() - 2].first;
  g.beyond = max + (max - below);
  // The step above the largest: a power of two (even) unless the format
  // spends its top binade on NaN only (E4M3: 480 = 1.111 x 2^8, odd).
  g.beyondEven = t != LaneType::E4M3;
  return g;
}

bool evenCode(uint32_t c) { return (c & 1) == 0; }

/// What a cast of the finite `x` to `g` must give, by the definitions.
/// nullopt: an overflow (the caller knows what the cast does then).
std::optional<uint32_t> oracle(const Grid &g, double x, RoundMode mode) {
  bool negative = std::signbit(x);
  double a = std::fabs(x);
  uint32_t sign = negative ? g.signBit() : 0;
  auto it = std::lower_bound(
      g.values.begin(), g.values.end(), a,
      [](const std::pair<double, uint32_t> &p, double v) { return p.first < v; });
  if (it != g.values.end() && it->first == a)
    return sign | it->second;
  // Neighbours lo < a < hi; hi may be the step beyond the largest.
  auto lo = *(it - 1);
  bool hiBeyond = it == g.values.end();
  double hi = hiBeyond ? g.beyond : it->first;
  bool hiEven = hiBeyond ? g.beyondEven : evenCode(it->second);
  bool up;
  switch (mode) {
  case RoundMode::rint:
    up = a - lo.first > hi - a ||
         (a - lo.first == hi - a && hiEven && !evenCode(lo.second));
    break;
  case RoundMode::round:
    up = a - lo.first >= hi - a;
    break;
  case RoundMode::floor:
    up = negative;
    break;
  case RoundMode::ceil:
    up = !negative;
    break;
  default: // trunc
    up = false;
    break;
  }
  if (!up)
    return sign | lo.second;
  if (hiBeyond)
    return std::nullopt;
  return sign | it->second;
}

/// Every bf16 value, every f16 value and random f32 bit patterns.
std::vector<float> inputs(bool bf16Only) {
  std::vector<float> v;
  for (uint32_t b = 0; b < 0x10000; ++b) {
    v.push_back(fromBF16(b));
    if (!bf16Only)
      v.push_back(lanes::floatOf(b, LaneType::F16));
  }
  if (!bf16Only) {
    std::mt19937 rng(11);
    for (int i = 0; i < 300000; ++i)
      v.push_back(fromBits(uint32_t(rng())));
  }
  return v;
}

uint32_t castF32(LaneType to, RoundMode mode, bool sat, float x) {
  return lanes::cast(LaneType::F32, to, mode, sat, bitsOf(x));
}
uint32_t castBF16(LaneType to, RoundMode mode, bool sat, float x) {
  return lanes::cast(LaneType::BF16, to, mode, sat, bitsOf(x) >> 16);
}

} // namespace

//===----------------------------------------------------------------------===//
// Decodes: literals of the formats' definitions, and monotone codes
//===----------------------------------------------------------------------===//

TEST(AscendLanes, DecodesAreTheFormatsValues) {
  auto e4m3 = [](uint32_t c) {
    return fromBits(lanes::cast(LaneType::E4M3, LaneType::F32, RoundMode::none,
                                false, c));
  };
  auto e5m2 = [](uint32_t c) {
    return fromBits(lanes::cast(LaneType::E5M2, LaneType::F32, RoundMode::none,
                                false, c));
  };
  EXPECT_EQ(e4m3(0x00), 0.0f);
  EXPECT_EQ(bitsOf(e4m3(0x80)), 0x80000000u);
  EXPECT_EQ(e4m3(0x01), std::ldexp(1.0f, -9)); // least subnormal
  EXPECT_EQ(e4m3(0x07), 7 * std::ldexp(1.0f, -9));
  EXPECT_EQ(e4m3(0x08), std::ldexp(1.0f, -6)); // least normal
  EXPECT_EQ(e4m3(0x38), 1.0f);
  EXPECT_EQ(e4m3(0x7E), 448.0f);
  EXPECT_EQ(e4m3(0xFE), -448.0f);
  EXPECT_EQ(bitsOf(e4m3(0x7F)), 0x7FC00000u); // NaN
  EXPECT_EQ(bitsOf(e4m3(0xFF)), 0xFFC00000u);
  EXPECT_EQ(e5m2(0x01), std::ldexp(1.0f, -16));
  EXPECT_EQ(e5m2(0x3C), 1.0f);
  EXPECT_EQ(e5m2(0x7B), 57344.0f);
  EXPECT_EQ(bitsOf(e5m2(0x7C)), 0x7F800000u); // +Inf
  EXPECT_EQ(bitsOf(e5m2(0xFC)), 0xFF800000u);
  for (uint32_t c : {0x7Du, 0x7Eu, 0x7Fu, 0xFDu})
    EXPECT_TRUE(std::isnan(e5m2(c))) << c;
  const float e2m1[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (uint32_t c = 0; c < 16; ++c) {
    float v = fromBF16(lanes::cast(LaneType::E2M1, LaneType::BF16,
                                   RoundMode::none, false, c));
    EXPECT_EQ(v, c & 8 ? -e2m1[c & 7] : e2m1[c & 7]) << c;
    EXPECT_EQ(std::signbit(v), bool(c & 8)) << c;
  }
}

TEST(AscendLanes, PositiveCodesIncreaseWithTheirValue) {
  for (LaneType t : {LaneType::E4M3, LaneType::E5M2, LaneType::E2M1,
                     LaneType::BF16, LaneType::F16}) {
    Grid g = gridOf(t);
    for (size_t i = 1; i < g.values.size(); ++i) {
      EXPECT_LT(g.values[i - 1].first, g.values[i].first);
      EXPECT_EQ(g.values[i - 1].second + 1, g.values[i].second);
    }
  }
}

TEST(AscendLanes, WideningIsExact) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    // bf16 is the top half of an f32, NaN payloads included.
    EXPECT_EQ(lanes::cast(LaneType::BF16, LaneType::F32, RoundMode::none,
                          false, b),
              b << 16);
    // f16 to f32 and back is the identity on every non-NaN value.
    uint32_t f = lanes::cast(LaneType::F16, LaneType::F32, RoundMode::none,
                             false, b);
    if (!std::isnan(fromBits(f))) {
      EXPECT_EQ(castF32(LaneType::F16, RoundMode::rint, false, fromBits(f)), b);
    }
  }
  EXPECT_EQ(lanes::floatOf(0x3C00, LaneType::F16), 1.0f);
  EXPECT_EQ(lanes::floatOf(0x0001, LaneType::F16), std::ldexp(1.0f, -24));
  EXPECT_EQ(lanes::floatOf(0x7BFF, LaneType::F16), 65504.0f);
}

//===----------------------------------------------------------------------===//
// Narrowing casts against the oracle
//===----------------------------------------------------------------------===//

TEST(AscendLanes, F32ToFP8MatchesTheOracle) {
  std::vector<float> in = inputs(false);
  for (LaneType t : {LaneType::E4M3, LaneType::E5M2}) {
    Grid g = gridOf(t);
    uint32_t maxCode = g.values.back().second;
    for (float x : in) {
      if (!std::isfinite(x))
        continue;
      std::optional<uint32_t> want = oracle(g, x, RoundMode::rint);
      uint32_t sign = std::signbit(x) ? 0x80 : 0;
      // Saturating: an overflow gives the largest finite magnitude.
      ASSERT_EQ(castF32(t, RoundMode::rint, true, x),
                want ? *want : sign | maxCode)
          << int(t) << " " << x;
      // Not saturating: E5M2 overflows to its infinity, E4M3 to NaN.
      uint32_t overflow = t == LaneType::E5M2 ? sign | 0x7C : 0x7F;
      ASSERT_EQ(castF32(t, RoundMode::rint, false, x), want ? *want : overflow)
          << int(t) << " " << x;
    }
  }
}

TEST(AscendLanes, BF16ToFP4MatchesTheOracleInEveryMode) {
  Grid g = gridOf(LaneType::E2M1);
  for (RoundMode mode : kModes)
    for (uint32_t b = 0; b < 0x10000; ++b) {
      float x = fromBF16(b);
      if (!std::isfinite(x))
        continue;
      std::optional<uint32_t> want = oracle(g, x, mode);
      // Always saturating: an overflow gives +-6.
      uint32_t expect = want ? *want : (std::signbit(x) ? 0xF : 0x7);
      ASSERT_EQ(castBF16(LaneType::E2M1, mode, true, x), expect)
          << int(mode) << " " << x;
    }
}

TEST(AscendLanes, F32ToBF16AndF16MatchTheOracleInEveryMode) {
  std::vector<float> in;
  std::mt19937 rng(5);
  for (int i = 0; i < 200000; ++i)
    in.push_back(fromBits(uint32_t(rng())));
  for (uint32_t b = 0; b < 0x10000; ++b) { // ties and near-ties of bf16
    in.push_back(fromBits((b << 16) | 0x8000));
    in.push_back(fromBits((b << 16) | 0x7FFF));
    in.push_back(fromBits((b << 16) | 0x8001));
  }
  for (LaneType t : {LaneType::BF16, LaneType::F16}) {
    Grid g = gridOf(t);
    uint32_t maxCode = g.values.back().second;
    uint32_t inf = t == LaneType::BF16 ? 0x7F80 : 0x7C00;
    for (RoundMode mode : kModes)
      for (float x : in) {
        if (!std::isfinite(x))
          continue;
        std::optional<uint32_t> want = oracle(g, x, mode);
        uint32_t sign = std::signbit(x) ? g.signBit() : 0;
        bool towardZero =
            mode == RoundMode::trunc ||
            (mode == RoundMode::floor && !std::signbit(x)) ||
            (mode == RoundMode::ceil && std::signbit(x));
        // IEEE 754 §7.4: an overflow gives the infinity, or the largest
        // finite value where the mode rounds toward zero.
        uint32_t overflow = sign | (towardZero ? maxCode : inf);
        ASSERT_EQ(castF32(t, mode, false, x), want ? *want : overflow)
            << int(t) << " " << int(mode) << " " << x;
        ASSERT_EQ(castF32(t, mode, true, x), want ? *want : sign | maxCode)
            << int(t) << " " << int(mode) << " " << x;
      }
  }
}

//===----------------------------------------------------------------------===//
// The published corner cases (ascend-model.md §3.3)
//===----------------------------------------------------------------------===//

TEST(AscendLanes, FP8CastSpecialsAsPublished) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  float inf = std::numeric_limits<float>::infinity();
  for (LaneType t : {LaneType::E4M3, LaneType::E5M2}) {
    // SAT: a NaN gives 0 (CTRL[50] = 0); infinities saturate.
    EXPECT_EQ(castF32(t, RoundMode::rint, true, nan), 0u);
    EXPECT_EQ(castF32(t, RoundMode::rint, true, -nan), 0u);
    EXPECT_EQ(castF32(t, RoundMode::rint, true, inf),
              t == LaneType::E4M3 ? 0x7Eu : 0x7Bu);
    EXPECT_EQ(castF32(t, RoundMode::rint, true, -inf),
              t == LaneType::E4M3 ? 0xFEu : 0xFBu);
    // NO_SAT: NaN stays NaN.
    EXPECT_EQ(castF32(t, RoundMode::rint, false, nan), 0x7Fu);
    EXPECT_EQ(castF32(t, RoundMode::rint, true, -0.0f), 0x80u);
  }
  // CTRL[50] set: a saturating cast keeps a NaN as the NaN code; the rest
  // of the cast is unchanged.
  for (LaneType t : {LaneType::E4M3, LaneType::E5M2}) {
    EXPECT_EQ(lanes::cast(LaneType::F32, t, RoundMode::rint, true,
                          bitsOf(nan), /*satNaN=*/true),
              0x7Fu);
    EXPECT_EQ(lanes::cast(LaneType::F32, t, RoundMode::rint, true,
                          bitsOf(inf), /*satNaN=*/true),
              t == LaneType::E4M3 ? 0x7Eu : 0x7Bu);
    EXPECT_EQ(lanes::cast(LaneType::F32, t, RoundMode::rint, true,
                          bitsOf(-1.5f), /*satNaN=*/true),
              castF32(t, RoundMode::rint, true, -1.5f));
  }
  // It does not reach FP4, which has no NaN.
  EXPECT_EQ(lanes::cast(LaneType::BF16, LaneType::E2M1, RoundMode::rint, true,
                        bitsOf(nan) >> 16, /*satNaN=*/true),
            0u);
  // NO_SAT: an E4M3 overflow or infinity is NaN (no Inf); E5M2 has Inf.
  EXPECT_EQ(castF32(LaneType::E4M3, RoundMode::rint, false, inf), 0x7Fu);
  EXPECT_EQ(castF32(LaneType::E4M3, RoundMode::rint, false, 465.0f), 0x7Fu);
  EXPECT_EQ(castF32(LaneType::E5M2, RoundMode::rint, false, -inf), 0xFCu);
  // Ties: 464 is halfway from 448 (1.110) to 480 (1.111, beyond): even.
  EXPECT_EQ(castF32(LaneType::E4M3, RoundMode::rint, false, 464.0f), 0x7Eu);
  EXPECT_EQ(castF32(LaneType::E4M3, RoundMode::rint, true, 465.0f), 0x7Eu);
  // 61440 is halfway from 57344 (1.11) to 65536 (beyond, even): overflow.
  EXPECT_EQ(castF32(LaneType::E5M2, RoundMode::rint, false, 61440.0f), 0x7Cu);
  EXPECT_EQ(castF32(LaneType::E5M2, RoundMode::rint, false, 61439.0f), 0x7Bu);
  // Subnormals: 2^-10 is halfway from 0 to 2^-9: even (0).
  EXPECT_EQ(castF32(LaneType::E4M3, RoundMode::rint, true,
                    std::ldexp(1.0f, -10)),
            0x00u);
  EXPECT_EQ(castF32(LaneType::E4M3, RoundMode::rint, true,
                    std::ldexp(3.0f, -11)),
            0x01u);
  EXPECT_EQ(castF32(LaneType::E4M3, RoundMode::rint, true,
                    -std::ldexp(3.0f, -10)),
            0x82u); // 1.5 x 2^-9: halfway from 1 to 2 quanta: even
}

TEST(AscendLanes, FP4CastAsPublished) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  float inf = std::numeric_limits<float>::infinity();
  auto fp4 = [](RoundMode m, float x) {
    return castBF16(LaneType::E2M1, m, true, x);
  };
  EXPECT_EQ(fp4(RoundMode::rint, 2.5f), 0x4u);
  EXPECT_EQ(fp4(RoundMode::round, 2.5f), 0x5u);
  EXPECT_EQ(fp4(RoundMode::floor, 2.5f), 0x4u);
  EXPECT_EQ(fp4(RoundMode::ceil, 2.5f), 0x5u);
  EXPECT_EQ(fp4(RoundMode::trunc, 2.5f), 0x4u);
  EXPECT_EQ(fp4(RoundMode::floor, -2.5f), 0xDu); // -3
  EXPECT_EQ(fp4(RoundMode::ceil, -2.5f), 0xCu);  // -2
  EXPECT_EQ(fp4(RoundMode::rint, 5.0f), 0x6u);   // 4 and 6: even is 4
  EXPECT_EQ(fp4(RoundMode::round, 5.0f), 0x7u);
  EXPECT_EQ(fp4(RoundMode::rint, 0.25f), 0x0u);
  EXPECT_EQ(fp4(RoundMode::round, 0.25f), 0x1u);
  EXPECT_EQ(fp4(RoundMode::rint, -0.25f), 0x8u); // -0 keeps its sign
  // Overflow and infinities saturate to +-6; NaN gives 0.
  EXPECT_EQ(fp4(RoundMode::rint, 7.0f), 0x7u);
  EXPECT_EQ(fp4(RoundMode::rint, 100.0f), 0x7u);
  EXPECT_EQ(fp4(RoundMode::rint, inf), 0x7u);
  EXPECT_EQ(fp4(RoundMode::floor, -inf), 0xFu);
  EXPECT_EQ(fp4(RoundMode::rint, nan), 0x0u);
  EXPECT_EQ(fp4(RoundMode::rint, -nan), 0x0u);
}

TEST(AscendLanes, BF16CastCorners) {
  auto bf = [](RoundMode m, bool sat, uint32_t x) {
    return lanes::cast(LaneType::F32, LaneType::BF16, m, sat, x);
  };
  // 1 + 2^-8 is a bf16 tie.
  EXPECT_EQ(bf(RoundMode::rint, false, 0x3F808000), 0x3F80u);
  EXPECT_EQ(bf(RoundMode::rint, false, 0x3F818000), 0x3F82u);
  EXPECT_EQ(bf(RoundMode::round, false, 0x3F808000), 0x3F81u);
  EXPECT_EQ(bf(RoundMode::ceil, false, 0x3F800001), 0x3F81u);
  EXPECT_EQ(bf(RoundMode::floor, false, 0xBF800001), 0xBF81u);
  EXPECT_EQ(bf(RoundMode::trunc, false, 0xBF80FFFF), 0xBF80u);
  // Round to odd: truncate, and set the last bit where inexact.
  EXPECT_EQ(bf(RoundMode::odd, false, 0x3F800001), 0x3F81u);
  EXPECT_EQ(bf(RoundMode::odd, false, 0x3F820000), 0x3F82u);
  // FLT_MAX rounds past the largest bf16: Inf, or its largest with sat or
  // toward zero.
  EXPECT_EQ(bf(RoundMode::rint, false, 0x7F7FFFFF), 0x7F80u);
  EXPECT_EQ(bf(RoundMode::rint, true, 0x7F7FFFFF), 0x7F7Fu);
  EXPECT_EQ(bf(RoundMode::trunc, false, 0x7F7FFFFF), 0x7F7Fu);
  EXPECT_EQ(bf(RoundMode::rint, true, 0xFF800000), 0xFF7Fu); // -Inf, sat
  EXPECT_EQ(bf(RoundMode::rint, false, 0xFF800000), 0xFF80u);
  // A NaN keeps its sign and the top of its payload, quieted.
  EXPECT_EQ(bf(RoundMode::rint, false, 0x7FA00001), 0x7FE0u);
  EXPECT_EQ(bf(RoundMode::rint, true, 0xFF800001), 0xFFC0u);
  // Subnormals of bf16 are those of f32's top half.
  EXPECT_EQ(bf(RoundMode::rint, false, 0x00018000), 0x0002u);
  EXPECT_EQ(bf(RoundMode::rint, false, 0x80008000), 0x8000u); // tie to -0
}

TEST(AscendLanes, TruncateToIntegral) {
  auto tr = [](RoundMode m, float x) {
    return fromBits(lanes::cast(LaneType::F32, LaneType::F32, m, false,
                                bitsOf(x)));
  };
  EXPECT_EQ(tr(RoundMode::rint, 2.5f), 2.0f);
  EXPECT_EQ(tr(RoundMode::rint, 3.5f), 4.0f);
  EXPECT_EQ(tr(RoundMode::round, 2.5f), 3.0f);
  EXPECT_EQ(tr(RoundMode::round, -2.5f), -3.0f);
  EXPECT_EQ(tr(RoundMode::floor, -0.5f), -1.0f);
  EXPECT_EQ(tr(RoundMode::ceil, 0.25f), 1.0f);
  EXPECT_EQ(tr(RoundMode::trunc, -1.75f), -1.0f);
  EXPECT_EQ(bitsOf(tr(RoundMode::rint, -0.25f)), 0x80000000u); // -0
  EXPECT_TRUE(std::isinf(tr(RoundMode::floor,
                            std::numeric_limits<float>::infinity())));
  EXPECT_TRUE(std::isnan(tr(RoundMode::ceil,
                            std::numeric_limits<float>::quiet_NaN())));
}

TEST(AscendLanes, IntegerCasts) {
  EXPECT_EQ(lanes::cast(LaneType::I32, LaneType::U8, RoundMode::none, false,
                        0xFFFFFFFF),
            0xFFu);
  EXPECT_EQ(lanes::cast(LaneType::U8, LaneType::I32, RoundMode::none, false,
                        0xFF),
            0xFFu);
  EXPECT_EQ(lanes::cast(LaneType::I8, LaneType::I32, RoundMode::none, false,
                        0x80),
            0xFFFFFF80u);
  EXPECT_EQ(lanes::cast(LaneType::U32, LaneType::U16, RoundMode::none, false,
                        0x12345678),
            0x5678u);
}

//===----------------------------------------------------------------------===//
// Arithmetic, comparisons, unary operations
//===----------------------------------------------------------------------===//

TEST(AscendLanes, FloatArithmetic) {
  bool dz = false;
  // bf16: one rounding of the exact result. (1 + 2^-7)^2 = 1 + 2^-6 +
  // 2^-14 rounds to 1 + 2^-6.
  EXPECT_EQ(lanes::binary(BinaryKind::mul, LaneType::BF16, 0x3F81, 0x3F81, dz),
            0x3F82u);
  // 1 + (2^-8 + 2^-15) is above the tie: up.
  EXPECT_EQ(lanes::binary(BinaryKind::add, LaneType::BF16, 0x3F80, 0x3B81, dz),
            0x3F81u);
  EXPECT_EQ(lanes::binary(BinaryKind::add, LaneType::BF16, 0x3F80, 0x3B80, dz),
            0x3F80u); // exactly the tie: even
  EXPECT_EQ(lanes::binary(BinaryKind::sub, LaneType::F32, bitsOf(1.0f),
                          bitsOf(1.0f), dz),
            0u); // +0
  EXPECT_EQ(lanes::binary(BinaryKind::div, LaneType::F32, bitsOf(1.0f),
                          bitsOf(0.0f), dz),
            0x7F800000u);
  EXPECT_FALSE(dz);
  // max(-0, +0) = +0 either way round; min gives -0; NaN propagates.
  for (BinaryKind k : {BinaryKind::max, BinaryKind::min}) {
    uint32_t zero = k == BinaryKind::max ? 0 : 0x80000000u;
    EXPECT_EQ(lanes::binary(k, LaneType::F32, 0x80000000u, 0, dz), zero);
    EXPECT_EQ(lanes::binary(k, LaneType::F32, 0, 0x80000000u, dz), zero);
    EXPECT_TRUE(std::isnan(fromBits(
        lanes::binary(k, LaneType::F32, 0x7FC00000u, bitsOf(1.0f), dz))));
    EXPECT_TRUE(std::isnan(fromBits(
        lanes::binary(k, LaneType::F32, bitsOf(1.0f), 0x7FC00000u, dz))));
  }
  EXPECT_EQ(lanes::binary(BinaryKind::max, LaneType::BF16, 0xC000, 0x3F80, dz),
            0x3F80u);
  EXPECT_EQ(lanes::binary(BinaryKind::min, LaneType::BF16, 0xC000, 0x3F80, dz),
            0xC000u);
}

TEST(AscendLanes, IntegerArithmetic) {
  bool dz = false;
  EXPECT_EQ(lanes::binary(BinaryKind::add, LaneType::U8, 0xFF, 0x02, dz), 1u);
  EXPECT_EQ(lanes::binary(BinaryKind::sub, LaneType::U16, 0, 1, dz), 0xFFFFu);
  EXPECT_EQ(lanes::binary(BinaryKind::mul, LaneType::U32, 0xFFFFFFFF,
                          0xFFFFFFFF, dz),
            1u);
  EXPECT_EQ(lanes::binary(BinaryKind::shl, LaneType::U32, 1, 31, dz),
            0x80000000u);
  EXPECT_EQ(lanes::binary(BinaryKind::shl, LaneType::U32, 1, 32, dz), 0u);
  EXPECT_EQ(lanes::binary(BinaryKind::shr, LaneType::U32, 0x80000000u, 31, dz),
            1u);
  EXPECT_EQ(lanes::binary(BinaryKind::shr, LaneType::I32, 0x80000000u, 4, dz),
            0xF8000000u);
  EXPECT_EQ(lanes::binary(BinaryKind::shr, LaneType::I16, 0x8000, 40, dz),
            0xFFFFu);
  EXPECT_EQ(lanes::binary(BinaryKind::max, LaneType::I8, 0x80, 0x01, dz), 1u);
  EXPECT_EQ(lanes::binary(BinaryKind::max, LaneType::U8, 0x80, 0x01, dz),
            0x80u);
  EXPECT_EQ(lanes::binary(BinaryKind::min, LaneType::I32, 0xFFFFFFFF, 0, dz),
            0xFFFFFFFFu);
  EXPECT_EQ(lanes::binary(BinaryKind::And, LaneType::U16, 0xF0F0, 0xFF00, dz),
            0xF000u);
  EXPECT_EQ(lanes::binary(BinaryKind::Or, LaneType::U16, 0xF0F0, 0x0F00, dz),
            0xFFF0u);
  EXPECT_EQ(lanes::binary(BinaryKind::Xor, LaneType::U8, 0xFF, 0x0F, dz),
            0xF0u);
  EXPECT_FALSE(dz);
  EXPECT_EQ(lanes::binary(BinaryKind::div, LaneType::I32, 7, 0, dz), 0u);
  EXPECT_TRUE(dz);
  dz = false;
  EXPECT_EQ(lanes::binary(BinaryKind::div, LaneType::I32, uint32_t(-7), 2, dz),
            uint32_t(-3));
  EXPECT_EQ(lanes::binary(BinaryKind::div, LaneType::U32, uint32_t(-7), 2, dz),
            0x7FFFFFFCu);
}

TEST(AscendLanes, UnaryAndCompare) {
  EXPECT_EQ(lanes::unary(UnaryKind::abs, LaneType::BF16, 0x8000), 0u);
  EXPECT_EQ(lanes::unary(UnaryKind::abs, LaneType::F32, 0xFFC00000u),
            0x7FC00000u);
  EXPECT_EQ(lanes::unary(UnaryKind::abs, LaneType::I16, 0xFFFE), 2u);
  EXPECT_EQ(lanes::unary(UnaryKind::abs, LaneType::I32, 0x80000000u),
            0x80000000u); // wraps
  EXPECT_EQ(lanes::unary(UnaryKind::Not, LaneType::U8, 0x0F), 0xF0u);
  EXPECT_EQ(lanes::unary(UnaryKind::copy, LaneType::U32, 1234), 1234u);
  uint32_t nan = 0x7FC00000u;
  for (CmpPredicate p :
       {CmpPredicate::eq, CmpPredicate::ne, CmpPredicate::lt, CmpPredicate::le,
        CmpPredicate::gt, CmpPredicate::ge})
    EXPECT_FALSE(lanes::compare(p, LaneType::F32, nan, 1.0)) << int(p);
  EXPECT_TRUE(lanes::compare(CmpPredicate::eq, LaneType::F32, 0x80000000u, 0));
  EXPECT_TRUE(lanes::compare(CmpPredicate::lt, LaneType::BF16, 0xBF80, 0));
  EXPECT_TRUE(lanes::compare(CmpPredicate::lt, LaneType::I32, 0xFFFFFFFF, 0));
  EXPECT_FALSE(lanes::compare(CmpPredicate::lt, LaneType::U32, 0xFFFFFFFF, 0));
  EXPECT_TRUE(
      lanes::compare(CmpPredicate::gt, LaneType::U32, 0x7F800001u, 0x7F800000));
}
