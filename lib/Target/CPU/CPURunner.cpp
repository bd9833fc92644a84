//===- CPURunner.cpp - compile and run mxq functions on the host ----------===//
//
// Lowers the module with the CPU pipeline and calls the entry through its C
// interface: `_mlir_ciface_<entry>(results*, memref descriptor* ...)`, where
// a ranked memref descriptor is {allocated, aligned, offset, sizes[rank],
// strides[rank]} and the results come back as a struct of descriptors.
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/CPU/CPURunner.h"
#include "mxq/Runtime/Descriptors.h"
#include "mxq/Runtime/HostJIT.h"
#include "mxq/Target/CPU/CPUTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>

using namespace mlir;

namespace mxq {

struct CPUExecutable::Impl {
  /// Shared with the compile cache and with every executable of the same
  /// function and options.
  std::shared_ptr<detail::HostCode> code;
  std::string entry;
  std::vector<int64_t> resultRanks;
  /// Types of the context that asked for this executable, never of the one
  /// that compiled the code (that context may be gone).
  std::vector<Type> resultElementTypes;
};

CPUExecutable::~CPUExecutable() = default;

namespace {
/// Process-wide cache of JIT-compiled functions, keyed by the entry's text
/// (after prepareEntry: the entry and its callees only, no locations) and the
/// options that change the code. Compiled code (detail::HostCode) holds no
/// MLIR or LLVM IR object, so one compiled in a context that is gone
/// still serves a caller in another (docs/Rationale.md, "The compiled-function
/// cache"). First in, first out beyond kCapacity entries.
class CompileCache {
public:
  static constexpr size_t kCapacity = 64;

  std::shared_ptr<detail::HostCode> lookup(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = engines.find(key);
    if (it == engines.end()) {
      ++stats.misses;
      return nullptr;
    }
    ++stats.hits;
    return it->second;
  }

  void insert(const std::string &key, std::shared_ptr<detail::HostCode> e) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!engines.try_emplace(key, std::move(e)).second)
      return;
    order.push_back(key);
    while (order.size() > kCapacity) {
      engines.erase(order.front());
      order.pop_front();
    }
    stats.entries = engines.size();
  }

  void clear() {
    std::lock_guard<std::mutex> lock(mutex);
    engines.clear();
    order.clear();
    stats = {};
  }

  CompileCacheStats get() {
    std::lock_guard<std::mutex> lock(mutex);
    return stats;
  }

private:
  std::mutex mutex;
  llvm::StringMap<std::shared_ptr<detail::HostCode>> engines;
  std::deque<std::string> order;
  CompileCacheStats stats;
};

// Never destroyed: code that calls the OpenMP runtime must not be torn
// down by static destructors after that library's own.
CompileCache &compileCache() {
  static CompileCache *cache = new CompileCache();
  return *cache;
}

std::string cacheKey(ModuleOp module, llvm::ArrayRef<int64_t> tileSizes,
                     unsigned threads) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << "cpu threads=" << threads << " tiles=";
  llvm::interleave(tileSizes, os, ",");
  os << "\n";
  module->print(os, OpPrintingFlags().enableDebugInfo(false));
  return key;
}
} // namespace

CompileCacheStats cpuCompileCacheStats() { return compileCache().get(); }
void clearCPUCompileCache() { compileCache().clear(); }

