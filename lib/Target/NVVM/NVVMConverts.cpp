//===- NVVMConverts.cpp - native NVIDIA converts for the numerics ---------===//
#include "mxq/Target/NVVM/NVVMConverts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace mxq {
namespace {

class NVVMConverts : public numerics::NativeConverts {
public:
  explicit NVVMConverts(const NVGPUTarget &target) : target(target) {}

  Value encodeFiniteRNE(OpBuilder &b, Location loc, Value x,
                        ElementFormat format) const override {
    switch (format) {
    case ElementFormat::E4M3FN:
    case ElementFormat::E5M2:
      if (!target.hasNativeFP8Convert())
        return {};
      break;
    case ElementFormat::E2M3FN:
    case ElementFormat::E3M2FN:
      if (!target.hasNativeFP6Convert())
        return {};
      break;
    case ElementFormat::E2M1FN:
      if (!target.hasNativeFP4Convert())
        return {};
      break;
    }
    return pairwise(b, loc, x, [&](Value hi, Value lo) {
      return convertPair(b, loc, hi, lo, format);
    });
  }

  Value e8m0RoundUp(OpBuilder &b, Location loc, Value d) const override {
    if (!target.hasNativeE8M0Convert())
      return {};
    return pairwise(b, loc, d, [&](Value hi, Value lo) {
      Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
          b, loc, b.getI16Type(), hi, lo,
          NVVM::FPRoundingModeAttr::get(b.getContext(),
                                        NVVM::FPRoundingMode::RP),
          NVVM::SaturationModeAttr::get(b.getContext(),
                                        NVVM::SaturationMode::NONE),
          b.getBoolAttr(false), TypeAttr::get(b.getType<Float8E8M0FNUType>()));
      return unpack(b, loc, packed, 8, 8);
    });
  }

private:
  using PairFn = function_ref<std::pair<Value, Value>(Value, Value)>;

  /// The codes (low, high) of the pair (lo, hi) by one instruction.
  std::pair<Value, Value> convertPair(OpBuilder &b, Location loc, Value hi,
                                      Value lo, ElementFormat format) const {
    MLIRContext *ctx = b.getContext();
    switch (format) {
    case ElementFormat::E4M3FN:
    case ElementFormat::E5M2: {
      Type dst = format == ElementFormat::E4M3FN
                     ? Type(b.getType<Float8E4M3FNType>())
                     : Type(b.getType<Float8E5M2Type>());
      Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
          b, loc, b.getI16Type(), hi, lo,
          NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RN),
          NVVM::SaturationModeAttr::get(ctx, NVVM::SaturationMode::SATFINITE),
          b.getBoolAttr(false), TypeAttr::get(dst));
      return unpack(b, loc, packed, 8, 8);
    }
    case ElementFormat::E2M3FN:
    case ElementFormat::E3M2FN: {
      Type dst = format == ElementFormat::E2M3FN
                     ? Type(b.getType<Float6E2M3FNType>())
                     : Type(b.getType<Float6E3M2FNType>());
      Value packed = NVVM::ConvertF32x2ToF6x2Op::create(
          b, loc, b.getI16Type(), hi, lo, b.getBoolAttr(false),
          TypeAttr::get(dst));
      return unpack(b, loc, packed, 8, 6);
    }
    case ElementFormat::E2M1FN: {
      Value packed = NVVM::ConvertF32x2ToF4x2Op::create(
          b, loc, b.getI8Type(), hi, lo, b.getBoolAttr(false),
          TypeAttr::get(b.getType<Float4E2M1FNType>()));
      return unpack(b, loc, packed, 4, 4);
    }
    }
    llvm_unreachable("unknown element format");
  }

  /// The two codes of `bits` wide of a packed pair whose halves are `stride`
  /// bits apart, as i32 (low half first).
  static std::pair<Value, Value> unpack(OpBuilder &b, Location loc,
                                        Value packed, int stride, int bits) {
    Type i32 = b.getI32Type();
    Value wide = arith::ExtUIOp::create(b, loc, i32, packed);
    Value mask = arith::ConstantOp::create(b, loc, i32,
                                           b.getI32IntegerAttr((1 << bits) - 1));
    Value shift =
        arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(stride));
    Value low = arith::AndIOp::create(b, loc, wide, mask);
    Value high = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, wide, shift), mask);
    return {low, high};
  }

  /// Applies `fn` to consecutive pairs of the f32 scalar or vector `x` and
  /// gathers the i32 codes back into `x`'s shape. The instruction puts its
  /// first operand in the upper half, so element 2i+1 goes first. A scalar
  /// (or the last element of an odd vector) is paired with 0.
  static Value pairwise(OpBuilder &b, Location loc, Value x, PairFn fn) {
    Type i32 = b.getI32Type();
    auto vecTy = dyn_cast<VectorType>(x.getType());
    if (!vecTy) {
      Value zero =
          arith::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(0));
      return fn(zero, x).first;
    }
    if (vecTy.isScalable())
      return {};
    int64_t n = vecTy.getNumElements();
    Value flat = vector::ShapeCastOp::create(
        b, loc, VectorType::get({n}, vecTy.getElementType()), x);
    Value zero =
        arith::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(0));
    SmallVector<Value> codes;
    for (int64_t k = 0; k < n; k += 2) {
      Value lo = vector::ExtractOp::create(b, loc, flat, k);
      Value hi = k + 1 < n ? vector::ExtractOp::create(b, loc, flat, k + 1)
                           : zero;
      auto [cl, ch] = fn(hi, lo);
      codes.push_back(cl);
      if (k + 1 < n)
        codes.push_back(ch);
    }
    Value out = vector::FromElementsOp::create(
        b, loc, VectorType::get({n}, i32), codes);
    return vector::ShapeCastOp::create(
        b, loc, VectorType::get(vecTy.getShape(), i32), out);
  }

  NVGPUTarget target;
};

} // namespace

std::unique_ptr<numerics::NativeConverts>
makeNVVMConverts(const NVGPUTarget &target) {
  return std::make_unique<NVVMConverts>(target);
}

} // namespace mxq
