//===- CPURunner.cpp - compile and run mxq functions on the host ----------===//
//
// Lowers the module with the CPU pipeline and calls the entry through its C
// interface: `_mlir_ciface_<entry>(results*, memref descriptor* ...)`, where
// a ranked memref descriptor is {allocated, aligned, offset, sizes[rank],
// strides[rank]} and the results come back as a struct of descriptors.
//
//===----------------------------------------------------------------------===//
#include "mxq/Runtime/CPURunner.h"
#include "mxq/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace mlir;

namespace mxq {

unsigned bytesPerElement(Type type) {
  if (type.isF32())
    return 4;
  if (type.isF16() || type.isBF16())
    return 2;
  if (isa<FloatType>(type) && type.getIntOrFloatBitWidth() <= 8)
    return 1;
  if (auto i = dyn_cast<IntegerType>(type))
    if (i.getWidth() == 8 || i.getWidth() == 16 || i.getWidth() == 32 ||
        i.getWidth() == 64)
      return i.getWidth() / 8;
  return 0;
}

struct CPUExecutable::Impl {
  std::unique_ptr<ExecutionEngine> engine;
  std::string entry;
  std::vector<int64_t> resultRanks;
  std::vector<Type> resultElementTypes;
};

CPUExecutable::~CPUExecutable() = default;

std::unique_ptr<CPUExecutable>
CPUExecutable::compile(ModuleOp module, const std::string &entry,
                       std::string &error, llvm::ArrayRef<int64_t> tileSizes) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func) {
    error = "the module has no function @" + entry;
    return nullptr;
  }
  auto impl = std::make_unique<Impl>();
  impl->entry = entry;
  for (Type t : func.getFunctionType().getResults()) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || rt.getRank() == 0 || !bytesPerElement(rt.getElementType())) {
      error = "@" + entry + " returns a value of a type that cannot be "
              "returned: only ranked tensors (rank >= 1) of f32, f16, bf16, "
              "MX codes, E8M0 and i8/i16/i32/i64";
      return nullptr;
    }
    impl->resultRanks.push_back(rt.getRank());
    impl->resultElementTypes.push_back(rt.getElementType());
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

  // Lower, collecting diagnostics into the error message.
  std::string diagnostics;
  {
    ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &d) {
      llvm::raw_string_ostream os(diagnostics);
      os << d.getLocation() << ": " << d << "\n";
      return success();
    });
    PassManager pm(module.getContext());
    if (failed(buildCPUPipeline(pm, tileSizes)) || failed(pm.run(module))) {
      error = "the CPU pipeline failed:\n" + diagnostics;
      return nullptr;
    }
  }

  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  ExecutionEngineOptions options;
  options.transformer = makeOptimizingTransformer(3, 0, nullptr);
  // memref.copy of strided memrefs (tiles written back into their result)
  // calls memrefCopy from MLIR's C runner utilities.
  static const std::string runnerUtils =
      std::string(MXQ_MLIR_LIB_DIR) + "/libmlir_c_runner_utils.so";
  SmallVector<StringRef, 1> libs{runnerUtils};
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine) {
    error = "cannot JIT-compile the module: " +
            llvm::toString(engine.takeError());
    return nullptr;
  }
  impl->engine = std::move(*engine);
  std::unique_ptr<CPUExecutable> exe(new CPUExecutable());
  exe->impl = std::move(impl);
  return exe;
}

