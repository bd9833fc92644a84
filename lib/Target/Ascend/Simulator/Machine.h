//===- Machine.h - the simulator's state and its handlers -------*- C++ -*-===//
//
// Private to lib/Target/Ascend/Simulator: a core (UB, granules, flags, the
// GM channel), the operands of vector instructions, and the Simulator
// class whose handlers the files of this folder define, by concern:
// Control.cpp (the scalar unit: control flow and integers), Hazards.cpp
// (UB bounds, vector-clock hazards, scheduling), DMA.cpp, Flags.cpp
// (set_flag, wait_flag, pipe_barrier), VectorUnit.cpp (what vector
// instructions share, and their dispatch), ElementwiseOps.cpp and
// LayoutOps.cpp (one handler per vector op, over Lanes.h); Simulator.cpp
// runs a kernel and writes its report and trace.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_LIB_TARGET_ASCEND_SIMULATOR_MACHINE_H
#define MXQ_LIB_TARGET_ASCEND_SIMULATOR_MACHINE_H

#include "mxq/Target/Ascend/Simulator.h"
#include "mxq/Target/Ascend/Lanes.h"
#include "mxq/Target/Ascend/VTile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>

#include <functional>
#include <string>
#include <vector>

namespace mxq::vtile::sim {

using namespace mlir;

/// The pipes' names, by pipe index (kS, kV, kMTE2, kMTE3).
inline const char *const kPipeNames[4] = {"s", "v", "mte2", "mte3"};


enum : int { kS = 0, kV = 1, kMTE2 = 2, kMTE3 = 3 };

int pipeIndex(Pipe p);

using lanes::LaneType;
using LT = LaneType;
using lanes::bitsOfFloat;
using lanes::bitsOfInt;
using lanes::floatOf;
using lanes::intOf;
using lanes::isFloat;
using lanes::isSigned;
using lanes::laneTypeOf;
using lanes::widthOf;

struct Granule {
  uint8_t writer = 255;
  uint32_t writeSeq = 0;
  double writeDone = 0;
  Operation *writeOp = nullptr;
  uint32_t readSeq[4] = {0, 0, 0, 0};
  Operation *readOp[4] = {nullptr, nullptr, nullptr, nullptr};
};

struct Flag {
  bool set = false;
  uint32_t clock[4] = {0, 0, 0, 0};
  double time = 0;
};

struct Core {
  int64_t id = 0;
  /// CTRL[50] (set_ctrl): a saturating FP8 cast keeps NaN as NaN.
  bool ctrlFP8SatNaN = false;
  std::vector<uint8_t> ub;
  std::vector<Granule> granules;
  uint32_t count[4] = {0, 0, 0, 0};
  uint32_t clock[4][4] = {};
  double freeAt[4] = {0, 0, 0, 0}, lastDone[4] = {0, 0, 0, 0};
  double busy[4] = {0, 0, 0, 0};
  double issue = 0;
  /// Busy stretches [start, end) of the core's GM channel, sorted, disjoint.
  std::vector<std::pair<double, double>> channel;
  Flag flags[4][4][8];

