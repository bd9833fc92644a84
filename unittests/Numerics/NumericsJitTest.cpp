//===- NumericsJitTest.cpp - the numerics IR, compiled, vs the reference --===//
//
// Builds small functions with the numerics library, compiles them through the
// CPU pipeline and runs them on every f16 and every bf16 value (element
// codes, bf16 rounding) and on every boundary of the E8M0 rules (scale
// bytes), in scalar and in vector form, comparing with the reference.
//
//===----------------------------------------------------------------------===//
#include "mxq/InitAll.h"
#include "mxq/Numerics/Numerics.h"
#include "mxq/Reference/Reference.h"
#include "mxq/Target/CPU/CPURunner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>

using namespace mlir;
using namespace mxq;
namespace num = mxq::numerics;

namespace {
constexpr int64_t kLanes = 8;

/// f(x: f32 or vector<8xf32>) -> i32 or vector<8xi32>, applied to a tensor.
using Body = std::function<Value(OpBuilder &, Location, Value)>;

class NumericsJit : public ::testing::Test {
protected:
  NumericsJit() {
    DialectRegistry registry;
    registerDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
  }

  /// Compiles @f(tensor<?xf32>) -> tensor<?xi32> that applies `body` to each
  /// element (vector form: 8 at a time) and runs it on `inputs`.
  std::vector<uint32_t> run(const Body &body, bool vectorForm,
                            const std::vector<float> &inputs) {
    MLIRContext *ctx = context.get();
    OpBuilder b(ctx);
    Location loc = b.getUnknownLoc();
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module->getBody());
    auto inType = RankedTensorType::get({ShapedType::kDynamic}, b.getF32Type());
    auto outType = RankedTensorType::get({ShapedType::kDynamic}, b.getI32Type());
    auto func = func::FuncOp::create(b, loc, "f",
                                     b.getFunctionType({inType}, {outType}));
    Block *entry = func.addEntryBlock();
    b.setInsertionPointToStart(entry);
    Value x = entry->getArgument(0);
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value n = tensor::DimOp::create(b, loc, x, c0);
    Value out = tensor::EmptyOp::create(b, loc, ArrayRef<OpFoldResult>{n},
                                        b.getI32Type());
    int64_t step = vectorForm ? kLanes : 1;
    auto loop = scf::ForOp::create(
        b, loc, c0, n, arith::ConstantIndexOp::create(b, loc, step),
        ValueRange{out},
        [&](OpBuilder &lb, Location l, Value i, ValueRange iter) {
          Value r;
          if (vectorForm) {
            Value pad = arith::ConstantOp::create(lb, l, lb.getF32FloatAttr(0));
            Value v = vector::TransferReadOp::create(
                lb, l, VectorType::get({kLanes}, lb.getF32Type()), x,
                ValueRange{i}, pad, ArrayRef<bool>{true});
            r = vector::TransferWriteOp::create(lb, l, body(lb, l, v), iter[0],
                                                ValueRange{i},
                                                ArrayRef<bool>{true})
                    .getResult();
          } else {
            Value v = tensor::ExtractOp::create(lb, l, x, ValueRange{i});
            r = tensor::InsertOp::create(lb, l, body(lb, l, v), iter[0],
                                         ValueRange{i});
          }
          scf::YieldOp::create(lb, l, r);
        });
    func::ReturnOp::create(b, loc, loop.getResult(0));

    RawTensor in;
    in.elementType = b.getF32Type();
    in.shape = {static_cast<int64_t>(inputs.size())};
    in.data.resize(inputs.size() * 4);
    std::memcpy(in.data.data(), inputs.data(), in.data.size());
    std::vector<RawTensor> results;
    std::string error;
    EXPECT_TRUE(runOnCPU(*module, "f", {in}, results, error)) << error;
    std::vector<uint32_t> values(inputs.size(), 0xDEADBEEF);
    if (!results.empty() && results[0].data.size() == inputs.size() * 4)
      std::memcpy(values.data(), results[0].data.data(), inputs.size() * 4);
    return values;
  }

  std::unique_ptr<MLIRContext> context;
};

