//===- EmulatorRunner.h - GPU kernels on the SIMT emulator ------*- C++ -*-===//
//
// The executable kind of target `nvvm-emu`: the NVVM pipeline for a chip
// with format=emulator (mxq-emulate-gpu-kernels in place of the binary),
// JIT-compiled for the host with the emulator's runtime
// (SIMTEmulator.h). Inputs are copied into emulated device buffers (256-byte
// aligned, as cuMemAlloc gives), so the kernels' 16-byte alignment
// versioning takes the same branch it takes on a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_NVVM_EMULATORRUNNER_H
#define MXQ_TARGET_NVVM_EMULATORRUNNER_H

#include "mxq/Target/Target.h"

#include <cstdint>
#include <memory>

namespace mxq {

/// The totals of a profiled run (what --profile prints, summed).
struct EmulatorProfile {
  uint64_t loadSectors = 0, loadMinSectors = 0;   ///< global loads
  uint64_t storeSectors = 0, storeMinSectors = 0; ///< global stores
  uint64_t sharedRequests = 0, bankConflicts = 0; ///< shared memory
  uint64_t bytesRead = 0, bytesWritten = 0;       ///< global, all kernels
  uint64_t inputBytes = 0, resultBytes = 0;       ///< the op's own
  /// Minimum over actual sectors (1 when there were none).
  double loadEfficiency() const {
    return loadSectors ? double(loadMinSectors) / double(loadSectors) : 1.0;
  }
  double storeEfficiency() const {
    return storeSectors ? double(storeMinSectors) / double(storeSectors)
                        : 1.0;
  }
};

class EmulatorExecutable : public Executable {
public:
  /// Lowers `module` in place for `chip` and PTX version `ptx` (0: the
  /// chip's minimum) and JIT-compiles it with the emulator's runtime. With
  /// `profile`, each run measures its memory accesses (report()).
  static std::unique_ptr<EmulatorExecutable>
  compile(mlir::ModuleOp module, const std::string &entry,
          const std::string &chip, int ptx, bool profile, std::string &error);
  ~EmulatorExecutable() override;

  bool run(const std::vector<RawTensor> &inputs,
           std::vector<RawTensor> &results, std::string &error) override;
  /// Wall time per call (the emulator has no device time).
  bool time(const std::vector<RawTensor> &inputs, int repeat, Timing &timing,
            std::string &error) override;
  /// The profile of the last run (SIMTEmulator.h), when compiled with one.
  std::string report() const override;
  /// The totals of the last run's profile.
  const EmulatorProfile &profile() const;

  struct Impl;

private:
  EmulatorExecutable() = default;
  std::unique_ptr<Impl> impl;
};

} // namespace mxq

#endif // MXQ_TARGET_NVVM_EMULATORRUNNER_H
