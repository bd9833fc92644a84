//===- GPURunner.cpp - compile and run mxq functions on an NVIDIA GPU -----===//
#include "mxq/Runtime/GPURunner.h"
#include "Descriptors.h"
#include "GPURuntime.h"
#include "mxq/InitAll.h"
#include "mxq/Runtime/CUDADriver.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;

namespace mxq {

struct GPUExecutable::Impl : detail::CompiledEntry {};

GPUExecutable::~GPUExecutable() = default;

std::string GPUExecutable::deviceChip(std::string &error) {
  cuda::Driver *d = cuda::driver(error);
  return d ? d->chip : std::string();
}

std::unique_ptr<GPUExecutable>
GPUExecutable::compile(ModuleOp module, const std::string &entry,
                       std::string chip, int ptx, std::string &error) {
  if (chip.empty()) {
    std::string why;
    chip = deviceChip(why);
    if (chip.empty()) {
      error = "no chip was given and there is no GPU to ask: " + why;
      return nullptr;
    }
  }
  auto impl = std::make_unique<Impl>();
  impl->entry = entry;
  if (!detail::prepareEntry(module, entry, impl->resultRanks,
                            impl->resultElementTypes, error))
    return nullptr;

  if (!detail::lowerModule(
          module,
          [&](OpPassManager &pm) {
            static bool registered = (registerPasses(), true);
            (void)registered;
            return parsePassPipeline(gpuPipeline(chip, ptx, "isa", ""), pm);
          },
          "the GPU pipeline failed for " + chip, error))
    return nullptr;
  auto engine = detail::jitCompile(module, 2, {}, error);
  if (!engine)
    return nullptr;
  engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    for (auto [name, address] : gpuruntime::symbols())
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                             llvm::JITSymbolFlags::Exported};
    return map;
  });
  impl->engine = std::move(engine);
  std::unique_ptr<GPUExecutable> exe(new GPUExecutable());
  exe->impl = std::move(impl);
  return exe;
}

namespace {

/// Device copies of the inputs, freed on destruction.
struct DeviceInputs {
  cuda::Driver *d;
  std::vector<void *> pointers;
  ~DeviceInputs() {
    for (void *p : pointers)
      if (p)
        d->cuMemFree(reinterpret_cast<cuda::CUdeviceptr>(p));
  }
  bool upload(const std::vector<RawTensor> &inputs, std::string &error) {
    for (const RawTensor &t : inputs) {
      cuda::CUdeviceptr p = 0;
      if (!t.data.empty()) {
        cuda::CUresult r = d->cuMemAlloc(&p, t.data.size());
        if (r == cuda::kSuccess)
          r = d->cuMemcpyHtoD(p, t.data.data(), t.data.size());
        if (r != cuda::kSuccess) {
          error = d->describe("copying an input to the GPU", r);
          return false;
        }
      }
      pointers.push_back(reinterpret_cast<void *>(p));
    }
    return true;
  }
};

} // namespace

/// Calls the entry on device buffers; the results' descriptors land in
/// `resultStruct`. The host code waits for its kernels before returning.
static bool invoke(ExecutionEngine &engine, const std::string &entry,
                   const std::vector<int64_t> &ranks,
                   const std::vector<RawTensor> &inputs,
                   const std::vector<void *> &device,
                   std::vector<int64_t> &resultStruct, std::string &error) {
  resultStruct.assign(detail::resultWords(ranks), 0);
  void *resultPtr = resultStruct.data();
  std::vector<std::vector<int64_t>> descriptors;
  for (size_t i = 0; i < inputs.size(); ++i)
    descriptors.push_back(detail::descriptor(device[i], inputs[i].shape));
  std::vector<void *> descriptorPtrs;
  for (auto &d : descriptors)
    descriptorPtrs.push_back(d.data());
  std::vector<void *> args;
  if (!ranks.empty())
    args.push_back(&resultPtr);
  for (void *&p : descriptorPtrs)
    args.push_back(&p);
  gpuruntime::takeError();
  if (llvm::Error e = engine.invokePacked("_mlir_ciface_" + entry, args)) {
    error = "cannot call @" + entry + ": " + llvm::toString(std::move(e));
    return false;
  }
  std::string failure = gpuruntime::takeError();
  if (!failure.empty()) {
    error = "@" + entry + " failed on the GPU: " + failure;
    return false;
  }
  return true;
}

namespace {

/// The driver, the inputs copied to the device, and calls of the entry on
/// them.
struct Session {
  ExecutionEngine &engine;
  const std::string &entry;
  const std::vector<int64_t> &ranks;
  const std::vector<RawTensor> &inputs;
  cuda::Driver *d = nullptr;
  DeviceInputs device{nullptr, {}};
  std::vector<int64_t> resultStruct;

