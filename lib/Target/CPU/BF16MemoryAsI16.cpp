//===- BF16MemoryAsI16.cpp - bf16 values cross memory as i16 --------------===//
//
// LLVM 22's x86 backend carries a scalar bfloat in an f32 register and
// rounds it back to bf16 with an instruction that flushes subnormals
// (vcvtneps2bf16), so a bf16 subnormal that is merely loaded and stored, or
// bitcast from i16 and stored, can become zero. On the LLVM dialect, every
// scalar bf16 load and store becomes an i16 one: the bytes are the same, and
// no bf16 value is left for the backend to round.
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mxq::cpu {
#define GEN_PASS_DEF_MXQBF16MEMORYASI16
#include "mxq/Target/CPU/Passes.h.inc"
} // namespace mxq::cpu

using namespace mlir;

namespace {

struct StoreAsI16 : OpRewritePattern<LLVM::StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::StoreOp op,
                                PatternRewriter &rw) const override {
    Value value = op.getValue();
    if (!value.getType().isBF16())
      return failure();
    Value bits;
    auto cast = value.getDefiningOp<LLVM::BitcastOp>();
    if (cast && cast.getArg().getType().isInteger(16))
      bits = cast.getArg(); // the i16 it came from
    else
      bits = LLVM::BitcastOp::create(rw, op.getLoc(), rw.getI16Type(), value);
    rw.modifyOpInPlace(op, [&] { op.getValueMutable().assign(bits); });
    return success();
  }
};

struct LoadAsI16 : OpRewritePattern<LLVM::LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::LoadOp op,
                                PatternRewriter &rw) const override {
    if (!op.getResult().getType().isBF16())
      return failure();
    rw.setInsertionPointAfter(op);
    auto wide = cast<LLVM::LoadOp>(rw.clone(*op));
    wide.getResult().setType(rw.getI16Type());
    // A user that wants the bits takes the i16 straight away.
    for (OpOperand &use : llvm::make_early_inc_range(op->getUses())) {
      auto user = dyn_cast<LLVM::BitcastOp>(use.getOwner());
      if (user && user.getType().isInteger(16))
        rw.replaceOp(user, wide.getResult());
    }
    if (op->use_empty()) {
      rw.eraseOp(op);
      return success();
    }
    rw.replaceOpWithNewOp<LLVM::BitcastOp>(op, rw.getBF16Type(),
                                           wide.getResult());
    return success();
  }
};

struct MXQBF16MemoryAsI16
    : ::mxq::cpu::impl::MXQBF16MemoryAsI16Base<MXQBF16MemoryAsI16> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    ::mxq::cpu::populateBF16MemoryAsI16Patterns(patterns);
    // Only the rewrites: the greedy driver's folding and region
    // simplification of the whole module took most of this pass's time and
    // change nothing that LLVM's clean-up after translation would not.
    // (A one-walk driver cannot run LoadAsI16: it erases users the walk has
    // not reached.)
    GreedyRewriteConfig config;
    config.enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      signalPassFailure();
  }
};

} // namespace

void ::mxq::cpu::populateBF16MemoryAsI16Patterns(RewritePatternSet &patterns) {
  patterns.add<StoreAsI16, LoadAsI16>(patterns.getContext());
}
