//===- Tile.cpp - the mxq tiling pass -------------------------------------===//
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Transforms/Passes.h"

#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"

namespace mxq {
#define GEN_PASS_DEF_MXQTILE
#include "mxq/Transforms/Passes.h.inc"
} // namespace mxq

using namespace mlir;

LogicalResult(::mxq::tileMXQOp)(RewriterBase &rewriter, TilingInterface op,
                             ArrayRef<int64_t> tileSizes, bool forall) {
  // A statically empty tensor leaves nothing to tile, and slices of an
  // empty dimension do not verify upstream: keep such an op whole.
  auto isEmpty = [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return shaped && shaped.hasRank() &&
           llvm::is_contained(shaped.getShape(), int64_t(0));
  };
  if (llvm::any_of(op->getOperandTypes(), isEmpty) ||
      llvm::any_of(op->getResultTypes(), isEmpty))
    return success();
  // TE's NVFP4 without a stored amax takes the amax of the whole tensor
  // before any block: a tile cannot compute it. Kept whole (its lowering
  // reduces first); given the amax as `outer`, it tiles.
  if (auto q = dyn_cast<mlir::mxq::QuantizeOp>(op.getOperation()))
    if (q.getScaleAlgorithm() == mlir::mxq::ScaleAlgorithm::encode &&
        !q.getOuter() &&
        isa<Float8E4M3FNType>(q.getScales().getType().getElementType()))
      return success();
  size_t rank = op.getLoopIteratorTypes().size();
  SmallVector<OpFoldResult> sizes;
  for (size_t d = 0; d < rank; ++d) {
    int64_t size = d < tileSizes.size() ? tileSizes[d] : 0;
    if (size < 0)
      return op->emitOpError()
             << "cannot be tiled with a negative tile size (" << size
             << " for dimension " << d << "); sizes are iteration-domain "
             << "units, 0 for untiled";
    sizes.push_back(rewriter.getIndexAttr(size));
  }
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  options.setLoopType(forall ? scf::SCFTilingOptions::LoopType::ForallOp
                             : scf::SCFTilingOptions::LoopType::ForOp);
  // Element-wise producers of the quantized value (a linalg.generic, say
  // SwiGLU) are fused into the loop, so their result is never stored whole.
  scf::SCFTileAndFuseOptions fuseOptions;
  fuseOptions.setTilingOptions(options);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, op, fuseOptions);
  if (failed(tiled))
    return op->emitOpError() << "could not be tiled";
  for (OpResult result : op->getResults())
    if (Value r = tiled->replacements.lookup(result)) {
      // The tiled loop may know a static type the op's result does not
      // state (a dynamic result of a static input): users keep the op's.
      if (r.getType() != result.getType()) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointAfterValue(r);
        r = tensor::CastOp::create(rewriter, op->getLoc(), result.getType(),
                                   r);
      }
      rewriter.replaceAllUsesWith(result, r);
    }
  if (op->use_empty())
    rewriter.eraseOp(op);
  return success();
}

namespace {
struct MXQTile : ::mxq::impl::MXQTileBase<MXQTile> {
  using MXQTileBase::MXQTileBase;

  void runOnOperation() override {
    if (loopKind != "forall" && loopKind != "for") {
      getOperation()->emitError()
          << "mxq-tile: option 'loop' must be 'forall' or 'for', but it is '"
          << loopKind << "'";
      return signalPassFailure();
    }
    SmallVector<int64_t> sizes(tileSizes.begin(), tileSizes.end());
    if (sizes.empty())
      sizes = {16};
    SmallVector<TilingInterface> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<mlir::mxq::MXQDialect>(op->getDialect()))
        if (auto t = dyn_cast<TilingInterface>(op))
          ops.push_back(t);
    });
    IRRewriter rewriter(&getContext());
    for (TilingInterface op : ops)
      if (failed(::mxq::tileMXQOp(rewriter, op, sizes, loopKind == "forall")))
        return signalPassFailure();
  }
};
} // namespace
