//===- Dequantize.cpp - the coalesced last-axis dequantize ----------------===//
#include "Kernels.h"

namespace mxq::nvvm::coalesced {
namespace {

struct CoalescedDequantize : OpRewritePattern<dialect::DequantizeOp> {
  CoalescedDequantize(MLIRContext *ctx)
      : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(dialect::DequantizeOp op,
                                PatternRewriter &rw) const override {
    auto codesType = cast<RankedTensorType>(op.getCodes().getType());
    int64_t rank = codesType.getRank();
    Type resElt = op.getResult().getType().getElementType();
    if (int64_t(op.getAxis()) != rank - 1 ||
        int64_t(op.getBlockSize()) != kBlock ||
        !isWideFloat(resElt))
      return rw.notifyMatchFailure(op, "not a last-axis block-32 dequantize");
    Location loc = op.getLoc();
    // 16 bytes of results a lane (codes: 4 or 8 bytes).
    int64_t elems = resElt.isF32() ? 4 : 8, lanes = kBlock / elems;
    ::mxq::ElementFormat format =
        *dialect::getElementFormat(codesType.getElementType());
    ReifiedRankedShapedTypeDims dims;
    if (failed(loops::resultSizes(op, rw, dims)))
      return failure();
    Value codes = bufferOf(rw, loc, op.getCodes());
    Value scales = bufferOf(rw, loc, op.getScales());
    Value result = allocate(rw, loc, dims[0], resElt);
    SmallVector<Value> shape = sizesOf(rw, loc, codes);
    Value numBlocks =
        arith::CeilDivUIOp::create(rw, loc, shape.back(), idx(rw, loc, kBlock));
    bool saturate = op.getCast() == dialect::ResultCast::saturate;
    launchLanes(rw, loc, shape, numBlocks, lanes, elems,
                [&](OpBuilder &b, Location l, LanePlace &p) {
      Value code = readLane(b, l, codes, p, elems, /*asBits=*/true);
      // Every lane of a block reads its scale (one sector for the warp).
      SmallVector<Value> ivs(p.lead);
      ivs.push_back(p.col0);
      SmallVector<Value> at = loops::scaleIndex(b, l, ivs, rank - 1, p.blk,
                                                numBlocks, op.getScaleLayout());
      // A thread past the end reads scale 0 (it stores nothing).
      SmallVector<Value> safe;
      for (Value v : at)
        safe.push_back(arith::SelectOp::create(b, l, p.valid, v, idx(b, l, 0)));
      Value s = loops::blockScaleValue(
          b, l, memref::LoadOp::create(b, l, scales, safe));
      Value value = num::decodeElement(b, l, code, format);
      Value scale = vector::BroadcastOp::create(b, l, value.getType(), s);
      Value y = num::canonicalizeNaN(b, l,
                                     arith::MulFOp::create(b, l, value, scale));
      if (saturate)
        y = loops::saturateTo(b, l, y, resElt);
      writeLane(b, l, loops::fromF32(b, l, y, resElt), result, p);
    });
    loops::replaceWithResultTypes(rw, op, {asTensor(rw, loc, result)});
    return success();
  }
};

} // namespace

void populateDequantize(RewritePatternSet &patterns) {
  patterns.add<CoalescedDequantize>(patterns.getContext());
}

} // namespace mxq::nvvm::coalesced
