//===- mxq-bench.cpp - CPU throughput of compiled mxq kernels -------------===//
//
// Times MXFP8 quantize (f32 and bf16 input), dual quantize and FP4 quantize
// on an N x N input (default 8192) on one thread, each beside a copy of the
// same input bytes measured in the same run (memcpy into a fresh buffer, as
// the kernels write fresh results), the time to compile each function from
// text to machine code with the compile cache off (after a start-up compile
// of a one-block quantize, whose time is printed first: the process's first
// compile pays for what all share): the best of three such compiles, as
// speed is the best of several runs, and the first of them, which also pays
// for the code of LLVM's that this kind of function is the first to use;
// and the time to compile it again through the cache. Prints Gelem/s and the ratio of the
// copy's time to the kernel's (1.0 = as fast as copying the input), then the
// same kernel compiled for every core (OpenMP; --num-threads N for N) and
// its speed-up over one thread. The MXFP8 quantizes are also measured
// against a hand-vectorized AVX-512 kernel of the same quantize
// (Avx512Baseline.h; skipped with a message where the CPU or the build has
// no AVX-512), after checking that its bytes equal mxq's.
//
//   mxq-bench [--size N] [--repeat R]
//
//===----------------------------------------------------------------------===//
#include "Avx512Baseline.h"
#include "mxq/InitAll.h"
#include "mxq/Target/CPU/CPUTarget.h"
#include "mxq/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <cmath>
#include <random>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("mxq-bench options");
static cl::opt<int64_t> size("size", cl::cat(category),
                             cl::desc("rows and columns"), cl::init(8192));
static cl::list<int64_t>
    tileSizes("tile-sizes", cl::cat(category), cl::CommaSeparated,
              cl::desc("tile with mxq-tile first (iteration-domain units)"));
static cl::opt<int>
    numThreads("num-threads", cl::cat(category),
               cl::desc("threads of the parallel column (0: every core)"),
               cl::init(0));
static cl::opt<int> repeat("repeat", cl::cat(category),
                           cl::desc("runs; the best is reported"), cl::init(5));
static cl::opt<std::string>
    only("only", cl::cat(category),
         cl::desc("run only the kernels whose name contains this text"),
         cl::init(""));

namespace {
using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

enum class Baseline { None, F32, BF16, DualBF16 };

struct Case {
  const char *name;
  const char *elt; // input element type
  const char *body;
  Baseline baseline = Baseline::None;
  /// A second argument %a, an f32 scalar (`tensor<f32>`): the input's
  /// largest |x| (NVFP4's stored amax).
  bool amaxArg = false;
};

const Case kCases[] = {
    {"MXFP8 quantize, f32 in", "f32",
     "%q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xf32> -> "
     "tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>\n"
     "return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>",
     Baseline::F32},
    {"MXFP8 quantize, bf16 in", "bf16",
     "%q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xbf16> -> "
     "tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>\n"
     "return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>",
     Baseline::BF16},
    {"MXFP8 dual quantize, bf16 in", "bf16",
     "%a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<?x?xbf16> "
     "-> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, "
     "tensor<?xf8E8M0FNU>\n"
     "return %a, %b, %c, %d : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, "
     "tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>",
     Baseline::DualBF16},
    {"FP4 quantize, bf16 in", "bf16",
     "%q, %s = mxq.quantize %x axis = 1 scale = rceil inf = saturate layout = "
     "pairs : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, "
     "tensor<?x?x2xf8E8M0FNU>\n"
     "return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>"},
    // NVFP4 (E4M3 scales per 16): torchao's single level (a divide per
    // element), and TE's with the amax computed (a pass over the tensor
    // before the blocks).
    {"NVFP4 quantize (torchao), bf16 in", "bf16",
     "%q, %s = mxq.quantize %x axis = 1 block = 16 scale = decode : "
     "tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>\n"
     "return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>"},
    {"NVFP4 quantize (TE, amax given), bf16 in", "bf16",
     "%q, %s = mxq.quantize %x outer(%a : tensor<f32>) axis = 1 block = 16 "
     "scale = encode : "
     "tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>\n"
     "return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>",
     Baseline::None, /*amaxArg=*/true},
    {"NVFP4 quantize (TE, amax computed), bf16 in", "bf16",
     "%q, %s = mxq.quantize %x axis = 1 block = 16 scale = encode : "
     "tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>\n"
     "return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>"},
    // Blockwise FP8 (DeepSeek's act_quant, 1 x 128): x / s per element;
    // with pow2 (scale_fmt "ue8m0") x * (1/s), the same f32
    // (f32ScaleDivides).
    {"blockwise FP8 (DeepSeek, divide), bf16 in", "bf16",
     "%q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode "
     "amax_floor = 1.0e-04 : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, "
     "tensor<?x?xf32>\n"
     "return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>"},
    {"blockwise FP8 ue8m0 (DeepSeek pow2, multiply), bf16 in", "bf16",
     "%q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode "
     "amax_floor = 1.0e-04 pow2 : tensor<?x?xbf16> -> "
     "tensor<?x?xf8E4M3FN>, tensor<?x?xf32>\n"
     "return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>"},
};

std::string moduleText(const Case &c) {
  std::string results;
  std::string body = c.body;
  size_t colon = body.rfind(" : ");
  results = body.substr(colon + 3);
  return std::string("func.func @f(%x: tensor<?x?x") + c.elt + ">" +
         (c.amaxArg ? ", %a: tensor<f32>" : "") + ") -> (" + results +
         ") {\n" + body + "\n}\n";
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "mxq CPU benchmark\n");
  // Keep freed buffers in the heap so that every run (kernel and copy alike)
  // writes warm pages instead of timing the kernel's page faults.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mxq::registerAllTargets();
  const mxq::Target *cpu = mxq::lookupTarget("cpu");
  if (!cpu) {
    llvm::errs() << "mxq-bench: this build has no CPU target\n";
    return 1;
  }
  DialectRegistry registry;
  mxq::registerDialects(registry);
  MLIRContext context(registry);

