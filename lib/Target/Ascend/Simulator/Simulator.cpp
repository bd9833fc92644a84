//===- Simulator.cpp - executes vtile kernels on the host -----------------===//
//
// An interpreter of the kernel's control flow (scf, arith on integers)
// around a functional and timing model of every vtile instruction. Each core
// runs the kernel in turn on its own UB; GM is shared.
//
// Hazards are found with vector clocks, not with the timing model: pipe p's
// clock holds, for every other pipe q, the last instruction of q that p is
// known to follow through flags (set_flag snapshots the source pipe's clock,
// wait_flag joins it into the destination's). An access to UB bytes that an
// unordered instruction of another pipe wrote (or, for a write, read) is an
// error whatever the timing, since the hardware gives no order then.
// Instructions of one pipe are in order (docs/Rationale.md says why).
//
//===----------------------------------------------------------------------===//
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

using namespace mlir;

namespace mxq::vtile {

static const char *const kPipeNames[4] = {"s", "v", "mte2", "mte3"};

std::string SimReport::summary(const Chip &chip) const {
  std::string out;
  llvm::raw_string_ostream os(out);
  double seconds = cycles / chip.freqHz;
  os << "ascend simulator: chip " << chip.name << ", " << cores
     << (cores == 1 ? " core" : " cores") << ", " << instructions
     << " instructions\n";
  os << llvm::format("  total: %.0f cycles = %.3f us at %.0f MHz\n", cycles,
                     seconds * 1e6, chip.freqHz / 1e6);
  os << "  busy (mean over cores):";
  for (int p = 0; p < 4; ++p)
    os << llvm::format(
        " %s %.1f%%", kPipeNames[p],
        cycles > 0 && cores > 0 ? 100.0 * busy[p] / (cycles * cores) : 0.0);
  os << "\n";
  double gbps = seconds > 0 ? (gmRead + gmWritten) / seconds / 1e9 : 0;
  os << llvm::format("  GM: %lld bytes read, %lld written, %.1f GB/s of the "
                     "chip's %.1f GB/s (%.1f%%)\n",
                     (long long)gmRead, (long long)gmWritten, gbps,
                     chip.gmBytesPerSec / 1e9,
                     100.0 * gbps * 1e9 / chip.gmBytesPerSec);
  return out;
}

namespace {

enum : int { kS = 0, kV = 1, kMTE2 = 2, kMTE3 = 3 };

int pipeIndex(Pipe p) {
  switch (p) {
  case Pipe::s:
    return kS;
  case Pipe::v:
    return kV;
  case Pipe::mte2:
    return kMTE2;
  case Pipe::mte3:
    return kMTE3;
  case Pipe::all:
    return -1;
  }
  return -1;
}

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
  int64_t byteOf(int64_t r, int64_t l) const {
    return base +
           32 * (r * repeatStride + (l / lanesPerBlock()) * blockStride) +
           (l % lanesPerBlock()) * bits() / 8;
  }
};

std::string shortLocation(Location loc) {
  std::string out;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      out = (llvm::sys::path::filename(f.getFilename().getValue()) + ":" +
             llvm::Twine(f.getLine()))
                .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return out;
}

std::string describe(Operation *op) {
  std::string where = shortLocation(op->getLoc());
  return "'" + op->getName().getStringRef().str() + "'" +
         (where.empty() ? "" : " (" + where + ")");
}

class Simulator {
public:
  Simulator(const Chip &chip, const std::vector<GlobalBuffer> &gm,
            SimReport &report, std::string &error, bool trace)
      : chip(chip), gm(gm), report(report), error(error), tracing(trace) {}

  bool runCore(func::FuncOp kernel, int64_t id, int64_t cores) {
    Core c;
    c.id = id;
    c.ub.assign(chip.ubBytes, 0);
    c.granules.assign((chip.ubBytes + 31) / 32, Granule());
    core = &c;
    numCores = cores;
    ints.clear();
    memrefs.clear();
    for (auto [i, arg] : llvm::enumerate(kernel.getArguments()))
      memrefs[arg] = int(i);
    if (!runBlock(kernel.getBody().front()))
      return false;
    double end = c.issue;
    for (int p = 0; p < 4; ++p) {
      end = std::max(end, c.lastDone[p]);
      report.busy[p] += c.busy[p];
    }
    report.cycles = std::max(report.cycles, end);
    return true;
  }

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

  bool runBlock(Block &block) {
    for (Operation &op : block)
      if (!exec(&op))
        return false;
    return true;
  }

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

