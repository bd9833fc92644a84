//===- Dequantize.cpp - mxq.dequantize to loops ---------------------------===//
//
// Codes decoded block by block and multiplied by the block scale; and
// mxq.convert_scale_layout, one scale byte at a time between layouts.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::loops {
namespace {

struct DequantizeLowering : OpRewritePattern<dialect::DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(dialect::DequantizeOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value codes = op.getCodes(), scales = op.getScales();
    auto codesType = op.getCodes().getType();
    int64_t axis = op.getAxis();
    int64_t block = op.getBlockSize();
    Type resElt = op.getResult().getType().getElementType();
    ::mxq::ElementFormat format =
        *dialect::getElementFormat(codesType.getElementType());

    ReifiedRankedShapedTypeDims dims;
    if (failed(resultSizes(op, rw, dims)))
      return failure();
    Value result = tensor::EmptyOp::create(rw, loc, dims[0], resElt);
    SmallVector<Value> lbs, ubs, steps;
    blockLoopBounds(rw, loc, codes, axis, block, lbs, ubs, steps);
    Value size = tensor::DimOp::create(rw, loc, codes, axis);
    Value numBlocks = ubs[axis];

    scf::LoopNest nest = scf::buildLoopNest(
        rw, loc, lbs, ubs, steps, ValueRange{result},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iters) -> scf::ValueVector {
          Value blk = ivs[axis];
          Value k0 = arith::MulIOp::create(b, l, blk, indexConst(b, l, block));
          SmallVector<Value> at(ivs.begin(), ivs.end());
          at[axis] = k0;
          Value count = blockCount(b, l, size, k0, block);
          SmallVector<Value> sIdx = scaleIndex(b, l, ivs, axis, blk, numBlocks,
                                               op.getScaleLayout());
          Value s = fromSmallFloat(
              b, l, tensor::ExtractOp::create(b, l, scales, sIdx));
          // Whole blocks unmasked, the ragged tail masked.
          auto emit = [&](OpBuilder &b, Location l,
                          bool inBounds) -> SmallVector<Value> {
            Value code =
                readCodes(b, l, codes, at, axis, block, count, inBounds);
            Value value = num::decodeElement(b, l, code, format);
            Value scale = vector::BroadcastOp::create(
                b, l, value.getType(), num::scaleValue(b, l, s));
            Value y = num::canonicalizeNaN(
                b, l, arith::MulFOp::create(b, l, value, scale));
            if (op.getCast() == dialect::ResultCast::saturate)
              y = saturateTo(b, l, y, resElt);
            Value out = fromF32(b, l, y, resElt);
            return {writeAlongAxis(b, l, out, iters[0], at, axis, count,
                                   inBounds)};
          };
          return splitOnWholeBlock(b, l, size, k0, block, emit);
        });
    markParallel(nest);
    replaceWithResultTypes(rw, op, nest.results);
    return success();
  }
};

/// convert_scale_layout: one byte per block, from its place in one layout to
/// its place in the other (the layout offsets of scaleIndex).
struct ConvertScaleLayoutLowering
    : OpRewritePattern<dialect::ConvertScaleLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(dialect::ConvertScaleLayoutOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value codes = op.getCodes(), scales = op.getScales();
    int64_t axis = op.getAxis(), block = op.getBlockSize();
    Type scaleElt = op.getResult().getType().getElementType();
    ReifiedRankedShapedTypeDims dims;
    if (failed(resultSizes(op, rw, dims)))
      return failure();
    Value pad = toSmallFloat(
        rw, loc, num::i32Const(rw, loc, rw.getI32Type(), ::mxq::kScalePad),
        scaleElt);
    Value result = linalg::FillOp::create(
                       rw, loc, ValueRange{pad},
                       ValueRange{tensor::EmptyOp::create(rw, loc, dims[0],
                                                          scaleElt)})
                       .getResult(0);
    SmallVector<Value> lbs, ubs, steps;
    blockLoopBounds(rw, loc, codes, axis, block, lbs, ubs, steps);
    Value numBlocks = ubs[axis];
    scf::LoopNest nest = scf::buildLoopNest(
        rw, loc, lbs, ubs, steps, ValueRange{result},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iters) -> scf::ValueVector {
          Value blk = ivs[axis];
          Value byte = tensor::ExtractOp::create(
              b, l, scales,
              scaleIndex(b, l, ivs, axis, blk, numBlocks, op.getFrom()));
          return {tensor::InsertOp::create(
              b, l, byte, iters[0],
              scaleIndex(b, l, ivs, axis, blk, numBlocks, op.getTo()))};
        });
    markParallel(nest);
    replaceWithResultTypes(rw, op, nest.results);
    return success();
  }
};

} // namespace

void populateDequantizeLowering(RewritePatternSet &patterns) {
  patterns.add<DequantizeLowering, ConvertScaleLayoutLowering>(
      patterns.getContext());
}

} // namespace mxq::loops
