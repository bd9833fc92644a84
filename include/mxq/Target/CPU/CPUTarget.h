//===- CPUTarget.h - the CPU target -----------------------------*- C++ -*-===//
//
// The host CPU through LLVM: the shared stages (tiling, convert-mxq-to-loops)
// then bufferization and the conversions to the LLVM dialect, executed by
// the LLVM JIT (CPURunner.h).
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_CPU_CPUTARGET_H
#define MXQ_TARGET_CPU_CPUTARGET_H

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ArrayRef.h"

namespace mxq {

/// Adds the CPU pipeline (what `mxq-cpu-pipeline` runs) to `pm`, anchored
/// on builtin.module; `tileSizes` replaces the default tile sizes of its
/// mxq-tile. `threads` other than 1 runs the block loops in parallel
/// through MLIR's OpenMP dialect (0: as many threads as the OpenMP runtime
/// chooses, every core by default); 1 keeps them sequential.
void buildCPUPipeline(mlir::OpPassManager &pm,
                      llvm::ArrayRef<int64_t> tileSizes = {},
                      unsigned threads = 1);

/// Whether this build has an OpenMP runtime to run parallel code with
/// (libomp from LLVM's packages); else a sentence why not.
bool hasOpenMPRuntime(std::string &why);

/// Registers the target "cpu" (its pass and pipeline, its executables).
void registerCPUTarget();

} // namespace mxq

#endif // MXQ_TARGET_CPU_CPUTARGET_H
