//===- CPURunner.h - compile and run mxq functions on the host --*- C++ -*-===//
#ifndef MXQ_TARGET_CPU_CPURUNNER_H
#define MXQ_TARGET_CPU_CPURUNNER_H

#include "mxq/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace mxq {

/// A function compiled for the host through the CPU pipeline.
class CPUExecutable : public Executable {
public:
  /// Lowers `module` in place (keeping only `entry` and its callees) and
  /// JIT-compiles it to machine code. Null and a sentence in `error` on
  /// failure. With `useCache`, a function compiled before in this process
  /// with the same text and options (in any context) is not compiled again:
  /// the module is then left unlowered and the executable shares the code.
  static std::unique_ptr<CPUExecutable>
  compile(mlir::ModuleOp module, const std::string &entry, std::string &error,
          llvm::ArrayRef<int64_t> tileSizes = {}, unsigned threads = 1,
          bool useCache = true);
  ~CPUExecutable() override;

  /// Runs the function and copies its results out.
  bool run(const std::vector<RawTensor> &inputs,
           std::vector<RawTensor> &results, std::string &error) override;
  /// Runs the function and hands each result to `sink` from the buffer the
  /// kernel wrote (a strided one is gathered first), then frees it.
  bool runInto(const std::vector<RawTensor> &inputs, ResultSink sink,
               std::string &error) override;
  /// Wall time per call over `repeat` calls (results freed, not copied).
  bool time(const std::vector<RawTensor> &inputs, int repeat, Timing &timing,
            std::string &error) override;
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

/// What the process-wide cache of compiled CPU functions holds and served.
struct CompileCacheStats {
  size_t hits = 0;
  size_t misses = 0;
  size_t entries = 0;
};
CompileCacheStats cpuCompileCacheStats();
/// Empties the cache (compiled code still in use stays alive until its
/// executables are destroyed).
void clearCPUCompileCache();

/// Compiles `module` and runs `entry` on `inputs` once.
bool runOnCPU(mlir::ModuleOp module, const std::string &entry,
              const std::vector<RawTensor> &inputs,
              std::vector<RawTensor> &results, std::string &error,
              llvm::ArrayRef<int64_t> tileSizes = {});

namespace cpu {
/// The CPU target's LLVM IR pipeline before code generation: LLVM's scalar
/// clean-up of a module whose loops MLIR has already vectorized and
/// unrolled (instead of an O-level), then shuffles that take half of a
/// vector wider than 512 bits rewritten over its two halves (the x86 back
/// end's cost; see LLVMCleanup.cpp).
llvm::Error optimizeVectorizedModule(llvm::Module *module);
} // namespace cpu

} // namespace mxq

#endif // MXQ_TARGET_CPU_CPURUNNER_H