/// Every f16 and every bf16 value (NaNs included), padded to the lanes.
std::vector<float> allSixteenBitValues() {
  std::vector<float> v;
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    v.push_back(ref::fromF16Bits(uint16_t(bits)));
    v.push_back(ref::fromBF16Bits(uint16_t(bits)));
  }
  return v;
}

/// Every E8M0 boundary: each exponent with the mantissas where the rules
/// change, the specials, and the RCEIL multiply-vs-divide cases.
std::vector<float> scaleBoundaries() {
  std::vector<float> v;
  for (uint32_t e = 0; e < 255; ++e)
    for (uint32_t m : {0u, 1u, 0x3FFFFFu, 0x400000u, 0x400001u, 0x5FFFFFu,
                       0x600000u, 0x600001u, 0x7FFFFEu, 0x7FFFFFu,
                       // TOSA's out_max mantissas (464, 61440 / 30, 7.75)
                       0x67FFFFu, 0x680000u, 0x680001u, 0x6FFFFFu, 0x700000u,
                       0x700001u, 0x77FFFFu, 0x780000u, 0x780001u})
      v.push_back(ref::fromBits(e << 23 | m));
  v.push_back(std::numeric_limits<float>::infinity());
  v.push_back(std::numeric_limits<float>::quiet_NaN());
  v.push_back(ref::fromBits(0x04600001));
  v.push_back(ref::fromBits(0x01400001));
  uint32_t state = 99;
  for (int i = 0; i < 20000; ++i) {
    state = state * 1664525u + 1013904223u;
    v.push_back(ref::fromBits(state & 0x7FFFFFFF));
  }
  while (v.size() % kLanes)
    v.push_back(0.0f);
  return v;
}

const ElementFormat kFormats[] = {ElementFormat::E4M3FN, ElementFormat::E5M2,
                                  ElementFormat::E2M3FN, ElementFormat::E3M2FN,
                                  ElementFormat::E2M1FN};
} // namespace

TEST_F(NumericsJit, EncodeEveryF16AndBF16InEveryFormatAndRounding) {
  std::vector<float> inputs = allSixteenBitValues();
  for (ElementFormat f : kFormats)
    for (Rounding r : {Rounding::RNE, Rounding::Away, Rounding::Floor})
      for (NanElement nan : {NanElement::Max, NanElement::Zero})
        for (int form = 0; form < 3; ++form) {
          // 0: scalar, 1: vector, 2: vector through the general algorithm
          // (encodeElement takes a shorter path for RNE).
          bool vectorForm = form > 0, general = form == 2;
          if (formatInfo(f).hasNaN && nan == NanElement::Zero)
            continue;
          std::vector<uint32_t> got = run(
              [&](OpBuilder &b, Location l, Value x) {
                return general
                           ? num::encodeElementGeneral(b, l, x, f, r, nan)
                           : num::encodeElement(b, l, x, f, r, nan);
              },
              vectorForm, inputs);
          size_t mismatches = 0;
          for (size_t i = 0; i < inputs.size(); ++i)
            if (got[i] != ref::encodeElement(inputs[i], f, r, nan) &&
                mismatches++ < 3)
              ADD_FAILURE() << formatInfo(f).name << " rounding " << int(r)
                            << " input bits " << std::hex
                            << ref::bitsOf(inputs[i]) << ": got " << got[i]
                            << ", reference "
                            << int(ref::encodeElement(inputs[i], f, r, nan));
          EXPECT_EQ(mismatches, 0u);
        }
}

