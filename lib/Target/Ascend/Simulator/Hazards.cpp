//===- Hazards.cpp - UB bounds, hazards by vector clocks, scheduling ------===//
#include "Machine.h"

namespace mxq::vtile::sim {

bool Simulator::touch(Operation *op, int64_t begin, int64_t end, bool write,
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

bool Simulator::aligned(Operation *op, int64_t address, const char *what) {
  if (address % 32 == 0 && address >= 0)
    return true;
  return fail(op, llvm::Twine("uses UB address ") + llvm::Twine(address) +
                      " for " + what + ", which is not 32-byte aligned");
}

bool Simulator::checkHazards(Operation *op, int pipe,
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

void Simulator::record(Operation *op, int pipe, const std::vector<Access> &accesses,
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

double Simulator::schedule(Operation *op, int pipe, double ready, double occupancy,
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

} // namespace mxq::vtile::sim
