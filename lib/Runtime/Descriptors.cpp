//===- Descriptors.cpp - memref descriptors for the runners ---------------===//
#include "mxq/Runtime/Descriptors.h"

#include "mxq/Runtime/MemRefDescriptor.h"
#include "mxq/Support/ElementTypes.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace mlir;

namespace mxq {

unsigned bytesPerElement(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  const ElementTypeInfo *info = elementTypeInfo(name);
  return info ? info->bytes : 0;
}

static const ElementTypeInfo *infoOf(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  return elementTypeInfo(name);
}

uint64_t storageBytes(Type type, const std::vector<int64_t> &shape) {
  return ::mxq::storageBytes(infoOf(type), shape);
}

} // namespace mxq

namespace mxq::detail {

bool prepareEntry(ModuleOp module, const std::string &entry,
                  std::vector<int64_t> &resultRanks,
                  std::vector<Type> &resultTypes, std::string &error) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func) {
    error = "the module has no function @" + entry;
    return false;
  }
  for (Type t : func.getFunctionType().getResults()) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || rt.getRank() == 0 || !bytesPerElement(rt.getElementType())) {
      error = "@" + entry +
              " returns a value of a type that cannot be "
              "returned: only ranked tensors (rank >= 1) of f32, f16, bf16, "
              "MX codes, E8M0 and i8/i16/i32/i64";
      return false;
    }
    resultRanks.push_back(rt.getRank());
    resultTypes.push_back(rt.getElementType());
  }
  func->setAttr("llvm.emit_c_interface", UnitAttr::get(module.getContext()));

  // Compile only the entry and what it calls: the other functions of the
  // file need not be compilable.
  llvm::DenseSet<Operation *> keep;
  SmallVector<func::FuncOp> work{func};
  while (!work.empty()) {
    func::FuncOp f = work.pop_back_val();
    if (!keep.insert(f).second)
      continue;
    f.walk([&](func::CallOp call) {
      if (auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee()))
        work.push_back(callee);
    });
  }
  for (auto f : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (!keep.contains(f))
      f.erase();
  return true;
}

bool lowerModule(ModuleOp module,
                 llvm::function_ref<LogicalResult(OpPassManager &)> build,
                 const std::string &what, std::string &error) {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &d) {
    llvm::raw_string_ostream os(diagnostics);
    os << d.getLocation() << ": " << d << "\n";
    return success();
  });
  PassManager pm(module.getContext());
  // The result is verified once, after the whole pipeline, rather than
  // after each of its passes: per-pass verification was 40% of the CPU
  // pipeline's time (docs/Rationale.md). mxq-opt and the lit tests, which
  // run the same passes, still verify after every pass, and so does a
  // build with assertions.
#ifdef NDEBUG
  pm.enableVerifier(false);
#endif
  if (failed(build(pm)) || failed(pm.run(module)) ||
      failed(verify(module))) {
    error = what + ":\n" + diagnostics;
    return false;
  }
  return true;
}

void initializeNativeTarget() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

std::unique_ptr<ExecutionEngine>
jitCompile(ModuleOp module, unsigned optLevel,
           llvm::ArrayRef<llvm::StringRef> libs, std::string &error) {
  return jitCompile(module, makeOptimizingTransformer(optLevel, 0, nullptr),
                    libs, error);
}

std::unique_ptr<ExecutionEngine>
jitCompile(ModuleOp module,
           const std::function<llvm::Error(llvm::Module *)> &optimize,
           llvm::ArrayRef<llvm::StringRef> libs, std::string &error) {
  initializeNativeTarget();
  registerBuiltinDialectTranslation(*module->getContext());
  registerLLVMDialectTranslation(*module->getContext());
  // ExecutionEngineOptions holds a function_ref: `optimize` outlives
  // ExecutionEngine::create.
  ExecutionEngineOptions options;
  options.transformer = optimize;
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine) {
    error =
        "cannot JIT-compile the module: " + llvm::toString(engine.takeError());
    return nullptr;
  }
  return std::move(*engine);
}

void registerSymbols(
    ExecutionEngine &engine,
    const std::vector<std::pair<const char *, void *>> &symbols) {
  engine.registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    for (auto [name, address] : symbols)
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                             llvm::JITSymbolFlags::Exported};
    return map;
  });
}

std::vector<int64_t> descriptor(void *data, const std::vector<int64_t> &shape) {
  return memref::descriptor(data, shape);
}

size_t resultWords(const std::vector<int64_t> &ranks) {
  return memref::resultWords(ranks);
}

void copyResults(
    const std::vector<int64_t> &resultStruct, const std::vector<int64_t> &ranks,
    const std::vector<Type> &types,
    const std::function<void(void *, const uint8_t *, size_t)> &read,
    std::vector<RawTensor> &results) {
  size_t at = 0;
  results.clear();
  for (size_t k = 0; k < ranks.size(); ++k) {
    RawTensor r;
    r.elementType = types[k];
    const ElementTypeInfo *info = infoOf(r.elementType);
    memref::gather(resultStruct.data() + at, ranks[k], info ? info->bytes : 0,
                   read, r.shape, r.data, info && info->packed);
    at += 3 + 2 * ranks[k];
    results.push_back(std::move(r));
  }
}

bool viewResults(const std::vector<int64_t> &resultStruct,
                 const std::vector<int64_t> &ranks,
                 const std::vector<Type> &types,
                 llvm::function_ref<bool(unsigned, const ResultView &)> f) {
  size_t at = 0;
  for (unsigned k = 0; k < ranks.size(); ++k) {
    const int64_t *w = resultStruct.data() + at;
    at += 3 + 2 * ranks[k];
    const ElementTypeInfo *info = infoOf(types[k]);
    unsigned bytes = info ? info->bytes : 0;
    bool packed = info && info->packed;
    std::vector<int64_t> shape(w + 3, w + 3 + ranks[k]);
    if (const uint8_t *dense = memref::denseBytes(w, ranks[k], bytes, packed)) {
      size_t n = ::mxq::storageBytes(info, shape);
      if (!f(k, {types[k], shape, {dense, n}}))
        return false;
      continue;
    }
    std::vector<uint8_t> data;
    memref::gather(
        w, ranks[k], bytes,
        [](void *dst, const uint8_t *src, size_t n) {
          std::memcpy(dst, src, n);
        },
        shape, data, packed);
    if (!f(k, {types[k], shape, data}))
      return false;
  }
  return true;
}

std::vector<void *> resultAllocations(const std::vector<int64_t> &resultStruct,
                                      const std::vector<int64_t> &ranks,
                                      const std::vector<void *> &inputs) {
  std::vector<void *> seen(inputs), fresh;
  size_t at = 0;
  for (int64_t rank : ranks) {
    void *allocated;
    std::memcpy(&allocated, &resultStruct[at], sizeof(void *));
    at += 3 + 2 * rank;
    if (allocated &&
        std::find(seen.begin(), seen.end(), allocated) == seen.end()) {
      seen.push_back(allocated);
      fresh.push_back(allocated);
    }
  }
  return fresh;
}

} // namespace mxq::detail
