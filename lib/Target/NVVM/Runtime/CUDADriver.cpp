//===- CUDADriver.cpp - the CUDA driver API, loaded at run time -----------===//
#include "mxq/Target/NVVM/CUDADriver.h"

#include <dlfcn.h>
#include <mutex>

namespace mxq::cuda {

std::string Driver::describe(const char *call, CUresult result) const {
  const char *name = nullptr;
  if (!cuGetErrorName || cuGetErrorName(result, &name) != kSuccess || !name)
    name = "an unknown CUDA error";
  return std::string(call) + " failed: " + name + " (" +
         std::to_string(result) + ")";
}

namespace {

template <typename F>
bool resolve(void *lib, const char *name, F &fn, std::string &error) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn)
    error = std::string("libcuda.so.1 has no ") + name +
            " (a CUDA driver older than mxq needs?)";
  return fn != nullptr;
}

Driver *load(std::string &error) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    error = "no CUDA driver: cannot open libcuda.so.1 (this machine has no "
            "NVIDIA driver installed)";
    return nullptr;
  }
  auto *d = new Driver();
  bool ok = resolve(lib, "cuInit", d->cuInit, error) &&
            resolve(lib, "cuDeviceGetCount", d->cuDeviceGetCount, error) &&
            resolve(lib, "cuDeviceGet", d->cuDeviceGet, error) &&
            resolve(lib, "cuDeviceGetName", d->cuDeviceGetName, error) &&
            resolve(lib, "cuDeviceGetAttribute", d->cuDeviceGetAttribute,
                    error) &&
            resolve(lib, "cuDevicePrimaryCtxRetain",
                    d->cuDevicePrimaryCtxRetain, error) &&
            resolve(lib, "cuCtxSetCurrent", d->cuCtxSetCurrent, error) &&
            resolve(lib, "cuCtxSynchronize", d->cuCtxSynchronize, error) &&
            resolve(lib, "cuModuleLoadDataEx", d->cuModuleLoadDataEx, error) &&
            resolve(lib, "cuModuleUnload", d->cuModuleUnload, error) &&
            resolve(lib, "cuModuleGetFunction", d->cuModuleGetFunction,
                    error) &&
            resolve(lib, "cuLaunchKernel", d->cuLaunchKernel, error) &&
            resolve(lib, "cuStreamCreate", d->cuStreamCreate, error) &&
            resolve(lib, "cuStreamSynchronize", d->cuStreamSynchronize,
                    error) &&
            resolve(lib, "cuStreamDestroy_v2", d->cuStreamDestroy, error) &&
            resolve(lib, "cuMemAlloc_v2", d->cuMemAlloc, error) &&
            resolve(lib, "cuMemFree_v2", d->cuMemFree, error) &&
            resolve(lib, "cuMemAllocAsync", d->cuMemAllocAsync, error) &&
            resolve(lib, "cuMemFreeAsync", d->cuMemFreeAsync, error) &&
            resolve(lib, "cuMemcpyHtoD_v2", d->cuMemcpyHtoD, error) &&
            resolve(lib, "cuMemcpyDtoH_v2", d->cuMemcpyDtoH, error) &&
            resolve(lib, "cuMemcpyDtoDAsync_v2", d->cuMemcpyDtoDAsync,
                    error) &&
            resolve(lib, "cuMemsetD8_v2", d->cuMemsetD8, error) &&
            resolve(lib, "cuEventCreate", d->cuEventCreate, error) &&
            resolve(lib, "cuEventRecord", d->cuEventRecord, error) &&
            resolve(lib, "cuEventSynchronize", d->cuEventSynchronize, error) &&
            resolve(lib, "cuEventElapsedTime", d->cuEventElapsedTime, error) &&
            resolve(lib, "cuEventDestroy_v2", d->cuEventDestroy, error) &&
            resolve(lib, "cuGetErrorName", d->cuGetErrorName, error);
  if (!ok) {
    delete d;
    return nullptr;
  }
  CUresult r = d->cuInit(0);
  if (r != kSuccess) {
    error = d->describe("cuInit", r) + " (is an NVIDIA GPU present?)";
    delete d;
    return nullptr;
  }
  int count = 0;
  r = d->cuDeviceGetCount(&count);
  if (r != kSuccess || count == 0) {
    error = "the CUDA driver sees no GPU";
    delete d;
    return nullptr;
  }
  int major = 0, minor = 0;
  char name[256] = {0};
  if ((r = d->cuDeviceGet(&d->device, 0)) != kSuccess ||
      (r = d->cuDeviceGetAttribute(&major, kComputeCapabilityMajor,
                                   d->device)) != kSuccess ||
      (r = d->cuDeviceGetAttribute(&minor, kComputeCapabilityMinor,
                                   d->device)) != kSuccess ||
      (r = d->cuDeviceGetName(name, sizeof(name) - 1, d->device)) !=
          kSuccess ||
      (r = d->cuDevicePrimaryCtxRetain(&d->context, d->device)) != kSuccess) {
    error = d->describe("opening device 0", r);
    delete d;
    return nullptr;
  }
  d->deviceName = name;
  d->chip = "sm_" + std::to_string(major * 10 + minor);
  if (major >= 9)
    d->chip += "a"; // the arch-specific target: every feature of the chip
  return d;
}

} // namespace

Driver *driver(std::string &error) {
  static std::once_flag once;
  static Driver *loaded = nullptr;
  // Never destroyed: a compiled library's destructor (its module unload)
  // may ask for the driver after this file's static objects are gone, at
  // exit. AddressSanitizer found the use after free of a static string.
  static std::string *loadError = new std::string();
  std::call_once(once, [] { loaded = load(*loadError); });
  if (!loaded) {
    error = *loadError;
    return nullptr;
  }
  CUresult r = loaded->cuCtxSetCurrent(loaded->context);
  if (r != kSuccess) {
    error = loaded->describe("cuCtxSetCurrent", r);
    return nullptr;
  }
  return loaded;
}

} // namespace mxq::cuda
