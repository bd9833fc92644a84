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
//===----------------------------------------------------------------------===//
#include "mxq/InitAll.h"
#include "mxq/Target/NVVM/GPURunner.h"
#include "mxq/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

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

namespace {

struct Case {
  std::string name;
  std::string text;     // the module
  double bytesPerElem;  // bytes read and written per input element
};

std::vector<Case> cases(int64_t n) {
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
  return {
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
      {"FP4 quantize (one byte per code)",
       fn("%q, %s = mxq.quantize %x axis = 1 scale = rceil inf = saturate "
          "layout = pairs : " +
              in + " -> " + q4 + ", " + sp + "\nreturn %q, %s : " + q4 +
              ", " + sp,
          q4 + ", " + sp),
       2 + 1 + 1.0 / 32},
  };
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
  for (const Case &c : cases(n)) {
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
