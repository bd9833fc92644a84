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

#include <chrono>

using namespace mlir;

namespace {

class ReferenceExecutable : public mxq::Executable {
public:
  ReferenceExecutable(OwningOpRef<ModuleOp> module, func::FuncOp func)
      : module(std::move(module)), func(func) {}

  bool run(const std::vector<mxq::RawTensor> &inputs,
           std::vector<mxq::RawTensor> &results, std::string &error) override {
    auto types = func.getArgumentTypes();
    if (types.size() != inputs.size()) {
      error = "@" + func.getSymName().str() + " takes " +
              std::to_string(types.size()) + " arguments, but " +
              std::to_string(inputs.size()) + " were given";
      return false;
    }
    std::vector<mxq::Buffer> args(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto type = dyn_cast<RankedTensorType>(types[i]);
      if (!type) {
        error = "input " + std::to_string(i) + ": argument type is not a "
                "ranked tensor";
        return false;
      }
      const mxq::RawTensor &t = inputs[i];
      mxq::npy::Array a = mxq::rawToNpy(t.elementType, t.shape, t.data);
      if (!mxq::bufferFromNpy(a, type, i, args[i], error,
                              t.shape.empty() ? -1 : t.shape.back()))
        return false;
    }
    std::vector<mxq::Buffer> out;
    if (!mxq::interpret(func, args, out, error))
      return false;
    results.clear();
    for (const mxq::Buffer &b : out) {
      mxq::npy::Array a = mxq::bufferToNpy(b);
      results.push_back({b.shape, b.elementType,
                         mxq::rawFromNpy(a, b.elementType, b.shape)});
    }
    return true;
  }

  bool time(const std::vector<mxq::RawTensor> &inputs, int repeat,
            mxq::Timing &timing, std::string &error) override {
    std::vector<mxq::RawTensor> results;
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < std::max(repeat, 1); ++i)
      if (!run(inputs, results, error))
        return false;
    std::chrono::duration<double, std::milli> ms =
        std::chrono::steady_clock::now() - start;
    timing.wallMillis = ms.count() / std::max(repeat, 1);
    return true;
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
