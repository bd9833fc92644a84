//===- NVVMTarget.h - the NVIDIA target -------------------------*- C++ -*-===//
//
// NVIDIA GPUs through NVVM and PTX: the shared stages with the chip's native
// converts, the block loops mapped to threads, kernels outlined and
// serialised (PTX text by default); run through the CUDA driver
// (GPURunner.h) or ahead of time (mxq-gpu-launch).
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_NVVM_NVVMTARGET_H
#define MXQ_TARGET_NVVM_NVVMTARGET_H

#include "mlir/Pass/PassManager.h"

#include <string>

namespace mxq {

struct GPUPipelineOptions {
  std::string chip = "sm_90"; ///< sm_90, sm_90a, sm_100a, ...
  int ptx = 0;                ///< PTX ISA version times ten (0: the chip's minimum)
  std::string format = "isa"; ///< isa (PTX text, no toolkit), bin or fatbin
  std::string toolkit = "/usr/local/cuda"; ///< CUDA toolkit for bin/fatbin
};

/// Adds the NVIDIA pipeline (what `mxq-gpu-pipeline` runs) to `pm`, anchored
/// on builtin.module. An impossible chip or PTX version is reported by its
/// first pass, mxq-check-nvgpu-target.
void buildGPUPipeline(mlir::OpPassManager &pm,
                      const GPUPipelineOptions &options);

/// Registers the target "nvvm" (passes, pipeline, executables).
void registerNVVMTarget();

} // namespace mxq

#endif // MXQ_TARGET_NVVM_NVVMTARGET_H
