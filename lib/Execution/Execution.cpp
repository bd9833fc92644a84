//===- Execution.cpp - compile a function once, run it on data ------------===//
#include "mxq/Execution/Execution.h"
#include "mxq/Conversion/Passes.h"
#include "mxq/Interpreter/Interpreter.h"

#include "mlir/IR/Location.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace mxq {

static std::atomic<uint64_t> compileCount{0};

uint64_t CompiledFunction::numCompiles() { return compileCount.load(); }

std::unique_ptr<CompiledFunction>
CompiledFunction::compile(ModuleOp module, llvm::StringRef entry,
                          llvm::StringRef target, const TargetOptions &options,
                          std::string &error) {
  const Target *t = lookupTarget(target, error);
  if (!t)
    return nullptr;
  if (!t->checkOptions(options, error))
    return nullptr;
  // A target that cannot run here still compiles (NVVM's PTX needs no
  // driver); its executable says why when it is run.
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func) {
    error = "the module has no function @" + entry.str();
    return nullptr;
  }
  for (Type type : func.getFunctionType().getInputs())
    if (!isa<RankedTensorType>(type)) {
      error = "@" + entry.str() + " takes an argument of type " +
              llvm::formatv("{0}", type).str() +
              ", but only ranked tensors can be passed";
      return nullptr;
    }
  std::unique_ptr<CompiledFunction> result(new CompiledFunction());
  result->original = OwningOpRef<ModuleOp>(module.clone());
  result->func = result->original->lookupSymbol<func::FuncOp>(entry);
  result->targetName = t->name().str();
  OwningOpRef<ModuleOp> work(module.clone());
  // The ingress first: standard IR mxq states (TOSA's MXFP casts) becomes
  // mxq ops, so every target, the reference too, sees only mxq.
  {
    DiagnosticCollector diagnostics(work->getContext());
    if (failed(convertTOSAToMXQ(*work))) {
      error = diagnostics.take();
      return nullptr;
    }
  }
  result->executable = t->compile(*work, entry.str(), options, error);
  if (!result->executable)
    return nullptr;
  ++compileCount;
  return result;
}

bool CompiledFunction::checkArity(size_t given, std::string &error) {
  unsigned want = func.getFunctionType().getNumInputs();
  if (given == want)
    return true;
  error = "@" + func.getSymName().str() + " takes " + std::to_string(want) +
          " arguments, but " + std::to_string(given) + " were given";
  return false;
}

std::string CompiledFunction::report() const {
  return executable ? executable->report() : std::string();
}

bool CompiledFunction::run(const std::vector<RawTensor> &inputs,
                           std::vector<RawTensor> &results,
                           std::string &error) {
  if (!checkRunInputs(inputs, error))
    return false;
  results.clear();
  return executable->run(inputs, results, error);
}

bool CompiledFunction::runInto(const std::vector<RawTensor> &inputs,
                               ResultSink sink, std::string &error) {
  return checkRunInputs(inputs, error) &&
         executable->runInto(inputs, sink, error);
}

bool CompiledFunction::checkRunInputs(const std::vector<RawTensor> &inputs,
                                      std::string &error) {
  FunctionType type = func.getFunctionType();
  if (!checkArity(inputs.size(), error))
    return false;
  for (unsigned i = 0; i < inputs.size(); ++i) {
    auto expected = cast<RankedTensorType>(type.getInput(i));
    const RawTensor &in = inputs[i];
    if (in.elementType != expected.getElementType() ||
        in.shape.size() != size_t(expected.getRank())) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << "argument " << i << " of @" << func.getSymName() << " is "
         << expected << ", but a rank-" << in.shape.size() << " tensor of "
         << in.elementType << " was given";
      error = s;
      return false;
    }
    uint64_t need = storageBytes(in.elementType, in.shape);
    if (in.data.size() != need) {
      error = "argument " + std::to_string(i) + " holds " +
              std::to_string(in.data.size()) + " bytes, but its shape needs " +
              std::to_string(need);
      return false;
    }
  }
  return checkInputs(func, inputs, error);
}

bool CompiledFunction::runNpy(const std::vector<npy::Array> &inputs,
                              std::vector<npy::Array> &results,
                              std::string &error, int64_t fp4Length) {
  FunctionType type = func.getFunctionType();
  if (!checkArity(inputs.size(), error))
    return false;
  std::vector<RawTensor> raw(inputs.size());
  for (unsigned i = 0; i < inputs.size(); ++i)
    if (!tensorFromNpy(inputs[i], cast<RankedTensorType>(type.getInput(i)), i,
                       raw[i], error, fp4Length))
      return false;
  std::vector<RawTensor> out;
  if (!run(raw, out, error))
    return false;
  results.clear();
  for (RawTensor &r : out)
    results.push_back(tensorToNpy(std::move(r)));
  return true;
}

DiagnosticCollector::DiagnosticCollector(MLIRContext *context)
    : context(context) {
  id = context->getDiagEngine().registerHandler([this](Diagnostic &diag) {
    llvm::raw_string_ostream os(text);
    auto print = [&](Diagnostic &d) {
      Location loc = d.getLocation();
      if (auto file = dyn_cast<FileLineColLoc>(loc))
        os << file.getFilename().getValue() << ":" << file.getLine() << ":"
           << file.getColumn() << ": ";
      else if (!isa<UnknownLoc>(loc))
        os << loc << ": ";
      switch (d.getSeverity()) {
      case DiagnosticSeverity::Error:
        os << "error: ";
        break;
      case DiagnosticSeverity::Warning:
        os << "warning: ";
        break;
      case DiagnosticSeverity::Note:
        os << "note: ";
        break;
      case DiagnosticSeverity::Remark:
        os << "remark: ";
        break;
      }
      os << d << "\n";
    };
    print(diag);
    for (Diagnostic &note : diag.getNotes())
      print(note);
    return success();
  });
}

DiagnosticCollector::~DiagnosticCollector() {
  context->getDiagEngine().eraseHandler(id);
}

std::string DiagnosticCollector::take() {
  std::string s;
  std::swap(s, text);
  while (!s.empty() && s.back() == '\n')
    s.pop_back();
  return s;
}

} // namespace mxq
