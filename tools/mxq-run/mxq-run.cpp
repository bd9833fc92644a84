//===- mxq-run.cpp - run a function of an MLIR file on .npy data ----------===//
//
//   mxq-run FILE.mlir --entry NAME --input A.npy [--input B.npy ...]
//           --output-dir DIR [--target=cpu|nvvm|reference|...] [--chip C]
//           [--ptx V] [--tile-sizes=...] [--profile] [--trace F] [--print]
//   mxq-run --list-targets
//
// Reads the inputs in argument order, compiles the function for the target
// (found in the target registry, mxq/Target/Target.h; default cpu), runs it
// and writes DIR/result0.npy, ... . --reference and --gpu are the older
// spellings of --target=reference and --target=nvvm.
// Data conventions: f32 <f4, f16 <f2, bf16 <u2 (bit patterns), f8/f6/E8M0
// |u1 codes, f4E2M1FN |u1 packed two per byte along the last axis (element 0
// in the low nibble).
//
//===----------------------------------------------------------------------===//
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Execution/Execution.h"
#include "mxq/InitAll.h"
#include "mxq/Interpreter/Interpreter.h"
#include "mxq/Reference/Reference.h"
#include "mxq/Target/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("mxq-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string> entry("entry", cl::desc("function to run"),
                                  cl::cat(category));
static cl::list<std::string> inputs("input",
                                    cl::desc("an argument, as a .npy file "
                                             "(repeat, in argument order)"),
                                    cl::cat(category));
static cl::opt<std::string> outputDir("output-dir",
                                      cl::desc("where result<i>.npy go"),
                                      cl::cat(category));
static cl::opt<std::string> targetName(
    "target", cl::init("cpu"), cl::cat(category),
    cl::desc("the target to compile and run for (--list-targets lists "
             "them; default cpu)"));
static cl::opt<bool> listTargets("list-targets", cl::cat(category),
                                 cl::desc("list the targets of this build"));
static cl::opt<bool> reference(
    "reference", cl::cat(category),
    cl::desc("the same as --target=reference: run the C++ reference of each "
             "op"));
static cl::list<int64_t> tileSizes(
    "tile-sizes", cl::CommaSeparated, cl::cat(category),
    cl::desc("tile the mxq ops with mxq-tile first (iteration-domain units, "
             "0 for untiled)"));
static cl::opt<bool>
    gpu("gpu", cl::cat(category),
        cl::desc("the same as --target=nvvm: an NVIDIA GPU (through the CUDA "
                 "driver, libcuda.so.1)"));
static cl::opt<std::string> chip(
    "chip", cl::cat(category),
    cl::desc("the target's chip (nvvm: default the GPU's own, e.g. sm_90a)"));
static cl::opt<int> ptx("ptx", cl::cat(category),
                        cl::desc("nvvm: PTX ISA version times ten (default: "
                                 "the chip's minimum)"),
                        cl::init(0));
static cl::opt<std::string> emitLibrary(
    "emit-library", cl::cat(category),
    cl::desc("compile ahead of time into this shared library (nvvm: plus "
             "FILE.sig, for mxq-gpu-launch) instead of running; no --input "
             "or --output-dir needed"));
static cl::opt<std::string>
    emitGPULibrary("emit-gpu-library", cl::cat(category),
                   cl::desc("the same as --target=nvvm --emit-library"));
static cl::opt<int64_t> fp4Length(
    "fp4-length", cl::cat(category),
    cl::desc("the number of FP4 codes along the last axis of an FP4 input "
             "whose last dimension is dynamic (the file holds ceil(n/2) "
             "bytes per row; default: twice the bytes)"),
    cl::init(-1));
static cl::opt<int> threads(
    "num-threads", cl::cat(category),
    cl::desc("threads to run on (target cpu; 0, the default: every core; "
             "1: one thread)"),
    cl::init(0));

