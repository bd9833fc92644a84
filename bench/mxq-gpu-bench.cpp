//===- mxq-gpu-bench.cpp - GPU bandwidth of compiled mxq kernels ----------===//
//
// Times MXFP8 quantize, dual quantize and FP4 quantize of a bf16 N x N input
// (default 8192, static shapes) on the first NVIDIA GPU, beside a
// device-to-device copy of the same input bytes measured in the same run.
// Kernel times come from CUDA events around each launch; the wall time per
// call (allocation, launches, synchronisation) is printed too. The ratio is
// the kernel's bandwidth (bytes it reads and writes per second) over the
// copy's (twice the input bytes per second): 1.0 = as fast as copying.
//
//   mxq-gpu-bench [--size N] [--repeat R] [--chip C]
//
// With --emulate, no GPU is needed: each kernel (those above, and the f32
// quantize, the dequantize and the two-level quantize) runs once on the
// SIMT emulator (target nvvm-emu, default N = 2048) for sm_90 and sm_100a
// (or --chip), and the bench prints the emulator's wall time and its
// memory profile: the sector efficiency of global loads and stores (minimum
// sectors for the bytes used over sectors touched, per warp-wide
// instruction), shared-memory bank conflicts, and global bytes read and
// written over the op's own input and result bytes (1.00 = each byte once).
//
//===----------------------------------------------------------------------===//
#include "mxq/InitAll.h"
#include "mxq/Target/NVVM/EmulatorRunner.h"
#include "mxq/Target/NVVM/GPURunner.h"
#include "mxq/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>
#include <random>
#include <string>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("mxq-gpu-bench options");
static cl::opt<int64_t> size("size", cl::cat(category), cl::desc("rows and columns (a multiple "
                                              "of 128)"),
                             cl::init(8192));
static cl::opt<int> repeat("repeat", cl::cat(category), cl::desc("timed calls per kernel"),
                           cl::init(20));
static cl::opt<std::string> chip("chip", cl::cat(category),
                                 cl::desc("target chip (default: the GPU's)"));
static cl::opt<bool> emulate(
    "emulate", cl::cat(category),
    cl::desc("run on the SIMT emulator and print its memory profile"));