/// Every infinity and NaN (both signs, every payload) and the values next to
/// them: encodeElement's RNE path takes the sign from one signed comparison
/// (negative and not NaN) and, where the NaN code is the largest code, lets a
/// NaN's magnitude saturate to it; neither may depend on the payload.
TEST_F(NumericsJit, EncodeEveryInfinityAndNaNPayloadWithBothSigns) {
  std::vector<float> inputs;
  for (uint32_t sign : {0u, 0x80000000u}) {
    for (uint32_t m = 0; m <= 0x7FFFFF; ++m)
      inputs.push_back(ref::fromBits(sign | 0x7F800000u | m));
    for (uint32_t m = 0x7FFF00; m <= 0x7FFFFF; ++m) // the largest finites
      inputs.push_back(ref::fromBits(sign | 0x7F000000u | m));
    for (uint32_t bits = 0; bits < 256; ++bits) // zeros, subnormals
      inputs.push_back(ref::fromBits(sign | bits));
  }
  for (ElementFormat f : kFormats)
    for (NanElement nan : {NanElement::Max, NanElement::Zero}) {
      if (formatInfo(f).hasNaN && nan == NanElement::Zero)
        continue;
      std::vector<uint32_t> got = run(
          [&](OpBuilder &b, Location l, Value x) {
            return num::encodeElement(b, l, x, f, Rounding::RNE, nan);
          },
          /*vectorForm=*/true, inputs);
      size_t mismatches = 0;
      for (size_t i = 0; i < inputs.size(); ++i)
        if (got[i] != ref::encodeElement(inputs[i], f, Rounding::RNE, nan) &&
            mismatches++ < 3)
          ADD_FAILURE() << formatInfo(f).name << " input bits " << std::hex
                        << ref::bitsOf(inputs[i]) << ": got " << got[i]
                        << ", reference "
                        << int(ref::encodeElement(inputs[i], f, Rounding::RNE,
                                                  nan));
      EXPECT_EQ(mismatches, 0u);
    }
}

/// The contract of a target's conversion instructions, in integer IR: exact
/// on what encodeElement and scaleByte hand them (finite values; positive
/// finite d), and a poison byte (0x55) on anything else, which the callers
/// must never let through (they choose the codes of Inf, NaN and zero).
class ContractConverts : public num::NativeConverts {
public:
  Value encodeFiniteRNE(OpBuilder &b, Location l, Value x,
                        ElementFormat f) const override {
    Value code = num::encodeElementGeneral(b, l, x, f, Rounding::RNE,
                                           NanElement::Max);
    return poisonUnless(b, l, x, finite(b, l, x), code);
  }
  Value e8m0RoundUp(OpBuilder &b, Location l, Value d) const override {
    Value bits = arith::BitcastOp::create(b, l, i32Like(b, d), d);
    Value e = arith::ShRUIOp::create(b, l, bits, num::i32Const(b, l, d.getType(), 23));
    Value m = arith::AndIOp::create(b, l, bits,
                                    num::i32Const(b, l, d.getType(), 0x7FFFFF));
    Value zeroE = cmp(b, l, arith::CmpIPredicate::eq, e, 0);
    Value up = arith::SelectOp::create(
        b, l, zeroE, cmp(b, l, arith::CmpIPredicate::ugt, m, 0x400000),
        cmp(b, l, arith::CmpIPredicate::ne, m, 0));
    Value byte = arith::AddIOp::create(
        b, l, e, arith::ExtUIOp::create(b, l, i32Like(b, d), up));
    Value positive = cmp(b, l, arith::CmpIPredicate::ne, bits, 0);
    return poisonUnless(b, l, d,
                        arith::AndIOp::create(b, l, finite(b, l, d), positive),
                        byte);
  }

private:
  static Type i32Like(OpBuilder &b, Value v) {
    if (auto t = dyn_cast<VectorType>(v.getType()))
      return VectorType::get(t.getShape(), b.getI32Type());
    return b.getI32Type();
  }
  static Value cmp(OpBuilder &b, Location l, arith::CmpIPredicate p, Value x,
                   int64_t c) {
    return arith::CmpIOp::create(b, l, p, x, num::i32Const(b, l, x.getType(), c));
  }
  static Value finite(OpBuilder &b, Location l, Value x) {
    Value abs = arith::AndIOp::create(
        b, l, arith::BitcastOp::create(b, l, i32Like(b, x), x),
        num::i32Const(b, l, x.getType(), 0x7FFFFFFF));
    return cmp(b, l, arith::CmpIPredicate::ult, abs, 0x7F800000);
  }
  static Value poisonUnless(OpBuilder &b, Location l, Value like, Value ok,
                            Value value) {
    return arith::SelectOp::create(b, l, ok, value,
                                   num::i32Const(b, l, like.getType(), 0x55));
  }
};

