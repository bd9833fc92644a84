//===- InitAll.h - everything mxq's tools register ----------------*- C++ -*-===//
#ifndef MXQ_INITALL_H
#define MXQ_INITALL_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace mxq {

/// mxq and the upstream dialects, interface models and LLVM IR translations
/// its pipelines use.
void registerDialects(mlir::DialectRegistry &registry);

/// mxq's passes and pipelines, and the upstream passes they are made of.
void registerPasses();

/// The CPU pipeline as a textual pass list (what `mxq-cpu-pipeline` runs):
/// mxq ops to loops and exact integer numerics, bufferization, LLVM.
const char *cpuPipeline();
/// The CPU pipeline with mxq-tile given `tileSizes` (none: the defaults).
std::string cpuPipeline(llvm::ArrayRef<int64_t> tileSizes);

/// The NVIDIA pipeline as a textual pass list (what `mxq-gpu-pipeline` runs)
/// for `chip` and PTX version `ptx` (times ten; 0: the chip's minimum),
/// serializing to `format` (isa: PTX text; bin/fatbin need `toolkit`).
std::string gpuPipeline(const std::string &chip, int ptx,
                        const std::string &format, const std::string &toolkit);

/// Adds the CPU pipeline to `pm` (anchored on builtin.module); `tileSizes`
/// replaces the default tile sizes of its mxq-tile.
llvm::LogicalResult buildCPUPipeline(mlir::OpPassManager &pm,
                                     llvm::ArrayRef<int64_t> tileSizes = {});

} // namespace mxq

#endif // MXQ_INITALL_H
