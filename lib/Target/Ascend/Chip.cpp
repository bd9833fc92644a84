//===- Chip.cpp - chip descriptions of the Ascend-like target -------------===//
#include "mxq/Target/Ascend/Chip.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

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
    auto positive = [&](const char *what) {
      if (v > 0)
        return true;
      error = "chip '" + spec.str() + "': " + what +
              " must be positive, but "
              "it is " +
              value.str();
      return false;
    };
    auto whole = [&](const char *what, int64_t &field, int64_t minimum) {
      if (v != double(int64_t(v)) || v < double(minimum) || v > 1e12) {
        error = "chip '" + spec.str() + "': " + what +
                " must be a whole "
                "number of at least " +
                std::to_string(minimum) + ", but it is " + value.str();
        return false;
      }
      field = int64_t(v);
      return true;
    };
    bool ok = true;
    if (key == "cores")
      ok = whole("cores", chip.cores, 1);
    else if (key == "ub-bytes") {
      ok = whole("ub-bytes", chip.ubBytes, 4096);
      if (ok && chip.ubBytes % 32) {
        error = "chip '" + spec.str() +
                "': ub-bytes must be a multiple of "
                "32, but it is " +
                value.str();
        ok = false;
      }
    } else if (key == "freq-mhz")
      ok = positive("freq-mhz") && ((chip.freqHz = v * 1e6), true);
    else if (key == "gm-gbps")
      ok = positive("gm-gbps") && ((chip.gmBytesPerSec = v * 1e9), true);
    else if (key == "dma-read")
      ok = positive("dma-read") && ((chip.dmaReadCap = v), true);
    else if (key == "dma-write")
      ok = positive("dma-write") && ((chip.dmaWriteCap = v), true);
    else if (key == "dma-issue")
      chip.dmaIssue = std::max(v, 0.0);
    else if (key == "dma-burst")
      chip.dmaBurst = std::max(v, 0.0);
    else if (key == "dma-read-latency")
      chip.dmaReadLatency = std::max(v, 0.0);
    else if (key == "dma-write-latency")
      chip.dmaWriteLatency = std::max(v, 0.0);
    else if (key == "vec-cpr")
      ok = positive("vec-cpr") && ((chip.vecCyclesPerRepeat = v), true);
    else if (key == "mx-casts")
      chip.mxCasts = v != 0;
    else {
      error = "chip '" + spec.str() + "': unknown field '" + key.str() +
              "' (fields: cores, freq-mhz, ub-bytes, gm-gbps, dma-read, "
              "dma-write, dma-issue, dma-burst, dma-read-latency, "
              "dma-write-latency, vec-cpr, mx-casts)";
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