std::unique_ptr<CPUExecutable>
CPUExecutable::compile(ModuleOp module, const std::string &entry,
                       std::string &error, llvm::ArrayRef<int64_t> tileSizes,
                       unsigned threads, bool useCache) {
  auto impl = std::make_unique<Impl>();
  impl->entry = entry;
  if (!detail::prepareEntry(module, entry, impl->resultRanks,
                            impl->resultElementTypes, error))
    return nullptr;
  auto finish = [&]() {
    std::unique_ptr<CPUExecutable> exe(new CPUExecutable());
    exe->impl = std::move(impl);
    return exe;
  };
  std::string key;
  if (useCache) {
    key = cacheKey(module, tileSizes, threads);
    if ((impl->code = compileCache().lookup(key)))
      return finish();
  }

  if (!detail::lowerModule(
          module,
          [&](OpPassManager &pm) {
            buildCPUPipeline(pm, tileSizes, threads);
            return success();
          },
          "the CPU pipeline failed", error))
    return nullptr;
  // memref.copy of strided memrefs (tiles written back into their result)
  // calls memrefCopy from MLIR's C runner utilities.
  static const std::string runnerUtils =
      std::string(MXQ_MLIR_LIB_DIR) + "/libmlir_c_runner_utils.so";
  SmallVector<StringRef, 2> libs{runnerUtils};
#ifdef MXQ_OPENMP_RUNTIME
  // Parallel code calls the OpenMP runtime (__kmpc_fork_call, ...).
  static const std::string openmp = MXQ_OPENMP_RUNTIME;
  if (threads != 1) {
    libs.push_back(openmp);
    registerOpenMPDialectTranslation(*module->getContext());
  }
#endif
  std::shared_ptr<detail::HostCode> code = detail::jitCompileForHost(
      module, "_mlir_ciface_" + entry, cpu::optimizeVectorizedModule, libs,
      error);
  if (!code)
    return nullptr;
  impl->code = code;
  if (useCache)
    compileCache().insert(key, std::move(code));
  return finish();
}

bool CPUExecutable::invoke(const std::vector<RawTensor> &inputs,
                           std::vector<int64_t> &resultStruct,
                           std::string &error) {
  resultStruct.assign(detail::resultWords(impl->resultRanks), 0);
  void *resultPtr = resultStruct.data();
  // Input descriptors: the caller's bytes, row-major.
  std::vector<std::vector<int64_t>> descriptors;
  for (const RawTensor &t : inputs)
    descriptors.push_back(
        detail::descriptor(const_cast<uint8_t *>(t.data.data()), t.shape));
  std::vector<void *> descriptorPtrs;
  for (auto &d : descriptors)
    descriptorPtrs.push_back(d.data());
  std::vector<void *> args;
  if (!impl->resultRanks.empty())
    args.push_back(&resultPtr);
  for (void *&p : descriptorPtrs)
    args.push_back(&p);
  impl->code->invoke(args.data());
  return true;
}

void CPUExecutable::freeResults(const std::vector<RawTensor> &inputs,
                                const std::vector<int64_t> &resultStruct) {
  // Results may alias each other or the inputs; free each allocation once
  // and never the caller's buffers.
  std::vector<void *> in;
  for (const RawTensor &t : inputs)
    in.push_back(const_cast<uint8_t *>(t.data.data()));
  for (void *p : detail::resultAllocations(resultStruct, impl->resultRanks, in))
    std::free(p);
}

bool CPUExecutable::time(const std::vector<RawTensor> &inputs, int repeat,
                         Timing &timing, std::string &error) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < repeat; ++i)
    if (!runAndDiscard(inputs, error))
      return false;
  std::chrono::duration<double, std::milli> ms =
      std::chrono::steady_clock::now() - start;
  timing.wallMillis = ms.count() / std::max(repeat, 1);
  timing.deviceMillis = 0;
  return true;
}

bool CPUExecutable::run(const std::vector<RawTensor> &inputs,
                        std::vector<RawTensor> &results, std::string &error) {
  std::vector<int64_t> resultStruct;
  if (!invoke(inputs, resultStruct, error))
    return false;
  detail::copyResults(
      resultStruct, impl->resultRanks, impl->resultElementTypes,
      [](void *dst, const uint8_t *src, size_t n) { std::memcpy(dst, src, n); },
      results);
  freeResults(inputs, resultStruct);
  return true;
}

bool CPUExecutable::runInto(const std::vector<RawTensor> &inputs,
                            ResultSink sink, std::string &error) {
  std::vector<int64_t> resultStruct;
  if (!invoke(inputs, resultStruct, error))
    return false;
  bool ok = detail::viewResults(
      resultStruct, impl->resultRanks, impl->resultElementTypes,
      [&](unsigned k, const ResultView &view) { return sink(k, view, error); });
  freeResults(inputs, resultStruct);
  return ok;
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
