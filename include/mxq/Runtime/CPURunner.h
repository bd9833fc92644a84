//===- CPURunner.h - compile and run mxq functions on the host ----*- C++ -*-===//
#ifndef MXQ_RUNTIME_CPURUNNER_H
#define MXQ_RUNTIME_CPURUNNER_H

#include "mlir/IR/BuiltinOps.h"

#include <memory>
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

/// A function compiled for the host through the CPU pipeline.
class CPUExecutable {
public:
  /// Lowers `module` in place (keeping only `entry` and its callees) and
  /// JIT-compiles it. Null and a sentence in `error` on failure.
  static std::unique_ptr<CPUExecutable>
  compile(mlir::ModuleOp module, const std::string &entry, std::string &error,
          llvm::ArrayRef<int64_t> tileSizes = {});
  ~CPUExecutable();

  /// Runs the function and copies its results out.
  bool run(const std::vector<RawTensor> &inputs,
           std::vector<RawTensor> &results, std::string &error);
  /// Runs the function and frees its results (for timing).
  bool runAndDiscard(const std::vector<RawTensor> &inputs, std::string &error);

private:
  CPUExecutable() = default;
  bool invoke(const std::vector<RawTensor> &inputs,
              std::vector<int64_t> &resultStruct, std::string &error);
  void freeResults(const std::vector<RawTensor> &inputs,
                   const std::vector<int64_t> &resultStruct);
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Compiles `module` and runs `entry` on `inputs` once.
bool runOnCPU(mlir::ModuleOp module, const std::string &entry,
              const std::vector<RawTensor> &inputs,
              std::vector<RawTensor> &results, std::string &error,
              llvm::ArrayRef<int64_t> tileSizes = {});

} // namespace mxq

#endif // MXQ_RUNTIME_CPURUNNER_H
