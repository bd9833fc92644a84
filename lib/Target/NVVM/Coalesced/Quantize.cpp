//===- Quantize.cpp - the coalesced last-axis quantize --------------------===//
#include "Kernels.h"

namespace mxq::nvvm::coalesced {
namespace {

struct CoalescedQuantize : loops::NumericsPattern<dialect::QuantizeOp> {
  CoalescedQuantize(MLIRContext *ctx,
                    std::shared_ptr<const num::NativeConverts> native)
      : NumericsPattern(ctx, std::move(native), /*benefit=*/2) {}

  LogicalResult matchAndRewrite(dialect::QuantizeOp op,
                                PatternRewriter &rw) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    int64_t rank = inType.getRank();
    Type inElt = inType.getElementType();
    Type codeElt = op.getCodes().getType().getElementType();
    Type scaleElt = op.getScales().getType().getElementType();
    if (int64_t(op.getAxis()) != rank - 1 ||
        int64_t(op.getBlockSize()) != kBlock ||
        !isWideFloat(inElt) || codeElt.getIntOrFloatBitWidth() > 8)
      return rw.notifyMatchFailure(op, "not a last-axis block-32 quantize");
    Location loc = op.getLoc();
    int64_t elems = inElt.isF32() ? 4 : 8; // 16 bytes a lane
    int64_t lanes = kBlock / elems;
    auto policies = loops::BlockPolicies::of(op, codeElt);
    bool bf16Product = op.getProduct() == dialect::Product::bf16;
    auto layout = op.getScaleLayout();

    ReifiedRankedShapedTypeDims dims;
    if (failed(loops::resultSizes(op, rw, dims)))
      return failure();
    Value input = bufferOf(rw, loc, op.getInput());
    Value codes = allocate(rw, loc, dims[0], codeElt);
    Value scales = allocate(rw, loc, dims[1], scaleElt);
    if (layout == dialect::ScaleLayout::swizzle_32_4_4) {
      // The padding of the swizzled layout (ref: kScalePad); the pairs
      // layout's is stored by the kernel (storePairPadding).
      Value pad = loops::toSmallFloat(
          rw, loc, num::i32Const(rw, loc, rw.getI32Type(), ::mxq::kScalePad),
          scaleElt);
      linalg::FillOp::create(rw, loc, ValueRange{pad}, ValueRange{scales});
    }
    SmallVector<Value> shape = sizesOf(rw, loc, input);
    Value numBlocks =
        arith::CeilDivUIOp::create(rw, loc, shape.back(), idx(rw, loc, kBlock));
    const num::NativeConverts *nat = native();
    launchLanes(rw, loc, shape, numBlocks, lanes, elems,
                [&](OpBuilder &b, Location l, LanePlace &p) {
      Value x = loops::toF32(b, l, readLane(b, l, input, p, elems));
      // The block's amax: this lane's, then the other lanes' by shuffles.
      Type i32 = b.getI32Type();
      Value bits = arith::BitcastOp::create(b, l, i32, policies.amax(b, l, x));
      SmallVector<int64_t> offsets;
      for (int64_t d = 1; d < lanes; d *= 2)
        offsets.push_back(d);
      bits = laneMax(b, l, bits, offsets);
      Value amax = arith::BitcastOp::create(b, l, b.getF32Type(), bits);
      auto [sByte, mult] = policies.scaleAndMultiplier(b, l, amax, nat);
      Value r = vector::BroadcastOp::create(b, l, x.getType(), mult);
      Value y = policies.scaled(b, l, x, r);
      if (bf16Product)
        y = loops::roundTo(b, l, y, b.getBF16Type());
      Value code = policies.encode(b, l, y, nat);
      writeLane(b, l, code, codes, p, codeElt);
      // The first lane of a block stores its scale.
      Value first = arith::AndIOp::create(
          b, l, p.valid,
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, p.lane,
                                idx(b, l, 0)));
      auto store = scf::IfOp::create(b, l, first, /*withElse=*/false);
      OpBuilder sb = store.getThenBodyBuilder();
      SmallVector<Value> ivs(p.lead);
      ivs.push_back(p.col0);
      SmallVector<Value> at =
          loops::scaleIndex(sb, l, ivs, rank - 1, p.blk, numBlocks, layout);
      memref::StoreOp::create(sb, l, loops::toSmallFloat(sb, l, sByte, scaleElt),
                              scales, at);
      if (layout == dialect::ScaleLayout::pairs)
        storePairPadding(sb, l, p.lead, p.blk, numBlocks, scales, scaleElt);
    });
    loops::replaceWithResultTypes(
        rw, op, {asTensor(rw, loc, codes), asTensor(rw, loc, scales)});
    return success();
  }

};

} // namespace

void populateQuantize(
    RewritePatternSet &patterns,
    std::shared_ptr<const num::NativeConverts> native) {
  patterns.add<CoalescedQuantize>(patterns.getContext(), std::move(native));
}

} // namespace mxq::nvvm::coalesced
