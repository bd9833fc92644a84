//===- ParallelizeLoops.cpp - block loops to scf.parallel -----------------===//
#include "mxq/Conversion/Passes.h"
#include "mxq/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
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

struct MXQParallelizeLoops
    : ::mxq::impl::MXQParallelizeLoopsBase<MXQParallelizeLoops> {
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
  }
};

} // namespace
