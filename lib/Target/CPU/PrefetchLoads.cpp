//===- PrefetchLoads.cpp - prefetch ahead of wide vector loads -------------===//
//
// See the pass description in Passes.td (mxq-prefetch-loads).
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mxq::cpu {
#define GEN_PASS_DEF_MXQPREFETCHLOADS
#include "mxq/Target/CPU/Passes.h.inc"
} // namespace mxq::cpu

using namespace mlir;

namespace {

constexpr int64_t kLineBytes = 64;

/// Bytes of a vector of integers or floats; 0 for anything else.
int64_t vectorBytes(Type t) {
  auto v = dyn_cast<VectorType>(t);
  if (!v || v.isScalable() || !v.getElementType().isIntOrFloat())
    return 0;
  int64_t bits = v.getNumElements() * v.getElementTypeBitWidth();
  return bits % 8 ? 0 : bits / 8;
}

struct PrefetchAhead : OpRewritePattern<LLVM::LoadOp> {
  PrefetchAhead(MLIRContext *ctx, int64_t distance, int64_t minBytes)
      : OpRewritePattern(ctx), distance(distance), minBytes(minBytes) {}

  LogicalResult matchAndRewrite(LLVM::LoadOp op,
                                PatternRewriter &rw) const override {
    int64_t bytes = vectorBytes(op.getType());
    if (bytes == 0 || bytes < minBytes || op.getVolatile_())
      return failure();
    // Once per load: the op before it is then its last prefetch.
    if (auto last = dyn_cast_or_null<LLVM::Prefetch>(op->getPrevNode()))
      if (auto gep = last.getAddr().getDefiningOp<LLVM::GEPOp>();
          gep && gep.getBase() == op.getAddr())
        return failure();
    Location loc = op.getLoc();
    for (int64_t at = 0; at < bytes; at += kLineBytes) {
      // No inbounds: the address may lie past the buffer.
      Value ahead = LLVM::GEPOp::create(
          rw, loc, op.getAddr().getType(), rw.getI8Type(), op.getAddr(),
          ArrayRef<LLVM::GEPArg>{distance + at});
      LLVM::Prefetch::create(rw, loc, ahead, /*rw=*/0, /*hint=*/3,
                             /*cache=*/1);
    }
    return success();
  }

  int64_t distance, minBytes;
};

struct MXQPrefetchLoads
    : ::mxq::cpu::impl::MXQPrefetchLoadsBase<MXQPrefetchLoads> {
  using Base::Base;
  void runOnOperation() override {
    if (distance <= 0 || minBytes <= 0) {
      getOperation()->emitError("mxq-prefetch-loads: distance and min-bytes "
                                "must be positive, got ")
          << int64_t(distance) << " and " << int64_t(minBytes);
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    ::mxq::cpu::populatePrefetchLoadsPatterns(patterns, distance, minBytes);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void ::mxq::cpu::populatePrefetchLoadsPatterns(RewritePatternSet &patterns,
                                               int64_t distance,
                                               int64_t minBytes) {
  patterns.add<PrefetchAhead>(patterns.getContext(), distance, minBytes);
}