TEST_F(NumericsJit, NativeConvertHooksNeverDecideSpecialValues) {
  ContractConverts native;
  std::vector<float> inputs = allSixteenBitValues();
  for (ElementFormat f : kFormats)
    for (NanElement nan : {NanElement::Max, NanElement::Zero}) {
      if (formatInfo(f).hasNaN && nan == NanElement::Zero)
        continue;
      for (bool vectorForm : {false, true}) {
        std::vector<uint32_t> got = run(
            [&](OpBuilder &b, Location l, Value x) {
              return num::encodeElement(b, l, x, f, Rounding::RNE, nan,
                                        &native);
            },
            vectorForm, inputs);
        size_t mismatches = 0;
        for (size_t i = 0; i < inputs.size(); ++i)
          if (got[i] != ref::encodeElement(inputs[i], f, Rounding::RNE, nan) &&
              mismatches++ < 3)
            ADD_FAILURE() << formatInfo(f).name << " input bits " << std::hex
                          << ref::bitsOf(inputs[i]) << ": got " << got[i];
        EXPECT_EQ(mismatches, 0u);
      }
    }
  std::vector<float> amax = scaleBoundaries();
  for (InfPolicy p : {InfPolicy::NaN, InfPolicy::Saturate})
    for (ElementFormat f : kFormats) {
      std::vector<uint32_t> got = run(
          [&](OpBuilder &b, Location l, Value x) {
            return num::scaleByte(b, l, x, ScaleAlgorithm::RCeil, p, f,
                                  &native);
          },
          true, amax);
      for (size_t i = 0; i < amax.size(); ++i)
        EXPECT_EQ(got[i], ref::scaleByte(amax[i], ScaleAlgorithm::RCeil, p, f))
            << formatInfo(f).name << " amax bits " << std::hex
            << ref::bitsOf(amax[i]);
    }
}

TEST_F(NumericsJit, DecodeEveryCode) {
  std::vector<float> codes;
  for (int c = 0; c < 256; ++c)
    codes.push_back(float(c));
  for (ElementFormat f : kFormats) {
    std::vector<uint32_t> got = run(
        [&](OpBuilder &b, Location l, Value x) {
          Value code = arith::FPToUIOp::create(
              b, l, isa<VectorType>(x.getType())
                        ? Type(VectorType::get({kLanes}, b.getI32Type()))
                        : Type(b.getI32Type()),
              x);
          Value v = num::decodeElement(b, l, code, f);
          return arith::BitcastOp::create(b, l, code.getType(), v).getResult();
        },
        true, codes);
    for (int c = 0; c < (1 << formatInfo(f).bits); ++c) {
      float want = ref::decodeElement(uint8_t(c), f);
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(ref::fromBits(got[c]))) << c;
      else
        EXPECT_EQ(got[c], ref::bitsOf(want)) << formatInfo(f).name << " " << c;
    }
  }
}

TEST_F(NumericsJit, ScaleBytesOnEveryBoundary) {
  std::vector<float> inputs = scaleBoundaries();
  for (ScaleAlgorithm a : {ScaleAlgorithm::Floor, ScaleAlgorithm::RCeil,
                           ScaleAlgorithm::Ceil, ScaleAlgorithm::Even,
                           ScaleAlgorithm::Tosa})
    for (InfPolicy p :
         {InfPolicy::NaN, InfPolicy::Saturate, InfPolicy::Exponent}) {
      if (p == InfPolicy::Exponent && a != ScaleAlgorithm::Floor)
        continue;
      for (ElementFormat f : kFormats) {
        std::vector<uint32_t> got = run(
            [&](OpBuilder &b, Location l, Value x) {
              return num::scaleByte(b, l, x, a, p, f);
            },
            true, inputs);
        size_t mismatches = 0;
        for (size_t i = 0; i < inputs.size(); ++i)
          if (got[i] != ref::scaleByte(inputs[i], a, p, f) && mismatches++ < 3)
            ADD_FAILURE() << "algorithm " << int(a) << " policy " << int(p)
                          << " " << formatInfo(f).name << " amax bits "
                          << std::hex << ref::bitsOf(inputs[i]) << ": got "
                          << got[i] << ", reference "
                          << int(ref::scaleByte(inputs[i], a, p, f));
        EXPECT_EQ(mismatches, 0u);
      }
    }
}

