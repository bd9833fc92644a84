//===- QuantizeTest.cpp - quantize, dequantize, dual, layouts -------------===//
#include "mxq/Reference/Reference.h"
#include "mxq/Support/ScaleLayout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace mxq;
using namespace mxq::ref;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

QuantizeOptions pytorchRU() {
  QuantizeOptions o;
  o.axis = 1;
  o.format = ElementFormat::E4M3FN;
  o.algorithm = ScaleAlgorithm::RCeil;
  o.inf = InfPolicy::NaN;
  return o;
}

/// One row of 32 values with `v` at position 0 and `rest` elsewhere.
std::vector<float> block(float v, float rest = 0.0f) {
  std::vector<float> x(32, rest);
  x[0] = v;
  return x;
}

/// PyTorch's to_blocked, written as a gather (pad to 128 x 4, tile, then
/// (32, 4, 4) inside each tile): an oracle independent of swizzleOffset.
std::vector<uint8_t> toBlocked(const std::vector<uint8_t> &grid, int64_t rows,
                               int64_t cols) {
  int64_t rb = ceilDiv(rows, 128), cb = ceilDiv(cols, 4);
  std::vector<uint8_t> out(rb * cb * 512, 0);
  size_t pos = 0;
  for (int64_t tr = 0; tr < rb; ++tr)
    for (int64_t tc = 0; tc < cb; ++tc)
      for (int64_t i = 0; i < 32; ++i)    // row within a 32-row group
        for (int64_t g = 0; g < 4; ++g)   // which 32-row group of the tile
          for (int64_t c = 0; c < 4; ++c) { // scale column in the tile
            int64_t r = tr * 128 + g * 32 + i, col = tc * 4 + c;
            out[pos++] = (r < rows && col < cols) ? grid[r * cols + col] : 0;
          }
  return out;
}
} // namespace

TEST(QuantizeRU, PyTorchContractCases) {
  struct Case {
    const char *name;
    float value;
    uint8_t scale, code;
  } cases[] = {
      {"zero", 0.0f, 0, 0x00},
      {"fp32 smallest subnormal", std::ldexp(1.0f, -149), 0, 0x00},
      {"bf16 smallest subnormal", std::ldexp(1.0f, -133), 0, 0x08},
      {"fp32 smallest normal", std::ldexp(1.0f, -126), 0, 0x40},
      {"saturation", 480.0f, 128, 0x77},
      {"fp32 max", std::numeric_limits<float>::max(), 247, 0x78},
      {"one", 1.0f, 119, 0x78}, // 1/448 rounds up to 2^-8: 1 * 2^8 = 256
  };
  for (const Case &c : cases) {
    Quantized q = quantize(block(c.value), {1, 32}, pytorchRU());
    EXPECT_EQ(q.scales.at(0), c.scale) << c.name;
    EXPECT_EQ(q.codes.at(0), c.code) << c.name;
  }
}

TEST(QuantizeRU, NaNAndInfBlocks) {
  Quantized q = quantize(block(kNaN, 1.0f), {1, 32}, pytorchRU());
  EXPECT_EQ(q.scales[0], 0xFF);
  for (uint8_t c : q.codes)
    EXPECT_EQ(c, 0x7F);
  q = quantize(block(-kInf, 1.0f), {1, 32}, pytorchRU());
  EXPECT_EQ(q.scales[0], 0xFF); // no saturation: Inf -> NaN scale
  for (uint8_t c : q.codes)
    EXPECT_EQ(c, 0x7F);
  QuantizeOptions nv = pytorchRU();
  nv.inf = InfPolicy::Saturate; // PyPTO ROUND_UP, TransformerEngine
  q = quantize(block(-kInf, 1.0f), {1, 32}, nv);
  EXPECT_EQ(q.scales[0], 0xFE);
  EXPECT_EQ(q.codes[0], 0xFE); // -Inf -> -448
  EXPECT_EQ(q.codes[1], 0x00); // 1 * 2^-127 underflows
}

