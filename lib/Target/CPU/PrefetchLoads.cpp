//===- PrefetchLoads.cpp - prefetch ahead of wide vector loads ------------===//
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

/// What the patterns share: the prefetches of the 64-byte lines of the
/// `bytes` bytes at `addr`, `ahead` times `bytes` further on, before `op`;
/// failure where there are none to add.
struct Prefetcher {
  int64_t ahead, minBytes;

  LogicalResult rewrite(Operation *op, Value addr, int64_t bytes,
                        PatternRewriter &rw) const {
    if (bytes == 0 || bytes < minBytes)
      return failure();
    // Once per load: the op before it is then its last prefetch.
    if (auto last = dyn_cast_or_null<LLVM::Prefetch>(op->getPrevNode()))
      if (auto gep = last.getAddr().getDefiningOp<LLVM::GEPOp>();
          gep && gep.getBase() == addr)
        return failure();
    rw.setInsertionPoint(op);
    for (int64_t at = 0; at < bytes; at += kLineBytes) {
      // No inbounds: the address may lie past the buffer.
      Value line = LLVM::GEPOp::create(
          rw, op->getLoc(), addr.getType(), rw.getI8Type(), addr,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(ahead * bytes + at)});
      LLVM::Prefetch::create(rw, op->getLoc(), line, /*rw=*/0, /*hint=*/3,
                             /*cache=*/1);
    }
    return success();
  }
};

struct PrefetchLoad : OpRewritePattern<LLVM::LoadOp> {
  PrefetchLoad(MLIRContext *ctx, Prefetcher p) : OpRewritePattern(ctx), p(p) {}
  LogicalResult matchAndRewrite(LLVM::LoadOp op,
                                PatternRewriter &rw) const override {
    if (op.getVolatile_())
      return failure();
    return p.rewrite(op, op.getAddr(), vectorBytes(op.getType()), rw);
  }
  Prefetcher p;
};

/// A masked load (a row that may end early): the lines of all its lanes.
struct PrefetchMaskedLoad : OpRewritePattern<LLVM::MaskedLoadOp> {
  PrefetchMaskedLoad(MLIRContext *ctx, Prefetcher p)
      : OpRewritePattern(ctx), p(p) {}
  LogicalResult matchAndRewrite(LLVM::MaskedLoadOp op,
                                PatternRewriter &rw) const override {
    return p.rewrite(op, op.getData(), vectorBytes(op.getType()), rw);
  }
  Prefetcher p;
};

struct MXQPrefetchLoads
    : ::mxq::cpu::impl::MXQPrefetchLoadsBase<MXQPrefetchLoads> {
  using Base::Base;
  void runOnOperation() override {
    if (ahead <= 0 || minBytes <= 0) {
      getOperation()->emitError("mxq-prefetch-loads: ahead and min-bytes "
                                "must be positive, got ")
          << int64_t(ahead) << " and " << int64_t(minBytes);
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    ::mxq::cpu::populatePrefetchLoadsPatterns(patterns, ahead, minBytes);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void ::mxq::cpu::populatePrefetchLoadsPatterns(RewritePatternSet &patterns,
                                               int64_t ahead,
                                               int64_t minBytes) {
  patterns.add<PrefetchLoad, PrefetchMaskedLoad>(patterns.getContext(),
                                                 Prefetcher{ahead, minBytes});
}