TEST_F(NumericsJit, MultipliersAndValuesOfEveryByte) {
  std::vector<float> bytes;
  for (int s = 0; s < 256; ++s)
    bytes.push_back(float(s));
  for (bool multiplier : {true, false}) {
    std::vector<uint32_t> got = run(
        [&](OpBuilder &b, Location l, Value x) {
          Type i32 = VectorType::get({kLanes}, b.getI32Type());
          Value s = arith::FPToUIOp::create(b, l, i32, x);
          Value v = multiplier ? num::scaleMultiplier(b, l, s)
                               : num::scaleValue(b, l, s);
          return arith::BitcastOp::create(b, l, i32, v).getResult();
        },
        true, bytes);
    for (int s = 0; s < 256; ++s) {
      float want = multiplier ? ref::scaleMultiplier(s) : ref::scaleValue(s);
      EXPECT_EQ(got[s], ref::bitsOf(want)) << s;
    }
  }
}

TEST_F(NumericsJit, BF16RoundingOfEveryHalfPatternAndNeighbours) {
  // Every bf16 pattern with the low halves where rounding decides: 0, just
  // below and above the tie, the tie, the maximum.
  std::vector<float> inputs;
  for (uint32_t hi = 0; hi < 0x10000; ++hi)
    for (uint32_t lo : {0x0000u, 0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu})
      inputs.push_back(ref::fromBits(hi << 16 | lo));
  for (bool vectorForm : {false, true}) {
    std::vector<uint32_t> got = run(
        [](OpBuilder &b, Location l, Value x) {
          return num::bf16BitsOf(b, l, x);
        },
        vectorForm, inputs);
    size_t mismatches = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      // A NaN rounds to the canonical quiet NaN of its sign here (every NaN
      // mxq computes is canonical); the reference's conversion keeps the
      // payload (a value passed through keeps its bits).
      if (std::isnan(inputs[i])) {
        uint32_t want = (ref::bitsOf(inputs[i]) >> 16 & 0x8000) | 0x7fc0;
        if (got[i] != want && mismatches++ < 3)
          ADD_FAILURE() << std::hex << ref::bitsOf(inputs[i]) << ": got "
                        << got[i] << ", want " << want;
        continue;
      }
      if (got[i] != ref::toBF16Bits(inputs[i]) && mismatches++ < 3)
        ADD_FAILURE() << std::hex << ref::bitsOf(inputs[i]) << ": got "
                      << got[i] << ", reference "
                      << ref::toBF16Bits(inputs[i]);
    }
    EXPECT_EQ(mismatches, 0u);
  }
}

