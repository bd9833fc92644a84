//===- BlockBuilders.h - the expansion's per-block builders -----*- C++ -*-===//
//
// The pieces of convert-mxq-to-loops that a target's own mapping of an op
// reuses, so that a target-specific kernel (the NVIDIA target's
// lane-cooperative kernels) computes each block with exactly the shared
// expansion's numerics: the policies of a quantizing op, the conversions
// between element types and i32 code bits, and the scale index of a block
// in each layout. Everything here works on scalars and vectors and on
// tensors or memrefs alike (none of it touches memory but scaleIndex's
// index arithmetic).
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_CONVERSION_BLOCKBUILDERS_H
#define MXQ_CONVERSION_BLOCKBUILDERS_H

#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Numerics/Numerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace mxq::loops {
using namespace mlir;
namespace num = ::mxq::numerics;
namespace dialect = ::mlir::mxq;

/// A lowering pattern that may use the target's native converts (the
/// shared expansion's and a target's own).
template <typename Op>
struct NumericsPattern : OpRewritePattern<Op> {
  NumericsPattern(MLIRContext *ctx,
                  std::shared_ptr<const num::NativeConverts> native,
                  PatternBenefit benefit = 1)
      : OpRewritePattern<Op>(ctx, benefit), nativeConverts(std::move(native)) {}
  const num::NativeConverts *native() const { return nativeConverts.get(); }

private:
  std::shared_ptr<const num::NativeConverts> nativeConverts;
};

/// An index constant.
Value indexConst(OpBuilder &b, Location loc, int64_t v);
/// The result sizes of `op`, static wherever its result types are.
LogicalResult resultSizes(Operation *op, OpBuilder &b,
                          ReifiedRankedShapedTypeDims &dims);
/// `elt` shaped like `like` (vector or scalar).
Type shapedLike(Type like, Type elt);
/// i32 code bits as values of the small float `elt`, and back.
Value toSmallFloat(OpBuilder &b, Location loc, Value bits, Type elt);
Value fromSmallFloat(OpBuilder &b, Location loc, Value v);
/// f16/bf16 widened to f32 exactly; f32 rounded to `elt` (nearest even).
Value toF32(OpBuilder &b, Location loc, Value v);
Value fromF32(OpBuilder &b, Location loc, Value v, Type elt);
/// f32 values rounded to `elt` and widened back (what a cast does).
Value roundTo(OpBuilder &b, Location loc, Value v, Type elt);
/// ref: saturateToSource (f32 values of `elt`, saturated; NaN to +0).
Value saturateTo(OpBuilder &b, Location loc, Value v, Type elt);
/// The f32 value of a stored block scale of an op without an outer value:
/// 2^(s - 127) of an E8M0 byte (NaN for 0xFF), or the fp32 scale itself
/// (blockwise FP8) (ref: dequantize, dequantizeF32Scales).
Value blockScaleValue(OpBuilder &b, Location loc, Value stored);
/// The tensor index of the scale of block `blk` per layout.
SmallVector<Value> scaleIndex(OpBuilder &b, Location loc, ValueRange ivs,
                              int64_t axis, Value blk, Value numBlocks,
                              dialect::ScaleLayout layout);
/// What a quantizing op (quantize, dual_quantize) asks of each block.
struct BlockPolicies {
  ::mxq::ElementFormat format;
  ::mxq::ScaleAlgorithm algorithm;
  ::mxq::InfPolicy inf;
  ::mxq::Rounding rounding;
  ::mxq::NanElement nanElement;
  ::mxq::Underflow underflow;
  /// Stored fp32 scales (blockwise FP8, quantize's f32 scales).
  std::optional<num::F32ScaleRule> f32 = std::nullopt;

  template <typename Op>
  static BlockPolicies of(Op op, Type codeType) {
    BlockPolicies p{*dialect::getElementFormat(codeType),
                    dialect::toSupport(op.getScaleAlgorithm()),
                    dialect::toSupport(op.getInfPolicy()),
                    dialect::toSupport(op.getRounding()),
                    dialect::toSupport(op.getNanElement()),
                    dialect::toSupport(op.getUnderflow())};
    if constexpr (std::is_same_v<Op, dialect::QuantizeOp>)
      p.f32 = dialect::getF32ScaleRule(op);
    return p;
  }