  /// Takes `amount` cycles of channel time from the free stretches after
  /// `from`; returns when the last of it ends.
  double takeChannel(double from, double amount) {
    std::vector<std::pair<double, double>> taken;
    double t = from, left = amount;
    auto it = std::lower_bound(channel.begin(), channel.end(), from,
                               [](const std::pair<double, double> &s,
                                  double v) { return s.second <= v; });
    for (; it != channel.end() && left > 0; ++it) {
      if (t < it->first) {
        double piece = std::min(it->first - t, left);
        taken.push_back({t, t + piece});
        left -= piece;
      }
      t = std::max(t, it->second);
    }
    if (left > 0)
      taken.push_back({t, t + left});
    double end = taken.empty() ? from : taken.back().second;
    // Merge the pieces in, joining touching stretches.
    for (auto &piece : taken)
      channel.insert(std::upper_bound(channel.begin(), channel.end(), piece),
                     piece);
    std::vector<std::pair<double, double>> merged;
    for (auto &s : channel) {
      if (!merged.empty() && s.first <= merged.back().second + 1e-9)
        merged.back().second = std::max(merged.back().second, s.second);
      else
        merged.push_back(s);
    }
    channel.swap(merged);
    return end;
  }
};

struct TraceEvent {
  Operation *op;
  int64_t core;
  int pipe;
  double start, duration;
};

/// One UB operand of a vector instruction.
struct Operand {
  int64_t base = 0;
  LT type = LT::U8;
  int64_t blockStride = 1, repeatStride = 8;
  int64_t lanes = 0; ///< lanes per repeat of the instruction
  unsigned bits() const { return widthOf(type); }
  int64_t lanesPerBlock() const { return 256 / bits(); }
  /// The UB byte of lane `l` of repeat `r` (l >= 0). Lanes per 32-byte
  /// block are a power of two (8 to 64): shifts, not divisions, since the
  /// simulator asks this for every lane it reads or writes.
  int64_t byteOf(int64_t r, int64_t l) const {
    unsigned b = bits();
    unsigned shift = b == 32 ? 3 : b == 16 ? 4 : b == 8 ? 5 : 6;
    return base + 32 * (r * repeatStride + (l >> shift) * blockStride) +
           (((l & ((int64_t(1) << shift) - 1)) * b) >> 3);
  }
};

std::string shortLocation(Location loc);

std::string describe(Operation *op);

class Simulator {
public:
  Simulator(const Chip &chip, const std::vector<GlobalBuffer> &gm,
            SimReport &report, std::string &error, bool trace)
      : chip(chip), gm(gm), report(report), error(error), tracing(trace) {}

  bool runCore(func::FuncOp kernel, int64_t id, int64_t cores);

  std::vector<TraceEvent> events;

private:
  const Chip &chip;
  const std::vector<GlobalBuffer> &gm;
  SimReport &report;
  std::string &error;
  bool tracing;
  Core *core = nullptr;
  int64_t numCores = 1;
  llvm::DenseMap<Value, int64_t> ints;
  llvm::DenseMap<Value, int> memrefs;

  bool fail(Operation *op, const llvm::Twine &message) {
    error =
        ("core " + llvm::Twine(core->id) + ": " + describe(op) + " " + message)
            .str();
    return false;
  }

  int64_t get(Value v) { return ints.lookup(v); }

  bool runBlock(Block &block);

  //===--------------------------------------------------------------------===//
  // Control flow and integers
  //===--------------------------------------------------------------------===//

  static int64_t wrap(int64_t v, Type t) {
    auto i = dyn_cast<IntegerType>(t);
    if (!i || i.getWidth() >= 64)
      return v;
    unsigned w = i.getWidth();
    uint64_t m = (uint64_t(1) << w) - 1, u = uint64_t(v) & m;
    if (w > 1 && (u >> (w - 1)) & 1)
      return int64_t(u | ~m);
    return int64_t(u);
  }

  static uint64_t unsignedOf(int64_t v, Type t) {
    auto i = dyn_cast<IntegerType>(t);
    if (!i || i.getWidth() >= 64)
      return uint64_t(v);
    return uint64_t(v) & ((uint64_t(1) << i.getWidth()) - 1);
  }

  bool exec(Operation *op);

  bool binaryInt(Operation *op);

  bool compareInt(arith::CmpIOp cmp);

  //===--------------------------------------------------------------------===//
  // UB bookkeeping: bounds, hazards, time
  //===--------------------------------------------------------------------===//

  struct Access {
    int64_t granule;
    bool write;
  };

  /// Adds the granules of UB bytes [begin, end) to `out`; false if outside.
  bool touch(Operation *op, int64_t begin, int64_t end, bool write,
             std::vector<Access> &out);

  bool aligned(Operation *op, int64_t address, const char *what);

  /// Checks `accesses` of an instruction on `pipe` against the earlier
  /// ones; returns the earliest start its same-pipe producers allow.
  bool checkHazards(Operation *op, int pipe,
                    const std::vector<Access> &accesses, double &ready);

  void record(Operation *op, int pipe, const std::vector<Access> &accesses,
              double done);

  /// Schedules an instruction on `pipe` that occupies it `occupancy` cycles
  /// and completes `latency` cycles later; returns its completion.
  double schedule(Operation *op, int pipe, double ready, double occupancy,
                  double latency);

  //===--------------------------------------------------------------------===//
  // DMA
  //===--------------------------------------------------------------------===//

  bool globalRange(Operation *op, Value memref, int64_t offset, int64_t bytes,
                   uint8_t *&data);

