//===- FakeQuant.cpp - fake_quant and its gradient ------------------------===//
//
// Element-wise: one linalg.generic each, per tensor or per channel.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::loops {
namespace {

/// Maps of per-tensor (the constant 0) or per-channel (along `axis`)
/// parameters.
AffineMap paramMap(MLIRContext *ctx, int64_t rank, std::optional<int64_t> axis) {
  if (axis)
    return AffineMap::get(rank, 0, getAffineDimExpr(*axis, ctx));
  return AffineMap::get(rank, 0, getAffineConstantExpr(0, ctx));
}

/// Replaces the element-wise `op` (one result shaped like its `data`
/// operands) by a linalg.generic over `data` then `params` (per tensor or
/// per channel along `axis`) whose scalar body is `body`.
LogicalResult
replaceByElementwise(Operation *op, PatternRewriter &rw, ValueRange data,
                     ValueRange params, std::optional<int64_t> axis,
                     function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = type.getRank();
  ReifiedRankedShapedTypeDims dims;
  if (failed(resultSizes(op, rw, dims)))
    return failure();
  Value init = tensor::EmptyOp::create(rw, loc, dims[0], type.getElementType());
  AffineMap id = rw.getMultiDimIdentityMap(rank);
  AffineMap p = paramMap(rw.getContext(), rank, axis);
  SmallVector<AffineMap> maps(data.size(), id);
  maps.append(params.size(), p);
  maps.push_back(id);
  SmallVector<Value> inputs(data.begin(), data.end());
  inputs.append(params.begin(), params.end());
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rw, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iters,
      [&](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, body(b, l, args));
      });
  replaceWithResultTypes(rw, op, generic.getResults());
  return success();
}

struct FakeQuantLowering : NumericsPattern<dialect::FakeQuantOp> {
  using NumericsPattern::NumericsPattern;

  LogicalResult matchAndRewrite(dialect::FakeQuantOp op,
                                PatternRewriter &rw) const override {
    Type elt = op.getInput().getType().getElementType();
    ::mxq::ElementFormat format = *dialect::getElementFormat(op.getFormat());
    float qmin = op.getQuantMin().convertToFloat();
    float qmax = op.getQuantMax().convertToFloat();
    return replaceByElementwise(
        op, rw, {op.getInput()}, {op.getStepSize(), op.getZeroPoint()},
        op.getAxis(), [&](OpBuilder &b, Location l, ValueRange args) {
          // ref: fakeQuant.
          Value x = toF32(b, l, args[0]), s = args[1], z = args[2];
          Value t = arith::AddFOp::create(
              b, l, arith::DivFOp::create(b, l, x, s), z);
          t = num::clampKeepingNaN(b, l, t, qmin, qmax);
          Value q = num::decodeElement(
              b, l,
              num::encodeElement(b, l, t, format, ::mxq::Rounding::RNE,
                                 ::mxq::NanElement::Max, native()),
              format);
          Value y = arith::MulFOp::create(
              b, l, arith::SubFOp::create(b, l, q, z), s);
          return fromF32(b, l, num::canonicalizeNaN(b, l, y), elt);
        });
  }
};

struct FakeQuantGradLowering : OpRewritePattern<dialect::FakeQuantGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(dialect::FakeQuantGradOp op,
                                PatternRewriter &rw) const override {
    Type elt = op.getInput().getType().getElementType();
    float qmin = op.getQuantMin().convertToFloat();
    float qmax = op.getQuantMax().convertToFloat();
    return replaceByElementwise(
        op, rw, {op.getGrad(), op.getInput()}, {op.getStepSize()},
        op.getAxis(), [&](OpBuilder &b, Location l, ValueRange args) {
          // ref: fakeQuantGrad.
          Value g = args[0], x = toF32(b, l, args[1]), s = args[2];
          Value lo = arith::MulFOp::create(
              b, l, num::f32Const(b, l, s.getType(), qmin), s);
          Value hi = arith::MulFOp::create(
              b, l, num::f32Const(b, l, s.getType(), qmax), s);
          Value in = arith::AndIOp::create(
              b, l,
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, x, lo),
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLE, x, hi));
          Value zero =
              arith::ConstantOp::create(b, l, b.getFloatAttr(elt, 0.0));
          return arith::SelectOp::create(b, l, in, g, zero).getResult();
        });
  }
};

} // namespace

void populateFakeQuantLowering(
    RewritePatternSet &patterns,
    std::shared_ptr<const num::NativeConverts> native) {
  patterns.add<FakeQuantLowering>(patterns.getContext(), std::move(native));
  patterns.add<FakeQuantGradLowering>(patterns.getContext());
}

} // namespace mxq::loops
