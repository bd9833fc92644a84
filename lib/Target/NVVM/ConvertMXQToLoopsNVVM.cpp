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
    std::shared_ptr<const ::mxq::numerics::NativeConverts> native =
        ::mxq::makeNVVMConverts(*target);
    if (failed(::mxq::convertMXQToLoops(
            getOperation(), native, /*tileDual=*/false,
            [&](RewritePatternSet &patterns) {
              if (coalesced)
                ::mxq::nvvm::populateCoalescedKernelPatterns(patterns, native);
            })))
      signalPassFailure();
  }
};

} // namespace
