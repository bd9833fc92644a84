//===- TOSAToMXQ.cpp - TOSA's MXFP casts as mxq ops -----------------------===//
//
// TOSA 1.1's MXFP extension states block-scaled casts along the last axis in
// blocks of 32 with E8M0 scales; its pseudocode (CAST_TO_BLOCK_SCALED,
// calc_block_scale) is mxq.quantize with scale = tosa and
// CAST_FROM_BLOCK_SCALED is mxq.dequantize. docs/Rationale.md, "TOSA
// ingress", says how each step was matched.
//
//===----------------------------------------------------------------------===//
#include "mxq/Conversion/Passes.h"
#include "mxq/Dialect/MXQ/MXQ.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mxq {
#define GEN_PASS_DEF_CONVERTTOSATOMXQ
#include "mxq/Conversion/Passes.h.inc"
} // namespace mxq

using namespace mlir;
namespace dialect = ::mlir::mxq;

namespace {

/// Why mxq cannot state a TOSA MXFP op with these operand and result types,
/// or "".
std::string refusal(Operation *op) {
  for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                         op->getResultTypes())) {
    auto shaped = dyn_cast<ShapedType>(t);
    if (!shaped || !shaped.hasRank())
      return "takes an unranked tensor; mxq's ops need ranked tensors (a "
             "dynamic dimension is fine)";
    Type elt = shaped.getElementType();
    if (!elt.isIntOrFloat())
      return "has !tosa.mxint8 data, which mxq does not state (its block "
             "scaling has no integer codes)";
  }
  return "";
}

struct CastToBlockScaled : OpRewritePattern<tosa::CastToBlockScaledOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::CastToBlockScaledOp op,
                                PatternRewriter &rw) const override {
    if (std::string why = refusal(op); !why.empty())
      return rw.notifyMatchFailure(op, why);
    auto in = cast<RankedTensorType>(op.getInputData().getType());
    auto codes = cast<RankedTensorType>(op.getOutputData().getType());
    auto scales = cast<RankedTensorType>(op.getOutputScale().getType());
    auto q = dialect::QuantizeOp::create(
        rw, op.getLoc(), codes, scales, op.getInputData(), /*outer=*/Value(),
        in.getRank() - 1, int64_t(op.getBlockSize()),
        dialect::ScaleAlgorithm::tosa, dialect::InfPolicy::nan,
        dialect::Rounding::rne, dialect::NanElement::max,
        dialect::ScaleLayout::linear, dialect::Underflow::keep,
        dialect::Product::f32, /*amax_floor=*/FloatAttr());
    rw.replaceOp(op, q.getResults());
    return success();
  }
};

struct CastFromBlockScaled : OpRewritePattern<tosa::CastFromBlockScaledOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::CastFromBlockScaledOp op,
                                PatternRewriter &rw) const override {
    if (std::string why = refusal(op); !why.empty())
      return rw.notifyMatchFailure(op, why);
    auto codes = cast<RankedTensorType>(op.getInputData().getType());
    auto y = dialect::DequantizeOp::create(
        rw, op.getLoc(), op.getOutputData().getType(), op.getInputData(),
        op.getInputScale(), /*outer=*/Value(), codes.getRank() - 1,
        int64_t(op.getBlockSize()), dialect::ScaleAlgorithmAttr(),
        dialect::ScaleLayout::linear, dialect::ResultCast::ieee);
    rw.replaceOp(op, y.getResult());
    return success();
  }
};

/// A diagnostic for every TOSA MXFP op left: the reason it was refused.
LogicalResult reportLeft(Operation *root) {
  WalkResult r = root->walk([](Operation *op) {
    if (!isa<tosa::CastToBlockScaledOp, tosa::CastFromBlockScaledOp,
             tosa::MatmulTBlockScaledOp>(op))
      return WalkResult::advance();
    std::string why =
        isa<tosa::MatmulTBlockScaledOp>(op)
            ? std::string("is not lowered by mxq yet (its casts are: "
                          "cast_to_block_scaled and cast_from_block_scaled)")
            : refusal(op);
    op->emitOpError() << "cannot be converted to mxq: it " << why;
    return WalkResult::interrupt();
  });
  return failure(r.wasInterrupted());
}

struct ConvertTOSAToMXQ
    : ::mxq::impl::ConvertTOSAToMXQBase<ConvertTOSAToMXQ> {
  void runOnOperation() override {
    if (failed(::mxq::convertTOSAToMXQ(getOperation())))
      signalPassFailure();
  }
};

} // namespace

void ::mxq::populateTOSAToMXQPatterns(RewritePatternSet &patterns) {
  patterns.add<CastToBlockScaled, CastFromBlockScaled>(patterns.getContext());
}

llvm::LogicalResult(::mxq::convertTOSAToMXQ)(Operation *root) {
  bool any = false;
  root->walk([&](Operation *op) {
    any |= isa<tosa::CastToBlockScaledOp, tosa::CastFromBlockScaledOp,
               tosa::MatmulTBlockScaledOp>(op);
  });
  if (!any)
    return success();
  root->getContext()->getOrLoadDialect<dialect::MXQDialect>();
  RewritePatternSet patterns(root->getContext());
  populateTOSAToMXQPatterns(patterns);
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  (void)applyPatternsGreedily(root, std::move(patterns), config);
  return reportLeft(root);
}
