//===- Descriptors.h - memref descriptors for the runners -------*- C++ -*-===//
//
// What the CPU and GPU runners share: preparing the entry function, packing
// row-major buffers into ranked memref descriptors ({allocated, aligned,
// offset, sizes[rank], strides[rank]}) and reading results out of them.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_LIB_RUNTIME_DESCRIPTORS_H
#define MXQ_LIB_RUNTIME_DESCRIPTORS_H

#include "mxq/Runtime/Tensor.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <functional>

namespace mxq::detail {

/// A compiled entry function: its JIT and what is needed to call it.
struct CompiledEntry {
  std::unique_ptr<mlir::ExecutionEngine> engine;
  std::string entry;
  std::vector<int64_t> resultRanks;
  std::vector<mlir::Type> resultElementTypes;
};

/// Checks that `entry` exists and returns only what can be returned, records
/// its result ranks and element types, asks for its C interface and erases
/// every function it does not call.
bool prepareEntry(mlir::ModuleOp module, const std::string &entry,
                  std::vector<int64_t> &resultRanks,
                  std::vector<mlir::Type> &resultTypes, std::string &error);

/// Runs the pipeline `build` puts into a pass manager on `module`. On
/// failure, `error` is `what`, a colon and the diagnostics.
/// Calls `f` on each result of a host call (`resultStruct`) where it lies,
/// gathering a strided one into a temporary first; stops at the first false.
bool viewResults(const std::vector<int64_t> &resultStruct,
                 const std::vector<int64_t> &ranks,
                 const std::vector<mlir::Type> &types,
                 llvm::function_ref<bool(unsigned, const ResultView &)> f);

bool lowerModule(mlir::ModuleOp module,
                 llvm::function_ref<llvm::LogicalResult(mlir::OpPassManager &)>
                     build,
                 const std::string &what, std::string &error);

/// Initialises LLVM's native target (once).
void initializeNativeTarget();

/// JIT-compiles `module` (LLVM dialect), optimising its LLVM IR with
/// `optimize`, loading `libs`; null and a sentence in `error` on failure.
std::unique_ptr<mlir::ExecutionEngine>
jitCompile(mlir::ModuleOp module,
           const std::function<llvm::Error(llvm::Module *)> &optimize,
           llvm::ArrayRef<llvm::StringRef> libs, std::string &error);

/// jitCompile at LLVM's O-level `optLevel` (0-3).
std::unique_ptr<mlir::ExecutionEngine>
jitCompile(mlir::ModuleOp module, unsigned optLevel,
           llvm::ArrayRef<llvm::StringRef> libs, std::string &error);

/// Makes `symbols` (name, address) resolvable by the code `engine` runs
/// (a target's runtime calls).
void registerSymbols(mlir::ExecutionEngine &engine,
                     const std::vector<std::pair<const char *, void *>> &symbols);
/// The descriptor of a row-major buffer of `shape` at `data`.
std::vector<int64_t> descriptor(void *data, const std::vector<int64_t> &shape);

/// Words of a result struct of descriptors of these ranks (at least 1).
size_t resultWords(const std::vector<int64_t> &ranks);

/// Copies the results out of `resultStruct`. `read(dst, src, bytes)` copies
/// bytes from a result's memory (host or device) to the host.
void copyResults(const std::vector<int64_t> &resultStruct,
                 const std::vector<int64_t> &ranks,
                 const std::vector<mlir::Type> &types,
                 const std::function<void(void *, const uint8_t *, size_t)> &read,
                 std::vector<RawTensor> &results);

/// The distinct allocations of the results that are none of `inputs`.
std::vector<void *> resultAllocations(const std::vector<int64_t> &resultStruct,
                                      const std::vector<int64_t> &ranks,
                                      const std::vector<void *> &inputs);

} // namespace mxq::detail

#endif // MXQ_LIB_RUNTIME_DESCRIPTORS_H