namespace {

struct Case {
  std::string name;
  std::string text;     // the module
  double bytesPerElem;  // bytes read and written per input element
  std::string input = "bf16"; // element type of the one input
};

std::vector<Case> cases(int64_t n, bool more) {
  std::string N = std::to_string(n), B = std::to_string(n / 32);
  std::string in = "tensor<" + N + "x" + N + "xbf16>";
  std::string q8 = "tensor<" + N + "x" + N + "xf8E4M3FN>";
  std::string q4 = "tensor<" + N + "x" + N + "xf4E2M1FN>";
  std::string s = "tensor<" + N + "x" + B + "xf8E8M0FNU>";
  std::string sp = "tensor<" + N + "x" + std::to_string(n / 64) +
                   "x2xf8E8M0FNU>";
  // Swizzled: 512 bytes per 128 rows x 4 scale columns.
  std::string sw = "tensor<" + std::to_string((n / 128) * (n / 32 / 4) * 512) +
                   "xf8E8M0FNU>";
  auto fn = [&](const std::string &body, const std::string &results) {
    return "func.func @f(%x: " + in + ") -> (" + results + ") {\n" + body +
           "\n}\n";
  };
  std::vector<Case> list = {
      {"MXFP8 quantize", fn("%q, %s = mxq.quantize %x axis = 1 scale = rceil : " +
                                in + " -> " + q8 + ", " + s +
                                "\nreturn %q, %s : " + q8 + ", " + s,
                            q8 + ", " + s),
       2 + 1 + 1.0 / 32},
      {"MXFP8 dual quantize",
       fn("%a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : " + in +
              " -> " + q8 + ", " + sw + ", " + q8 + ", " + sw +
              "\nreturn %a, %b, %c, %d : " + q8 + ", " + sw + ", " + q8 +
              ", " + sw,
          q8 + ", " + sw + ", " + q8 + ", " + sw),
       2 + 2 + 2.0 / 32},
      {"FP4 quantize (packed, two codes a byte)",
       fn("%q, %s = mxq.quantize %x axis = 1 scale = rceil inf = saturate "
          "layout = pairs : " +
              in + " -> " + q4 + ", " + sp + "\nreturn %q, %s : " + q4 +
              ", " + sp,
          q4 + ", " + sp),
       2 + 0.5 + 1.0 / 32},
  };
  if (!more)
    return list;
  std::string f = "tensor<" + N + "x" + N + "xf32>";
  std::string l0 = "tensor<" + N + "x" + std::to_string(n / 512) + "xf32>";
  list.push_back(
      {"MXFP8 quantize, f32 input",
       "func.func @f(%x: " + f + ") -> (" + q8 + ", " + s + ") {\n" +
           "%q, %s = mxq.quantize %x axis = 1 scale = rceil : " + f + " -> " +
           q8 + ", " + s + "\nreturn %q, %s : " + q8 + ", " + s + "\n}\n",
       4 + 1 + 1.0 / 32, "f32"});
  list.push_back(
      {"MXFP8 dual quantize, f32 input",
       "func.func @f(%x: " + f + ") -> (" + q8 + ", " + sw + ", " + q8 +
           ", " + sw + ") {\n" +
           "%a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : " + f +
           " -> " + q8 + ", " + sw + ", " + q8 + ", " + sw +
           "\nreturn %a, %b, %c, %d : " + q8 + ", " + sw + ", " + q8 + ", " +
           sw + "\n}\n",
       4 + 2 + 2.0 / 32, "f32"});
  list.push_back(
      {"MXFP8 dequantize (input: codes)",
       "func.func @f(%c: " + q8 + ", %s: " + s + ") -> " + in + " {\n" +
           "%y = mxq.dequantize %c, %s axis = 1 : " + q8 + ", " + s + " -> " +
           in + "\nreturn %y : " + in + "\n}\n",
       1 + 2, "codes"});
  list.push_back(
      {"two-level quantize",
       fn("%y, %a, %b = mxq.two_level_quantize %x : " + in + " -> " + q4 +
              ", " + l0 + ", " + sp + "\nreturn %y, %a, %b : " + q4 + ", " +
              l0 + ", " + sp,
          q4 + ", " + l0 + ", " + sp),
       2 + 0.5 + 1.0 / 32 + 4.0 / 512});
  return list;
}

/// A random input of `n` x `n` elements of `kind` (bf16, f32, or FP8 codes).
mxq::RawTensor input(MLIRContext &context, int64_t n, const std::string &kind) {
  mxq::RawTensor x;
  x.shape = {n, n};
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  size_t bytes = kind == "f32" ? 4 : kind == "codes" ? 1 : 2;
  x.data.resize(size_t(n * n) * bytes);
  for (int64_t i = 0; i < n * n; ++i) {
    float v = normal(rng);
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    if (kind == "f32") {
      std::memcpy(&x.data[4 * i], &bits, 4);
    } else if (kind == "codes") {
      x.data[i] = uint8_t(rng() % 0x7F);
    } else {
      uint16_t b = uint16_t((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
      std::memcpy(&x.data[2 * i], &b, 2);
    }
  }
  x.elementType = kind == "f32"     ? Type(Float32Type::get(&context))
                  : kind == "codes" ? Type(Float8E4M3FNType::get(&context))
                                    : Type(BFloat16Type::get(&context));
  return x;
}

/// --emulate: each kernel once on the SIMT emulator, with its profile.
int runEmulated() {
  int64_t n = size.getNumOccurrences() ? int64_t(size) : 2048;
  std::vector<std::string> chips;
  if (!chip.empty())
    chips.push_back(chip);
  else
    chips = {"sm_90", "sm_100a"};
  mxq::registerAllTargets();
  DialectRegistry registry;
  mxq::registerDialects(registry);
  MLIRContext context(registry);
  std::string error;
  const mxq::Target *emu = mxq::lookupTarget("nvvm-emu", error);
  if (!emu) {
    llvm::errs() << "mxq-gpu-bench: error: " << error << "\n";
    return 1;
  }
  llvm::outs() << "mxq-gpu-bench --emulate: " << n << " x " << n
               << ", one call each on the SIMT emulator (one core)\n";
  int failures = 0;
  for (const std::string &c : chips) {
    mxq::TargetOptions options;
    options.chip = c;
    options.profile = true;
    for (const Case &k : cases(n, true)) {
      std::vector<mxq::RawTensor> inputs = {input(context, n, k.input)};
      if (k.input == "codes") { // and their scales, around 2^0
        mxq::RawTensor scales;
        scales.shape = {n, n / 32};
        scales.data.assign(size_t(n * (n / 32)), 0);
        for (size_t i = 0; i < scales.data.size(); ++i)
          scales.data[i] = uint8_t(120 + i % 16);
        scales.elementType = Float8E8M0FNUType::get(&context);
        inputs.push_back(scales);
      }
      OwningOpRef<ModuleOp> module =
          parseSourceString<ModuleOp>(k.text, &context);
      std::unique_ptr<mxq::Executable> exe;
      std::vector<mxq::RawTensor> results;
      if (!module || !(exe = emu->compile(*module, "f", options, error))) {
        llvm::outs() << "  " << c << " " << k.name << ": error: " << error
                     << "\n";
        ++failures;
        continue;
      }
      auto start = std::chrono::steady_clock::now();
      bool ok = exe->run(inputs, results, error);
      double seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      if (!ok) {
        llvm::outs() << "  " << c << " " << k.name << ": error: " << error
                     << "\n";
        ++failures;
        continue;
      }
      const mxq::EmulatorProfile &p =
          static_cast<mxq::EmulatorExecutable &>(*exe).profile();
      llvm::outs() << llvm::format(
          "  %-8s %-34s %6.2f s  loads %5.1f%%  stores %5.1f%%  bank "
          "conflicts %llu  read %.2fx input  written %.2fx results\n",
          c.c_str(), k.name.c_str(), seconds, 100 * p.loadEfficiency(),
          100 * p.storeEfficiency(), (unsigned long long)p.bankConflicts,
          p.inputBytes ? double(p.bytesRead) / double(p.inputBytes) : 0.0,
          p.resultBytes ? double(p.bytesWritten) / double(p.resultBytes)
                        : 0.0);
    }
  }
  return failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "mxq GPU benchmark\n");
  if (size <= 0 || size % 128 != 0) {
    llvm::errs() << "mxq-gpu-bench: error: --size must be a positive "
                    "multiple of 128, got "
                 << size << "\n";
    return 1;
  }
  if (repeat <= 0) {
    llvm::errs() << "mxq-gpu-bench: error: --repeat must be positive\n";
    return 1;
  }
  if (emulate)
    return runEmulated();
  std::string error;
  std::string target = chip;
  if (target.empty())
    target = mxq::GPUExecutable::deviceChip(error);
  if (target.empty()) {
    llvm::errs() << "mxq-gpu-bench: no GPU to measure: " << error << "\n";
    return 2;
  }

  int64_t n = size;
  mxq::RawTensor x;
  x.shape = {n, n};
  x.data.resize(n * n * 2);
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  for (int64_t i = 0; i < n * n; ++i) {
    float v = normal(rng);
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    uint16_t b = uint16_t((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
    std::memcpy(&x.data[2 * i], &b, 2);
  }

  double copyMs = 0;
  if (!mxq::GPUExecutable::timeCopy(x.data.size(), repeat, copyMs, error)) {
    llvm::errs() << "mxq-gpu-bench: error: " << error << "\n";
    return 1;
  }
  double copyGBs = 2.0 * x.data.size() / (copyMs * 1e6);
  llvm::outs() << "mxq-gpu-bench: " << target << ", bf16 " << n << " x " << n
               << ", " << repeat << " calls each\n";
  llvm::outs() << llvm::format("  device-to-device copy of the input: %.3f ms, "
                               "%.0f GB/s\n",
                               copyMs, copyGBs);

  mxq::registerAllTargets();
  const mxq::Target *nvvm = mxq::lookupTarget("nvvm", error);
  if (!nvvm) {
    llvm::errs() << "mxq-gpu-bench: error: " << error << "\n";
    return 1;
  }
  DialectRegistry registry;
  mxq::registerDialects(registry);
  MLIRContext context(registry);
  mxq::TargetOptions options;
  options.chip = target;
  int failures = 0;
  for (const Case &c : cases(n, false)) {
    x.elementType = BFloat16Type::get(&context);
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(c.text, &context);
    mxq::Timing timing;
    std::unique_ptr<mxq::Executable> exe;
    if (!module || !(exe = nvvm->compile(*module, "f", options, error)) ||
        !exe->time({x}, repeat, timing, error)) {
      llvm::outs() << "  " << c.name << ": error: " << error << "\n";
      ++failures;
      continue;
    }
    double kernelMs = timing.deviceMillis, wallMs = timing.wallMillis;
    double gbs = c.bytesPerElem * double(n) * double(n) / (kernelMs * 1e6);
    llvm::outs() << llvm::format("  %-34s kernels %.3f ms (wall %.3f ms), "
                                 "%.0f GB/s, %.2f of copy bandwidth\n",
                                 c.name.c_str(), kernelMs, wallMs, gbs,
                                 gbs / copyGBs);
  }
  return failures ? 1 : 0;
}
