//===- GPURuntime.h - mxq's implementation of the mgpu* calls ---*- C++ -*-===//
//
// gpu-to-llvm lowers kernel launches and device allocations to calls of
// mgpuModuleLoadJIT, mgpuLaunchKernel, mgpuMemAlloc, ... Upstream implements
// them in libmlir_cuda_runtime, which Debian does not ship; mxq implements
// them on its dlopen'ed driver (CUDADriver.h) and hands them to the JIT.
// Errors cannot travel through those C signatures: the first one is kept
// and the runner asks for it after each call.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_RUNTIME_GPURUNTIME_H
#define MXQ_RUNTIME_GPURUNTIME_H

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace mxq::gpuruntime {

/// The mgpu* symbols and their addresses.
std::vector<std::pair<const char *, void *>> symbols();

/// The first error since the last call, and clears it ("" if none).
std::string takeError();

/// With timing on, each launch is bracketed by events and the kernel time
/// is summed at the next stream synchronisation.
void setTiming(bool on);
/// Milliseconds of kernel time summed since the last call; clears the sum.
double takeKernelMillis();

/// The milliseconds of one device-to-device copy of `bytes` bytes, averaged
/// over `repeat` copies timed by events after a warm-up copy: the bandwidth
/// baseline of every GPU benchmark (mxq-gpu-bench, mxq-gpu-launch).
bool timeDeviceCopy(size_t bytes, int repeat, double &millis,
                    std::string &error);

} // namespace mxq::gpuruntime

#endif // MXQ_RUNTIME_GPURUNTIME_H
