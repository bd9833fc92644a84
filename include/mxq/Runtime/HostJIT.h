//===- HostJIT.h - one LLVM JIT per process for host code -------*- C++ -*-===//
//
// Every function a target compiles for the host lives in one process-wide
// LLJIT, each module in a JITDylib of its own, removed (and its memory freed)
// when the last handle to it goes. The JIT, its target machine and the
// libraries the code calls are set up once per process, not once per
// compile as an mlir::ExecutionEngine does (docs/Rationale.md, "One JIT per
// process").
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_RUNTIME_HOSTJIT_H
#define MXQ_RUNTIME_HOSTJIT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mxq::detail {

/// The machine code of one module in the process's JIT.
class HostCode {
public:
  ~HostCode();
  HostCode(const HostCode &) = delete;
  HostCode &operator=(const HostCode &) = delete;

  /// Calls the function this code was compiled for through its packed
  /// form: `args[i]` points to its i-th argument, and where it returns a
  /// value, the pointer after the arguments' is where that goes.
  void invoke(void **args) const { packed(args); }

private:
  friend std::shared_ptr<HostCode>
  jitCompileForHost(mlir::ModuleOp, llvm::StringRef,
                    const std::function<llvm::Error(llvm::Module *)> &,
                    llvm::ArrayRef<llvm::StringRef>, std::string &);
  HostCode() = default;
  struct State;
  std::unique_ptr<State> state;
  void (*packed)(void **) = nullptr;
};

/// Translates `module` (LLVM dialect) to LLVM IR, optimises it with
/// `optimize`, and compiles it into the process's JIT, where it calls
/// functions of the process and of the shared libraries `libs` (each loaded
/// once per process). `function` is the symbol to call: a packed wrapper of
/// it is added to the module. Null and a sentence in `error` on failure.
std::shared_ptr<HostCode>
jitCompileForHost(mlir::ModuleOp module, llvm::StringRef function,
                  const std::function<llvm::Error(llvm::Module *)> &optimize,
                  llvm::ArrayRef<llvm::StringRef> libs, std::string &error);

} // namespace mxq::detail

#endif // MXQ_RUNTIME_HOSTJIT_H