static cl::opt<bool> profile(
    "profile", cl::cat(category),
    cl::desc("print the memory profile of the run (target nvvm-emu: sectors "
             "per warp-wide access, bank conflicts, bytes moved; target "
             "ascend: cycles, pipe busy fractions, GM bandwidth)"));

static cl::opt<std::string> trace(
    "trace", cl::cat(category),
    cl::desc("write a Chrome/Perfetto trace of the run to this file (target "
             "ascend: one track per pipe per core)"));

static cl::opt<bool> print("print", cl::cat(category),
                           cl::desc("print the first values of each result"));

static int error(const llvm::Twine &message) {
  llvm::errs() << "mxq-run: error: " << message << "\n";
  return 1;
}

/// The value of element `k` of a wide-float tensor.
static double valueAt(const ::mxq::ResultView &t, size_t k) {
  if (t.elementType.isF32()) {
    float v;
    std::memcpy(&v, &t.bytes[4 * k], 4);
    return v;
  }
  uint16_t bits = uint16_t(t.bytes[2 * k] | (t.bytes[2 * k + 1] << 8));
  return t.elementType.isF16() ? ::mxq::ref::fromF16Bits(bits)
                               : ::mxq::ref::fromBF16Bits(bits);
}

static void printSummary(llvm::raw_ostream &os, unsigned i,
                         const ::mxq::ResultView &t) {
  os << "result" << i << ": " << t.elementType << " [";
  for (size_t d = 0; d < t.shape.size(); ++d)
    os << (d ? ", " : "") << t.shape[d];
  os << "]\n  ";
  bool wide =
      t.elementType.isF32() || t.elementType.isF16() || t.elementType.isBF16();
  size_t count = 1;
  for (int64_t d : t.shape)
    count *= size_t(d);
  size_t n = std::min<size_t>(8, count);
  for (size_t k = 0; k < n; ++k) {
    if (wide) {
      os << llvm::format("%g ", valueAt(t, k));
      continue;
    }
    uint8_t c = t.bytes[k];
    if (llvm::isa<mlir::Float4E2M1FNType>(t.elementType)) {
      // Two codes a byte along the last axis, each row on a byte.
      size_t cols = size_t(t.shape.back()), pitch = (cols + 1) / 2;
      size_t row = k / cols, col = k % cols;
      c = (t.bytes[row * pitch + col / 2] >> (4 * (col % 2))) & 0xF;
    }
    os << llvm::format("0x%02x", c);
    if (auto f = mlir::mxq::getElementFormat(t.elementType))
      os << llvm::format("(%g) ", double(::mxq::ref::decodeElement(c, *f)));
    else if (c == 0xFF)
      os << "(NaN) ";
    else
      os << llvm::format("(2^%d) ", int(c) - 127);
  }
  os << (n < count ? "...\n" : "\n");
}

