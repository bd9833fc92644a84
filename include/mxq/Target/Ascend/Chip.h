//===- Chip.h - the chip description of the Ascend-like target --*- C++ -*-===//
//
// One struct holds every number the vtile verifiers, the lowering and the
// simulator's cost model read, so that no pass tests a chip by name. The
// defaults and their sources are ../shared/docs/ascend-model.md §10.7 and
// docs/Rationale.md ("The Ascend-like target").
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_ASCEND_CHIP_H
#define MXQ_TARGET_ASCEND_CHIP_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mxq::vtile {

/// Cycles from a vector instruction's issue until a dependent instruction
/// may start: PyPTO's inherent latencies (ascend-model.md §6, §10.5) where
/// published, the rest assumed (A).
struct VectorLatencies {
  double alu = 6;     ///< add, sub, max, min, logic, shifts, compare, select
  double mul = 7;     ///< mul, muls
  double div = 13;
  double cast = 10;
  double reduce = 8;  ///< a group (block) reduce
  double gather = 32; ///< §10.5: 32 cycles (3rd-party measurement)
};

struct Chip {
  std::string name = "950pr";
  int64_t cores = 56;             ///< AIV cores
  double freqHz = 1.65e9;         ///< core clock
  int64_t ubBytes = 253952;       ///< usable UB per core
  int64_t ubReserved = 2048;      ///< UB the kernel leaves alone
  double gmBytesPerSec = 1.48e12; ///< aggregate GM bandwidth
  double dmaReadCap = 16;         ///< GM->UB bytes/cycle of one core
  double dmaWriteCap = 40;        ///< UB->GM bytes/cycle of one core
  double dmaIssue = 64;           ///< cycles to start a DMA
  double dmaBurst = 4;            ///< cycles per burst
  double dmaReadLatency = 500;    ///< cycles from a read's end to its data
  double dmaWriteLatency = 300;   ///< the same for a write
  double vecCyclesPerRepeat = 1;  ///< cycles per 256-byte repeat
  bool mxCasts = true;            ///< fp8/fp4 conversion instructions
  int64_t maxRepeat = 255;
  int64_t maxBurstCount = 4095;
  int64_t maxBurstLen = 2097151;
  /// The simulator stops a kernel that executes more instructions than this
  /// (all cores together) with a diagnostic: a loop that does not end is an
  /// error, never a hang. The largest benchmark kernel takes a few million.
  int64_t maxInstructions = 1000000000;
  VectorLatencies latency;

  /// GM bandwidth in bytes per core cycle.
  double gmBytesPerCycle() const { return gmBytesPerSec / freqHz; }
};

/// The largest core count and UB a chip description may ask for.
inline constexpr int64_t kMaxCores = 4096;
inline constexpr int64_t kMaxUBBytes = int64_t(64) << 20;

/// Parses "name[,key=value...]" (name: a2, 950pr, 950dt; keys: cores,
/// freq-mhz, ub-bytes, gm-gbps, dma-read, dma-write, dma-issue, dma-burst,
/// dma-read-latency, dma-write-latency, vec-cpr, mx-casts,
/// max-instructions), each a finite number in the field's range; false and
/// a sentence naming the bad part in `error`.
bool parseChip(llvm::StringRef spec, Chip &chip, std::string &error);

/// The names parseChip takes, for messages.
const char *chipNames();

/// The module attribute naming the chip a vtile module is for.
inline constexpr llvm::StringLiteral kChipAttr = "vtile.chip";
/// The function attributes of a kernel: unit marker and its core count.
inline constexpr llvm::StringLiteral kKernelAttr = "vtile.kernel";
inline constexpr llvm::StringLiteral kCoresAttr = "vtile.cores";

/// The chip of the module around `op` (its vtile.chip, else the default
/// 950pr); false and a sentence if the attribute does not parse.
bool chipOf(mlir::Operation *op, Chip &chip, std::string &error);

} // namespace mxq::vtile

#endif // MXQ_TARGET_ASCEND_CHIP_H
