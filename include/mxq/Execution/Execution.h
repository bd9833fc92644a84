//===- Execution.h - compile a function once, run it on data ----*- C++ -*-===//
//
// The one path from a parsed module to results that every front end takes:
// mxq-run, the C API (mxq-c/Execution.h) and the Python package. A
// CompiledFunction is `entry` of a module compiled for a registered target
// (mxq/Target/Target.h); each run checks its inputs against the function and
// each other (mxq::checkInputs) before the target sees them, so every front
// end accepts and rejects the same data.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_EXECUTION_EXECUTION_H
#define MXQ_EXECUTION_EXECUTION_H

#include "mxq/Runtime/Tensor.h"
#include "mxq/Support/Npy.h"
#include "mxq/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace mxq {

class CompiledFunction {
public:
  /// Compiles `entry` of `module` for the target called `target`. The module
  /// is not changed (the target compiles a clone). Null and a sentence in
  /// `error` when the target is unknown, rejects `options`, or the function
  /// does not compile. (A target that cannot run on this machine compiles;
  /// running says why.)
  static std::unique_ptr<CompiledFunction>
  compile(mlir::ModuleOp module, llvm::StringRef entry, llvm::StringRef target,
          const TargetOptions &options, std::string &error);

  /// The function's type as written (before any specialisation).
  mlir::FunctionType getFunctionType() { return func.getFunctionType(); }
  /// The target's name.
  llvm::StringRef getTargetName() const { return targetName; }

  /// Runs on tensors in memory (mxq/Runtime/Tensor.h conventions), after
  /// the one input check of every front end.
  bool run(const std::vector<RawTensor> &inputs,
           std::vector<RawTensor> &results, std::string &error);

  /// Runs after the same input check and hands each result to `sink` where
  /// the executable holds it (Executable::runInto): no copy of a result on
  /// the CPU.
  bool runInto(const std::vector<RawTensor> &inputs, ResultSink sink,
               std::string &error);

  /// Runs on .npy arrays in mxq-run's conventions (bf16 as uint16 bit
  /// patterns, FP4 packed two per byte along the last axis, element 0 in the
  /// low nibble). `fp4Length` is the number of FP4 codes along the last axis
  /// of an FP4 input whose type leaves it dynamic (-1: twice the bytes).
  bool runNpy(const std::vector<npy::Array> &inputs,
              std::vector<npy::Array> &results, std::string &error,
              int64_t fp4Length = -1);

  /// What the last run measured (TargetOptions::profile), or empty.
  std::string report() const;

  /// How many functions have been compiled in this process (what a cache
  /// of compiled functions is observed by).
  static uint64_t numCompiles();

private:
  CompiledFunction() = default;
  /// False and a sentence unless `given` is the number of arguments.
  bool checkArity(size_t given, std::string &error);
  /// The one check of `inputs` against the function before a run.
  bool checkRunInputs(const std::vector<RawTensor> &inputs,
                      std::string &error);
  mlir::OwningOpRef<mlir::ModuleOp> original;
  mlir::func::FuncOp func;
  std::string targetName;
  std::unique_ptr<Executable> executable;
};

/// Collects the diagnostics emitted in a context while it lives, as text
/// ("loc: error: message", one per line, notes included), for front ends
/// that report errors as strings rather than on stderr.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext *context);
  ~DiagnosticCollector();
  /// Everything collected so far, then clears it.
  std::string take();

private:
  mlir::MLIRContext *context;
  mlir::DiagnosticEngine::HandlerID id;
  std::string text;
};

} // namespace mxq

#endif // MXQ_EXECUTION_EXECUTION_H
