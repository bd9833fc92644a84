//===- ParallelizeLoops.cpp - block loops to scf.parallel -----------------===//
//
// Shared by every target that runs blocks in parallel (the CPU's OpenMP
// loops, the NVIDIA target's kernels): it only rewrites the loops
// convert-mxq-to-loops marked, and names no target.
//
//===----------------------------------------------------------------------===//
#include "mxq/Conversion/Passes.h"
#include "mxq/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
  return (loop->hasAttr(::mxq::kParallelLoopAttr) ||
          loop->hasAttr(::mxq::kParallelPairsAttr)) &&
         loop.getInitArgs().empty();
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
  using MXQParallelizeLoopsBase::MXQParallelizeLoopsBase;

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
      // A pairs loop (only the innermost: FP4 columns) is parallel two
      // iterations at a time, the two in order in one thread.
      for (size_t k = 0; k + 1 < nest.size(); ++k)
        if (nest[k]->hasAttr(::mxq::kParallelPairsAttr)) {
          nest.resize(k);
          break;
        }
      if (nest.empty())
        continue;
      bool pairs = nest.back()->hasAttr(::mxq::kParallelPairsAttr);
      SmallVector<Value> lbs, ubs, steps;
      rewriter.setInsertionPoint(root);
      for (scf::ForOp l : nest) {
        lbs.push_back(l.getLowerBound());
        ubs.push_back(l.getUpperBound());
        steps.push_back(l.getStep());
      }
      // Pairs run over the pair index p (unit step: upstream's
      // scf-parallel-loop-tiling guards a non-unit inner step wrongly) and
      // start at lb + 2 * step * p.
      Value pairStep;
      if (pairs) {
        Location loc = root.getLoc();
        pairStep = arith::MulIOp::create(
            rewriter, loc, steps.back(),
            arith::ConstantIndexOp::create(rewriter, loc, 2));
        ubs.back() = arith::CeilDivUIOp::create(
            rewriter, loc,
            arith::SubIOp::create(rewriter, loc, ubs.back(), lbs.back()),
            pairStep);
        lbs.back() = arith::ConstantIndexOp::create(rewriter, loc, 0);
        steps.back() = arith::ConstantIndexOp::create(rewriter, loc, 1);
      }
      auto parallel = scf::ParallelOp::create(
          rewriter, root.getLoc(), lbs, ubs, steps,
          [&](OpBuilder &b, Location loc, ValueRange ivs) {
            IRMapping map;
            for (auto [l, iv] : llvm::zip(nest, ivs))
              map.map(l.getInductionVar(), iv);
            Block *body = nest.back().getBody();
            if (!pairs) {
              for (Operation &op : body->without_terminator())
                b.clone(op, map);
              return;
            }
            scf::ForOp inner = nest.back();
            Value lo = arith::AddIOp::create(
                b, loc, inner.getLowerBound(),
                arith::MulIOp::create(b, loc, ivs.back(), pairStep));
            // The first of the pair, then the second where it exists:
            // straight-line code (a two-iteration loop would keep what the
            // body hoists out of it live across both).
            // Each copy maps from the loop ivs alone: a mapping that had
            // seen the first copy would give the second one's nested blocks
            // the first one's arguments.
            IRMapping firstMap = map;
            firstMap.map(inner.getInductionVar(), lo);
            for (Operation &op : body->without_terminator())
              b.clone(op, firstMap);
            Value second = arith::AddIOp::create(b, loc, lo, inner.getStep());
            auto guard = scf::IfOp::create(
                b, loc,
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, second,
                                      inner.getUpperBound()),
                /*withElseRegion=*/false);
            OpBuilder gb = guard.getThenBodyBuilder();
            IRMapping secondMap = map;
            secondMap.map(inner.getInductionVar(), second);
            for (Operation &op : body->without_terminator())
              gb.clone(op, secondMap);
          });
      (void)parallel;
      rewriter.eraseOp(root);
    }
  }
};

} // namespace