  /// Schedules a DMA of `bytes` in `bursts` on `pipe`: the queue is busy
  /// for the issue and burst overheads, then for the transfer, which runs
  /// at the direction's per-core cap and takes `bytes / share` of the core's
  /// GM channel time (its fair share of GM bandwidth; reads and writes of
  /// one core share it). Channel time is taken from the earliest free
  /// stretches after the transfer may start, so a read of the next tile can
  /// use the time a write leaves free, whatever their program order.
  /// Returns the completion.
  double scheduleDMA(Operation *op, int pipe, double ready, int64_t bursts,
                     int64_t bytes, bool read);

  static int64_t elementBytes(Value memref);

  bool checkBursts(Operation *op, int64_t count, int64_t len);

  bool copyIn(CopyGmToUbOp op);

  bool copyOut(CopyUbToGmOp op);

  //===--------------------------------------------------------------------===//
  // Flags
  //===--------------------------------------------------------------------===//

  bool flagOf(Operation *op, Pipe src, Pipe dst, Value idValue, Flag *&flag);

  bool setFlag(SetFlagOp op);

  bool waitFlag(WaitFlagOp op);

  bool barrier(PipeBarrierOp op);

  //===--------------------------------------------------------------------===//
  // Vector instructions
  //===--------------------------------------------------------------------===//

  uint32_t load(const Operand &o, int64_t r, int64_t l);

  void store(const Operand &o, int64_t r, int64_t l, uint32_t v);

  /// Granules of the lanes [0, active) of `repeats` repeats of `o`.
  bool touchOperand(Operation *op, const Operand &o, int64_t repeats,
                    int64_t active, bool write, std::vector<Access> &out);

  /// The latency of a vector instruction before a dependent one may start
  /// (Chip's table).
  double latencyOf(Operation *op) const;

  static double scalarValue(Attribute a) {
    if (auto f = dyn_cast<FloatAttr>(a))
      return f.getValueAsDouble();
    return double(cast<IntegerAttr>(a).getValue().getSExtValue());
  }
  static int64_t scalarInt(Attribute a) {
    if (auto i = dyn_cast<IntegerAttr>(a))
      return i.getValue().getSExtValue();
    return int64_t(cast<FloatAttr>(a).getValueAsDouble());
  }

  template <typename OpT>
  void strides(OpT op, SmallVectorImpl<Operand> &operands) {
    if (auto b = op.getBlockStrides())
      for (auto [o, s] : llvm::zip(operands, *b))
        o.blockStride = s;
    if (auto r = op.getRepeatStrides())
      for (auto [o, s] : llvm::zip(operands, *r))
        o.repeatStride = s;
  }

  Operand operand(Value address, Type type, int64_t lanes);

  /// The lanes of one repeat of the widest of `types` (256 bytes).
  static int64_t lanesOf(std::initializer_list<Type> types);
  /// Whether `r` is a repeat count the chip takes; a failure if not.
  bool checkRepeat(Operation *op, int64_t r);

  /// What issuing a vector instruction found: the UB granules it touches,
  /// the V pipe's cycles it occupies, and its effect (run once its hazards
  /// are checked).
  struct Issue {
    std::vector<Access> accesses;
    double occupancy = 0;
    std::function<void()> compute;
  };
  /// One handler per vector op: checks its operands and fills `is`
  /// (ElementwiseOps.cpp, LayoutOps.cpp).
  bool issue(VBinaryOp v, Issue &is);
  bool issue(VScalarOp v, Issue &is);
  bool issue(VUnaryOp v, Issue &is);
  bool issue(VDupOp v, Issue &is);
  bool issue(VCmpsOp v, Issue &is);
  bool issue(VCmpOp v, Issue &is);
  bool issue(VSelOp v, Issue &is);
  bool issue(VCastOp v, Issue &is);
  bool issue(VReduceGroupOp v, Issue &is);
  bool issue(VBroadcastGroupOp v, Issue &is);
  bool issue(VIndexOp v, Issue &is);
  bool issue(VTransposeOp v, Issue &is);
  bool issue(VGatherOp v, Issue &is);

  /// Issues, checks, runs and schedules one vector instruction.
  bool vector(Operation *op);
};

} // namespace mxq::vtile::sim

#endif // MXQ_LIB_TARGET_ASCEND_SIMULATOR_MACHINE_H
