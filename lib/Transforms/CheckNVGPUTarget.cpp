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
    int version = ptx;
    if (version == 0) {
      // The chip's minimum; parse once more with it to validate the chip.
      auto probe = ::mxq::NVGPUTarget::parse(chip, 1000, error);
      if (probe)
        version = ::mxq::NVGPUTarget::minimumPTX(probe->sm, probe->suffix);
    }
    if (error.empty() && !::mxq::NVGPUTarget::parse(chip, version, error)) {
      // error set by parse
    }
    if (!error.empty()) {
      getOperation()->emitError() << "mxq-gpu-pipeline: " << error;
      signalPassFailure();
    }
  }
};
} // namespace