  /// Opens the driver, uploads the inputs and calls the entry once.
  bool start(std::string &error) {
    d = cuda::driver(error);
    if (!d)
      return false;
    device.d = d;
    return device.upload(inputs, error) && call(error);
  }
  bool call(std::string &error) {
    return invoke(engine, entry, ranks, inputs, device.pointers, resultStruct,
                  error);
  }
  void freeResults() {
    for (void *p :
         detail::resultAllocations(resultStruct, ranks, device.pointers))
      d->cuMemFree(reinterpret_cast<cuda::CUdeviceptr>(p));
  }
};

} // namespace

bool GPUExecutable::run(const std::vector<RawTensor> &inputs,
                        std::vector<RawTensor> &results, std::string &error) {
  Session session{*impl->engine, impl->entry, impl->resultRanks, inputs};
  if (!session.start(error))
    return false;
  cuda::Driver *d = session.d;
  cuda::CUresult status = cuda::kSuccess;
  detail::copyResults(
      session.resultStruct, impl->resultRanks, impl->resultElementTypes,
      [&](void *dst, const uint8_t *src, size_t n) {
        cuda::CUresult r = d->cuMemcpyDtoH(
            dst, reinterpret_cast<cuda::CUdeviceptr>(src), n);
        if (status == cuda::kSuccess)
          status = r;
      },
      results);
  session.freeResults();
  if (status != cuda::kSuccess) {
    error = d->describe("copying a result from the GPU", status);
    return false;
  }
  return true;
}

bool GPUExecutable::time(const std::vector<RawTensor> &inputs, int repeat,
                         double &kernelMillis, double &wallMillis,
                         std::string &error) {
  Session session{*impl->engine, impl->entry, impl->resultRanks, inputs};
  // The first call warms up: module load, first allocations from the pool.
  if (!session.start(error))
    return false;
  session.freeResults();
  gpuruntime::setTiming(true);
  gpuruntime::takeKernelMillis();
  auto start = std::chrono::steady_clock::now();
  bool ok = true;
  for (int i = 0; i < repeat && ok; ++i) {
    ok = session.call(error);
    if (ok)
      session.freeResults();
  }
  auto stop = std::chrono::steady_clock::now();
  gpuruntime::setTiming(false);
  kernelMillis = gpuruntime::takeKernelMillis() / repeat;
  wallMillis =
      std::chrono::duration<double, std::milli>(stop - start).count() / repeat;
  return ok;
}

bool GPUExecutable::timeCopy(size_t bytes, int repeat, double &millis,
                             std::string &error) {
  cuda::Driver *d = cuda::driver(error);
  if (!d)
    return false;
  cuda::CUdeviceptr src = 0, dst = 0;
  cuda::CUstream stream = nullptr;
  cuda::CUevent start = nullptr, stop = nullptr;
  cuda::CUresult r = d->cuMemAlloc(&src, bytes);
  if (r == cuda::kSuccess)
    r = d->cuMemAlloc(&dst, bytes);
  if (r == cuda::kSuccess)
    r = d->cuMemsetD8(src, 0x3C, bytes);
  if (r == cuda::kSuccess)
    r = d->cuStreamCreate(&stream, 1);
  if (r == cuda::kSuccess)
    r = d->cuEventCreate(&start, 0);
  if (r == cuda::kSuccess)
    r = d->cuEventCreate(&stop, 0);
  if (r == cuda::kSuccess)
    r = d->cuMemcpyDtoDAsync(dst, src, bytes, stream); // warm-up
  if (r == cuda::kSuccess)
    r = d->cuEventRecord(start, stream);
  for (int i = 0; i < repeat && r == cuda::kSuccess; ++i)
    r = d->cuMemcpyDtoDAsync(dst, src, bytes, stream);
  if (r == cuda::kSuccess)
    r = d->cuEventRecord(stop, stream);
  if (r == cuda::kSuccess)
    r = d->cuEventSynchronize(stop);
  float ms = 0;
  if (r == cuda::kSuccess)
    r = d->cuEventElapsedTime(&ms, start, stop);
  millis = ms / repeat;
  if (start)
    d->cuEventDestroy(start);
  if (stop)
    d->cuEventDestroy(stop);
  if (stream)
    d->cuStreamDestroy(stream);
  if (src)
    d->cuMemFree(src);
  if (dst)
    d->cuMemFree(dst);
  if (r != cuda::kSuccess) {
    error = d->describe("the device-to-device copy", r);
    return false;
  }
  return true;
}

} // namespace mxq
