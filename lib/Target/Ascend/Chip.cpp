//===- Chip.cpp - chip descriptions of the Ascend-like target -------------===//
#include "mxq/Target/Ascend/Chip.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <sstream>

using namespace mlir;

namespace mxq::vtile {

const char *chipNames() { return "a2, 950pr, 950dt"; }

static bool baseChip(StringRef name, Chip &chip) {
  chip = Chip();
  chip.name = name.str();
  if (name == "950pr") // 950PR_957x: ascend-model.md §10.7
    return true;
  if (name == "950dt") { // 950DT_958x
    chip.cores = 64;
    chip.gmBytesPerSec = 3.27e12;
    chip.dmaReadCap = 31;
    chip.dmaWriteCap = 40;
    return true;
  }
  if (name == "a2") { // 910B1-like, Membase, no MX casts
    chip.cores = 48;
    chip.freqHz = 1.85e9;
    chip.ubBytes = 196608;
    chip.gmBytesPerSec = 1.42e12;
    chip.dmaReadCap = 32;
    chip.dmaWriteCap = 64;
    chip.mxCasts = false;
    return true;
  }
  return false;
}

bool parseChip(StringRef spec, Chip &chip, std::string &error) {
  SmallVector<StringRef> parts;
  spec.split(parts, ',');
  StringRef name = parts.front().trim();
  if (!baseChip(name, chip)) {
    error = "unknown chip '" + name.str() + "' (known: " + chipNames() + ")";
    return false;
  }
  for (StringRef part : llvm::drop_begin(parts)) {
    auto [key, value] = part.trim().split('=');
    double v;
    if (value.empty() || value.trim().getAsDouble(v)) {
      error = "chip '" + spec.str() + "': '" + part.trim().str() +
              "' is not key=number";
      return false;
    }
    // Every field is a finite number in a range a chip model can mean
    // (a value past it would give infinite or NaN cycle counts, or an
    // allocation the machine cannot make); nothing is clamped silently.
    auto number = [&](const char *what, double lo, bool loOpen, double hi,
                      double &field) {
      if (std::isfinite(v) && (loOpen ? v > lo : v >= lo) && v <= hi) {
        field = v;
        return true;
      }
      std::ostringstream os;
      os << "chip '" << spec.str() << "': " << what
         << " must be a finite number in " << (loOpen ? "(" : "[") << lo
         << ", " << hi << "], but it is " << value.str();
      error = os.str();
      return false;
    };
    auto whole = [&](const char *what, int64_t &field, int64_t minimum,
                     int64_t maximum) {
      // The range first: converting a double outside int64_t's is
      // undefined.
      if (!std::isfinite(v) || v < double(minimum) || v > double(maximum) ||
          v != std::trunc(v)) {
        error = "chip '" + spec.str() + "': " + what +
                " must be a whole number from " + std::to_string(minimum) +
                " to " + std::to_string(maximum) + ", but it is " +
                value.str();
        return false;
      }
      field = int64_t(v);
      return true;
    };
    bool ok = true;
    double scaled = 0;
    if (key == "cores")
      ok = whole("cores", chip.cores, 1, kMaxCores);
    else if (key == "ub-bytes") {
      ok = whole("ub-bytes", chip.ubBytes, 4096, kMaxUBBytes);
      if (ok && chip.ubBytes % 32) {
        error = "chip '" + spec.str() +
                "': ub-bytes must be a multiple of "
                "32, but it is " +
                value.str();
        ok = false;
      }
    } else if (key == "freq-mhz") {
      ok = number("freq-mhz", 0, true, 1e5, scaled);
      chip.freqHz = scaled * 1e6;
    } else if (key == "gm-gbps") {
      ok = number("gm-gbps", 0, true, 1e6, scaled);
      chip.gmBytesPerSec = scaled * 1e9;
    } else if (key == "dma-read")
      ok = number("dma-read", 0, true, 1e6, chip.dmaReadCap);
    else if (key == "dma-write")
      ok = number("dma-write", 0, true, 1e6, chip.dmaWriteCap);
    else if (key == "dma-issue")
      ok = number("dma-issue", 0, false, 1e9, chip.dmaIssue);
    else if (key == "dma-burst")
      ok = number("dma-burst", 0, false, 1e9, chip.dmaBurst);
    else if (key == "dma-read-latency")
      ok = number("dma-read-latency", 0, false, 1e9, chip.dmaReadLatency);
    else if (key == "dma-write-latency")
      ok = number("dma-write-latency", 0, false, 1e9, chip.dmaWriteLatency);
    else if (key == "vec-cpr")
      ok = number("vec-cpr", 0, true, 1e6, chip.vecCyclesPerRepeat);
    else if (key == "mx-casts") {
      int64_t on = 0;
      ok = whole("mx-casts", on, 0, 1);
      chip.mxCasts = on != 0;
    } else if (key == "max-instructions")
      ok = whole("max-instructions", chip.maxInstructions, 1,
                 int64_t(1e12));
    else {
      error = "chip '" + spec.str() + "': unknown field '" + key.str() +
              "' (fields: cores, freq-mhz, ub-bytes, gm-gbps, dma-read, "
              "dma-write, dma-issue, dma-burst, dma-read-latency, "
              "dma-write-latency, vec-cpr, mx-casts, max-instructions)";
      return false;
    }
    if (!ok)
      return false;
  }
  if (chip.ubReserved >= chip.ubBytes)
    chip.ubReserved = 0;
  return true;
}

bool chipOf(Operation *op, Chip &chip, std::string &error) {
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  StringAttr spec =
      module ? module->getAttrOfType<StringAttr>(kChipAttr) : StringAttr();
  return parseChip(spec ? spec.getValue() : StringRef("950pr"), chip, error);
}

} // namespace mxq::vtile