/// The shared stored-scale recipe (recipes::f32BlockScale through
/// num::f32BlockScale) against the reference on every E8M0 boundary amax,
/// for every rule the verifier accepts: the stored scale bit for bit, and
/// the factor bit for bit where the elements are divided by it
/// (f32ScaleDivides) or multiplied by the same value; under pow2 with
/// exact division the reference divides by s and the targets multiply by
/// 1/s, so the factor is checked as exactly that reciprocal.
TEST_F(NumericsJit, F32BlockScalesOfEveryBoundary) {
  std::vector<float> inputs = scaleBoundaries();
  size_t rules = 0;
  for (ScaleAlgorithm a : {ScaleAlgorithm::Encode, ScaleAlgorithm::Decode})
    for (ElementFormat f : {ElementFormat::E4M3FN, ElementFormat::E5M2})
      for (float floor : {0.0f, 1.0e-4f})
        for (bool pow2 : {false, true})
          for (Division d : {Division::Exact, Division::Reciprocal})
            for (SourceType src :
                 {SourceType::F32, SourceType::BF16, SourceType::F16}) {
              if (d == Division::Reciprocal && a != ScaleAlgorithm::Decode)
                continue; // the verifier refuses it (C11)
              F32ScaleRule rule{a, f, floor, pow2, d, src};
              ref::QuantizeOptions o;
              o.f32Scales = true;
              o.algorithm = a;
              o.format = f;
              o.amaxFloor = floor;
              o.pow2 = pow2;
              o.division = d;
              o.source = src;
              ++rules;
              for (bool factor : {false, true}) {
                std::vector<uint32_t> got = run(
                    [&](OpBuilder &b, Location l, Value x) -> Value {
                      auto [stored, fac] = num::f32BlockScale(b, l, x, rule);
                      if (!factor)
                        return stored;
                      return arith::BitcastOp::create(b, l, stored.getType(),
                                                      fac);
                    },
                    true, inputs);
                size_t mismatches = 0;
                for (size_t i = 0; i < inputs.size(); ++i) {
                  ref::F32BlockScale want = ref::f32BlockScale(inputs[i], o);
                  float w = want.stored;
                  if (factor)
                    w = f32ScaleDivides(rule) || a == ScaleAlgorithm::Encode ||
                                d == Division::Reciprocal
                            ? want.factor
                            : 1.0f / want.factor;
                  uint32_t wb = ref::bitsOf(w);
                  bool same = got[i] == wb ||
                              (std::isnan(w) && got[i] == 0x7FC00000u);
                  if (!same && mismatches++ < 3)
                    ADD_FAILURE() << (factor ? "factor" : "stored")
                                  << " algorithm " << int(a) << " "
                                  << formatInfo(f).name << " floor " << floor
                                  << " pow2 " << pow2 << " division "
                                  << int(d) << " source " << int(src)
                                  << " amax bits " << std::hex
                                  << ref::bitsOf(inputs[i]) << ": got "
                                  << got[i] << ", reference " << wb;
                }
                EXPECT_EQ(mismatches, 0u);
              }
            }
  EXPECT_EQ(rules, 72u);
}

/// Why a pow2 scale may multiply (f32ScaleDivides): for every scale 2^k
/// the pow2 rule gives (k in [-126, 127]) and every bf16 and f16 value
/// (NaNs, infinities and subnormals among them) plus f32 patterns, x /
/// 2^k and x * 2^-k are the same f32.
TEST(F32ScaleDivides, DividingByAPowerOfTwoIsMultiplyingByItsReciprocal) {
  std::vector<float> xs = allSixteenBitValues();
  uint32_t state = 7;
  for (int i = 0; i < 100000; ++i) {
    state = state * 1664525u + 1013904223u;
    xs.push_back(ref::fromBits(state));
  }
  size_t mismatches = 0;
  for (int k = -126; k <= 127; ++k) {
    float s = std::ldexp(1.0f, k), r = 1.0f / s;
    ASSERT_EQ(r, std::ldexp(1.0f, -k)); // exact, 2^-127 included
    for (float x : xs) {
      float q = x / s, p = x * r;
      if (ref::bitsOf(q) != ref::bitsOf(p) && !(std::isnan(q) && std::isnan(p)))
        if (mismatches++ < 3)
          ADD_FAILURE() << "k " << k << " x bits " << std::hex
                        << ref::bitsOf(x);
    }
  }
  EXPECT_EQ(mismatches, 0u);
  // The rule itself: only decode with exact division and no pow2 divides.
  EXPECT_TRUE(f32ScaleDivides({ScaleAlgorithm::Decode, ElementFormat::E4M3FN,
                               0.0f, false, Division::Exact,
                               SourceType::F32}));
  EXPECT_FALSE(f32ScaleDivides({ScaleAlgorithm::Decode, ElementFormat::E4M3FN,
                                0.0f, true, Division::Exact,
                                SourceType::F32}));
  EXPECT_FALSE(f32ScaleDivides({ScaleAlgorithm::Encode, ElementFormat::E4M3FN,
                                0.0f, false, Division::Exact,
                                SourceType::F32}));
}
