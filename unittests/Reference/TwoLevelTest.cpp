//===- TwoLevelTest.cpp - CANN DynamicDualLevelMxQuant --------------------===//
#include "mxq/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace mxq;
using namespace mxq::ref;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TwoLevelQuantized run(const std::vector<float> &x, const Shape &shape,
                      Rounding r = Rounding::RNE,
                      NanElement nan = NanElement::Max,
                      const std::vector<float> *smooth = nullptr,
                      SourceType t = SourceType::BF16) {
  return twoLevelQuantize(x, shape, t, smooth, r, nan);
}
} // namespace

TEST(TwoLevel, ZeroRow) {
  TwoLevelQuantized q = run(std::vector<float>(64, 0.0f), {1, 64});
  EXPECT_EQ(q.level0Shape, (Shape{1, 1}));
  EXPECT_EQ(q.level1Shape, (Shape{1, 1, 2}));
  EXPECT_EQ(q.level0, (std::vector<float>{0.0f}));
  EXPECT_EQ(q.level1, (std::vector<uint8_t>{0, 0}));
  for (uint8_t c : q.codes)
    EXPECT_EQ(c, 0);
}

TEST(TwoLevel, TwoScalesCompose) {
  std::vector<float> x(512, 1.0f);
  x[0] = 6.0f;
  TwoLevelQuantized q = run(x, {512});
  ASSERT_EQ(q.level0.size(), 1u);
  EXPECT_EQ(q.level0[0], 1.0f); // fl32(6 * fl32(1/6))
  ASSERT_EQ(q.level1Shape, (Shape{8, 2}));
  EXPECT_EQ(q.level1[0], 127); // group max 6: exponent 129 - 2
  EXPECT_EQ(q.level1[1], 125); // group max 1: exponent 127 - 2
  EXPECT_EQ(q.codes[0], 0x7);  // 6
  EXPECT_EQ(q.codes[1], 0x2);  // 1
  EXPECT_EQ(q.codes[32], 0x6); // 1 * 2^2 = 4
}

TEST(TwoLevel, Level0MultipliesByRoundedSixth) {
  // Some bf16 amax give fl32(a * fl32(1/6)) != fl32(a / 6); the kernel
  // multiplies.
  int differing = 0;
  for (uint32_t b = 0x3F80; b < 0x4000; ++b) {
    float a = fromBF16Bits(uint16_t(b));
    float mul = a * (1.0f / 6.0f), div = a / 6.0f;
    std::vector<float> x(64, 0.0f);
    x[3] = -a;
    TwoLevelQuantized q = run(x, {64});
    ASSERT_EQ(bitsOf(q.level0[0]), bitsOf(mul)) << std::hex << b;
    differing += mul != div;
  }
  EXPECT_GT(differing, 0);
}

TEST(TwoLevel, InfAndNaNSkipLevel0ButPoisonTheirGroup) {
  std::vector<float> x(64, 0.0f);
  x[0] = kInf;
  x[1] = 3.0f;
  x[33] = kNaN;
  x[34] = 1.5f;
  TwoLevelQuantized q = run(x, {64});
  EXPECT_EQ(q.level0[0], 0.5f); // amax 3, Inf and NaN ignored
  EXPECT_EQ(q.level1, (std::vector<uint8_t>{0xFF, 0xFF}));
  EXPECT_EQ(q.codes[1], 0x7); // NaN (3/0.5 * NaN) -> +max
  q = run(x, {64}, Rounding::RNE, NanElement::Zero);
  EXPECT_EQ(q.codes[1], 0x0);
}

TEST(TwoLevel, TinyBlockHasZeroLevel0AndNaNGroups) {
  std::vector<float> x(64, 0.0f);
  x[5] = std::ldexp(1.0f, -126);
  TwoLevelQuantized q = run(x, {64});
  EXPECT_EQ(q.level0[0], 0.0f);
  EXPECT_EQ(q.level1[0], 0xFF); // x / 0 = Inf
  EXPECT_EQ(q.level1[1], 0);    // the zero group stays zero
  EXPECT_EQ(q.codes[0], 0x7);   // 0 * NaN multiplier: the whole group is NaN
  EXPECT_EQ(q.codes[5], 0x7);
  EXPECT_EQ(q.codes[40], 0x0);
}

TEST(TwoLevel, SubnormalGroupGetsZeroMultiplier) {
  // Group 1 holds only temp values whose bf16 exponent field is 0.
  std::vector<float> x(64, 0.0f);
  x[0] = 6.0f * std::ldexp(1.0f, 20);
  x[40] = std::ldexp(1.0f, -130) * std::ldexp(1.0f, 20) * 6.0f;
  TwoLevelQuantized q = run(x, {64});
  EXPECT_EQ(q.level0[0], std::ldexp(1.0f, 20));
  EXPECT_EQ(q.level1[1], 0);
  EXPECT_EQ(q.codes[40], 0x0); // multiplier 0, not 2^127
}

TEST(TwoLevel, RoundingModesAndSmooth) {
  std::vector<float> x(64, 0.0f);
  x[0] = 6.0f;
  x[1] = -1.25f;
  x[2] = 2.5f;
  auto codes = [&](Rounding r) {
    TwoLevelQuantized q = run(x, {64}, r);
    return std::vector<uint8_t>{q.codes[1], q.codes[2]};
  };
  EXPECT_EQ(codes(Rounding::RNE), (std::vector<uint8_t>{0xA, 0x4}));
  EXPECT_EQ(codes(Rounding::Away), (std::vector<uint8_t>{0xB, 0x5}));
  EXPECT_EQ(codes(Rounding::Floor), (std::vector<uint8_t>{0xB, 0x4}));
  std::vector<float> smooth(64, 0.5f);
  TwoLevelQuantized q = run(x, {64}, Rounding::RNE, NanElement::Max, &smooth);
  EXPECT_EQ(q.level0[0], 0.5f); // amax 3 after smoothing
  EXPECT_EQ(q.codes[0], 0x7);
}

TEST(TwoLevel, OddGroupCountIsPadded) {
  std::vector<float> x(2 * 96, 1.0f);
  TwoLevelQuantized q = run(x, {2, 96}, Rounding::RNE, NanElement::Max,
                            nullptr, SourceType::F16);
  ASSERT_EQ(q.level1Shape, (Shape{2, 2, 2}));
  EXPECT_EQ(q.level1,
            (std::vector<uint8_t>{127, 127, 127, 0, 127, 127, 127, 0}));
  // level0 = fl32(1 * fl32(1/6)); temp = f16(1 / level0) = 6.
  EXPECT_EQ(q.codes[0], 0x7);
}
