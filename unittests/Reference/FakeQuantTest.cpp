//===- FakeQuantTest.cpp - OwLite fake_fp8_quantize and its STE -----------===//
#include "mxq/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace mxq;
using namespace mxq::ref;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
} // namespace

TEST(FakeQuant, PerTensorE4M3) {
  std::vector<float> x = {1.0f, 17.0f, 500.0f, -kInf, kNaN, 0.3f};
  std::vector<float> y =
      fakeQuant(x, {6}, SourceType::F32, {1.0f}, {0.0f},
                ElementFormat::E4M3FN, -448.0f, 448.0f, std::nullopt);
  EXPECT_EQ(y[0], 1.0f);
  EXPECT_EQ(y[1], 16.0f); // tie to even
  EXPECT_EQ(y[2], 448.0f);
  EXPECT_EQ(y[3], -448.0f);
  EXPECT_TRUE(std::isnan(y[4]));
  EXPECT_EQ(y[5], 0.3125f);
}

TEST(FakeQuant, PerChannelAndZeroPoint) {
  std::vector<float> x = {17.0f, 1.0f, 17.0f, 1.0f};
  std::vector<float> y =
      fakeQuant(x, {2, 2}, SourceType::F32, {1.0f, 2.0f}, {0.0f, 0.0f},
                ElementFormat::E4M3FN, -448.0f, 448.0f, 0);
  EXPECT_EQ(y, (std::vector<float>{16.0f, 1.0f, 16.0f, 1.0f}));
  // Per channel along axis 1.
  y = fakeQuant(x, {2, 2}, SourceType::F32, {1.0f, 0.25f}, {0.0f, 0.0f},
                ElementFormat::E4M3FN, -448.0f, 448.0f, 1);
  EXPECT_EQ(y, (std::vector<float>{16.0f, 1.0f, 16.0f, 1.0f}));
  // zero point is added before rounding and removed after.
  y = fakeQuant({1.0f}, {1}, SourceType::F32, {1.0f}, {0.5f},
                ElementFormat::E4M3FN, -448.0f, 448.0f, std::nullopt);
  EXPECT_EQ(y[0], 1.0f);
  y = fakeQuant({1.1f}, {1}, SourceType::F32, {1.0f}, {0.5f},
                ElementFormat::E4M3FN, -448.0f, 448.0f, std::nullopt);
  EXPECT_EQ(y[0], 1.125f); // 1.6 -> 1.625 on the grid, minus 0.5
}

TEST(FakeQuant, ClipRangeE5M2AndF16Result) {
  std::vector<float> y =
      fakeQuant({5.0f, -5.0f}, {2}, SourceType::F32, {1.0f}, {0.0f},
                ElementFormat::E4M3FN, -2.0f, 2.0f, std::nullopt);
  EXPECT_EQ(y, (std::vector<float>{2.0f, -2.0f}));
  y = fakeQuant({100.0f, 1e6f}, {2}, SourceType::F32, {1.0f}, {0.0f},
                ElementFormat::E5M2, -57344.0f, 57344.0f, std::nullopt);
  EXPECT_EQ(y, (std::vector<float>{96.0f, 57344.0f}));
  // fp32 arithmetic, rounded to f16 at the end.
  float third = 1.0f / 3.0f;
  y = fakeQuant({1.0f}, {1}, SourceType::F16, {third}, {0.0f},
                ElementFormat::E4M3FN, -448.0f, 448.0f, std::nullopt);
  EXPECT_EQ(y[0], 1.0f);
  EXPECT_EQ(toF16Bits(y[0]), 0x3C00);
}

TEST(FakeQuantGrad, StraightThroughInsideTheBounds) {
  std::vector<float> x = {224.0f, 224.1f, -224.0f, -300.0f, kNaN, 0.0f};
  std::vector<float> g = fakeQuantGrad(std::vector<float>(6, 2.0f), x, {6},
                                       {0.5f}, -448.0f, 448.0f, std::nullopt);
  EXPECT_EQ(g, (std::vector<float>{2.0f, 0.0f, 2.0f, 0.0f, 0.0f, 2.0f}));
  // Per channel: bounds follow each channel's step.
  g = fakeQuantGrad({1, 1, 1, 1}, {3.0f, 3.0f, 5.0f, 5.0f}, {2, 2},
                    {1.0f, 2.0f}, -2.0f, 2.0f, 1);
  EXPECT_EQ(g, (std::vector<float>{0.0f, 1.0f, 0.0f, 0.0f}));
}
