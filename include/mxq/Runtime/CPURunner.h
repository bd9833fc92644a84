//===- CPURunner.h - compile and run mxq functions on the host ----*- C++ -*-===//
#ifndef MXQ_RUNTIME_CPURUNNER_H
#define MXQ_RUNTIME_CPURUNNER_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace mxq {

/// A tensor as bytes in memory: row-major, one element of its type per
/// element (f32: 4 bytes, f16/bf16: 2, MX codes and E8M0: 1, FP4/FP6 codes in
/// the low bits of a byte).
struct RawTensor {
  std::vector<int64_t> shape;
  mlir::Type elementType;
  std::vector<uint8_t> data;
};

/// Bytes one element of `type` takes in memory, 0 if unsupported.
unsigned bytesPerElement(mlir::Type type);

/// Compiles `module` through the CPU pipeline and runs `entry` on `inputs`
/// with the LLVM JIT. `module` is lowered in place. False and a sentence in
/// `error` on failure.
bool runOnCPU(mlir::ModuleOp module, const std::string &entry,
              const std::vector<RawTensor> &inputs,
              std::vector<RawTensor> &results, std::string &error);

} // namespace mxq

#endif // MXQ_RUNTIME_CPURUNNER_H