  bool exec(Operation *op) {
    ++report.instructions;
    core->issue += 1; // the scalar unit issues one instruction a cycle (A)
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      auto i = dyn_cast<IntegerAttr>(c.getValue());
      if (!i)
        return fail(op, "is not an integer constant; the simulator's scalar "
                        "unit has integers only");
      ints[c.getResult()] = i.getValue().getSExtValue();
      return true;
    }
    if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
            arith::DivSIOp, arith::RemUIOp, arith::RemSIOp, arith::MinUIOp,
            arith::MinSIOp, arith::MaxUIOp, arith::MaxSIOp, arith::AndIOp,
            arith::OrIOp, arith::XOrIOp, arith::CeilDivUIOp, arith::CeilDivSIOp,
            arith::ShLIOp, arith::ShRUIOp>(op))
      return binaryInt(op);
    if (auto cmp = dyn_cast<arith::CmpIOp>(op))
      return compareInt(cmp);
    if (auto sel = dyn_cast<arith::SelectOp>(op)) {
      ints[sel.getResult()] = get(sel.getCondition())
                                  ? get(sel.getTrueValue())
                                  : get(sel.getFalseValue());
      return true;
    }
    if (auto cast = dyn_cast<arith::IndexCastOp>(op)) {
      ints[cast.getResult()] = wrap(get(cast.getIn()), cast.getType());
      return true;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (loop.getNumResults())
        return fail(op, "carries values; the simulator runs loops without "
                        "iter_args");
      int64_t lb = get(loop.getLowerBound()), ub = get(loop.getUpperBound()),
              step = get(loop.getStep());
      if (step <= 0)
        return fail(op, "has step " + llvm::Twine(step) +
                            "; a loop step must be positive");
      for (int64_t iv = lb; iv < ub; iv += step) {
        ints[loop.getInductionVar()] = iv;
        if (!runBlock(*loop.getBody()))
          return false;
      }
      return true;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (branch.getNumResults())
        return fail(op, "yields values; the simulator runs scf.if without "
                        "results");
      Region &r = get(branch.getCondition()) ? branch.getThenRegion()
                                             : branch.getElseRegion();
      return r.empty() || runBlock(r.front());
    }
    if (isa<scf::YieldOp, func::ReturnOp>(op))
      return true;
    if (auto id = dyn_cast<CoreIdOp>(op)) {
      ints[id.getResult()] = core->id;
      return true;
    }
    if (auto n = dyn_cast<CoreNumOp>(op)) {
      ints[n.getResult()] = numCores;
      return true;
    }
    if (auto b = dyn_cast<UBBufferOp>(op)) {
      ints[b.getAddress()] = b.getOffset();
      return true;
    }
    if (auto copy = dyn_cast<CopyGmToUbOp>(op))
      return copyIn(copy);
    if (auto copy = dyn_cast<CopyUbToGmOp>(op))
      return copyOut(copy);
    if (auto s = dyn_cast<SetFlagOp>(op))
      return setFlag(s);
    if (auto w = dyn_cast<WaitFlagOp>(op))
      return waitFlag(w);
    if (auto b = dyn_cast<PipeBarrierOp>(op))
      return barrier(b);
    if (isa<VBinaryOp, VScalarOp, VUnaryOp, VDupOp, VCmpsOp, VCmpOp, VSelOp,
            VCastOp, VReduceGroupOp, VBroadcastGroupOp, VIndexOp, VGatherOp,
            VTransposeOp>(op))
      return vector(op);
    return fail(op, "is not an operation the simulator executes (it runs "
                    "vtile, scf.for/if and integer arith)");
  }

  bool binaryInt(Operation *op) {
    Type t = op->getResult(0).getType();
    int64_t a = get(op->getOperand(0)), b = get(op->getOperand(1));
    uint64_t ua = unsignedOf(a, t), ub = unsignedOf(b, t);
    bool divides =
        isa<arith::DivUIOp, arith::DivSIOp, arith::RemUIOp, arith::RemSIOp,
            arith::CeilDivUIOp, arith::CeilDivSIOp>(op);
    if (divides && b == 0)
      return fail(op, "divides by zero");
    int64_t r =
        llvm::TypeSwitch<Operation *, int64_t>(op)
            .Case([&](arith::AddIOp) { return a + b; })
            .Case([&](arith::SubIOp) { return a - b; })
            .Case([&](arith::MulIOp) { return a * b; })
            .Case([&](arith::DivUIOp) { return int64_t(ua / ub); })
            .Case([&](arith::DivSIOp) { return a / b; })
            .Case([&](arith::RemUIOp) { return int64_t(ua % ub); })
            .Case([&](arith::RemSIOp) { return a % b; })
            .Case([&](arith::MinUIOp) { return int64_t(std::min(ua, ub)); })
            .Case([&](arith::MinSIOp) { return std::min(a, b); })
            .Case([&](arith::MaxUIOp) { return int64_t(std::max(ua, ub)); })
            .Case([&](arith::MaxSIOp) { return std::max(a, b); })
            .Case([&](arith::AndIOp) { return a & b; })
            .Case([&](arith::OrIOp) { return a | b; })
            .Case([&](arith::XOrIOp) { return a ^ b; })
            .Case(
                [&](arith::CeilDivUIOp) { return int64_t((ua + ub - 1) / ub); })
            .Case([&](arith::CeilDivSIOp) {
              int64_t q = a / b;
              return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
            })
            .Case([&](arith::ShLIOp) {
              return ub >= 64 ? int64_t(0) : int64_t(ua << ub);
            })
            .Case([&](arith::ShRUIOp) {
              return ub >= 64 ? int64_t(0) : int64_t(ua >> ub);
            })
            .Default([](Operation *) { return int64_t(0); });
    ints[op->getResult(0)] = wrap(r, t);
    return true;
  }

  bool compareInt(arith::CmpIOp cmp) {
    Type t = cmp.getLhs().getType();
    unsigned width = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
    // The values as the type's bits; upstream's predicate semantics.
    APInt a(width, unsignedOf(get(cmp.getLhs()), t)),
        b(width, unsignedOf(get(cmp.getRhs()), t));
    bool r = arith::applyCmpPredicate(cmp.getPredicate(), a, b);
    ints[cmp.getResult()] = r;
    return true;
  }

  //===--------------------------------------------------------------------===//
  // UB bookkeeping: bounds, hazards, time
  //===--------------------------------------------------------------------===//

  struct Access {
    int64_t granule;
    bool write;
  };

  /// Adds the granules of UB bytes [begin, end) to `out`; false if outside.
  bool touch(Operation *op, int64_t begin, int64_t end, bool write,
             std::vector<Access> &out) {
    if (end <= begin)
      return true;
    if (begin < 0 || end > chip.ubBytes)
      return fail(op, "touches UB bytes [" + llvm::Twine(begin) + ", " +
                          llvm::Twine(end) + "), outside the " +
                          llvm::Twine(chip.ubBytes) + "-byte UB");
    for (int64_t g = begin / 32; g < (end + 31) / 32; ++g)
      out.push_back({g, write});
    return true;
  }

  bool aligned(Operation *op, int64_t address, const char *what) {
    if (address % 32 == 0 && address >= 0)
      return true;
    return fail(op, llvm::Twine("uses UB address ") + llvm::Twine(address) +
                        " for " + what + ", which is not 32-byte aligned");
  }

  /// Checks `accesses` of an instruction on `pipe` against the earlier
  /// ones; returns the earliest start its same-pipe producers allow.
  bool checkHazards(Operation *op, int pipe,
                    const std::vector<Access> &accesses, double &ready) {
    for (const Access &a : accesses) {
      Granule &g = core->granules[a.granule];
      int64_t lo = a.granule * 32;
      if (g.writer != 255 && g.writer != pipe &&
          g.writeSeq > core->clock[pipe][g.writer])
        return fail(
            op, llvm::Twine(a.write ? "writes" : "reads") + " UB bytes [" +
                    llvm::Twine(lo) + ", " + llvm::Twine(lo + 32) + ") that " +
                    describe(g.writeOp) + " on pipe " + kPipeNames[g.writer] +
                    " may still be writing: no flag orders them");
      if (g.writer == pipe)
        ready = std::max(ready, g.writeDone);
      if (a.write)
        for (int q = 0; q < 4; ++q)
          if (q != pipe && g.readSeq[q] > core->clock[pipe][q])
            return fail(op, "overwrites UB bytes [" + llvm::Twine(lo) + ", " +
                                llvm::Twine(lo + 32) + ") that " +
                                describe(g.readOp[q]) + " on pipe " +
                                kPipeNames[q] +
                                " may still be reading: no flag orders them");
    }
    return true;
  }

  void record(Operation *op, int pipe, const std::vector<Access> &accesses,
              double done) {
    uint32_t seq = core->count[pipe];
    for (const Access &a : accesses) {
      Granule &g = core->granules[a.granule];
      if (a.write) {
        g.writer = uint8_t(pipe);
        g.writeSeq = seq;
        g.writeDone = done;
        g.writeOp = op;
      } else {
        g.readSeq[pipe] = seq;
        g.readOp[pipe] = op;
      }
    }
  }

  /// Schedules an instruction on `pipe` that occupies it `occupancy` cycles
  /// and completes `latency` cycles later; returns its completion.
  double schedule(Operation *op, int pipe, double ready, double occupancy,
                  double latency) {
    ++core->count[pipe];
    core->clock[pipe][pipe] = core->count[pipe];
    double start = std::max({core->issue, core->freeAt[pipe], ready});
    core->freeAt[pipe] = start + occupancy;
    double done = start + occupancy + latency;
    core->lastDone[pipe] = std::max(core->lastDone[pipe], done);
    core->busy[pipe] += occupancy;
    if (tracing && events.size() < 1000000)
      events.push_back({op, core->id, pipe, start, occupancy + latency});
    return done;
  }

  //===--------------------------------------------------------------------===//
  // DMA
  //===--------------------------------------------------------------------===//

  bool globalRange(Operation *op, Value memref, int64_t offset, int64_t bytes,
                   uint8_t *&data) {
    auto it = memrefs.find(memref);
    if (it == memrefs.end())
      return fail(op, "takes GM that is not a kernel argument");
    const GlobalBuffer &buffer = gm[it->second];
    if (offset < 0 || bytes < 0 || offset + bytes > buffer.bytes)
      return fail(op, "touches GM bytes [" + llvm::Twine(offset) + ", " +
                          llvm::Twine(offset + bytes) + ") of a " +
                          llvm::Twine(buffer.bytes) + "-byte buffer");
    data = buffer.data;
    return true;
  }

  /// Schedules a DMA of `bytes` in `bursts` on `pipe`: the queue is busy
  /// for the issue and burst overheads, then for the transfer, which runs
  /// at the direction's per-core cap and takes `bytes / share` of the core's
  /// GM channel time (its fair share of GM bandwidth; reads and writes of
  /// one core share it). Channel time is taken from the earliest free
  /// stretches after the transfer may start, so a read of the next tile can
  /// use the time a write leaves free, whatever their program order.
  /// Returns the completion.
  double scheduleDMA(Operation *op, int pipe, double ready, int64_t bursts,
                     int64_t bytes, bool read) {
    double share =
        chip.gmBytesPerCycle() / double(std::max<int64_t>(numCores, 1));
    double cap = read ? chip.dmaReadCap : chip.dmaWriteCap;
    ++core->count[pipe];
    core->clock[pipe][pipe] = core->count[pipe];
    double start = std::max({core->issue, core->freeAt[pipe], ready});
    double transfer = start + chip.dmaIssue + bursts * chip.dmaBurst;
    double channelEnd = core->takeChannel(transfer, bytes / share);
    double end = std::max(transfer + bytes / cap, channelEnd);
    core->freeAt[pipe] = end;
    double done = end + (read ? chip.dmaReadLatency : chip.dmaWriteLatency);
    core->lastDone[pipe] = std::max(core->lastDone[pipe], done);
    core->busy[pipe] += end - start;
    if (tracing && events.size() < 1000000)
      events.push_back({op, core->id, pipe, start, done - start});
    return done;
  }

  static int64_t elementBytes(Value memref) {
    Type e = cast<MemRefType>(memref.getType()).getElementType();
    unsigned bits = e.getIntOrFloatBitWidth();
    return std::max<int64_t>(1, bits / 8);
  }

  bool checkBursts(Operation *op, int64_t count, int64_t len) {
    if (count < 0 || count > chip.maxBurstCount)
      return fail(op, "has " + llvm::Twine(count) +
                          " bursts, but a copy has "
                          "0 to " +
                          llvm::Twine(chip.maxBurstCount));
    if (len < 0 || len > chip.maxBurstLen)
      return fail(op, "has bursts of " + llvm::Twine(len) +
                          " bytes, but a "
                          "burst has 0 to " +
                          llvm::Twine(chip.maxBurstLen));
    return true;
  }

  bool copyIn(CopyGmToUbOp op) {
    int64_t ub = get(op.getUb()), off = get(op.getGmOffset()),
            count = get(op.getBlockCount()), len = get(op.getBlockLen()),
            srcStride = get(op.getSrcStride()),
            dstStride = get(op.getDstStride());
    if (!checkBursts(op, count, len) || !aligned(op, ub, "a DMA destination"))
      return false;
    if (count == 0 || len == 0)
      return true;
    int64_t padded = (len + 31) / 32 * 32;
    std::vector<Access> accesses;
    for (int64_t i = 0; i < count; ++i)
      if (!touch(op, ub + i * (padded + 32 * dstStride),
                 ub + i * (padded + 32 * dstStride) + padded, true, accesses))
        return false;
    uint8_t *data;
    int64_t last = off + (count - 1) * (len + srcStride);
    if (!globalRange(op, op.getGm(), off, last + len - off, data))
      return false;
    double ready = 0;
    if (!checkHazards(op, kMTE2, accesses, ready))
      return false;
    int64_t es = elementBytes(op.getGm());
    for (int64_t i = 0; i < count; ++i) {
      uint8_t *dst = core->ub.data() + ub + i * (padded + 32 * dstStride);
      const uint8_t *src = data + off + i * (len + srcStride);
      std::memcpy(dst, src, len);
      uint8_t fill[8] = {0};
      if (auto pad = op.getPadValue()) {
        uint64_t v = uint64_t(*pad);
        for (int64_t k = 0; k < es && k < 8; ++k)
          fill[k] = uint8_t(v >> (8 * k));
      } else {
        std::memcpy(fill, src,
                    std::min<int64_t>(es, std::min<int64_t>(len, 8)));
      }
      for (int64_t k = len; k < padded; ++k)
        dst[k] = fill[(k - len) % std::min<int64_t>(es, 8)];
    }
    report.gmRead += count * len;
    double done = scheduleDMA(op, kMTE2, ready, count, count * len, true);
    record(op, kMTE2, accesses, done);
    return true;
  }

  bool copyOut(CopyUbToGmOp op) {
    int64_t ub = get(op.getUb()), off = get(op.getGmOffset()),
            count = get(op.getBlockCount()), len = get(op.getBlockLen()),
            srcStride = get(op.getSrcStride()),
            dstStride = get(op.getDstStride());
    if (!checkBursts(op, count, len) || !aligned(op, ub, "a DMA source"))
      return false;
    if (count == 0 || len == 0)
      return true;
    int64_t padded = (len + 31) / 32 * 32;
    std::vector<Access> accesses;
    for (int64_t i = 0; i < count; ++i)
      if (!touch(op, ub + i * (padded + 32 * srcStride),
                 ub + i * (padded + 32 * srcStride) + len, false, accesses))
        return false;
    uint8_t *data;
    int64_t last = off + (count - 1) * (len + dstStride);
    if (!globalRange(op, op.getGm(), off, last + len - off, data))
      return false;
    double ready = 0;
    if (!checkHazards(op, kMTE3, accesses, ready))
      return false;
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(data + off + i * (len + dstStride),
                  core->ub.data() + ub + i * (padded + 32 * srcStride), len);
    report.gmWritten += count * len;
    double done = scheduleDMA(op, kMTE3, ready, count, count * len, false);
    record(op, kMTE3, accesses, done);
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Flags
  //===--------------------------------------------------------------------===//

  bool flagOf(Operation *op, Pipe src, Pipe dst, Value idValue, Flag *&flag) {
    int64_t id = get(idValue);
    if (id < 0 || id > 7)
      return fail(op,
                  "uses event id " + llvm::Twine(id) + ", but ids are 0 to 7");
    flag = &core->flags[pipeIndex(src)][pipeIndex(dst)][id];
    return true;
  }

  bool setFlag(SetFlagOp op) {
    Flag *flag = nullptr;
    if (!flagOf(op, op.getSrc(), op.getDst(), op.getId(), flag))
      return false;
    if (flag->set)
      return fail(op, "sets a flag that is already set (no wait_flag cleared "
                      "it); the hardware leaves that undefined and can hang");
    int src = pipeIndex(op.getSrc());
    flag->set = true;
    std::memcpy(flag->clock, core->clock[src], sizeof(flag->clock));
    flag->clock[src] = core->count[src];
    flag->time = std::max(core->issue, core->lastDone[src]);
    return true;
  }

  bool waitFlag(WaitFlagOp op) {
    Flag *flag = nullptr;
    if (!flagOf(op, op.getSrc(), op.getDst(), op.getId(), flag))
      return false;
    if (!flag->set)
      return fail(op, "waits for a flag that no earlier set_flag set: pipe " +
                          llvm::Twine(stringifyPipe(op.getDst())) +
                          " would wait forever (deadlock)");
    int dst = pipeIndex(op.getDst());
    for (int q = 0; q < 4; ++q)
      core->clock[dst][q] = std::max(core->clock[dst][q], flag->clock[q]);
    if (dst == kS)
      core->issue = std::max(core->issue, flag->time);
    else
      core->freeAt[dst] = std::max(core->freeAt[dst], flag->time);
    flag->set = false;
    return true;
  }

  bool barrier(PipeBarrierOp op) {
    int p = pipeIndex(op.getPipe());
    if (p >= 0) {
      core->freeAt[p] = std::max(core->freeAt[p], core->lastDone[p]);
      return true;
    }
    double end = core->issue;
    uint32_t joined[4] = {0, 0, 0, 0};
    for (int q = 0; q < 4; ++q) {
      end = std::max(end, core->lastDone[q]);
      for (int k = 0; k < 4; ++k)
        joined[k] = std::max(joined[k], core->clock[q][k]);
      joined[q] = std::max(joined[q], core->count[q]);
    }
    for (int q = 0; q < 4; ++q) {
      core->freeAt[q] = end;
      std::memcpy(core->clock[q], joined, sizeof(joined));
    }
    core->issue = end;
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Vector instructions
  //===--------------------------------------------------------------------===//

  uint32_t load(const Operand &o, int64_t r, int64_t l) {
    int64_t at = o.byteOf(r, l);
    const uint8_t *p = core->ub.data() + at;
    switch (o.bits()) {
    case 4:
      return (l % 2) ? (p[0] >> 4) : (p[0] & 0xF);
    case 8:
      return p[0];
    case 16:
      return uint32_t(p[0]) | uint32_t(p[1]) << 8;
    default: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    }
  }

  void store(const Operand &o, int64_t r, int64_t l, uint32_t v) {
    int64_t at = o.byteOf(r, l);
    uint8_t *p = core->ub.data() + at;
    switch (o.bits()) {
    case 4:
      p[0] = (l % 2) ? uint8_t((p[0] & 0x0F) | (v & 0xF) << 4)
                     : uint8_t((p[0] & 0xF0) | (v & 0xF));
      return;
    case 8:
      p[0] = uint8_t(v);
      return;
    case 16:
      p[0] = uint8_t(v);
      p[1] = uint8_t(v >> 8);
      return;
    default:
      std::memcpy(p, &v, 4);
      return;
    }
  }

  /// Granules of the lanes [0, active) of `repeats` repeats of `o`.
  bool touchOperand(Operation *op, const Operand &o, int64_t repeats,
                    int64_t active, bool write, std::vector<Access> &out) {
    if (!aligned(op, o.base, write ? "a destination" : "a source"))
      return false;
    int64_t blocks = (active + o.lanesPerBlock() - 1) / o.lanesPerBlock();
    for (int64_t r = 0; r < repeats; ++r)
      for (int64_t b = 0; b < blocks; ++b) {
        int64_t at = o.base + 32 * (r * o.repeatStride + b * o.blockStride);
        if (!touch(op, at, at + 32, write, out))
          return false;
      }
    return true;
  }

  /// The latency of a vector instruction before a dependent one may start
  /// (Chip's table).
  double latencyOf(Operation *op) const {
    const VectorLatencies &l = chip.latency;
    if (auto b = dyn_cast<VBinaryOp>(op))
      return b.getKind() == BinaryKind::mul   ? l.mul
             : b.getKind() == BinaryKind::div ? l.div
                                              : l.alu;
    if (auto s = dyn_cast<VScalarOp>(op))
      return s.getKind() == BinaryKind::mul ? l.mul : l.alu;
    if (isa<VCastOp>(op))
      return l.cast;
    if (isa<VReduceGroupOp>(op))
      return l.reduce;
    if (isa<VGatherOp>(op))
      return l.gather;
    return l.alu;
  }

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

  Operand operand(Value address, Type type, int64_t lanes) {
    Operand o;
    o.base = get(address);
    o.type = laneTypeOf(type);
    o.lanes = lanes;
    o.repeatStride = lanes * o.bits() / 256;
    if (o.repeatStride == 0)
      o.repeatStride = 1;
    return o;
  }

  bool vector(Operation *op) {
    std::vector<Access> accesses;
    double occupancy = 0, ready = 0;
    std::function<void()> compute;
    auto lanesFor = [](std::initializer_list<Type> types) {
      unsigned w = 0;
      for (Type t : types)
        w = std::max(w, laneBits(t));
      return int64_t(2048 / w);
    };
    auto checkRepeat = [&](int64_t r) {
      if (r >= 0 && r <= chip.maxRepeat)
        return true;
      return fail(op, "repeats " + llvm::Twine(r) +
                          " times, but an "
                          "instruction repeats 0 to " +
                          llvm::Twine(chip.maxRepeat) + " times");
    };
    bool ok =
        llvm::TypeSwitch<Operation *, bool>(op)
            .Case([&](VBinaryOp v) {
              int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
              int64_t active = v.getMask().value_or(lanes);
              SmallVector<Operand> o = {
                  operand(v.getDst(), v.getType(), lanes),
                  operand(v.getLhs(), v.getType(), lanes),
                  operand(v.getRhs(), v.getType(), lanes)};
              strides(v, o);
              if (!checkRepeat(r) ||
                  !touchOperand(op, o[1], r, active, false, accesses) ||
                  !touchOperand(op, o[2], r, active, false, accesses) ||
                  !touchOperand(op, o[0], r, active, true, accesses))
                return false;
              occupancy = r * chip.vecCyclesPerRepeat;
              compute = [=, this, kind = v.getKind()]() {
                bool dz = false;
                for (int64_t i = 0; i < r; ++i)
                  for (int64_t l = 0; l < active; ++l)
                    store(o[0], i, l,
                          lanes::binary(kind, o[0].type, load(o[1], i, l),
                                     load(o[2], i, l), dz));
              };
              return true;
            })
            .Case([&](VScalarOp v) {
              int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
              int64_t active = v.getMask().value_or(lanes);
              SmallVector<Operand> o = {
                  operand(v.getDst(), v.getType(), lanes),
                  operand(v.getSrc(), v.getType(), lanes)};
              strides(v, o);
              if (!checkRepeat(r) ||
                  !touchOperand(op, o[1], r, active, false, accesses) ||
                  !touchOperand(op, o[0], r, active, true, accesses))
                return false;
              LT t = o[0].type;
              uint32_t s =
                  isFloat(t) ? bitsOfFloat(float(scalarValue(v.getScalar())), t)
                             : bitsOfInt(scalarInt(v.getScalar()), t);
              occupancy = r * chip.vecCyclesPerRepeat;
              compute = [=, this, kind = v.getKind()]() {
                bool dz = false;
                for (int64_t i = 0; i < r; ++i)
                  for (int64_t l = 0; l < active; ++l)
                    store(o[0], i, l,
                          lanes::binary(kind, t, load(o[1], i, l), s, dz));
              };
              return true;
            })
            .Case([&](VUnaryOp v) {
              int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
              int64_t active = v.getMask().value_or(lanes);
              SmallVector<Operand> o = {
                  operand(v.getDst(), v.getType(), lanes),
                  operand(v.getSrc(), v.getType(), lanes)};
              strides(v, o);
              if (!checkRepeat(r) ||
                  !touchOperand(op, o[1], r, active, false, accesses) ||
                  !touchOperand(op, o[0], r, active, true, accesses))
                return false;
              occupancy = r * chip.vecCyclesPerRepeat;
              compute = [=, this, kind = v.getKind()]() {
                LT t = o[0].type;
                for (int64_t i = 0; i < r; ++i)
                  for (int64_t l = 0; l < active; ++l) {
                    uint32_t res = lanes::unary(kind, t, load(o[1], i, l));
                    store(o[0], i, l, res);
                  }
              };
              return true;
            })
            .Case([&](VDupOp v) {
              int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
              int64_t active = v.getMask().value_or(lanes);
              SmallVector<Operand> o = {
                  operand(v.getDst(), v.getType(), lanes)};
              strides(v, o);
              if (!checkRepeat(r) ||
                  !touchOperand(op, o[0], r, active, true, accesses))
                return false;
              LT t = o[0].type;
              uint32_t s =
                  isFloat(t) ? bitsOfFloat(float(scalarValue(v.getScalar())), t)
                             : bitsOfInt(scalarInt(v.getScalar()), t);
              occupancy = r * chip.vecCyclesPerRepeat;
              compute = [=, this]() {
                for (int64_t i = 0; i < r; ++i)
                  for (int64_t l = 0; l < active; ++l)
                    store(o[0], i, l, s);
              };
              return true;
            })
            .Case([&](VCmpsOp v) {
              int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
              int64_t active = v.getMask().value_or(lanes);
              Operand src = operand(v.getSrc(), v.getType(), lanes);
              int64_t dst = get(v.getDst());
              if (!checkRepeat(r) || !aligned(op, dst, "a destination") ||
                  !touchOperand(op, src, r, active, false, accesses) ||
                  !touch(op, dst, dst + r * lanes / 8, true, accesses))
                return false;
              double s = scalarValue(v.getScalar());
              occupancy = r * chip.vecCyclesPerRepeat;
              compute = [=, this, p = v.getPredicate()]() {
                for (int64_t i = 0; i < r; ++i)
                  for (int64_t l = 0; l < lanes; ++l) {
                    uint8_t &byte = core->ub[dst + i * lanes / 8 + l / 8];
                    bool bit = l < active &&
                               lanes::compare(p, src.type, load(src, i, l), s);
                    byte = uint8_t((byte & ~(1u << (l % 8))) |
                                   (unsigned(bit) << (l % 8)));
                  }
              };
              return true;
            })
            .Case([&](VCmpOp v) {
              int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
              int64_t active = v.getMask().value_or(lanes);
              Operand lhs = operand(v.getLhs(), v.getType(), lanes);
              Operand rhs = operand(v.getRhs(), v.getType(), lanes);
              int64_t dst = get(v.getDst());
              if (!checkRepeat(r) || !aligned(op, dst, "a destination") ||
                  !touchOperand(op, lhs, r, active, false, accesses) ||
                  !touchOperand(op, rhs, r, active, false, accesses) ||
                  !touch(op, dst, dst + r * lanes / 8, true, accesses))
                return false;
              occupancy = r * chip.vecCyclesPerRepeat;
              compute = [=, this, p = v.getPredicate()]() {
                LT t = lhs.type;
                for (int64_t i = 0; i < r; ++i)
                  for (int64_t l = 0; l < lanes; ++l) {
                    uint8_t &byte = core->ub[dst + i * lanes / 8 + l / 8];
                    bool bit = false;
                    if (l < active) {
                      uint32_t b = load(rhs, i, l);
                      double s = isFloat(t)    ? double(floatOf(b, t))
                                 : isSigned(t) ? double(intOf(b, t))
                                               : double(b);
                      bit = lanes::compare(p, t, load(lhs, i, l), s);
                    }
                    byte = uint8_t((byte & ~(1u << (l % 8))) |
                                   (unsigned(bit) << (l % 8)));
                  }
              };
              return true;
            })
            .Case([&](VSelOp v) {
              int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
              int64_t active = v.getMask().value_or(lanes);
              Operand d = operand(v.getDst(), v.getType(), lanes),
                      a = operand(v.getLhs(), v.getType(), lanes),
                      b = operand(v.getRhs(), v.getType(), lanes);
              int64_t m = get(v.getSelMask());
              if (!checkRepeat(r) || !aligned(op, m, "a mask") ||
                  !touch(op, m, m + r * lanes / 8, false, accesses) ||
                  !touchOperand(op, a, r, active, false, accesses) ||
                  !touchOperand(op, b, r, active, false, accesses) ||
                  !touchOperand(op, d, r, active, true, accesses))
                return false;
              occupancy = r * chip.vecCyclesPerRepeat;
              compute = [=, this]() {
                for (int64_t i = 0; i < r; ++i)
                  for (int64_t l = 0; l < active; ++l) {
                    bool bit =
                        (core->ub[m + i * lanes / 8 + l / 8] >> (l % 8)) & 1;
                    store(d, i, l, bit ? load(a, i, l) : load(b, i, l));
                  }
              };
              return true;
            })
            .Case([&](VCastOp v) {
              int64_t lanes = lanesFor({v.getSrcType(), v.getDstType()}),
                      r = get(v.getRepeat());
              int64_t active = v.getMask().value_or(lanes);
              SmallVector<Operand> o = {
                  operand(v.getDst(), v.getDstType(), lanes),
                  operand(v.getSrc(), v.getSrcType(), lanes)};
              strides(v, o);
              if (!checkRepeat(r) ||
                  !touchOperand(op, o[1], r, active, false, accesses) ||
                  !touchOperand(op, o[0], r, active, true, accesses))
                return false;
              occupancy = r * chip.vecCyclesPerRepeat;
              compute = [=, this, round = v.getRound(), sat = v.getSat()]() {
                for (int64_t i = 0; i < r; ++i)
                  for (int64_t l = 0; l < active; ++l)
                    store(o[0], i, l,
                          lanes::cast(o[1].type, o[0].type, round, sat,
                                      load(o[1], i, l)));
              };
              return true;
            })
            .Case([&](VReduceGroupOp v) {
              int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
              Operand src = operand(v.getSrc(), v.getType(), lanes);
              int64_t group = v.getGroup(), total = r * lanes;
              if (total % group)
                return fail(op, "reduces " + llvm::Twine(total) +
                                    " lanes in "
                                    "groups of " +
                                    llvm::Twine(group) +
                                    ", which do not divide them");
              int64_t dst = get(v.getDst()), groups = total / group;
              Operand d = operand(v.getDst(), v.getType(), lanes);
              if (!checkRepeat(r) || !aligned(op, dst, "a destination") ||
                  !touchOperand(op, src, r, lanes, false, accesses) ||
                  !touch(op, dst, dst + groups * src.bits() / 8, true,
                         accesses))
                return false;
              // A block reduce per repeat, plus log2 of the blocks per group.
              occupancy =
                  r * chip.vecCyclesPerRepeat *
                  (1 +
                   std::log2(std::max<double>(1, group * src.bits() / 256)));
              compute = [=, this, kind = v.getKind()]() {
                LT t = src.type;
                for (int64_t g = 0; g < groups; ++g) {
                  std::vector<uint32_t> vals(group);
                  for (int64_t k = 0; k < group; ++k) {
                    int64_t l = g * group + k;
                    vals[k] = load(src, l / lanes, l % lanes);
                  }
                  // A binary tree, as the hardware sums.
                  for (int64_t n = group; n > 1; n = (n + 1) / 2)
                    for (int64_t k = 0; k < n / 2; ++k) {
                      uint32_t a = vals[2 * k], b = vals[2 * k + 1];
                      bool dz = false;
                      BinaryKind bk = kind == ReduceKind::max ? BinaryKind::max
                                      : kind == ReduceKind::min
                                          ? BinaryKind::min
                                          : BinaryKind::add;
                      vals[k] = lanes::binary(bk, t, a, b, dz);
                      if (n % 2 && k == n / 2 - 1)
                        vals[k + 1] = vals[n - 1];
                    }
                  Operand out = d;
                  out.blockStride = 1;
                  out.repeatStride = out.lanes * out.bits() / 256;
                  store(out, g / lanes, g % lanes, vals[0]);
                }
              };
              return true;
            })
            .Case([&](VBroadcastGroupOp v) {
              int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
              Operand d = operand(v.getDst(), v.getType(), lanes);
              Operand s = operand(v.getSrc(), v.getType(), lanes);
              int64_t group = v.getGroup(), total = r * lanes;
              int64_t sources = (total + group - 1) / group;
              if (!checkRepeat(r) || !aligned(op, s.base, "a source") ||
                  !touch(op, s.base, s.base + sources * s.bits() / 8, false,
                         accesses) ||
                  !touchOperand(op, d, r, lanes, true, accesses))
                return false;
              occupancy = r * chip.vecCyclesPerRepeat;
              compute = [=, this]() {
                for (int64_t l = 0; l < total; ++l) {
                  int64_t k = l / group;
                  store(d, l / lanes, l % lanes, load(s, k / lanes, k % lanes));
                }
              };
              return true;
            })
            .Case([&](VIndexOp v) {
              int64_t lanes = lanesFor({v.getType()}), r = get(v.getRepeat());
              Operand d = operand(v.getDst(), v.getType(), lanes);
              if (!checkRepeat(r) ||
                  !touchOperand(op, d, r, lanes, true, accesses))
                return false;
              occupancy = r * chip.vecCyclesPerRepeat;
              compute = [=, this, first = v.getFirst()]() {
                for (int64_t i = 0; i < r; ++i)
                  for (int64_t l = 0; l < lanes; ++l)
                    store(d, i, l, bitsOfInt(first + i * lanes + l, d.type));
              };
              return true;
            })
            .Case([&](VTransposeOp v) {
              Operand src = operand(v.getSrc(), v.getType(), 64);
              Operand dst = operand(v.getDst(), v.getType(), 64);
              int64_t rows = v.getRows(), cols = v.getCols();
              int64_t ss = v.getSrcStride(), ds = v.getDstStride();
              int64_t bytes = src.bits() / 8;
              if (!aligned(op, src.base, "a source") ||
                  !aligned(op, dst.base, "a destination"))
                return false;
              for (int64_t r = 0; r < rows; ++r)
                if (!touch(op, src.base + r * ss * bytes,
                           src.base + (r * ss + cols) * bytes, false, accesses))
                  return false;
              for (int64_t c = 0; c < cols; ++c)
                if (!touch(op, dst.base + c * ds * bytes,
                           dst.base + (c * ds + rows) * bytes, true, accesses))
                  return false;
              occupancy =
                  double(rows * cols * bytes / 256) * chip.vecCyclesPerRepeat;
              compute = [=, this]() {
                std::vector<uint8_t> tmp(rows * cols * bytes);
                uint8_t *ub = core->ub.data();
                for (int64_t r = 0; r < rows; ++r)
                  for (int64_t c = 0; c < cols; ++c)
                    std::memcpy(&tmp[(c * rows + r) * bytes],
                                ub + src.base + (r * ss + c) * bytes, bytes);
                for (int64_t c = 0; c < cols; ++c)
                  std::memcpy(ub + dst.base + c * ds * bytes,
                              &tmp[c * rows * bytes], rows * bytes);
              };
              return true;
            })
            .Case([&](VGatherOp v) {
              int64_t lanes = 64, r = get(v.getRepeat());
              int64_t active = v.getMask().value_or(lanes);
              Type u32 =
                  IntegerType::get(op->getContext(), 32, IntegerType::Unsigned);
              Operand d = operand(v.getDst(), v.getType(), lanes);
              Operand offs = operand(v.getOffsets(), u32, lanes);
              int64_t src = get(v.getSrc());
              if (!checkRepeat(r) || !aligned(op, src, "a source") ||
                  !touchOperand(op, offs, r, active, false, accesses) ||
                  !touchOperand(op, d, r, active, true, accesses))
                return false;
              // The gathered addresses: read now (the offsets' writers are
              // checked with the other accesses before anything runs).
              std::vector<int64_t> from(r * active);
              for (int64_t i = 0; i < r; ++i)
                for (int64_t l = 0; l < active; ++l) {
                  int64_t at = src + int64_t(load(offs, i, l));
                  if (at % 4 || at + 4 > chip.ubBytes)
                    return fail(
                        op,
                        "gathers lane " + llvm::Twine(i * lanes + l) +
                            " from UB byte " + llvm::Twine(at) + ", which is " +
                            (at % 4 ? "not 4-byte aligned" : "outside the UB"));
                  from[i * active + l] = at;
                  if (!touch(op, at, at + 4, false, accesses))
                    return false;
                }
              // A gather reads one 32-byte block a cycle per 8 lanes (A).
              occupancy = r * chip.vecCyclesPerRepeat * 8;
              compute = [=, this]() {
                std::vector<uint32_t> vals(from.size());
                for (size_t k = 0; k < from.size(); ++k)
                  std::memcpy(&vals[k], core->ub.data() + from[k], 4);
                for (int64_t i = 0; i < r; ++i)
                  for (int64_t l = 0; l < active; ++l)
                    store(d, i, l, vals[i * active + l]);
              };
              return true;
            })
            .Default([](Operation *) { return false; });
    if (!ok)
      return false;
    if (!checkHazards(op, kV, accesses, ready))
      return false;
    compute();
    double done = schedule(op, kV, ready, occupancy, latencyOf(op));
    record(op, kV, accesses, done);
    return true;
  }
};

} // namespace

