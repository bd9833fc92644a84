//===- mxq-run.cpp - run a function of an MLIR file on .npy data ----------===//
//
//   mxq-run FILE.mlir --entry NAME --input A.npy [--input B.npy ...]
//           --output-dir DIR [--reference | --gpu [--chip C] [--ptx V]]
//           [--print]
//
// Reads the inputs in argument order and writes DIR/result0.npy, ... .
// By default the function is compiled for the CPU; --gpu compiles it through
// mxq-gpu-pipeline and runs it on the first NVIDIA GPU (CUDA driver API).
// Data conventions: f32 <f4, f16 <f2, bf16 <u2 (bit patterns), f8/f6/E8M0
// |u1 codes, f4E2M1FN |u1 packed two per byte along the last axis (element 0
// in the low nibble).
//
//===----------------------------------------------------------------------===//
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/InitAll.h"
#include "mxq/Interpreter/Interpreter.h"
#include "mxq/Runtime/CPURunner.h"
#include "mxq/Runtime/GPURunner.h"
#include "mxq/Reference/Reference.h"

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
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::Required);
static cl::opt<std::string> entry("entry", cl::desc("function to run"),
                                  cl::Required);
static cl::list<std::string> inputs("input",
                                    cl::desc("an argument, as a .npy file "
                                             "(repeat, in argument order)"));
static cl::opt<std::string> outputDir("output-dir",
                                      cl::desc("where result<i>.npy go"));
static cl::opt<bool> reference(
    "reference", cl::desc("run the C++ reference of each op instead of "
                          "compiling through the CPU pipeline"));
static cl::list<int64_t> tileSizes(
    "tile-sizes", cl::CommaSeparated,
    cl::desc("tile the mxq ops with mxq-tile first (iteration-domain units, "
             "0 for untiled)"));
static cl::opt<bool> gpu(
    "gpu", cl::desc("compile through mxq-gpu-pipeline and run on the first "
                    "NVIDIA GPU (through the CUDA driver, libcuda.so.1)"));
static cl::opt<std::string> chip(
    "chip", cl::desc("with --gpu: the target chip (default: the GPU's own, "
                     "e.g. sm_90a)"));
static cl::opt<int> ptx("ptx", cl::desc("with --gpu: PTX ISA version times "
                                        "ten (default: the chip's minimum)"),
                        cl::init(0));
static cl::opt<std::string> emitGPULibrary(
    "emit-gpu-library",
    cl::desc("with --gpu and --chip: compile ahead of time into this shared "
             "library (and FILE.sig) for mxq-gpu-launch instead of running; "
             "no --input or --output-dir needed"));
static cl::opt<int64_t> fp4Length(
    "fp4-length",
    cl::desc("the number of FP4 codes along the last axis of an FP4 input "
             "whose last dimension is dynamic (the file holds ceil(n/2) "
             "bytes per row; default: twice the bytes)"),
    cl::init(-1));
static cl::opt<bool> print("print",
                           cl::desc("print the first values of each result"));

static int error(const llvm::Twine &message) {
  llvm::errs() << "mxq-run: error: " << message << "\n";
  return 1;
}

