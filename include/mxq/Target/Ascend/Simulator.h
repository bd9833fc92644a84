//===- Simulator.h - executes vtile kernels on the host ---------*- C++ -*-===//
//
// Runs a vtile kernel once per core of its launch, as the chip would: every
// instruction's bytes through the functional model (the casts through the
// C++ reference's numerics), every UB access checked against the hazards a
// real core turns into silent corruption, and every instruction timed on
// its pipe by the cost model of mxq/Target/Ascend/Chip.h.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_ASCEND_SIMULATOR_H
#define MXQ_TARGET_ASCEND_SIMULATOR_H

#include "mxq/Target/Ascend/Chip.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mxq::vtile {

/// One GM buffer a kernel argument names (caller-owned bytes).
struct GlobalBuffer {
  uint8_t *data = nullptr;
  int64_t bytes = 0;
};

/// What a run measured.
struct SimReport {
  int64_t cores = 0;                 ///< cores of the launch
  double cycles = 0;                 ///< the slowest core's last completion
  double busy[4] = {0, 0, 0, 0};     ///< per pipe (s, v, mte2, mte3), summed
  int64_t gmRead = 0, gmWritten = 0; ///< bytes
  int64_t instructions = 0;
  /// A summary: total cycles, time at the chip's clock, each pipe's busy
  /// fraction, GM bandwidth against the chip's.
  std::string summary(const Chip &chip) const;
};

/// Runs `kernel` (a func.func marked vtile.kernel) on `args` (one buffer per
/// argument). With a non-empty `tracePath`, writes a Chrome/Perfetto trace
/// (one track per pipe per core). False and a sentence naming the
/// instruction and the core in `error` on a hazard, a deadlock, memory out
/// of bounds or an instruction the simulator does not execute.
bool simulate(mlir::func::FuncOp kernel, const Chip &chip,
              const std::vector<GlobalBuffer> &args, SimReport &report,
              std::string &error, const std::string &tracePath = "");

} // namespace mxq::vtile

#endif // MXQ_TARGET_ASCEND_SIMULATOR_H
