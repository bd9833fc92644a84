//===- MXQToLoops.cpp - mxq ops to loops, vectors and exact numerics ------===//
//
// The target-independent expansion of mxq (the pass and the entry points;
// each op family's lowering is in its own file, Lowering.h lists them):
// every block becomes one vector
// (read along the quantization axis, masked at a ragged tail), every number
// is computed by the shared numerics library, and scales are stored straight
// into their layout (the offsets of mxq/Support/ScaleLayout.h, built as IR).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mxq {
#define GEN_PASS_DEF_CONVERTMXQTOLOOPS
#include "mxq/Conversion/Passes.h.inc"
} // namespace mxq

using namespace mlir;
namespace num = ::mxq::numerics;
namespace dialect = ::mlir::mxq;

namespace {

struct ConvertMXQToLoops
    : ::mxq::impl::ConvertMXQToLoopsBase<ConvertMXQToLoops> {
  using ConvertMXQToLoopsBase::ConvertMXQToLoopsBase;
  void runOnOperation() override {
    ::mxq::LoopsTarget target;
    target.dualForm = dualForm;
    if (failed(::mxq::convertMXQToLoops(getOperation(), target)))
      signalPassFailure();
  }
};

} // namespace

llvm::LogicalResult(::mxq::convertMXQToLoops)(
    Operation *root, const LoopsTarget &target,
    llvm::function_ref<void(RewritePatternSet &)> targetPatterns) {
  RewritePatternSet patterns(root->getContext());
  populateMXQToLoopsPatterns(patterns, target);
  if (targetPatterns)
    targetPatterns(patterns);
  // Only the rewrites: the pipelines canonicalize next, and folding every
  // created op here took two thirds of the pass's time (the LLVM IR of
  // every example is byte-identical without it).
  GreedyRewriteConfig config;
  config.enableFolding(false).setRegionSimplificationLevel(
      GreedySimplifyRegionLevel::Disabled);
  if (failed(applyPatternsGreedily(root, std::move(patterns), config)))
    return failure();
  WalkResult left = root->walk([](Operation *op) {
    if (isa<dialect::MXQDialect>(op->getDialect())) {
      op->emitOpError() << "has no lowering to loops yet";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(left.wasInterrupted());
}

void ::mxq::populateMXQToLoopsPatterns(RewritePatternSet &patterns,
                                       const LoopsTarget &target) {
  const auto &native = target.native;
  loops::populateQuantizeLowering(patterns, native);
  loops::populateDequantizeLowering(patterns);
  loops::populateDualQuantizeLowering(patterns, native, target.dualForm);
  loops::populateTwoLevelQuantizeLowering(patterns, native);
  loops::populateFakeQuantLowering(patterns, native);
}
