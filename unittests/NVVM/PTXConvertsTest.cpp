//===- PTXConvertsTest.cpp - the emulator's PTX converts vs the reference -===//
//
// The software models of cvt.rn.satfinite.{e4m3,e5m2,e2m3,e3m2,e2m1}x2.f32
// and cvt.rp.ue8m0x2.f32 (what the SIMT emulator runs for the sm_100a
// kernels) agree with the reference's round-to-nearest-even, saturating
// encoding on every finite input where mxq's numerics use them: every bf16
// value, every f16 value and random f32 bit patterns.
//
//===----------------------------------------------------------------------===//
#include "mxq/Reference/Reference.h"
#include "mxq/Target/NVVM/PTXConverts.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace mxq;

namespace {

float fromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

std::vector<float> finiteInputs() {
  std::vector<float> v;
  for (uint32_t b = 0; b < 0x10000; ++b) {
    float bf = fromBits(b << 16);
    if (std::isfinite(bf))
      v.push_back(bf);
    float h = ref::fromF16Bits(uint16_t(b));
    if (std::isfinite(h))
      v.push_back(h);
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 1000000; ++i) {
    float f = fromBits(uint32_t(rng()));
    if (std::isfinite(f))
      v.push_back(f);
  }
  return v;
}

struct Case {
  ptx::NarrowFormat ptx;
  ElementFormat format;
};

} // namespace

TEST(PTXConverts, RNSatFiniteMatchesReference) {
  std::vector<float> inputs = finiteInputs();
  for (Case c : {Case{ptx::NarrowFormat::E4M3, ElementFormat::E4M3FN},
                 Case{ptx::NarrowFormat::E5M2, ElementFormat::E5M2},
                 Case{ptx::NarrowFormat::E2M3, ElementFormat::E2M3FN},
                 Case{ptx::NarrowFormat::E3M2, ElementFormat::E3M2FN},
                 Case{ptx::NarrowFormat::E2M1, ElementFormat::E2M1FN}}) {
    size_t mismatches = 0;
    for (float x : inputs)
      if (ptx::convertRNSatFinite(x, c.ptx, false) !=
          ref::encodeElement(x, c.format, Rounding::RNE)) {
        if (++mismatches < 5)
          ADD_FAILURE() << "format " << int(c.ptx) << " x=" << x << ": "
                        << int(ptx::convertRNSatFinite(x, c.ptx, false))
                        << " vs "
                        << int(ref::encodeElement(x, c.format,
                                                  Rounding::RNE));
      }
    EXPECT_EQ(mismatches, 0u);
  }
}

TEST(PTXConverts, UE8M0RoundUpMatchesReference) {
  size_t mismatches = 0;
  for (float x : finiteInputs()) {
    if (!(x > 0))
      continue;
    if (ptx::convertUE8M0(x, /*roundUp=*/true, /*satfinite=*/false) !=
        ref::rceilE8M0(x))
      ++mismatches;
  }
  EXPECT_EQ(mismatches, 0u);
  // Powers of two are exact in both directions; others round.
  EXPECT_EQ(ptx::convertUE8M0(1.0f, true, false), 127);
  EXPECT_EQ(ptx::convertUE8M0(1.5f, true, false), 128);
  EXPECT_EQ(ptx::convertUE8M0(1.5f, false, false), 127);
  EXPECT_EQ(ptx::convertUE8M0(3e38f, true, true), 0xFE);
  EXPECT_EQ(ptx::convertUE8M0(3e38f, true, false), 0xFF);
  EXPECT_EQ(ptx::convertUE8M0(NAN, true, true), 0xFF);
}

TEST(PTXConverts, OperandOrderAndSpecials) {
  // `a` lands in the upper half.
  EXPECT_EQ(mxq_emu_cvt_f8x2(1.0f, -2.0f, 0, 0), (0x38 << 8) | 0xC0);
  EXPECT_EQ(mxq_emu_cvt_f4x2(6.0f, 0.5f, 0), (0x7 << 4) | 0x1);
  EXPECT_EQ(mxq_emu_cvt_ue8m0x2(2.0f, 0.25f, 1, 1), (128 << 8) | 125);
  // .satfinite: infinities to the largest finite value, NaN to 0x7F.
  EXPECT_EQ(ptx::convertRNSatFinite(INFINITY, ptx::NarrowFormat::E4M3, false),
            0x7E);
  EXPECT_EQ(ptx::convertRNSatFinite(-INFINITY, ptx::NarrowFormat::E5M2, false),
            0xFB);
  EXPECT_EQ(ptx::convertRNSatFinite(NAN, ptx::NarrowFormat::E4M3, false),
            0x7F);
  // .relu: negative values to +0.
  EXPECT_EQ(ptx::convertRNSatFinite(-3.0f, ptx::NarrowFormat::E2M1, true), 0);
}