static void printSummary(unsigned i, const ::mxq::Buffer &b) {
  llvm::outs() << "result" << i << ": " << b.elementType << " [";
  for (size_t d = 0; d < b.shape.size(); ++d)
    llvm::outs() << (d ? ", " : "") << b.shape[d];
  llvm::outs() << "]\n  ";
  size_t n = std::min<size_t>(8, b.values.empty() ? b.bytes.size()
                                                   : b.values.size());
  for (size_t k = 0; k < n; ++k) {
    if (!b.values.empty()) {
      llvm::outs() << llvm::format("%g ", double(b.values[k]));
      continue;
    }
    uint8_t c = b.bytes[k];
    llvm::outs() << llvm::format("0x%02x", c);
    if (auto f = mlir::mxq::getElementFormat(b.elementType))
      llvm::outs() << llvm::format("(%g) ",
                                   double(::mxq::ref::decodeElement(c, *f)));
    else if (c == 0xFF)
      llvm::outs() << "(NaN) ";
    else
      llvm::outs() << llvm::format("(2^%d) ", int(c) - 127);
  }
  llvm::outs() << (n < std::max(b.values.size(), b.bytes.size()) ? "...\n"
                                                                  : "\n");
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "mxq-run: run an mxq function on .npy data\n");

  if (gpu && reference)
    return error("--gpu and --reference exclude each other");
  if (!gpu && (chip.getNumOccurrences() || ptx.getNumOccurrences()))
    return error("--chip and --ptx apply only with --gpu");
  if (gpu && !tileSizes.empty())
    return error("--tile-sizes applies only to the CPU (the GPU pipeline "
                 "maps blocks to threads itself)");
  if (fp4Length < -1 || (fp4Length.getNumOccurrences() && fp4Length < 0))
    return error("--fp4-length: a number of codes cannot be negative, but "
                 "it is " + llvm::Twine(int64_t(fp4Length)));
  for (int64_t t : tileSizes)
    if (t < 0)
      return error("--tile-sizes: a tile size cannot be negative, but one is " +
                   llvm::Twine(t));

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
  if (!emitGPULibrary.empty()) {
    if (!gpu || chip.empty())
      return error("--emit-gpu-library needs --gpu and --chip");
    std::string err;
    if (!::mxq::GPUExecutable::emitSharedLibrary(*module, entry, chip, ptx,
                                                 emitGPULibrary, err))
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

  std::vector<::mxq::Buffer> args(inputs.size());
  std::vector<::mxq::RawTensor> raw(inputs.size());
  for (unsigned i = 0; i < inputs.size(); ++i) {
    auto type = dyn_cast<RankedTensorType>(fnType.getInput(i));
    if (!type)
      return error("input " + llvm::Twine(i) + ": argument type is not a "
                   "ranked tensor");
    ::mxq::npy::Array array;
    std::string err;
    if (!::mxq::npy::read(inputs[i], array, err))
      return error("input " + llvm::Twine(i) + ": " + err);
    if (!::mxq::bufferFromNpy(array, type, i, args[i], err, fp4Length))
      return error(err + " ('" + inputs[i] + "')");
    raw[i].shape = args[i].shape;
    raw[i].elementType = type.getElementType();
    raw[i].data = ::mxq::rawFromNpy(array, raw[i].elementType, raw[i].shape);
  }

  std::vector<::mxq::npy::Array> outputs;
  std::vector<std::vector<int64_t>> resultShapes;
  std::string err;
  if (reference) {
    std::vector<::mxq::Buffer> results;
    if (!::mxq::interpret(func, args, results, err))
      return error(err);
    for (const ::mxq::Buffer &b : results) {
      outputs.push_back(::mxq::bufferToNpy(b));
      resultShapes.push_back(b.shape);
    }
  } else if (gpu) {
    std::vector<::mxq::RawTensor> results;
    auto exe = ::mxq::GPUExecutable::compile(*module, entry, chip, ptx, err);
    if (!exe || !exe->run(raw, results, err))
      return error(err);
    for (const ::mxq::RawTensor &r : results) {
      outputs.push_back(::mxq::rawToNpy(r.elementType, r.shape, r.data));
      resultShapes.push_back(r.shape);
    }
  } else {
    std::vector<::mxq::RawTensor> results;
    SmallVector<int64_t> sizes(tileSizes.begin(), tileSizes.end());
    if (!::mxq::runOnCPU(*module, entry, raw, results, err, sizes))
      return error(err);
    for (const ::mxq::RawTensor &r : results) {
      outputs.push_back(::mxq::rawToNpy(r.elementType, r.shape, r.data));
      resultShapes.push_back(r.shape);
    }
  }

  if (auto ec = llvm::sys::fs::create_directories(outputDir))
    return error("cannot create '" + outputDir + "': " + ec.message());
  for (unsigned i = 0; i < outputs.size(); ++i) {
    std::string path = outputDir + "/result" + std::to_string(i) + ".npy";
    if (!::mxq::npy::write(path, outputs[i], err))
      return error(err);
    if (print) {
      ::mxq::Buffer b;
      auto type = cast<RankedTensorType>(fnType.getResult(i));
      int64_t n = resultShapes[i].empty() ? -1 : resultShapes[i].back();
      if (!::mxq::bufferFromNpy(outputs[i], type, i, b, err, n))
        return error("result " + llvm::Twine(i) + ": " + err);
      printSummary(i, b);
    }
  }
  return 0;
}
