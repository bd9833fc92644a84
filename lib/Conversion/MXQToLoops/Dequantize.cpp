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
          Value stored = tensor::ExtractOp::create(b, l, scales, sIdx);
          // The block's scale value: 2^(s - 127), NVFP4's E4M3 value under
          // the line's outer value, or the stored fp32 value (blockwise
          // FP8).
          Value sv;
          if (auto rule = op.getScaleAlgorithm()) {
            Value s = fromSmallFloat(b, l, stored);
            Value t;
            if (Value o = op.getOuter()) {
              SmallVector<Value> oi;
              if (cast<RankedTensorType>(o.getType()).getRank() != 0)
                for (int64_t d = 0; d < int64_t(ivs.size()); ++d)
                  if (d != axis)
                    oi.push_back(ivs[d]);
              t = tensor::ExtractOp::create(b, l, o, oi);
            } else {
              t = num::f32Const(b, l, b.getF32Type(), 1.0f);
            }
            sv = num::nvfp4ScaleValue(b, l, s, t, dialect::toSupport(*rule));
          } else {
            sv = blockScaleValue(b, l, stored);
          }
          // Whole blocks unmasked, the ragged tail masked.
          // `lanes` elements from `a` (at most `n` of them where masked).
          auto piece = [&](OpBuilder &b, Location l, ArrayRef<Value> a,
                           int64_t lanes, Value n, bool inBounds,
                           Value dest) -> Value {
            Value code = readCodes(b, l, codes, a, axis, lanes, n, inBounds);
            Value value = num::decodeElement(b, l, code, format);
            Value scale =
                vector::BroadcastOp::create(b, l, value.getType(), sv);
            Value y = num::canonicalizeNaN(
                b, l, arith::MulFOp::create(b, l, value, scale));
            if (op.getCast() == dialect::ResultCast::saturate)
              y = saturateTo(b, l, y, resElt);
            Value out = fromF32(b, l, y, resElt);
            return writeAlongAxis(b, l, out, dest, a, axis, n, inBounds);
          };
          auto emit = [&](OpBuilder &b, Location l,
                          bool inBounds) -> SmallVector<Value> {
            if (block <= kUnrolledLanes)
              return {piece(b, l, at, block, count, inBounds, iters[0])};
            // A long block chunk by chunk (see kChunk).
            auto loop = scf::ForOp::create(
                b, l, indexConst(b, l, 0),
                chunksOf(b, l, size, k0, block, inBounds),
                indexConst(b, l, 1), ValueRange{iters[0]},
                [&](OpBuilder &cb, Location cl, Value c, ValueRange it) {
                  SmallVector<Value> a(at.begin(), at.end());
                  a[axis] = arith::AddIOp::create(
                      cb, cl, at[axis],
                      arith::MulIOp::create(cb, cl, c,
                                            indexConst(cb, cl, kChunk)));
                  Value n = inBounds ? Value()
                                     : blockCount(cb, cl, size, a[axis], kChunk);
                  scf::YieldOp::create(
                      cb, cl,
                      ValueRange{piece(cb, cl, a, kChunk, n, inBounds, it[0])});
                });
            return {loop.getResult(0)};
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