TEST(QuantizePyPTO, OcpInfFollowsExponentPath) {
  QuantizeOptions o;
  o.axis = 1;
  o.format = ElementFormat::E2M1FN;
  o.algorithm = ScaleAlgorithm::Floor;
  o.inf = InfPolicy::Exponent;
  Quantized q = quantize(block(kInf, 3.0f), {1, 32}, o);
  EXPECT_EQ(q.scales[0], 253);
  EXPECT_EQ(q.codes[0], 0x7); // Inf -> +6
  EXPECT_EQ(q.codes[1], 0x0); // peers ~ 0
  o.format = ElementFormat::E4M3FN;
  q = quantize(block(-kInf), {1, 32}, o);
  EXPECT_EQ(q.scales[0], 247);
  EXPECT_EQ(q.codes[0], 0xFE);
  // NaN in an FP4 block: scale NaN, code +6 (Ascend) or 0 (CANN golden).
  o.format = ElementFormat::E2M1FN;
  q = quantize(block(kNaN), {1, 32}, o);
  EXPECT_EQ(q.scales[0], 0xFF);
  EXPECT_EQ(q.codes[0], 0x7);
  EXPECT_EQ(q.codes[5], 0x7);
  o.nanElement = NanElement::Zero;
  q = quantize(block(kNaN), {1, 32}, o);
  EXPECT_EQ(q.codes[0], 0x0);
}

TEST(QuantizeFloor, SaturatesAboveMax) {
  QuantizeOptions o = pytorchRU();
  o.algorithm = ScaleAlgorithm::Floor;
  Quantized q = quantize(block(500.0f, -1.0f), {1, 32}, o);
  EXPECT_EQ(q.scales[0], 127); // E(500) = 135, 135 - 8
  EXPECT_EQ(q.codes[0], 0x7E); // 500 saturates to 448
  EXPECT_EQ(q.codes[1], 0xB8); // -1
}

TEST(Quantize, RaggedTailUsesOnlyItsElements) {
  std::vector<float> x(2 * 40, 0.0f);
  for (int j = 0; j < 40; ++j)
    x[j] = j < 32 ? 1000.0f : 1.0f; // the tail block holds only 1.0
  Quantized q = quantize(x, {2, 40}, pytorchRU());
  ASSERT_EQ(q.scalesShape, (Shape{2, 2}));
  EXPECT_EQ(q.scales[1], 119);
  EXPECT_EQ(q.codes[32], 0x78);
  EXPECT_EQ(q.scales[2], 0);
  EXPECT_EQ(q.scales[3], 0);
}

TEST(Quantize, Axis0AndBlockSize64) {
  // [70, 3] along axis 0 with block 64: blocks rows 0..63 and 64..69.
  std::vector<float> x(70 * 3, 0.0f);
  x[65 * 3 + 2] = 8.0f;
  QuantizeOptions o = pytorchRU();
  o.axis = 0;
  o.blockSize = 64;
  Quantized q = quantize(x, {70, 3}, o);
  ASSERT_EQ(q.scalesShape, (Shape{2, 3}));
  EXPECT_EQ(q.scales[1 * 3 + 2], 122); // 8/448 -> 2^-5
  EXPECT_EQ(q.scales[0 * 3 + 2], 0);
  EXPECT_EQ(q.codes[65 * 3 + 2], 0x78); // 8 * 2^5 = 256
}

TEST(Layout, SwizzleWorkedExample) {
  // M = 129, K = 160 (§2.4): C = 5, two tiles per band, L = 2048.
  EXPECT_EQ(swizzleBytes(129, 5), 2048);
  EXPECT_EQ(swizzleOffset(37, 2, 5), 86);
  EXPECT_EQ(swizzleOffset(128, 4, 5), 1536);
}

