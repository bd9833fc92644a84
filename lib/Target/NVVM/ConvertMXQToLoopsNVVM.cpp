//===- ConvertMXQToLoopsNVVM.cpp - the shared expansion, NVIDIA's way -----===//
#include "mxq/Conversion/Passes.h"
#include "mxq/Target/NVVMConverts.h"
#include "mxq/Target/Passes.h"

namespace mxq {
#define GEN_PASS_DEF_CONVERTMXQTOLOOPSNVVM
#include "mxq/Target/Passes.h.inc"
} // namespace mxq

namespace {

struct ConvertMXQToLoopsNVVM
    : ::mxq::impl::ConvertMXQToLoopsNVVMBase<ConvertMXQToLoopsNVVM> {
  using ConvertMXQToLoopsNVVMBase::ConvertMXQToLoopsNVVMBase;
  void runOnOperation() override {
    std::string error;
    auto target = ::mxq::NVGPUTarget::parse(chip, ptx, error);
    if (!target) {
      getOperation()->emitError() << "convert-mxq-to-loops-nvvm: " << error;
      return signalPassFailure();
    }
    if (failed(::mxq::convertMXQToLoops(getOperation(),
                                        ::mxq::makeNVVMConverts(*target),
                                        /*tileDual=*/false)))
      signalPassFailure();
  }
};

} // namespace