bool CPUExecutable::invoke(const std::vector<RawTensor> &inputs,
                           std::vector<int64_t> &resultStruct,
                           std::string &error) {
  size_t resultWords = 0;
  for (int64_t rank : impl->resultRanks)
    resultWords += 3 + 2 * rank;
  resultStruct.assign(std::max<size_t>(resultWords, 1), 0);
  void *resultPtr = resultStruct.data();

  // Input descriptors: the caller's bytes, row-major.
  std::vector<std::vector<int64_t>> descriptors;
  for (const RawTensor &t : inputs) {
    int64_t rank = t.shape.size();
    std::vector<int64_t> d(3 + 2 * rank);
    void *data = const_cast<uint8_t *>(t.data.data());
    std::memcpy(&d[0], &data, sizeof(void *));
    std::memcpy(&d[1], &data, sizeof(void *));
    int64_t stride = 1;
    for (int64_t i = rank - 1; i >= 0; --i) {
      d[3 + i] = t.shape[i];
      d[3 + rank + i] = stride;
      stride *= t.shape[i];
    }
    descriptors.push_back(std::move(d));
  }
  std::vector<void *> descriptorPtrs;
  for (auto &d : descriptors)
    descriptorPtrs.push_back(d.data());
  std::vector<void *> args;
  if (!impl->resultRanks.empty())
    args.push_back(&resultPtr);
  for (void *&p : descriptorPtrs)
    args.push_back(&p);
  if (llvm::Error e =
          impl->engine->invokePacked("_mlir_ciface_" + impl->entry, args)) {
    error = "cannot call @" + impl->entry + ": " + llvm::toString(std::move(e));
    return false;
  }
  return true;
}

void CPUExecutable::freeResults(const std::vector<RawTensor> &inputs,
                                const std::vector<int64_t> &resultStruct) {
  // Results may alias each other or the inputs; free each allocation once
  // and never the caller's buffers.
  std::vector<void *> freed;
  for (const RawTensor &t : inputs)
    freed.push_back(const_cast<uint8_t *>(t.data.data()));
  size_t at = 0;
  for (int64_t rank : impl->resultRanks) {
    void *allocated;
    std::memcpy(&allocated, &resultStruct[at], sizeof(void *));
    at += 3 + 2 * rank;
    if (allocated &&
        std::find(freed.begin(), freed.end(), allocated) == freed.end()) {
      std::free(allocated);
      freed.push_back(allocated);
    }
  }
}

bool CPUExecutable::run(const std::vector<RawTensor> &inputs,
                        std::vector<RawTensor> &results, std::string &error) {
  std::vector<int64_t> resultStruct;
  if (!invoke(inputs, resultStruct, error))
    return false;
  // Copy each result out of its descriptor (any strides).
  size_t at = 0;
  results.clear();
  for (auto [rank, type] :
       llvm::zip(impl->resultRanks, impl->resultElementTypes)) {
    const int64_t *w = resultStruct.data() + at;
    at += 3 + 2 * rank;
    uint8_t *aligned;
    std::memcpy(&aligned, &w[1], sizeof(void *));
    RawTensor r;
    r.elementType = type;
    r.shape.assign(w + 3, w + 3 + rank);
    unsigned size = bytesPerElement(type);
    int64_t count = 1;
    for (int64_t d : r.shape)
      count *= d;
    r.data.resize(count * size);
    std::vector<int64_t> index(rank, 0);
    for (int64_t e = 0; e < count; ++e) {
      int64_t offset = w[2];
      for (int64_t d = 0; d < rank; ++d)
        offset += index[d] * w[3 + rank + d];
      std::memcpy(&r.data[e * size], aligned + offset * size, size);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++index[d] < r.shape[d])
          break;
        index[d] = 0;
      }
    }
    results.push_back(std::move(r));
  }
  freeResults(inputs, resultStruct);
  return true;
}

bool CPUExecutable::runAndDiscard(const std::vector<RawTensor> &inputs,
                                  std::string &error) {
  std::vector<int64_t> resultStruct;
  if (!invoke(inputs, resultStruct, error))
    return false;
  freeResults(inputs, resultStruct);
  return true;
}

bool runOnCPU(ModuleOp module, const std::string &entry,
              const std::vector<RawTensor> &inputs,
              std::vector<RawTensor> &results, std::string &error,
              llvm::ArrayRef<int64_t> tileSizes) {
  auto exe = CPUExecutable::compile(module, entry, error, tileSizes);
  return exe && exe->run(inputs, results, error);
}

} // namespace mxq