TEST(Layout, SwizzleMatchesToBlockedWithPadding) {
  for (auto [m, k] : {std::pair<int64_t, int64_t>{129, 160}, {32, 32},
                      {256, 512}, {200, 70}}) {
    std::vector<float> x(m * k);
    for (int64_t i = 0; i < m * k; ++i)
      x[i] = std::ldexp(1.0f, int(i * 7 % 61) - 30) * ((i % 3) ? 1 : -1);
    QuantizeOptions o = pytorchRU();
    Quantized linear = quantize(x, {m, k}, o);
    o.layout = ScaleLayout::Swizzle32x4x4;
    Quantized swz = quantize(x, {m, k}, o);
    EXPECT_EQ(swz.codes, linear.codes);
    EXPECT_EQ(swz.scalesShape, (Shape{swizzleBytes(m, ceilDiv(k, 32))}));
    EXPECT_EQ(swz.scales, toBlocked(linear.scales, m, ceilDiv(k, 32)))
        << m << "x" << k;
  }
}

TEST(Layout, SwizzleBatchedAndAxisM) {
  // [2, 64, 96] along axis 1 (the M axis): rows are the 96 columns.
  int64_t b = 2, m = 64, k = 96;
  std::vector<float> x(b * m * k);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(int(i % 97) - 48);
  QuantizeOptions o = pytorchRU();
  o.axis = 1;
  Quantized linear = quantize(x, {b, m, k}, o); // [2, 2, 96]
  o.layout = ScaleLayout::Swizzle32x4x4;
  Quantized swz = quantize(x, {b, m, k}, o);
  int64_t perBatch = swizzleBytes(k, 2);
  ASSERT_EQ(swz.scalesShape, (Shape{b, perBatch}));
  for (int64_t p = 0; p < b; ++p) {
    // grid S[r = column, c = block of rows]
    std::vector<uint8_t> grid(k * 2);
    for (int64_t c = 0; c < k; ++c)
      for (int64_t blk = 0; blk < 2; ++blk)
        grid[c * 2 + blk] = linear.scales[(p * 2 + blk) * k + c];
    std::vector<uint8_t> expected = toBlocked(grid, k, 2);
    std::vector<uint8_t> got(swz.scales.begin() + p * perBatch,
                             swz.scales.begin() + (p + 1) * perBatch);
    EXPECT_EQ(got, expected) << "batch " << p;
  }
}

TEST(Layout, PairsAlongLastAndSecondLastAxis) {
  // [2, 96] along axis 1: three blocks -> [2, 2, 2], the fourth slot padded.
  std::vector<float> x(2 * 96, 1.0f);
  QuantizeOptions o = pytorchRU();
  o.layout = ScaleLayout::Pairs;
  Quantized q = quantize(x, {2, 96}, o);
  ASSERT_EQ(q.scalesShape, (Shape{2, 2, 2}));
  EXPECT_EQ(q.scales, (std::vector<uint8_t>{119, 119, 119, 0, 119, 119, 119,
                                            0}));
  // [128, 3] along axis 0: scale[g, c, t] is rows 64g+32t.. of column c.
  std::vector<float> y(128 * 3, 0.0f);
  y[(64 + 32) * 3 + 1] = 1.0f; // block 3 (g = 1, t = 1), column 1
  o.axis = 0;
  q = quantize(y, {128, 3}, o);
  ASSERT_EQ(q.scalesShape, (Shape{2, 3, 2}));
  for (size_t i = 0; i < q.scales.size(); ++i)
    EXPECT_EQ(q.scales[i], i == (1 * 3 + 1) * 2 + 1 ? 119 : 0) << i;
}

TEST(Dual, EqualsTwoSingleQuantizations) {
  for (auto [m, k] : {std::pair<int64_t, int64_t>{64, 96}, {160, 32}}) {
    std::vector<float> x(m * k);
    uint32_t state = 7;
    for (auto &v : x) {
      state = state * 1664525u + 1013904223u;
      v = fromBits((state & 0x807FFFFF) | ((100 + (state >> 24) % 50) << 23));
    }
    x[5] = kNaN;
    DualQuantized d = dualQuantize(x, {m, k}, pytorchRU());
    QuantizeOptions o = pytorchRU();
    o.layout = ScaleLayout::Swizzle32x4x4;
    Quantized rows = quantize(x, {m, k}, o);
    o.axis = 0;
    Quantized cols = quantize(x, {m, k}, o);
    EXPECT_EQ(d.rows.codes, rows.codes);
    EXPECT_EQ(d.rows.scales, rows.scales);
    EXPECT_EQ(d.columns.scales, cols.scales);
    ASSERT_EQ(d.columns.codesShape, (Shape{k, m}));
    for (int64_t r = 0; r < m; ++r)
      for (int64_t c = 0; c < k; ++c)
        ASSERT_EQ(d.columns.codes[c * m + r], cols.codes[r * k + c]);
  }
}

