//===- GPURuntime.cpp - mxq's implementation of the mgpu* calls -----------===//
#include "mxq/Target/NVVM/GPURuntime.h"

#include "mxq/Target/NVVM/CUDADriver.h"

#include <cstdint>
#include <mutex>

using namespace mxq::cuda;

namespace mxq::gpuruntime {
namespace {

std::mutex mutex;
std::string firstError;
bool timing = false;
double kernelMillis = 0;
/// Streams handed back by mgpuStreamDestroy, reused by mgpuStreamCreate
/// (creating a stream per call would cost more than a small kernel).
std::vector<CUstream> streamPool;
/// Events bracketing the launches not yet summed, per stream.
std::vector<std::pair<CUstream, std::pair<CUevent, CUevent>>> pending;

void fail(const std::string &message) {
  std::lock_guard<std::mutex> lock(mutex);
  if (firstError.empty())
    firstError = message;
}

Driver *get() {
  std::string error;
  Driver *d = driver(error);
  if (!d)
    fail(error);
  return d;
}

bool check(Driver *d, const char *call, CUresult r) {
  if (r == kSuccess)
    return true;
  fail(d->describe(call, r));
  return false;
}

void sumEvents(Driver *d, CUstream stream) {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto it = pending.begin(); it != pending.end();) {
    if (it->first != stream) {
      ++it;
      continue;
    }
    float ms = 0;
    if (d->cuEventSynchronize(it->second.second) == kSuccess &&
        d->cuEventElapsedTime(&ms, it->second.first, it->second.second) ==
            kSuccess)
      kernelMillis += ms;
    d->cuEventDestroy(it->second.first);
    d->cuEventDestroy(it->second.second);
    it = pending.erase(it);
  }
}

CUmodule loadModule(const void *data) {
  Driver *d = get();
  if (!d)
    return nullptr;
  char log[8192] = {0};
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize};
  void *values[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof(log) - 1))};
  CUmodule module = nullptr;
  CUresult r = d->cuModuleLoadDataEx(&module, data, 2, options, values);
  if (r != kSuccess) {
    fail(d->describe("cuModuleLoadDataEx", r) +
         (log[0] ? std::string(": ") + log : std::string()));
    return nullptr;
  }
  return module;
}

} // namespace

std::string takeError() {
  std::lock_guard<std::mutex> lock(mutex);
  std::string e = std::move(firstError);
  firstError.clear();
  return e;
}

void setTiming(bool on) { timing = on; }

double takeKernelMillis() {
  std::lock_guard<std::mutex> lock(mutex);
  double ms = kernelMillis;
  kernelMillis = 0;
  return ms;
}

} // namespace mxq::gpuruntime

using namespace mxq::gpuruntime;

extern "C" {

void *mgpuModuleLoadJIT(void *data, int) { return loadModule(data); }

void *mgpuModuleLoad(void *data, size_t) { return loadModule(data); }

void mgpuModuleUnload(void *module) {
  std::string error;
  if (Driver *d = driver(error); d && module)
    d->cuModuleUnload(static_cast<CUmodule>(module));
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  Driver *d = get();
  if (!d || !module)
    return nullptr;
  CUfunction f = nullptr;
  if (!check(d, "cuModuleGetFunction",
             d->cuModuleGetFunction(&f, static_cast<CUmodule>(module), name)))
    return nullptr;
  return f;
}

void mgpuLaunchKernel(void *function, intptr_t gx, intptr_t gy,
                            intptr_t gz, intptr_t bx, intptr_t by, intptr_t bz,
                            int32_t smem, void *stream, void **params,
                            void **extra, size_t) {
  Driver *d = get();
  if (!d || !function)
    return; // the load or lookup failure is already recorded
  if (gx == 0 || gy == 0 || gz == 0)
    return; // an empty grid: nothing to run (the driver would refuse it)
  auto s = static_cast<CUstream>(stream);
  CUevent start = nullptr, stop = nullptr;
  if (timing) {
    d->cuEventCreate(&start, 0);
    d->cuEventCreate(&stop, 0);
    d->cuEventRecord(start, s);
  }
  check(d, "cuLaunchKernel",
        d->cuLaunchKernel(static_cast<CUfunction>(function), gx, gy, gz, bx,
                          by, bz, smem, s, params, extra));
  if (timing) {
    d->cuEventRecord(stop, s);
    std::lock_guard<std::mutex> lock(mxq::gpuruntime::mutex);
    pending.push_back({s, {start, stop}});
  }
}

void *mgpuStreamCreate() {
  Driver *d = get();
  if (!d)
    return nullptr;
  {
    std::lock_guard<std::mutex> lock(mxq::gpuruntime::mutex);
    if (!streamPool.empty()) {
      CUstream s = streamPool.back();
      streamPool.pop_back();
      return s;
    }
  }
  CUstream s = nullptr;
  check(d, "cuStreamCreate", d->cuStreamCreate(&s, /*non-blocking*/ 1));
  return s;
}

void mgpuStreamDestroy(void *stream) {
  std::lock_guard<std::mutex> lock(mxq::gpuruntime::mutex);
  if (stream)
    streamPool.push_back(static_cast<CUstream>(stream));
}

void mgpuStreamSynchronize(void *stream) {
  Driver *d = get();
  if (!d)
    return;
  check(d, "cuStreamSynchronize",
        d->cuStreamSynchronize(static_cast<CUstream>(stream)));
  sumEvents(d, static_cast<CUstream>(stream));
}

void *mgpuMemAlloc(uint64_t size, void *stream, bool hostShared) {
  Driver *d = get();
  if (!d || size == 0)
    return nullptr;
  if (hostShared) {
    fail("host-shared allocations are not supported by mxq's GPU runtime");
    return nullptr;
  }
  CUdeviceptr p = 0;
  if (!check(d, "cuMemAllocAsync",
             d->cuMemAllocAsync(&p, size, static_cast<CUstream>(stream))))
    return nullptr;
  return reinterpret_cast<void *>(p);
}

void mgpuMemFree(void *ptr, void *stream) {
  Driver *d = get();
  if (!d || !ptr)
    return;
  check(d, "cuMemFreeAsync",
        d->cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr),
                          static_cast<CUstream>(stream)));
}

