//===- ConvertMXQToLoopsNVVM.cpp - the shared expansion, NVIDIA's way -----===//
#include "mxq/Conversion/Passes.h"
#include "mxq/Target/NVVM/CoalescedKernels.h"
#include "mxq/Target/NVVM/NVVMConverts.h"
#include "mxq/Target/NVVM/Passes.h"

namespace mxq::nvvm {
#define GEN_PASS_DEF_CONVERTMXQTOLOOPSNVVM
#include "mxq/Target/NVVM/Passes.h.inc"
} // namespace mxq::nvvm

using namespace mlir;

namespace {

struct ConvertMXQToLoopsNVVM
    : ::mxq::nvvm::impl::ConvertMXQToLoopsNVVMBase<ConvertMXQToLoopsNVVM> {
  using ConvertMXQToLoopsNVVMBase::ConvertMXQToLoopsNVVMBase;
  void runOnOperation() override {
    std::string error;
    auto target = ::mxq::NVGPUTarget::parse(chip, ptx, error);
    if (!target) {
      getOperation()->emitError() << "convert-mxq-to-loops-nvvm: " << error;
      return signalPassFailure();
    }
    // What the shared expansion is told of this target: the chip's exact
    // converts, and the dual as two quantizes (a thread cannot hold the
    // tiled form's 32 x 32 tile without spilling).
    ::mxq::LoopsTarget loops;
    loops.native = ::mxq::makeNVVMConverts(*target);
    loops.dualForm = ::mxq::DualQuantizeForm::TwoQuantizes;
    if (failed(::mxq::convertMXQToLoops(
            getOperation(), loops, [&](RewritePatternSet &patterns) {
              if (coalesced)
                ::mxq::nvvm::populateCoalescedKernelPatterns(patterns,
                                                             loops.native);
            })))
      signalPassFailure();
  }
};

} // namespace
