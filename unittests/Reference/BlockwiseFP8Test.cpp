//===- BlockwiseFP8Test.cpp - DeepSeek's, DeepGEMM's and TE's fp32 scales -===//
//
// Each expectation is worked out by hand from the libraries' sequences
// (Reference.h, "Blockwise FP8"): the fp32 value of every step and the E4M3
// code it rounds to. E4M3 codes: 0x2D = 0.40625, 0x2E = 0.4375, 0x38 = 1,
// 0x7E = 448, 0x7F = NaN.
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

uint32_t bits(float v) { return ref::bitsOf(v); }

QuantizeOptions decode(Division d, float floor = 0.0f, bool pow2 = false) {
  QuantizeOptions o;
  o.axis = 1;
  o.blockSize = 128;
  o.format = ElementFormat::E4M3FN;
  o.algorithm = ScaleAlgorithm::Decode;
  o.f32Scales = true;
  o.amaxFloor = floor;
  o.pow2 = pow2;
  o.division = d;
  return o;
}
QuantizeOptions deepseek(bool ue8m0 = false) {
  return decode(Division::Exact, 1e-4f, ue8m0);
}
QuantizeOptions deepgemm(bool ue8m0 = false) {
  return decode(Division::Reciprocal, 1e-4f, ue8m0);
}
QuantizeOptions te(bool pow2, float eps = 0.0f,
                   SourceType source = SourceType::F32) {
  QuantizeOptions o = decode(Division::Exact, eps, pow2);
  o.algorithm = ScaleAlgorithm::Encode;
  o.source = source;
  return o;
}

/// One row of 128: `head` first, zeros after.
std::vector<float> row(std::initializer_list<float> head) {
  return test::rowOf(128, head);
}
} // namespace

TEST(BlockwiseFP8, DeepSeekAndDeepGEMMScalesDiffer) {
  // amax 3: 3 / 448 = 0x3BDB6DB7 (DeepSeek's division), and 3 *
  // fl32(1/448) = 0x3BDB6DB8 (DeepGEMM's multiply), one ulp above.
  EXPECT_EQ(bits(f32BlockScale(3.0f, deepseek()).stored), 0x3BDB6DB7u);
  EXPECT_EQ(bits(f32BlockScale(3.0f, deepgemm()).stored), 0x3BDB6DB8u);
  // For 448 both are exactly 1.
  EXPECT_EQ(f32BlockScale(448.0f, deepseek()).stored, 1.0f);
  EXPECT_EQ(f32BlockScale(448.0f, deepgemm()).stored, 1.0f);
}

TEST(BlockwiseFP8, DeepSeekAndDeepGEMMCodesDiffer) {
  // x = 0x3B392492 in a block of amax 3: x / s is 0.421875 exactly, the
  // midpoint of 0x2D and 0x2E, which ties to the even 0x2E; x * fl32(1/s)
  // (s one ulp larger, its reciprocal rounded) is just below it: 0x2D.
  std::vector<float> x = row({3.0f, ref::fromBits(0x3B392492u)});
  Quantized a = quantize(x, {1, 128}, deepseek());
  Quantized b = quantize(x, {1, 128}, deepgemm());
  EXPECT_EQ(a.codes[0], 0x7E);
  EXPECT_EQ(b.codes[0], 0x7E);
  EXPECT_EQ(a.codes[1], 0x2E);
  EXPECT_EQ(b.codes[1], 0x2D);
  ASSERT_EQ(a.scaleValues.size(), 1u);
  EXPECT_TRUE(a.scales.empty());
}

TEST(BlockwiseFP8, AmaxFloor) {
  // A zero block: the floor 1e-4 gives s = fl32(1e-4 / 448); the codes
  // are 0 / s = 0.
  Quantized q = quantize(row({}), {1, 128}, deepseek());
  EXPECT_EQ(q.scaleValues[0], 1e-4f / 448.0f);
  EXPECT_EQ(q.codes[0], 0x00);
  // Without a floor (DeepSeek-V3's first act_quant): s = 0 and 0 / 0 is
  // NaN in every code.
  Quantized n = quantize(row({}), {1, 128}, decode(Division::Exact));
  EXPECT_EQ(n.scaleValues[0], 0.0f);
  EXPECT_EQ(n.codes[0], 0x7F);
  // And by the reciprocal: 1/0 = Inf, 0 * Inf = NaN.
  Quantized r = quantize(row({}), {1, 128}, decode(Division::Reciprocal));
  EXPECT_EQ(r.codes[5], 0x7F);
}

TEST(BlockwiseFP8, UE8M0RoundsUpOnTheBits) {
  // 448 / 448 = 1, a power of two: kept.
  EXPECT_EQ(f32BlockScale(448.0f, deepgemm(true)).stored, 1.0f);
  // 449 / 448 is above 1: 2.
  EXPECT_EQ(f32BlockScale(449.0f, deepgemm(true)).stored, 2.0f);
  EXPECT_EQ(f32BlockScale(449.0f, deepgemm(true)).factor, 0.5f);
  // The floor: 1e-4 / 448 = 2.23e-7 lies in [2^-23, 2^-22): 2^-22.
  EXPECT_EQ(f32BlockScale(0.0f, deepgemm(true)).stored,
            std::ldexp(1.0f, -22));
  // Without a floor, s = 0 has exponent field 0, clamped to 1: 2^-126.
  EXPECT_EQ(f32BlockScale(0.0f, decode(Division::Reciprocal, 0, true)).stored,
            std::ldexp(1.0f, -126));
  // A NaN amax: the bits of NaN have exponent 255 and a mantissa, 256,
  // clamped to 254: 2^127 (DeepGEMM's ceil_to_ue8m0 on the bits); so
  // does an infinite one (255, clamped).
  EXPECT_EQ(f32BlockScale(kNaN, deepgemm(true)).stored,
            std::ldexp(1.0f, 127));
  EXPECT_EQ(f32BlockScale(kInf, deepgemm(true)).stored,
            std::ldexp(1.0f, 127));
}

