//===- ParallelizeLoops.cpp - block loops to scf.parallel -----------------===//
#include "mxq/Conversion/Passes.h"
#include "mxq/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mxq {
#define GEN_PASS_DEF_MXQPARALLELIZELOOPS
#include "mxq/Transforms/Passes.h.inc"
} // namespace mxq

using namespace mlir;

namespace {

bool isParallelCandidate(scf::ForOp loop) {
  return loop->hasAttr(::mxq::kParallelLoopAttr) && loop.getInitArgs().empty();
}

/// The marked loops nested perfectly under `outer` (outer first), each with
/// bounds defined above `outer`.
SmallVector<scf::ForOp> perfectNest(scf::ForOp outer) {
  SmallVector<scf::ForOp> nest{outer};
  while (true) {
    Block *body = nest.back().getBody();
    if (!llvm::hasSingleElement(body->without_terminator()))
      break;
    auto inner = dyn_cast<scf::ForOp>(&body->front());
    if (!inner || !isParallelCandidate(inner))
      break;
    bool invariant = llvm::all_of(
        ValueRange{inner.getLowerBound(), inner.getUpperBound(),
                   inner.getStep()},
        [&](Value v) { return outer.isDefinedOutsideOfLoop(v); });
    if (!invariant)
      break;
    nest.push_back(inner);
  }
  return nest;
}

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

struct MXQParallelizeLoops
    : ::mxq::impl::MXQParallelizeLoopsBase<MXQParallelizeLoops> {
  using MXQParallelizeLoopsBase::MXQParallelizeLoopsBase;

  void wrapStraightLineCode(IRRewriter &rewriter) {
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

  void runOnOperation() override {
    SmallVector<scf::ForOp> roots;
    getOperation()->walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      if (!isParallelCandidate(loop))
        return WalkResult::advance();
      roots.push_back(loop);
      return WalkResult::skip();
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp root : roots) {
      SmallVector<scf::ForOp> nest = perfectNest(root);
      SmallVector<Value> lbs, ubs, steps;
      for (scf::ForOp l : nest) {
        lbs.push_back(l.getLowerBound());
        ubs.push_back(l.getUpperBound());
        steps.push_back(l.getStep());
      }
      rewriter.setInsertionPoint(root);
      auto parallel = scf::ParallelOp::create(
          rewriter, root.getLoc(), lbs, ubs, steps,
          [&](OpBuilder &b, Location, ValueRange ivs) {
            IRMapping map;
            for (auto [l, iv] : llvm::zip(nest, ivs))
              map.map(l.getInductionVar(), iv);
            for (Operation &op : nest.back().getBody()->without_terminator())
              b.clone(op, map);
          });
      (void)parallel;
      rewriter.eraseOp(root);
    }
    if (wrapStraightLine)
      wrapStraightLineCode(rewriter);
  }
};

} // namespace