/// The target the flags ask for: --target, or an older spelling of it.
static std::string chosenTarget(std::string &err) {
  bool explicitTarget = targetName.getNumOccurrences() > 0;
  std::string name = targetName;
  auto alias = [&](bool given, const char *flag, const char *target) {
    if (!given || !err.empty())
      return;
    if ((explicitTarget || name != "cpu") && name != target)
      err = std::string(flag) + " means --target=" + target +
            ", but the target is already '" + name + "'";
    name = target;
  };
  if (gpu && reference)
    err = "--gpu and --reference exclude each other";
  alias(reference, "--reference", "reference");
  alias(gpu, "--gpu", "nvvm");
  alias(!emitGPULibrary.empty(), "--emit-gpu-library", "nvvm");
  return name;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "mxq-run: run an mxq function on .npy data\n");
  ::mxq::registerAllTargets();
  if (listTargets) {
    for (const ::mxq::Target *t : ::mxq::registeredTargets())
      llvm::outs() << llvm::format("%-10s ", t->name().str().c_str())
                   << t->description() << "\n";
    return 0;
  }
  if (inputFile.empty())
    return error("no input file (usage: mxq-run FILE.mlir --entry NAME ...)");
  if (entry.empty())
    return error("--entry is required");

  std::string err;
  std::string name = chosenTarget(err);
  if (!err.empty())
    return error(err);
  const ::mxq::Target *target = ::mxq::lookupTarget(name, err);
  if (!target)
    return error(err);
  ::mxq::TargetOptions options;
  options.chip = chip;
  options.isaVersion = ptx;
  options.tileSizes.assign(tileSizes.begin(), tileSizes.end());
  options.profile = profile;
  options.threads = threads;
  options.trace = trace;
  if (!target->checkOptions(options, err))
    return error(err);
  if (fp4Length < -1 || (fp4Length.getNumOccurrences() && fp4Length < 0))
    return error("--fp4-length: a number of codes cannot be negative, but "
                 "it is " +
                 llvm::Twine(int64_t(fp4Length)));
  std::string libraryPath =
      !emitGPULibrary.empty() ? std::string(emitGPULibrary) : emitLibrary;
  if (!emitGPULibrary.empty() && !emitLibrary.empty())
    return error("--emit-library and --emit-gpu-library exclude each other");

  DialectRegistry registry;
  ::mxq::registerDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  std::string errorMessage;
  auto file = openInputFile(inputFile, &errorMessage);
  if (!file)
    return error(errorMessage);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return error("cannot parse '" + inputFile + "'");

  auto func = module->lookupSymbol<func::FuncOp>(entry);
  if (!func)
    return error("'" + inputFile + "' has no function @" + entry);
  if (!libraryPath.empty()) {
    if (!target->emitLibrary(*module, entry, options, libraryPath, err))
      return error(err);
    return 0;
  }
  if (outputDir.empty())
    return error("--output-dir is required");
  auto fnType = func.getFunctionType();
  if (fnType.getNumInputs() != inputs.size())
    return error("@" + entry + " takes " + llvm::Twine(fnType.getNumInputs()) +
                 " arguments, but " + llvm::Twine(inputs.size()) +
                 " --input files were given");

  // Every input is checked against the function's type the same way,
  // whatever the target.
  std::vector<::mxq::RawTensor> raw(inputs.size());
  for (unsigned i = 0; i < inputs.size(); ++i) {
    auto type = dyn_cast<RankedTensorType>(fnType.getInput(i));
    if (!type)
      return error("input " + llvm::Twine(i) +
                   ": argument type is not a "
                   "ranked tensor");
    ::mxq::npy::Array array;
    if (!::mxq::npy::read(inputs[i], array, err))
      return error("input " + llvm::Twine(i) + ": " + err);
    if (!::mxq::tensorFromNpy(std::move(array), type, i, raw[i], err,
                              fp4Length))
      return error(err + " ('" + inputs[i] + "')");
  }

  // One check of the inputs against each other, whatever the target (before
  // the compile, so that bad data costs no compile; CompiledFunction::run
  // makes the same check for every front end).
  if (!::mxq::checkInputs(func, raw, err))
    return error(err);

  auto compiled =
      ::mxq::CompiledFunction::compile(*module, entry, name, options, err);
  if (!compiled)
    return error(err);
  if (auto ec = llvm::sys::fs::create_directories(outputDir))
    return error("cannot create '" + outputDir + "': " + ec.message());
  // Each result is written from where the kernel left it: mxq-run holds no
  // copy of a result (issue 16: peak memory).
  std::vector<std::string> summaries;
  auto write = [&](unsigned i, const ::mxq::ResultView &result,
                   std::string &why) {
    if (print) {
      std::string s;
      llvm::raw_string_ostream os(s);
      printSummary(os, i, result);
      summaries.push_back(s);
    }
    std::string path = outputDir + "/result" + std::to_string(i) + ".npy";
    return ::mxq::writeNpy(path, result, why);
  };
  if (!compiled->runInto(raw, write, err))
    return error(err);
  if (profile)
    llvm::outs() << compiled->report();
  for (const std::string &s : summaries)
    llvm::outs() << s;
  return 0;
}