bool simulate(func::FuncOp kernel, const Chip &chip,
              const std::vector<GlobalBuffer> &args, SimReport &report,
              std::string &error, const std::string &tracePath) {
  if (!kernel->hasAttr(kKernelAttr)) {
    error = "@" + kernel.getSymName().str() + " is not a vtile kernel (no " +
            kKernelAttr.str() + " attribute)";
    return false;
  }
  if (args.size() != kernel.getNumArguments()) {
    error = "@" + kernel.getSymName().str() + " takes " +
            std::to_string(kernel.getNumArguments()) + " buffers, but " +
            std::to_string(args.size()) + " were given";
    return false;
  }
  auto coresAttr = kernel->getAttrOfType<IntegerAttr>(kCoresAttr);
  int64_t cores = coresAttr ? coresAttr.getInt() : 1;
  if (cores < 1 || cores > chip.cores) {
    error = "@" + kernel.getSymName().str() + " runs on " +
            std::to_string(cores) + " cores, but chip " + chip.name + " has " +
            std::to_string(chip.cores);
    return false;
  }
  report = SimReport();
  report.cores = cores;
  Simulator sim(chip, args, report, error, !tracePath.empty());
  for (int64_t c = 0; c < cores; ++c)
    if (!sim.runCore(kernel, c, cores))
      return false;
  if (tracePath.empty())
    return true;
  std::ofstream out(tracePath);
  if (!out) {
    error = "cannot write the trace '" + tracePath + "'";
    return false;
  }
  out << "{\"traceEvents\":[\n";
  bool first = true;
  auto sep = [&]() {
    if (!first)
      out << ",\n";
    first = false;
  };
  for (int64_t c = 0; c < cores; ++c)
    for (int p = 0; p < 4; ++p) {
      sep();
      out << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << c
          << ",\"tid\":" << p << ",\"args\":{\"name\":\"" << kPipeNames[p]
          << "\"}}";
    }
  double usPerCycle = 1e6 / chip.freqHz;
  for (const TraceEvent &e : sim.events) {
    sep();
    out << "{\"ph\":\"X\",\"name\":\"" << e.op->getName().getStringRef().str()
        << "\",\"pid\":" << e.core << ",\"tid\":" << e.pipe
        << ",\"ts\":" << e.start * usPerCycle
        << ",\"dur\":" << e.duration * usPerCycle << "}";
  }
  out << "\n]}\n";
  return bool(out);
}

} // namespace mxq::vtile
