//===- GPURunner.h - mxq functions run on an NVIDIA GPU ---------*- C++ -*-===//
//
// Lowers a function through mxq-gpu-pipeline (kernels as PTX), JIT-compiles
// its host side with mxq's implementation of the mgpu* runtime calls, and
// runs it through the CUDA driver API (opened at run time: the runner builds
// everywhere and says so plainly where no driver or GPU is present).
//
// Calling convention of a compiled function: its arguments and results are
// device buffers, each aligned to at least 16 bytes (mxq-align-vector-
// accesses relies on it; cuMemAlloc gives 256).
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_NVVM_GPURUNNER_H
#define MXQ_TARGET_NVVM_GPURUNNER_H

#include "mxq/Target/Target.h"

namespace mxq {

class GPUExecutable : public Executable {
public:
  /// The chip of the first GPU ("sm_90a", ...), or "" and a sentence in
  /// `error` when there is no driver or no GPU.
  static std::string deviceChip(std::string &error);

  /// Lowers `module` in place for `chip` (empty: the device's) and PTX
  /// version `ptx` (0: the chip's minimum), keeping only `entry` and its
  /// callees, and JIT-compiles the host side.
  static std::unique_ptr<GPUExecutable>
  compile(mlir::ModuleOp module, const std::string &entry, std::string chip,
          int ptx, std::string &error);
  ~GPUExecutable() override;

  /// Copies the inputs to the device, runs the function, copies the results
  /// back and frees every device buffer.
  bool run(const std::vector<RawTensor> &inputs,
           std::vector<RawTensor> &results, std::string &error) override;

  /// time() below, as the target interface reports it.
  bool time(const std::vector<RawTensor> &inputs, int repeat, Timing &timing,
            std::string &error) override {
    return time(inputs, repeat, timing.deviceMillis, timing.wallMillis, error);
  }

  /// Runs the function `repeat` times on inputs copied to the device once
  /// (after one warm-up call) and reports the kernel time per call (summed
  /// over its launches, from CUDA events) and the wall time per call.
  bool time(const std::vector<RawTensor> &inputs, int repeat,
            double &kernelMillis, double &wallMillis, std::string &error);

  /// The milliseconds of one device-to-device copy of `bytes` bytes (the
  /// bandwidth baseline), averaged over `repeat` copies.
  static bool timeCopy(size_t bytes, int repeat, double &millis,
                       std::string &error);

  /// Compiles `entry` ahead of time into the shared library `path` (host
  /// code with the kernels' PTX inside; it needs nothing but the mgpu*
  /// runtime calls, which `mxq-gpu-launch` provides, so it runs on a
  /// machine without LLVM or MLIR) and writes its signature to
  /// `path + ".sig"`: one line per argument ("arg RANK TYPE") and per result
  /// ("result RANK TYPE"). Needs a C++ compiler (`c++`) to link.
  static bool emitSharedLibrary(mlir::ModuleOp module, const std::string &entry,
                                std::string chip, int ptx,
                                const std::string &path, std::string &error);

private:
  GPUExecutable() = default;
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace mxq

#endif // MXQ_TARGET_NVVM_GPURUNNER_H