  int64_t n = size;
  std::mt19937 rng(42);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  std::vector<float> values(n * n);
  for (float &v : values)
    v = normal(rng);
  llvm::outs() << "mxq CPU benchmark: " << n << " x " << n
               << " input, one thread, best of " << repeat << " runs";
  if (!tileSizes.empty()) {
    llvm::outs() << ", tiled";
    for (int64_t t : tileSizes)
      llvm::outs() << " " << t;
  }
  llvm::outs() << "\n";
  std::string noOpenMP;
  bool parallel = mxq::hasOpenMPRuntime(noOpenMP);
  if (!parallel)
    llvm::outs() << "(no parallel column: " << noOpenMP << ")\n";
  std::string noBaseline;
  bool baseline = mxq::bench::avx512Available(noBaseline) && n % 128 == 0;
  if (!baseline)
    llvm::outs() << "(no AVX-512 baseline: "
                 << (noBaseline.empty() ? "the size is not a multiple of 128"
                                        : noBaseline)
                 << ")\n";
  // The process's first compile pays once for what every later one shares
  // (LLVM's code pages faulted in, the target and the dialects set up): 8 ms
  // on the project's machine. It is a one-block quantize of its own here,
  // so that each kernel's compile time below is the kernel's, whichever
  // runs first.
  {
    auto s0 = Clock::now();
    OwningOpRef<ModuleOp> first = parseSourceString<ModuleOp>(
        "func.func @f(%x: tensor<1x32xf32>) -> (tensor<1x32xf8E4M3FN>, "
        "tensor<1x1xf8E8M0FNU>) {\n"
        "%q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<1x32xf32> -> "
        "tensor<1x32xf8E4M3FN>, tensor<1x1xf8E8M0FNU>\n"
        "return %q, %s : tensor<1x32xf8E4M3FN>, tensor<1x1xf8E8M0FNU>\n}\n",
        &context);
    std::string error;
    mxq::TargetOptions options;
    options.threads = 1;
    options.cache = false;
    if (!first || !cpu->compile(*first, "f", options, error)) {
      llvm::errs() << "cannot compile the start-up function: " << error
                   << "\n";
      return 1;
    }
    llvm::outs() << "(start-up: the process's first compile, a one-block "
                    "quantize, took "
                 << llvm::format("%.0f", seconds(s0, Clock::now()) * 1e3)
                 << " ms)\n";
  }
  llvm::outs() << llvm::format("%-30s %10s %10s %12s %8s %14s %8s %10s %8s\n",
                               "kernel", "ms", "Gelem/s", "copy Gelem/s",
                               "ratio", "all-core Gel/s", "speedup",
                               "AVX512 G/s", "vs AVX512");
  for (const Case &c : kCases) {
    if (!StringRef(c.name).contains(only))
      continue;
    bool bf16 = std::string(c.elt) == "bf16";
    mxq::RawTensor input;
    input.shape = {n, n};
    input.data.resize(n * n * (bf16 ? 2 : 4));
    if (bf16) {
      for (int64_t i = 0; i < n * n; ++i) {
        uint32_t b;
        std::memcpy(&b, &values[i], 4);
        uint16_t h = uint16_t(b >> 16);
        std::memcpy(&input.data[2 * i], &h, 2);
      }
    } else {
      std::memcpy(input.data.data(), values.data(), n * n * 4);
    }

    std::vector<mxq::RawTensor> inputs{input};
    if (c.amaxArg) {
      float amax = 0;
      for (float v : values)
        amax = std::max(amax, std::fabs(v));
      mxq::RawTensor a;
      a.shape = {};
      a.elementType = Float32Type::get(&context);
      a.data.resize(4);
      std::memcpy(a.data.data(), &amax, 4);
      inputs.push_back(std::move(a));
    }

    auto t0 = Clock::now();
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(moduleText(c), &context);
    if (!module) {
      llvm::errs() << "cannot parse the kernel of '" << c.name << "'\n";
      return 1;
    }
    input.elementType =
        cast<RankedTensorType>(
            module->lookupSymbol<func::FuncOp>("f").getFunctionType().getInput(
                0))
            .getElementType();
    std::string error;
    mxq::TargetOptions options;
    options.tileSizes.assign(tileSizes.begin(), tileSizes.end());
    options.threads = 1;
    // A cold compile (parse to machine code), then the same text again
    // through the compile cache (what a caller who runs the op again pays).
    options.cache = false;
    auto exe = cpu->compile(*module, "f", options, error);
    double firstCompile = seconds(t0, Clock::now());
    if (!exe) {
      llvm::errs() << error << "\n";
      return 1;
    }
    // The same text compiled again: the seconds it took, or a negative
    // number after printing why it failed.
    auto compileAgain = [&]() -> double {
      auto c0 = Clock::now();
      OwningOpRef<ModuleOp> same =
          parseSourceString<ModuleOp>(moduleText(c), &context);
      if (!same || !cpu->compile(*same, "f", options, error)) {
        llvm::errs() << "cannot compile '" << c.name << "' again: " << error
                     << "\n";
        return -1;
      }
      return seconds(c0, Clock::now());
    };
    // Two more cold compiles (the cache is off): the machine is noisy, so
    // the compile time is their best, like the speed.
    double bestCompile = firstCompile;
    for (int r = 0; r < 2; ++r) {
      double t = compileAgain();
      if (t < 0)
        return 1;
      bestCompile = std::min(bestCompile, t);
    }
    options.cache = true;
    double cachedCompile = 1e30;
    for (int r = 0; r < 3; ++r) {
      double t = compileAgain();
      if (t < 0)
        return 1;
      if (r > 0) // the first one fills the cache
        cachedCompile = std::min(cachedCompile, t);
    }
    double best = 1e30, bestCopy = 1e30;
    for (int r = 0; r < repeat; ++r) {
      mxq::Timing timing;
      if (!exe->time(inputs, 1, timing, error)) {
        llvm::errs() << error << "\n";
        return 1;
      }
      auto b = Clock::now();
      void *dst = std::malloc(input.data.size());
      std::memcpy(dst, input.data.data(), input.data.size());
      asm volatile("" : : "r"(dst) : "memory"); // keep the copy
      auto d = Clock::now();
      std::free(dst);
      best = std::min(best, timing.wallMillis / 1e3);
      bestCopy = std::min(bestCopy, seconds(b, d));
    }
    // The same kernel on every core (or --num-threads).
    double bestParallel = 0;
    if (parallel) {
      OwningOpRef<ModuleOp> again =
          parseSourceString<ModuleOp>(moduleText(c), &context);
      mxq::TargetOptions all = options;
      all.threads = numThreads;
      auto exeAll = cpu->compile(*again, "f", all, error);
      if (!exeAll) {
        llvm::errs() << error << "\n";
        return 1;
      }
      bestParallel = 1e30;
      for (int r = 0; r < repeat; ++r) {
        mxq::Timing timing;
        if (!exeAll->time(inputs, 1, timing, error)) {
          llvm::errs() << error << "\n";
          return 1;
        }
        bestParallel = std::min(bestParallel, timing.wallMillis / 1e3);
      }
    }
    // The hand-written kernel of the same quantize: its bytes first.
    double bestBaseline = 0;
    if (baseline && c.baseline != Baseline::None) {
      std::vector<mxq::RawTensor> results;
      if (!exe->run(inputs, results, error)) {
        llvm::errs() << error << "\n";
        return 1;
      }
      // The baseline's results, sized as mxq's.
      std::vector<size_t> sizes = {size_t(n * n), size_t(n * (n / 32))};
      if (c.baseline == Baseline::DualBF16)
        sizes = {size_t(n * n), size_t(n * n / 32), size_t(n * n),
                 size_t(n * n / 32)};
      auto runBaseline = [&](std::vector<std::vector<uint8_t>> &out) {
        const uint8_t *in = input.data.data();
        if (c.baseline == Baseline::F32)
          mxq::bench::quantizeF32(reinterpret_cast<const float *>(in), n, n,
                                  out[0].data(), out[1].data());
        else if (c.baseline == Baseline::BF16)
          mxq::bench::quantizeBF16(reinterpret_cast<const uint16_t *>(in), n, n,
                                   out[0].data(), out[1].data());
        else
          mxq::bench::dualQuantizeBF16(reinterpret_cast<const uint16_t *>(in),
                                       n, out[0].data(), out[1].data(),
                                       out[2].data(), out[3].data());
      };
      auto fresh = [&] {
        std::vector<std::vector<uint8_t>> out;
        for (size_t bytes : sizes)
          out.emplace_back(bytes);
        return out;
      };
      std::vector<std::vector<uint8_t>> expected = fresh();
      runBaseline(expected);
      bool same = results.size() == expected.size();
      for (size_t k = 0; same && k < expected.size(); ++k)
        same = results[k].data == expected[k];
      if (!same) {
        llvm::errs() << "mxq-bench: the AVX-512 baseline's bytes differ from "
                        "mxq's for '"
                     << c.name << "': not the same quantize\n";
        return 1;
      }
      bestBaseline = 1e30;
      for (int r = 0; r < repeat; ++r) {
        std::vector<std::vector<uint8_t>> out = fresh();
        auto b = Clock::now();
        runBaseline(out);
        asm volatile("" : : "r"(out[0].data()) : "memory");
        auto d = Clock::now();
        bestBaseline = std::min(bestBaseline, seconds(b, d));
      }
    }
    double elems = double(n) * n;
    llvm::outs() << llvm::format("%-30s %10.1f %10.2f %12.2f %8.2f", c.name,
                                 best * 1e3, elems / best / 1e9,
                                 elems / bestCopy / 1e9, bestCopy / best);
    if (parallel)
      llvm::outs() << llvm::format(" %14.2f %8.2f", elems / bestParallel / 1e9,
                                   best / bestParallel);
    else
      llvm::outs() << llvm::format(" %14s %8s", "-", "-");
    if (bestBaseline > 0)
      llvm::outs() << llvm::format(" %10.2f %8.2f", elems / bestBaseline / 1e9,
                                   bestBaseline / best);
    else
      llvm::outs() << llvm::format(" %10s %8s", "-", "-");
    llvm::outs() << "   (compile "
                 << llvm::format("%.0f", bestCompile * 1e3) << " ms, first "
                 << llvm::format("%.0f", firstCompile * 1e3) << " ms, cached "
                 << llvm::format("%.2f", cachedCompile * 1e3) << " ms)\n";
  }
  return 0;
}
