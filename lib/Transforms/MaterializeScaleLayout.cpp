//===- MaterializeScaleLayout.cpp - layouts as explicit conversions -------===//
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Support/ScaleLayout.h"
#include "mxq/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mxq {
#define GEN_PASS_DEF_MXQMATERIALIZESCALELAYOUT
#include "mxq/Transforms/Passes.h.inc"
} // namespace mxq

using namespace mlir;
using namespace mlir::mxq;

namespace {

/// The type of linear scales for `codes`.
RankedTensorType linearScalesType(RankedTensorType codes, int64_t axis,
                                  int64_t block, Type elt) {
  std::vector<int64_t> shape(codes.getShape().begin(), codes.getShape().end()),
      scales;
  std::string error;
  ::mxq::scaleShape(shape, axis, block, ::mxq::ScaleLayout::Linear, scales,
                    error);
  return RankedTensorType::get(scales, elt);
}

struct MaterializeQuantize : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rw) const override {
    if (op.getScaleLayout() == ScaleLayout::linear)
      return failure();
    auto scalesType = op.getScales().getType();
    auto linear = QuantizeOp::create(
        rw, op.getLoc(), op.getCodes().getType(),
        linearScalesType(op.getCodes().getType(), op.getAxis(),
                         op.getBlockSize(), scalesType.getElementType()),
        op.getInput(), op.getOuter(), op.getAxis(), op.getBlockSize(),
        op.getScaleAlgorithm(), op.getInfPolicy(), op.getRounding(),
        op.getNanElement(), ScaleLayout::linear, op.getUnderflow(),
        op.getProduct(), op.getAmaxFloorAttr(), op.getPow2(),
        op.getDivision());
    Value converted = ConvertScaleLayoutOp::create(
        rw, op.getLoc(), scalesType, linear.getScales(), linear.getCodes(),
        op.getAxis(), op.getBlockSize(), ScaleLayout::linear,
        op.getScaleLayout());
    rw.replaceOp(op, {linear.getCodes(), converted});
    return success();
  }
};

struct MaterializeDequantize : OpRewritePattern<DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DequantizeOp op,
                                PatternRewriter &rw) const override {
    if (op.getScaleLayout() == ScaleLayout::linear)
      return failure();
    Value linear = ConvertScaleLayoutOp::create(
        rw, op.getLoc(),
        linearScalesType(op.getCodes().getType(), op.getAxis(),
                         op.getBlockSize(),
                         op.getScales().getType().getElementType()),
        op.getScales(), op.getCodes(), op.getAxis(), op.getBlockSize(),
        op.getScaleLayout(), ScaleLayout::linear);
    rw.replaceOpWithNewOp<DequantizeOp>(
        op, op.getResult().getType(), op.getCodes(), linear, op.getOuter(),
        op.getAxis(), op.getBlockSize(), op.getScaleAlgorithmAttr(),
        ScaleLayout::linear, op.getCast());
    return success();
  }
};

struct MXQMaterializeScaleLayout
    : ::mxq::impl::MXQMaterializeScaleLayoutBase<MXQMaterializeScaleLayout> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    ::mxq::populateMaterializeScaleLayoutPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void ::mxq::populateMaterializeScaleLayoutPatterns(RewritePatternSet &patterns) {
  patterns.add<MaterializeQuantize, MaterializeDequantize>(
      patterns.getContext());
}
