//===- WrapStraightLineInKernels.cpp - host memory accesses into kernels --===//
//
// The NVIDIA pipeline turns parallel loops into kernels, so a memory access
// left outside any loop (a tensor of one block, whose block loop
// canonicalization folded) would run on the host against a device buffer.
// This pass wraps each run of such code in a one-iteration scf.parallel:
// it becomes a one-thread kernel like every other block. The shared
// mxq-parallelize-loops only rewrites loops; this is the NVIDIA target's own.
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/NVVM/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/PatternMatch.h"

namespace mxq::nvvm {
#define GEN_PASS_DEF_MXQWRAPSTRAIGHTLINEINKERNELS
#include "mxq/Target/NVVM/Passes.h.inc"
} // namespace mxq::nvvm

using namespace mlir;

namespace {

/// Whether `op` or an op nested in it has a memref operand (other than
/// asking for its sizes): the code a kernel must run.
bool touchesMemory(Operation *op) {
  WalkResult r = op->walk([](Operation *nested) {
    if (isa<memref::DimOp, memref::ExtractStridedMetadataOp>(nested))
      return WalkResult::advance();
    for (Value v : nested->getOperands())
      if (isa<MemRefType>(v.getType()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

/// Ops that stay in host code and end a straight-line run.
bool endsRun(Operation *op) {
  // A gpu.launch (or an op holding one) is a kernel already: wrapping it
  // would nest launches.
  if (op->getNumRegions() &&
      op->walk([](gpu::LaunchOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return true;
  return isa<scf::ParallelOp, memref::AllocOp, memref::AllocaOp,
             memref::DeallocOp>(op) ||
         op->hasTrait<OpTrait::IsTerminator>();
}

/// Wraps `run` (consecutive ops of one block) in a one-iteration
/// scf.parallel, from its first to its last op that touches memory; ops of
/// that range whose results are used after it must be side-effect free and
/// are hoisted above it. Returns false (and changes nothing) otherwise.
bool wrapRun(ArrayRef<Operation *> run, IRRewriter &rewriter) {
  auto first = llvm::find_if(run, touchesMemory);
  if (first == run.end())
    return true;
  auto last = llvm::find_if(llvm::reverse(run), touchesMemory);
  ArrayRef<Operation *> range(first, last.base());
  llvm::SmallPtrSet<Operation *, 32> inRange(range.begin(), range.end());
  SmallVector<Operation *> hoisted;
  llvm::SmallPtrSet<Operation *, 32> hoistedSet;
  for (Operation *op : range) {
    bool usedAfter = llvm::any_of(op->getUsers(), [&](Operation *user) {
      Operation *top = op->getBlock()->findAncestorOpInBlock(*user);
      return !top || !inRange.contains(top);
    });
    if (!usedAfter)
      continue;
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
      return false;
    // Its operands must be available above the range too.
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        if (inRange.contains(def) && !hoistedSet.contains(def))
          return false;
    hoisted.push_back(op);
    hoistedSet.insert(op);
  }
  Operation *front = range.front();
  for (Operation *op : hoisted)
    op->moveBefore(front);
  rewriter.setInsertionPoint(front);
  Location loc = front->getLoc();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto parallel = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                          ValueRange{one}, ValueRange{one});
  Operation *terminator = parallel.getBody()->getTerminator();
  for (Operation *op : range)
    if (!hoistedSet.contains(op))
      op->moveBefore(terminator);
  return true;
}

struct MXQWrapStraightLineInKernels
    : ::mxq::nvvm::impl::MXQWrapStraightLineInKernelsBase<
          MXQWrapStraightLineInKernels> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (Region &region : getOperation()->getRegions())
      for (Block &block : region) {
        SmallVector<SmallVector<Operation *>> runs(1);
        for (Operation &op : block) {
          if (endsRun(&op)) {
            runs.emplace_back();
            continue;
          }
          runs.back().push_back(&op);
        }
        for (auto &run : runs)
          (void)wrapRun(run, rewriter);
      }
  }
};

} // namespace