void mgpuMemcpy(void *dst, void *src, size_t size, void *stream) {
  Driver *d = get();
  if (!d || size == 0)
    return;
  check(d, "cuMemcpyDtoDAsync",
        d->cuMemcpyDtoDAsync(reinterpret_cast<CUdeviceptr>(dst),
                             reinterpret_cast<CUdeviceptr>(src), size,
                             static_cast<CUstream>(stream)));
}

} // extern "C"

namespace mxq::gpuruntime {

std::vector<std::pair<const char *, void *>> symbols() {
  return {
      {"mgpuModuleLoadJIT", reinterpret_cast<void *>(&mgpuModuleLoadJIT)},
      {"mgpuModuleLoad", reinterpret_cast<void *>(&mgpuModuleLoad)},
      {"mgpuModuleUnload", reinterpret_cast<void *>(&mgpuModuleUnload)},
      {"mgpuModuleGetFunction",
       reinterpret_cast<void *>(&mgpuModuleGetFunction)},
      {"mgpuLaunchKernel", reinterpret_cast<void *>(&mgpuLaunchKernel)},
      {"mgpuStreamCreate", reinterpret_cast<void *>(&mgpuStreamCreate)},
      {"mgpuStreamDestroy", reinterpret_cast<void *>(&mgpuStreamDestroy)},
      {"mgpuStreamSynchronize",
       reinterpret_cast<void *>(&mgpuStreamSynchronize)},
      {"mgpuMemAlloc", reinterpret_cast<void *>(&mgpuMemAlloc)},
      {"mgpuMemFree", reinterpret_cast<void *>(&mgpuMemFree)},
      {"mgpuMemcpy", reinterpret_cast<void *>(&mgpuMemcpy)},
  };
}

bool timeDeviceCopy(size_t bytes, int repeat, double &millis,
                    std::string &error) {
  Driver *d = driver(error);
  if (!d)
    return false;
  CUdeviceptr src = 0, dst = 0;
  CUstream stream = nullptr;
  CUevent start = nullptr, stop = nullptr;
  CUresult r = d->cuMemAlloc(&src, bytes);
  if (r == kSuccess)
    r = d->cuMemAlloc(&dst, bytes);
  if (r == kSuccess)
    r = d->cuMemsetD8(src, 0x3C, bytes);
  if (r == kSuccess)
    r = d->cuStreamCreate(&stream, 1);
  if (r == kSuccess)
    r = d->cuEventCreate(&start, 0);
  if (r == kSuccess)
    r = d->cuEventCreate(&stop, 0);
  if (r == kSuccess)
    r = d->cuMemcpyDtoDAsync(dst, src, bytes, stream); // warm-up
  if (r == kSuccess)
    r = d->cuEventRecord(start, stream);
  for (int i = 0; i < repeat && r == kSuccess; ++i)
    r = d->cuMemcpyDtoDAsync(dst, src, bytes, stream);
  if (r == kSuccess)
    r = d->cuEventRecord(stop, stream);
  if (r == kSuccess)
    r = d->cuEventSynchronize(stop);
  float ms = 0;
  if (r == kSuccess)
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
  if (r != kSuccess) {
    error = d->describe("the device-to-device copy", r);
    return false;
  }
  return true;
}

} // namespace mxq::gpuruntime
