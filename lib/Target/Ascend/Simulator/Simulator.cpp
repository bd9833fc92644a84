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
#include "Machine.h"
#include "mxq/Target/Ascend/Simulator.h"

#include "llvm/Support/Format.h"

#include <fstream>

using namespace mlir;

namespace mxq::vtile {

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
        " %s %.1f%%", sim::kPipeNames[p],
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

namespace sim {

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

} // namespace sim


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
  sim::Simulator sim(chip, args, report, error, !tracePath.empty());
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
          << ",\"tid\":" << p << ",\"args\":{\"name\":\"" << sim::kPipeNames[p]
          << "\"}}";
    }
  double usPerCycle = 1e6 / chip.freqHz;
  for (const sim::TraceEvent &e : sim.events) {
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