  /// E4M3 block scales under an fp32 outer value (NVFP4).
  bool nvfp4() const { return ::mxq::isE4M3Scale(algorithm) && !f32; }

  /// The absolute maximum of blocks `x` (num::blockAmax; NaN ignored for
  /// TE's encode convention, ref: quantize).
  Value amax(OpBuilder &b, Location l, Value x,
             ArrayRef<bool> reduced = {}) const {
    return num::blockAmax(b, l, x, reduced,
                          algorithm == ::mxq::ScaleAlgorithm::Encode);
  }

  /// The scale byte(s) of blocks of absolute maximum `amax` (f32 scalar or
  /// vector) and the multiplier(s) of their elements (ref: quantize); for
  /// NVFP4, the factor of num::nvfp4Block under the line's `outer` value.
  std::pair<Value, Value> scaleAndMultiplier(
      OpBuilder &b, Location l, Value amax, const num::NativeConverts *native,
      Value outer = Value()) const {
    if (f32)
      return num::f32BlockScale(b, l, amax, *f32);
    if (nvfp4())
      return num::nvfp4Block(b, l, amax, outer, algorithm, native);
    Value s = num::scaleByte(b, l, amax, algorithm, inf, format, native);
    return {s, num::blockMultiplier(b, l, amax, s, underflow, format)};
  }

  /// The scaled elements of `x` with the multiplier (factor) `r`.
  Value scaled(OpBuilder &b, Location l, Value x, Value r) const {
    if (f32)
      return num::f32Scaled(b, l, x, r, *f32);
    if (nvfp4())
      return num::nvfp4Scaled(b, l, x, r, algorithm);
    return arith::MulFOp::create(b, l, x, r);
  }

  /// The codes of scaled elements `y`.
  Value encode(OpBuilder &b, Location l, Value y,
               const num::NativeConverts *native) const {
    return num::encodeElement(b, l, y, format, rounding, nanElement, native);
  }
};

/// Replaces `op` by `values`, each cast (tensor.cast) to the op's result
/// type where the lowering built a more static one (a dynamic result type
/// of a static input).
void replaceWithResultTypes(PatternRewriter &rw, Operation *op,
                            ValueRange values);


/// The steps of two_level_quantize (ref: twoLevelQuantize, the CANN
/// kernel's order of roundings), for the shared expansion and for a
/// target's own mapping of the op. Vectors of any length; the reductions
/// (largest finite |x|, largest exponent) may be combined across pieces of
/// a block by an unsigned maximum in any order.
struct TwoLevelSteps {
  Type elt;  ///< the input element type
  bool ftz;  ///< div_denormals = ftz
  ::mxq::Rounding rounding;
  ::mxq::NanElement nanElement;

  static TwoLevelSteps of(dialect::TwoLevelQuantizeOp op);
  /// x times the smooth scales, rounded to the input type.
  Value smoothed(OpBuilder &b, Location l, Value x, Value smooth) const;
  /// The bits (i32) of the largest finite |x| of the f32 vector `x`.
  Value finiteMaxBits(OpBuilder &b, Location l, Value x) const;
  /// The fp32 level-0 scale of a block whose largest finite |x| has bits
  /// `bits`.
  Value level0(OpBuilder &b, Location l, Value bits) const;
  /// The elements `x` (f32 vector) divided by the level-0 scale `l0` (f32).
  Value temp(OpBuilder &b, Location l, Value x, Value l0) const;
  /// The largest exponent field (i32) of `temp`; Inf and NaN count 0xFF.
  Value maxExponent(OpBuilder &b, Location l, Value temp) const;
  /// The level-1 E8M0 byte (i32) and multiplier (f32) of a group whose
  /// largest exponent field is `maxExp`.
  std::pair<Value, Value> level1(OpBuilder &b, Location l, Value maxExp) const;
  /// The FP4 codes (i32 vector) of `temp` times `mult`.
  Value codes(OpBuilder &b, Location l, Value temp, Value mult,
              const num::NativeConverts *native) const;
};

} // namespace mxq::loops

#endif // MXQ_CONVERSION_BLOCKBUILDERS_H