TEST(BlockwiseFP8, NaNAndInfBlocks) {
  // Decode: the amax propagates NaN, s is NaN, every code NaN.
  Quantized n = quantize(row({1.0f, kNaN}), {1, 128}, deepseek());
  EXPECT_TRUE(std::isnan(n.scaleValues[0]));
  EXPECT_EQ(n.codes[0], 0x7F);
  EXPECT_EQ(n.codes[2], 0x7F);
  // DeepGEMM with UE8M0: s = 2^127; 1 * 2^-127 is far below E4M3's
  // smallest subnormal (0), the NaN stays NaN.
  Quantized g = quantize(row({1.0f, kNaN}), {1, 128}, deepgemm(true));
  EXPECT_EQ(g.codes[0], 0x00);
  EXPECT_EQ(g.codes[1], 0x7F);
  // An infinity in a block (decode): s = Inf, Inf / Inf = NaN, 1 / Inf = 0.
  Quantized i = quantize(row({1.0f, -kInf}), {1, 128}, deepseek());
  EXPECT_EQ(i.codes[0], 0x00);
  EXPECT_EQ(i.codes[1] & 0x7F, 0x7F);
  // TE: the amax ignores NaN (fmaxf); an infinite amax gives e = 1, and
  // the infinity saturates to 448.
  Quantized t = quantize(row({2.0f, kNaN, -kInf}), {1, 128}, te(true));
  EXPECT_EQ(t.scaleValues[0], 1.0f);
  EXPECT_EQ(t.codes[0], 0x40); // 2
  EXPECT_EQ(t.codes[1], 0x7F);
  EXPECT_EQ(t.codes[2], 0xFE); // -448
}

TEST(BlockwiseFP8, TransformerEngineEncodeScale) {
  // amax 1: e = 448, stored fl32(1/448); with pow2, e = 256 (mantissa
  // cleared) and 1/256.
  EXPECT_EQ(f32BlockScale(1.0f, te(false)).factor, 448.0f);
  EXPECT_EQ(f32BlockScale(1.0f, te(false)).stored, 1.0f / 448.0f);
  EXPECT_EQ(f32BlockScale(1.0f, te(true)).factor, 256.0f);
  EXPECT_EQ(f32BlockScale(1.0f, te(true)).stored, 1.0f / 256.0f);
  // amax 3 (pow2): 448/3 = 149.33 -> 128.
  EXPECT_EQ(f32BlockScale(3.0f, te(true)).factor, 128.0f);
  // A zero amax: e = 1.
  EXPECT_EQ(f32BlockScale(0.0f, te(true)).factor, 1.0f);
  // eps raises a zero amax to eps first: e = 448 / eps.
  EXPECT_EQ(f32BlockScale(0.0f, te(false, 0.5f)).factor, 896.0f);
  // A subnormal amax: 448 / 2^-149 overflows; the input type's largest
  // value (f32 FLT_MAX, bf16 0x7F7F, f16 65504), with pow2 cleared to a
  // power of two.
  float tiny = std::ldexp(1.0f, -149);
  EXPECT_EQ(f32BlockScale(tiny, te(false)).factor, kFltMax);
  EXPECT_EQ(f32BlockScale(tiny, te(true)).factor, std::ldexp(1.0f, 127));
  EXPECT_EQ(f32BlockScale(tiny, te(false, 0, SourceType::BF16)).factor,
            0x1.fep127f);
  EXPECT_EQ(f32BlockScale(tiny, te(true, 0, SourceType::F16)).factor,
            32768.0f);
  // The stored inverse of FLT_MAX is subnormal, fl32(1/FLT_MAX).
  EXPECT_EQ(f32BlockScale(tiny, te(false)).stored, 1.0f / kFltMax);
}

TEST(BlockwiseFP8, DequantizeMultipliesTheStoredScale) {
  // Code 0x2E (0.4375) times s = fl32(3/448).
  std::vector<uint8_t> codes(128, 0);
  codes[0] = 0x2E;
  codes[1] = 0x7F;
  float s = 3.0f / 448.0f;
  std::vector<float> y =
      dequantizeF32Scales(codes, {1, 128}, {s}, 1, 128, ElementFormat::E4M3FN);
  EXPECT_EQ(y[0], 0.4375f * s);
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], 0.0f);
}

TEST(BlockwiseFP8, RaggedLastBlock) {
  // 130 elements in blocks of 128: the second block holds two, its amax
  // theirs (as zeros padding it would give).
  std::vector<float> x(130, 1.0f);
  x[129] = 448.0f;
  Quantized q = quantize(x, {1, 130}, deepseek());
  ASSERT_EQ(q.scaleValues.size(), 2u);
  EXPECT_EQ(q.scaleValues[0], 1.0f / 448.0f);
  EXPECT_EQ(q.scaleValues[1], 1.0f);
  EXPECT_EQ(q.codes[128], 0x38);
  EXPECT_EQ(q.codes[129], 0x7E);
}
