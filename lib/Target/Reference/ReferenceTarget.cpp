//===- ReferenceTarget.cpp - the C++ reference as a target ----------------===//
//
// "Compiling" keeps a copy of the function; running it calls the reference
// of each op through the interpreter (lib/Interpreter), the oracle every
// other target is compared with. Inputs and results cross in the same
// in-memory form as every other target's.
//
//===----------------------------------------------------------------------===//
#include "mxq/Interpreter/Interpreter.h"
#include "mxq/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"


using namespace mlir;

namespace {

class ReferenceExecutable : public mxq::Executable {
public:
  ReferenceExecutable(OwningOpRef<ModuleOp> module, func::FuncOp func)
      : module(std::move(module)), func(func) {}

  bool run(const std::vector<mxq::RawTensor> &inputs,
           std::vector<mxq::RawTensor> &results, std::string &error) override {
    return mxq::interpret(func, inputs, results, error);
  }

  bool time(const std::vector<mxq::RawTensor> &inputs, int repeat,
            mxq::Timing &timing, std::string &error) override {
    return timeRuns(inputs, repeat, timing, error);
  }

private:
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
};

class ReferenceTarget : public mxq::Target {
public:
  llvm::StringRef name() const override { return "reference"; }
  llvm::StringRef description() const override {
    return "the C++ reference of every op (the oracle), interpreted";
  }
  std::unique_ptr<mxq::Executable>
  compile(ModuleOp module, const std::string &entry,
          const mxq::TargetOptions &options,
          std::string &error) const override {
    if (!checkOptions(options, error))
      return nullptr;
    OwningOpRef<ModuleOp> copy = module.clone();
    auto func = copy->lookupSymbol<func::FuncOp>(entry);
    if (!func) {
      error = "the module has no function @" + entry;
      return nullptr;
    }
    return std::make_unique<ReferenceExecutable>(std::move(copy), func);
  }
};

} // namespace

namespace mxq {
void registerReferenceTarget() {
  registerTarget(std::make_unique<ReferenceTarget>());
}
} // namespace mxq
