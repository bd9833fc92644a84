//===- SIMTEmulator.h - mxq's GPU kernels run on the CPU --------*- C++ -*-===//
//
// The runtime of the SIMT emulator (target `nvvm-emu`). The NVVM pipeline
// with format=emulator (mxq-emulate-gpu-kernels instead of
// gpu-module-to-binary) compiles the same kernels for the host: their
// special registers, barriers, shuffles, shared memory and PTX converts
// become calls into this runtime, every load and store is preceded by a
// check, and each gpu.launch_func becomes a call of mxq_emu_launch.
//
// A launch runs its thread blocks one after the other; the threads of a
// block are fibers (ucontext) that switch only at barriers, at warp
// collectives and at exit, with CUDA's semantics: a barrier releases when
// every thread of the block has reached it, a shuffle when every lane of
// the warp has. What a GPU would hide or crash on stops the launch with a
// message naming the kernel, the block and the thread: an access outside
// every device buffer (or outside the block's shared memory), an access not
// aligned as its instruction promises, a barrier some thread never reaches
// (divergent barrier or deadlock), a shuffle reading a lane that does not
// take part, and two threads touching the same shared byte, one of them
// writing, with no barrier between (a race).
//
// With profiling on, every warp-wide memory instruction (the same
// instruction at the same dynamic count in the 32 lanes of a warp, split
// into the pieces of at most 16 bytes NVPTX emits) is measured as Nsight
// does: the 32-byte sectors it touches against the minimum for the bytes it
// uses, and for shared memory the bank wavefronts against the ideal.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_NVVM_SIMTEMULATOR_H
#define MXQ_TARGET_NVVM_SIMTEMULATOR_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mxq::simt {

/// What one memory instruction of a kernel did over a run.
struct SiteStats {
  std::string kernel;      ///< the kernel that executed it
  uint64_t requests = 0;   ///< warp-wide executions (per piece)
  uint64_t sectors = 0;    ///< 32-byte sectors touched (global)
  uint64_t minSectors = 0; ///< the minimum for the bytes used
  uint64_t bytes = 0;      ///< bytes accessed
  uint64_t wavefronts = 0; ///< shared-memory wavefronts
  uint64_t idealWavefronts = 0;
};

/// Totals of one kernel over a run.
struct KernelStats {
  uint64_t launches = 0, blocks = 0, threads = 0;
};

/// The state of the emulator for one compiled module: its memory-access
/// sites, its device buffers, the first error and the profile. Calls of the
/// compiled code run inside an `Activation` of a session.
class Session {
public:
  /// `sites` describes each checked access of the module (the pass's
  /// `mxq.emu.sites`); `store[i]` whether site i writes.
  Session(std::vector<std::string> sites, std::vector<bool> stores);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  /// A device buffer of `bytes` (256-byte aligned, like cuMemAlloc).
  void *allocate(size_t bytes);
  /// Frees a buffer `allocate` returned; false for any other pointer.
  bool release(void *p);
  /// The first error since the last call, or empty.
  std::string takeError();

  void setProfiling(bool on) { profiling = on; }
  /// The profile so far, as text (kernels, their sites, bytes moved), with
  /// `compulsoryRead`/`compulsoryWritten` the op's own input and result
  /// bytes.
  std::string report(uint64_t compulsoryRead, uint64_t compulsoryWritten) const;
  void clearProfile();
  uint64_t globalBytesRead() const;
  uint64_t globalBytesWritten() const;
  const std::map<std::pair<std::string, uint32_t>, SiteStats> &sites() const {
    return siteStats;
  }

  // Used by the runtime calls.
  struct Impl;
  std::unique_ptr<Impl> impl;
  std::vector<std::string> siteText;
  std::vector<bool> siteStore;
  bool profiling = false;
  std::map<std::pair<std::string, uint32_t>, SiteStats> siteStats;
  std::map<std::string, KernelStats> kernelStats;
};

/// Makes `session` the one the compiled code's runtime calls use on this
/// thread, for the lifetime of the activation.
class Activation {
public:
  explicit Activation(Session &session);
  ~Activation();

private:
  Session *previous;
};

/// Names and addresses of the runtime calls (mxq_emu_* and the mgpu* calls
/// the host code makes), for the JIT.
std::vector<std::pair<const char *, void *>> symbols();

} // namespace mxq::simt

#endif // MXQ_TARGET_NVVM_SIMTEMULATOR_H