TEST(Dequantize, InvertsQuantizeOnTheGrid) {
  // Values on the E4M3 grid times a power of two come back exactly.
  std::vector<float> x = {448.0f, -3.5f, 0.0f, -0.0f, 1.0f / 64, 0.125f};
  x.resize(32, 2.0f);
  QuantizeOptions o = pytorchRU();
  o.algorithm = ScaleAlgorithm::Floor;
  Quantized q = quantize(x, {1, 32}, o);
  std::vector<float> y = dequantize(q.codes, q.codesShape, q.scales, 1, 32,
                                    ScaleLayout::Linear, ElementFormat::E4M3FN);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(y[i], x[i]) << i;
    EXPECT_EQ(std::signbit(y[i]), std::signbit(x[i])) << i;
  }
  std::vector<uint8_t> nanScale = {0xFF};
  y = dequantize(std::vector<uint8_t>(32, 0x38), {1, 32}, nanScale, 1, 32,
                 ScaleLayout::Linear, ElementFormat::E4M3FN);
  EXPECT_TRUE(std::isnan(y[0]));
  // Byte 0 is 2^-127: the product is an fp32 subnormal.
  y = dequantize(std::vector<uint8_t>(32, 0x38), {1, 32},
                 std::vector<uint8_t>{0}, 1, 32, ScaleLayout::Linear,
                 ElementFormat::E4M3FN);
  EXPECT_EQ(bitsOf(y[0]), 0x00400000u);
}

TEST(Packing, FP4LowNibbleFirstAndOddTail) {
  std::vector<uint8_t> codes = {0x1, 0x2, 0x3, 0xF, 0x9, 0x4, 0x5, 0x6};
  std::vector<uint8_t> packed = packFP4(codes, {2, 4});
  EXPECT_EQ(packed, (std::vector<uint8_t>{0x21, 0xF3, 0x49, 0x65}));
  EXPECT_EQ(unpackFP4(packed, {2, 4}), codes);
  std::vector<uint8_t> odd = {0x1, 0x2, 0x3};
  EXPECT_EQ(packFP4(odd, {3}), (std::vector<uint8_t>{0x21, 0x03}));
  EXPECT_EQ(unpackFP4(packFP4(odd, {3}), {3}), odd);
}

TEST(Layout, ConvertBetweenEveryPairOfLayouts) {
  // Converting the scales of one layout gives the scales quantize writes in
  // the other, padding included.
  for (int64_t axis : {0, 1}) {
    int64_t m = 130, k = 200;
    std::vector<float> x(m * k);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = std::ldexp(1.0f, int(i * 13 % 41) - 20);
    ScaleLayout layouts[] = {ScaleLayout::Linear, ScaleLayout::Swizzle32x4x4,
                             ScaleLayout::Pairs};
    for (ScaleLayout from : layouts)
      for (ScaleLayout to : layouts) {
        QuantizeOptions o = pytorchRU();
        o.axis = axis;
        o.layout = from;
        Quantized a = quantize(x, {m, k}, o);
        o.layout = to;
        Quantized b = quantize(x, {m, k}, o);
        Shape shape;
        EXPECT_EQ(convertScaleLayout(a.scales, {m, k}, axis, 32, from, to,
                                     shape),
                  b.scales)
            << int(from) << " -> " << int(to) << " axis " << axis;
        EXPECT_EQ(shape, b.scalesShape);
      }
  }
}
