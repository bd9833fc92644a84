//===- NVFP4Test.cpp - TE's and torchao's NVFP4, worked by hand -----------===//
//
// Each expectation is worked out by hand from the libraries' sequences
// (Reference.h, "NVFP4"): the fp32 value of every step and the E4M3/E2M1
// code it rounds to. E4M3 codes: 0x08 = 2^-6, 0x0F = 1.875 * 2^-6 =
// 0.029296875, 0x30 = 0.5, 0x38 = 1, 0x7E = 448, 0x7F = NaN. E2M1 codes:
// 0..7 = 0, 0.5, 1, 1.5, 2, 3, 4, 6.
//
//===----------------------------------------------------------------------===//
#include "mxq/Reference/Reference.h"
#include "Rows.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace mxq;
using namespace mxq::ref;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kFltMax = std::numeric_limits<float>::max();

QuantizeOptions nvfp4(ScaleAlgorithm a, std::vector<float> outer = {}) {
  QuantizeOptions o;
  o.axis = 1;
  o.blockSize = 16;
  o.format = ElementFormat::E2M1FN;
  o.algorithm = a;
  o.outer = std::move(outer);
  return o;
}

/// One row of 16: `head` first, zeros after.
std::vector<float> row(std::initializer_list<float> head) {
  return test::rowOf(16, head);
}
} // namespace

TEST(NVFP4, EncodeScaleOfTheAmax) {
  EXPECT_EQ(nvfp4EncodeScale(2688.0f), 1.0f);
  EXPECT_EQ(nvfp4EncodeScale(448.0f), 6.0f);
  // amax 0, and amax Inf (2688 / Inf = 0): 1.
  EXPECT_EQ(nvfp4EncodeScale(0.0f), 1.0f);
  EXPECT_EQ(nvfp4EncodeScale(kInf), 1.0f);
  // A subnormal amax: 2688 / 2^-149 overflows; fminf gives FLT_MAX.
  EXPECT_EQ(nvfp4EncodeScale(std::ldexp(1.0f, -149)), kFltMax);
  // A NaN amax (given, not computed): fminf(NaN, FLT_MAX) = FLT_MAX.
  EXPECT_EQ(nvfp4EncodeScale(kNaN), kFltMax);
}

TEST(NVFP4, EncodeBlocks) {
  // S_enc = 1: k = fl32(1/6). 6 * k = 1 (the product 2^26 + 2 ulps of
  // 2^-26 ties to 2^26): byte 0x38, factor 1 / (1 * 1) = 1.
  NVFP4Block b = nvfp4Block(6.0f, 1.0f, ScaleAlgorithm::Encode);
  EXPECT_EQ(b.scale, 0x38);
  EXPECT_EQ(b.factor, 1.0f);
  // 3 * k = 0.5 (2^25 + 1 rounds down): 0x30, factor 2.
  b = nvfp4Block(3.0f, 1.0f, ScaleAlgorithm::Encode);
  EXPECT_EQ(b.scale, 0x30);
  EXPECT_EQ(b.factor, 2.0f);
  // An all-zero block: byte 0x00, factor fminf(1/0, FLT_MAX).
  b = nvfp4Block(0.0f, 1.0f, ScaleAlgorithm::Encode);
  EXPECT_EQ(b.scale, 0x00);
  EXPECT_EQ(b.factor, kFltMax);
  // An infinite block amax: fminf(Inf * k, FLT_MAX), saturated to 448.
  b = nvfp4Block(kInf, 1.0f, ScaleAlgorithm::Encode);
  EXPECT_EQ(b.scale, 0x7E);
  // S_enc = 6 (amax 448): a block of amax 448 gets 448 * fl32(6 * k) =
  // 448: 0x7E; factor 1 / (448 * fl32(1/6)).
  b = nvfp4Block(448.0f, 6.0f, ScaleAlgorithm::Encode);
  EXPECT_EQ(b.scale, 0x7E);
  EXPECT_EQ(b.factor, 1.0f / (448.0f * (1.0f / 6.0f)));
}

TEST(NVFP4, DecodeBlocks) {
  // P = 1: 6 / 6 = 1: 0x38, divisor 1 * 1.
  NVFP4Block b = nvfp4Block(6.0f, 1.0f, ScaleAlgorithm::Decode);
  EXPECT_EQ(b.scale, 0x38);
  EXPECT_EQ(b.factor, 1.0f);
  // An all-zero block: clamped up to 2^-6, 0x08.
  b = nvfp4Block(0.0f, 1.0f, ScaleAlgorithm::Decode);
  EXPECT_EQ(b.scale, 0x08);
  EXPECT_EQ(b.factor, 0.015625f);
  // A NaN block amax stays NaN through the clamp: 0x7F.
  b = nvfp4Block(kNaN, 1.0f, ScaleAlgorithm::Decode);
  EXPECT_EQ(b.scale, 0x7F);
  EXPECT_TRUE(std::isnan(b.factor));
  // Clamped down to 448: amax 6 with P = 2^-10 is 1024.
  b = nvfp4Block(6.0f, std::ldexp(1.0f, -10), ScaleAlgorithm::Decode);
  EXPECT_EQ(b.scale, 0x7E);
  EXPECT_EQ(b.factor, 448.0f * std::ldexp(1.0f, -10));
}

TEST(NVFP4, TEAndTorchaoDifferOnAZeroBlock) {
  std::vector<float> x(16, 0.0f);
  Quantized te = quantize(x, {1, 16}, nvfp4(ScaleAlgorithm::Encode));
  Quantized ao = quantize(x, {1, 16}, nvfp4(ScaleAlgorithm::Decode));
  EXPECT_EQ(te.scales[0], 0x00);
  EXPECT_EQ(ao.scales[0], 0x08);
  for (int k = 0; k < 16; ++k)
    EXPECT_EQ(te.codes[k], 0) << k;
}

