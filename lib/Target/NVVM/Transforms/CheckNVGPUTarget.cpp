//===- CheckNVGPUTarget.cpp - validate the GPU target up front ------------===//
#include "mxq/Target/NVVM/NVGPU.h"
#include "mxq/Target/NVVM/Passes.h"

namespace mxq::nvvm {
#define GEN_PASS_DEF_MXQCHECKNVGPUTARGET
#include "mxq/Target/NVVM/Passes.h.inc"
} // namespace mxq::nvvm

using namespace mlir;

namespace {
struct MXQCheckNVGPUTarget
    : ::mxq::nvvm::impl::MXQCheckNVGPUTargetBase<MXQCheckNVGPUTarget> {
  using MXQCheckNVGPUTargetBase::MXQCheckNVGPUTargetBase;
  void runOnOperation() override {
    std::string error;
    if (!::mxq::NVGPUTarget::parse(chip, ptx, error)) {
      getOperation()->emitError() << "mxq-gpu-pipeline: " << error;
      signalPassFailure();
    }
  }
};
} // namespace
