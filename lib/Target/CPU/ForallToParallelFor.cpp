//===- ForallToParallelFor.cpp - scf.forall to marked scf.for -------------===//
//
// See the pass description in Passes.td (mxq-forall-to-parallel-for).
//
//===----------------------------------------------------------------------===//
#include "mxq/Conversion/Passes.h"
#include "mxq/Support/ElementTypes.h"
#include "mxq/Target/CPU/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mxq::cpu {
#define GEN_PASS_DEF_MXQFORALLTOPARALLELFOR
#include "mxq/Target/CPU/Passes.h.inc"
} // namespace mxq::cpu

using namespace mlir;

namespace {

/// Whether elements of `elt` share bytes in memory: packed two per byte along
/// the last axis (FP4), by the one table of memory forms (ElementTypes.h).
/// FP6 codes take a byte each.
bool packedInMemory(Type elt) {
  std::string name;
  llvm::raw_string_ostream os(name);
  elt.print(os);
  const ::mxq::ElementTypeInfo *info = ::mxq::elementTypeInfo(name);
  return info && info->packed;
}

/// Whether the iterations of `forall` write disjoint bytes: every view of a
/// packed memref in its body starts at column 0 of the last dimension, the
/// one its elements are packed along.
bool writesDisjointBytes(scf::ForallOp forall) {
  WalkResult r = forall.getBody()->walk([](memref::SubViewOp view) {
    MemRefType source = view.getSourceType();
    if (source.getRank() == 0 || !packedInMemory(source.getElementType()))
      return WalkResult::advance();
    std::optional<int64_t> offset =
        getConstantIntValue(view.getMixedOffsets().back());
    return offset == 0 ? WalkResult::advance() : WalkResult::interrupt();
  });
  return !r.wasInterrupted();
}

struct MXQForallToParallelFor
    : ::mxq::cpu::impl::MXQForallToParallelForBase<MXQForallToParallelFor> {
  void runOnOperation() override {
    SmallVector<scf::ForallOp> foralls;
    getOperation()->walk([&](scf::ForallOp f) { foralls.push_back(f); });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forall : foralls) {
      // Upstream's conversion of a forall with results (on tensors) gives
      // IR that does not verify; the pass runs after bufferization.
      if (forall.getNumResults() != 0) {
        forall.emitError("mxq-forall-to-parallel-for runs after "
                         "bufferization, but this scf.forall has results");
        return signalPassFailure();
      }
      bool parallel = writesDisjointBytes(forall);
      rewriter.setInsertionPoint(forall);
      SmallVector<Operation *> loops;
      if (failed(scf::forallToForLoop(rewriter, forall, &loops))) {
        forall.emitError("cannot convert this scf.forall into scf.for loops");
        return signalPassFailure();
      }
      if (!parallel)
        continue;
      for (Operation *loop : loops)
        loop->setAttr(::mxq::kParallelLoopAttr, rewriter.getUnitAttr());
    }
  }
};

} // namespace