TEST(NVFP4, TEAndTorchaoDifferOnANaN) {
  // TE's amax (fmaxf) ignores the NaN: the tensor amax is 12, S_enc =
  // 2688 / 12 = 224; the block's 12 * fl32(224 * fl32(1/6)) rounds to 448
  // (0x7E). The NaN element is NaN * factor: E2M1's largest code, 0x7.
  std::vector<float> x = row({12.0f, kNaN, 2.0f});
  Quantized te = quantize(x, {1, 16}, nvfp4(ScaleAlgorithm::Encode));
  EXPECT_EQ(te.scales[0], 0x7E);
  EXPECT_EQ(te.codes[0], 0x7);
  EXPECT_EQ(te.codes[1], 0x7);
  // 2 * factor: factor = 1 / (448 * fl32(1/224)) ~ 0.5, so 1.0: code 2.
  EXPECT_EQ(te.codes[2], 0x2);
  // torchao's torch.amax propagates it: the block scale is NaN (0x7F), and
  // every element of the block is NaN / NaN, E2M1's largest code.
  Quantized ao = quantize(x, {1, 16}, nvfp4(ScaleAlgorithm::Decode));
  EXPECT_EQ(ao.scales[0], 0x7F);
  EXPECT_EQ(ao.codes[0], 0x7);
  EXPECT_EQ(ao.codes[2], 0x7);
}

TEST(NVFP4, ReciprocalAgainstDivisionAtAnE2M1Tie) {
  // A block of amax 0.17578125 = 6 * 0.029296875: both conventions give
  // the byte 0x0F (TE: fl32(0.17578125 * fl32(1/6)) is 0.029296875 to
  // within E4M3's rounding; torchao: 0.17578125 / 6 exactly). The element
  // 0.0732421875 = 2.5 * 0.029296875 then meets E2M1's tie between 2 and 3
  // in torchao (0.0732421875 / 0.029296875 = 2.5, to even: 2, code 4), but
  // TE multiplies by fl32(1 / 0.029296875) = 34.1333351..., which lands
  // above the tie (2.5000002): 3, code 5.
  std::vector<float> x = row({0.17578125f, 0.0732421875f});
  Quantized te = quantize(x, {1, 16}, nvfp4(ScaleAlgorithm::Encode, {2688}));
  Quantized ao = quantize(x, {1, 16}, nvfp4(ScaleAlgorithm::Decode));
  EXPECT_EQ(te.scales[0], 0x0F);
  EXPECT_EQ(ao.scales[0], 0x0F);
  EXPECT_EQ(te.codes[0], 0x7);
  EXPECT_EQ(ao.codes[0], 0x7);
  EXPECT_EQ(te.codes[1], 0x5);
  EXPECT_EQ(ao.codes[1], 0x4);
}

TEST(NVFP4, SingleLevelIsTwoLevelWithPOne) {
  // torchao without a per_tensor_scale and with P = 1 give one set of
  // bytes: x / 1 and 1 * s are exact.
  std::vector<float> x;
  for (int k = 0; k < 48; ++k)
    x.push_back(std::ldexp(float(k % 7) - 3.3f, k % 11 - 5));
  Quantized a = quantize(x, {1, 48}, nvfp4(ScaleAlgorithm::Decode));
  Quantized b = quantize(x, {1, 48}, nvfp4(ScaleAlgorithm::Decode, {1.0f}));
  EXPECT_EQ(a.scales, b.scales);
  EXPECT_EQ(a.codes, b.codes);
}

TEST(NVFP4, PerRowOuterAndRaggedTail) {
  // Two rows of 20 (a full block and a partial one of 4 each): row 0 with
  // amax 2688 (S_enc 1), row 1 with amax 448 (S_enc 6).
  std::vector<float> x(40, 0.0f);
  x[0] = 6.0f;   // row 0, block 0: 0x38
  x[16] = 3.0f;  // row 0, block 1 (the tail): 0x30
  x[20] = 6.0f;  // row 1, block 0: 6 * fl32(6 * fl32(1/6)) = 6: 0x4C
  Quantized q = quantize(x, {2, 20},
                         nvfp4(ScaleAlgorithm::Encode, {2688.0f, 448.0f}));
  ASSERT_EQ(q.scalesShape, (Shape{2, 2}));
  EXPECT_EQ(q.scales[0], 0x38);
  EXPECT_EQ(q.scales[1], 0x30);
  EXPECT_EQ(q.scales[2], 0x4C);
  EXPECT_EQ(q.scales[3], 0x00);
  EXPECT_EQ(q.codes[0], 0x7);
  EXPECT_EQ(q.codes[16], 0x7);
  EXPECT_EQ(q.codes[20], 0x7);
}

TEST(NVFP4, ComputedAmaxIgnoresNaN) {
  // Without an outer value, Encode takes the tensor's amax (NaN ignored):
  // the same bytes as the amax given.
  std::vector<float> x = row({1.0f, kNaN, -5.5f, 0.25f});
  Quantized a = quantize(x, {1, 16}, nvfp4(ScaleAlgorithm::Encode));
  Quantized b = quantize(x, {1, 16}, nvfp4(ScaleAlgorithm::Encode, {5.5f}));
  EXPECT_EQ(a.scales, b.scales);
  EXPECT_EQ(a.codes, b.codes);
  EXPECT_EQ(a.codes[2], 0xF); // -5.5 scaled to -6
}
