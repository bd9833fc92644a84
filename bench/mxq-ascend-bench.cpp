//===- mxq-ascend-bench.cpp - modelled time of the Ascend-like target -----===//
//
//   mxq-ascend-bench [--size N] [--chip C ...]
//
// For each kernel on an N x N bf16 input (default 8192), the simulator's
// modelled time on each chip model against the DMA bound of the same bytes
// on the same model (every byte read and written once at the chip's GM
// bandwidth, or at the cores' DMA caps where those are lower), with double
// buffering and without, and across tile shapes. The ratio bound / modelled
// is what the kernel reaches of the bound (1.0: DMA-bound). bench/RESULTS.md
// has the numbers and what limits each kernel.
//
//===----------------------------------------------------------------------===//
#include "mxq/InitAll.h"
#include "mxq/Runtime/Tensor.h"
#include "mxq/Target/Ascend/Chip.h"
#include "mxq/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/Support/Regex.h"

#include <chrono>
#include <random>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("mxq-ascend-bench options");
static cl::opt<int64_t> size("size",
                             cl::desc("rows and columns (default 8192)"),
                             cl::init(8192), cl::cat(category));
static cl::opt<bool> quick("quick",
                           cl::desc("only the default and single-buffered "
                                    "configurations"),
                           cl::cat(category));
static cl::opt<std::string> only(
    "kernel", cl::init(""),
    cl::desc("only the kernels whose name matches this regular expression"),
    cl::cat(category));
static cl::list<std::string> chips("chip",
                                   cl::desc("chip models (default 950pr, "
                                            "950dt)"),
                                   cl::cat(category));

