//===- CheckNVGPUTarget.cpp - validate the GPU target up front ------------===//
#include "mxq/Target/NVGPU.h"
#include "mxq/Transforms/Passes.h"

namespace mxq {
#define GEN_PASS_DEF_MXQCHECKNVGPUTARGET
#include "mxq/Transforms/Passes.h.inc"
} // namespace mxq

using namespace mlir;

namespace {
struct MXQCheckNVGPUTarget
    : ::mxq::impl::MXQCheckNVGPUTargetBase<MXQCheckNVGPUTarget> {
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