namespace {

struct Kernel {
  std::string name;
  std::string text;
  double writeBytes; ///< what the kernel writes
  bool dual = false; ///< PyTorch's dual: tiles of exactly 32 rows
};

std::vector<Kernel> kernels(int64_t n) {
  std::string s = std::to_string(n), nb = std::to_string((n + 31) / 32);
  std::string t = "tensor<" + s + "x" + s;
  double elems = double(n) * n, blocks = double(n) * ((n + 31) / 32);
  auto quantize = [&](const char *code) {
    return "func.func @f(%x: " + t + "xbf16>) -> (" + t + "x" + code +
           ">, tensor<" + s + "x" + nb +
           "xf8E8M0FNU>) {\n"
           "  %q, %s = mxq.quantize %x axis = 1 scale = floor : " +
           t + "xbf16> -> " + t + "x" + code + ">, tensor<" + s + "x" + nb +
           "xf8E8M0FNU>\n  return %q, %s : " + t + "x" + code + ">, tensor<" +
           s + "x" + nb + "xf8E8M0FNU>\n}\n";
  };
  std::string l0 = std::to_string((n + 511) / 512);
  std::string pairs = std::to_string(((n + 31) / 32 + 1) / 2);
  std::string twoLevel =
      "func.func @f(%x: " + t + "xbf16>) -> (" + t + "xf4E2M1FN>, tensor<" + s +
      "x" + l0 + "xf32>, tensor<" + s + "x" + pairs +
      "x2xf8E8M0FNU>) {\n  %y, %a, %b = mxq.two_level_quantize %x : " + t +
      "xbf16> -> " + t + "xf4E2M1FN>, tensor<" + s + "x" + l0 +
      "xf32>, tensor<" + s + "x" + pairs +
      "x2xf8E8M0FNU>\n  return %y, %a, "
      "%b : " +
      t + "xf4E2M1FN>, tensor<" + s + "x" + l0 + "xf32>, tensor<" + s + "x" +
      pairs + "x2xf8E8M0FNU>\n}\n";
  std::string rowPairs = "tensor<" + s + "x" + pairs + "x2xf8E8M0FNU>";
  std::string colPairs = "tensor<" + std::to_string(((n + 31) / 32 + 1) / 2) +
                         "x" + s + "x2xf8E8M0FNU>";
  std::string dualAxis =
      "func.func @f(%x: " + t + "xbf16>) -> (" + t + "xf8E4M3FN>, " + rowPairs +
      ", " + t + "xf8E4M3FN>, " + colPairs +
      ") {\n"
      "  %y1, %s1 = mxq.quantize %x axis = 1 scale = floor layout = pairs : " +
      t + "xbf16> -> " + t + "xf8E4M3FN>, " + rowPairs +
      "\n"
      "  %y2, %s2 = mxq.quantize %x axis = 0 scale = floor layout = pairs : " +
      t + "xbf16> -> " + t + "xf8E4M3FN>, " + colPairs +
      "\n"
      "  return %y1, %s1, %y2, %s2 : " +
      t + "xf8E4M3FN>, " + rowPairs + ", " + t + "xf8E4M3FN>, " + colPairs +
      "\n}\n";
  int64_t bands = (n + 127) / 128;
  std::string swizzled =
      "tensor<" + std::to_string(512 * bands * bands) + "xf8E8M0FNU>";
  std::string dual =
      "func.func @f(%x: " + t + "xbf16>) -> (" + t + "xf8E4M3FN>, " + swizzled +
      ", " + t + "xf8E4M3FN>, " + swizzled +
      ") {\n"
      "  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : " +
      t + "xbf16> -> " + t + "xf8E4M3FN>, " + swizzled + ", " + t +
      "xf8E4M3FN>, " + swizzled + "\n  return %a, %b, %c, %d : " + t +
      "xf8E4M3FN>, " + swizzled + ", " + t + "xf8E4M3FN>, " + swizzled +
      "\n}\n";
  // Blockwise FP8 (DeepSeek's act_quant): an fp32 scale per 1 x 128.
  std::string nb128 = std::to_string((n + 127) / 128);
  std::string bwScales = "tensor<" + s + "x" + nb128 + "xf32>";
  auto blockwise = [&](const char *words) {
    return "func.func @f(%x: " + t + "xbf16>) -> (" + t + "xf8E4M3FN>, " +
           bwScales +
           ") {\n  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = "
           "decode amax_floor = 1.0e-04" +
           words + " : " + t + "xbf16> -> " + t + "xf8E4M3FN>, " + bwScales +
           "\n  return %q, %s : " + t + "xf8E4M3FN>, " + bwScales + "\n}\n";
  };
  return {
      {"MXFP8 quantize (e4m3)", quantize("f8E4M3FN"), elems + blocks},
      {"blockwise FP8 (1 x 128, f32 scales, DeepSeek)", blockwise(""),
       elems + double(n) * ((n + 127) / 128) * 4},
      {"blockwise FP8 ue8m0 (pow2 scales, DeepSeek scale_fmt)",
       blockwise(" pow2"), elems + double(n) * ((n + 127) / 128) * 4},
      {"FP4 quantize (e2m1)", quantize("f4E2M1FN"), elems / 2 + blocks},
      {"two-level FP4 (CANN dual-level)", twoLevel,
       elems / 2 + blocks + double(n) * ((n + 511) / 512) * 4},
      {"CANN dual-axis MXFP8 (two kernels)", dualAxis, 2 * elems + 2 * blocks},
      {"PyTorch dual MXFP8 (one kernel, swizzled)", dual,
       2 * elems + 2 * 512.0 * bands * bands, true},
  };
}

struct Config {
  std::string name;
  std::vector<int64_t> tiles; ///< tile rows, tile columns (0: chosen)
  bool doubleBuffer;
};

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "modelled time of the Ascend-like target\n");
  int64_t n = size;
  if (n < 64) {
    llvm::errs() << "mxq-ascend-bench: error: --size must be at least 64\n";
    return 1;
  }
  std::vector<std::string> chipList(chips.begin(), chips.end());
  if (chipList.empty())
    chipList = {"950pr", "950dt"};
  mxq::registerAllTargets();
  DialectRegistry registry;
  mxq::registerDialects(registry);
  MLIRContext context(registry);
  std::string error;
  const mxq::Target *ascend = mxq::lookupTarget("ascend", error);
  if (!ascend) {
    llvm::errs() << "mxq-ascend-bench: error: " << error << "\n";
    return 1;
  }
  // Random bf16 data around 1 (bits of a normal f32, truncated).
  mxq::RawTensor x;
  x.shape = {n, n};
  x.elementType = BFloat16Type::get(&context);
  x.data.resize(size_t(n * n * 2));
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (int64_t i = 0; i < n * n; ++i) {
    float v = normal(rng);
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    uint16_t h = uint16_t(bits >> 16);
    std::memcpy(&x.data[size_t(2 * i)], &h, 2);
  }
  std::vector<Config> configs = {
      {"default (double buffered)", {}, true},
      {"single buffered", {}, false},
      {"tile 1 x 2048", {1, 2048}, true},
      {"tile 4 x 2048", {4, 2048}, true},
      {"tile 16 x 512", {16, 512}, true},
      {"tile 32 x 256", {32, 256}, true},
  };
  llvm::outs() << "mxq-ascend-bench: " << n << " x " << n
               << " bf16, modelled by the ascend simulator\n";
  int failures = 0;
  for (const std::string &c : chipList) {
    mxq::vtile::Chip chip;
    if (!mxq::vtile::parseChip(c, chip, error)) {
      llvm::errs() << "mxq-ascend-bench: error: --chip: " << error << "\n";
      return 1;
    }
    llvm::Regex keep(only);
    for (const Kernel &k : kernels(n)) {
      if (!only.empty() && !keep.match(k.name))
        continue;
      // The bound reads the input once (a fused kernel's), whatever the
      // kernel does.
      double readBytes = double(n) * n * 2;
      double writeBytes = k.writeBytes;
      double bound = std::max(
          {(readBytes + writeBytes) / chip.gmBytesPerSec,
           readBytes / (chip.cores * chip.dmaReadCap * chip.freqHz),
           writeBytes / (chip.cores * chip.dmaWriteCap * chip.freqHz)});
      llvm::outs() << llvm::format("%s %s: %.1f MB moved, DMA bound %.1f us\n",
                                   c.c_str(), k.name.c_str(),
                                   (readBytes + writeBytes) / 1e6, bound * 1e6);
      for (const Config &cfg : configs) {
        if (quick && !cfg.tiles.empty())
          continue;
        if (k.dual && !cfg.tiles.empty() && cfg.tiles[0] != 32)
          continue; // a dual tile is 32 rows

        OwningOpRef<ModuleOp> module =
            parseSourceString<ModuleOp>(k.text, &context);
        mxq::TargetOptions options;
        options.chip = c;
        options.tileSizes = cfg.tiles;
        options.profile = true;
        std::string tag = cfg.name;
        std::unique_ptr<mxq::Executable> exe;
        mxq::Timing timing;
        if (!cfg.doubleBuffer) // the third size: buffers per stage
          options.tileSizes = {0, 0, 1};
        if (!module)
          error = "the kernel does not parse";
        if (!module || !(exe = ascend->compile(*module, "f", options, error)) ||
            !exe->time({x}, 1, timing, error)) {
          llvm::outs() << "  " << tag << ": error: " << error << "\n";
          ++failures;
          continue;
        }
        double modelled = timing.deviceMillis / 1e3;
        std::string report = exe->report();
        std::string busy;
        if (size_t at = report.find("busy"); at != std::string::npos)
          busy = report.substr(at, report.find('\n', at) - at);
        llvm::outs() << llvm::format(
            "  %-26s %9.1f us  bound/modelled %.2f  (%s; simulated in %.1f "
            "s)\n",
            tag.c_str(), modelled * 1e6, bound / modelled, busy.c_str(),
            timing.wallMillis / 1e3);
      }
    }
  }
  return failures ? 1 : 0;
}
