//===- mxq-vtile-run.cpp - run a vtile kernel on the simulator ------------===//
//
//   mxq-vtile-run FILE.mlir --entry NAME [--input A.npy ...] [--chip C]
//                 [--trace F] [--output-dir DIR]
//
// Runs a kernel written in the vtile dialect (by hand, or printed by
// convert-mxq-to-vtile) on the Ascend-like simulator and prints its cycle
// summary. GM argument i takes the bytes of the i-th --input (which must
// have exactly the argument's size) or starts zeroed; with --output-dir,
// every argument's final bytes are written as DIR/argI.bin. A hazard, a
// deadlock or memory out of bounds is an error naming the instruction and
// the core.
//
//===----------------------------------------------------------------------===//
#include "mxq/InitAll.h"
#include "mxq/Runtime/Tensor.h"
#include "mxq/Support/Npy.h"
#include "mxq/Support/ScaleLayout.h"
#include "mxq/Target/Ascend/Simulator.h"
#include "mxq/Target/Ascend/VTile.h"
#include "mxq/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("mxq-vtile-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string> entry("entry", cl::desc("the kernel to run"),
                                  cl::cat(category));
static cl::list<std::string> inputs("input",
                                    cl::desc("bytes of the next GM argument "
                                             "(.npy)"),
                                    cl::cat(category));
static cl::opt<std::string> chipSpec(
    "chip", cl::desc("the chip (default: the module's vtile.chip, else 950pr)"),
    cl::cat(category));
static cl::opt<std::string> trace("trace",
                                  cl::desc("write a Chrome/Perfetto trace"),
                                  cl::cat(category));
static cl::opt<std::string>
    outputDir("output-dir", cl::desc("write every argument's final bytes here"),
              cl::cat(category));

/// The most GM (every argument together) the tool allocates.
static constexpr uint64_t kMaxGMBytes = uint64_t(1) << 32;

static int error(const llvm::Twine &message) {
  llvm::errs() << "mxq-vtile-run: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "run a vtile kernel on the "
                              "Ascend-like simulator\n");
  if (inputFile.empty() || entry.empty())
    return error("usage: mxq-vtile-run FILE.mlir --entry NAME");
  mxq::registerAllTargets();
  DialectRegistry registry;
  mxq::registerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  std::string message;
  auto file = openInputFile(inputFile, &message);
  if (!file)
    return error(message);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return error("cannot parse '" + inputFile + "'");
  auto kernel = module->lookupSymbol<func::FuncOp>(entry);
  if (!kernel)
    return error("'" + inputFile + "' has no function @" + entry);
  mxq::vtile::Chip chip;
  std::string err;
  if (!chipSpec.empty() ? !mxq::vtile::parseChip(chipSpec, chip, err)
                        : !mxq::vtile::chipOf(*module, chip, err))
    return error(err);
  if (inputs.size() > kernel.getNumArguments())
    return error("@" + entry + " takes " +
                 llvm::Twine(kernel.getNumArguments()) + " buffers, but " +
                 llvm::Twine(inputs.size()) + " --input files were given");
  std::vector<std::vector<uint8_t>> storage;
  uint64_t total = 0;
  for (auto [i, arg] : llvm::enumerate(kernel.getArguments())) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.hasStaticShape() || !mxq::vtile::isGlobalMemRef(type))
      return error("argument " + llvm::Twine(i) +
                   " is not a static memref in #vtile.space<gm>");
    std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
    // GM is host memory here: a buffer the machine cannot hold is an error
    // that says so, not an allocation failure (nor a size that overflows).
    uint64_t elements = 1;
    bool tooBig = false;
    for (int64_t d : shape) {
      if (d != 0 && elements > kMaxGMBytes / uint64_t(d))
        tooBig = true;
      elements *= uint64_t(d);
    }
    if (llvm::is_contained(shape, 0)) // empty, however long the others
      tooBig = false;
    uint64_t bytes =
        tooBig ? 0 : mxq::storageBytes(type.getElementType(), shape);
    total += bytes;
    if (tooBig || bytes > kMaxGMBytes || total > kMaxGMBytes)
      return error("argument " + llvm::Twine(i) + " (" +
                   llvm::Twine(mxq::shapeToString(shape)) +
                   ") is larger than the " + llvm::Twine(kMaxGMBytes) +
                   " bytes of GM mxq-vtile-run holds in all");
    storage.emplace_back(bytes, 0);
    if (i < inputs.size()) {
      mxq::npy::Array array;
      if (!mxq::npy::read(inputs[i], array, err))
        return error("input " + llvm::Twine(i) + ": " + err);
      if (array.data.size() != bytes)
        return error("input " + llvm::Twine(i) + " has " +
                     llvm::Twine(array.data.size()) + " bytes, but argument " +
                     llvm::Twine(i) + " has " + llvm::Twine(bytes));
      storage.back() = std::move(array.data);
    }
  }
  std::vector<mxq::vtile::GlobalBuffer> buffers;
  for (auto &s : storage)
    buffers.push_back({s.data(), int64_t(s.size())});
  mxq::vtile::SimReport report;
  if (!mxq::vtile::simulate(kernel, chip, buffers, report, err, trace))
    return error(err);
  llvm::outs() << report.summary(chip);
  if (!outputDir.empty()) {
    if (auto ec = llvm::sys::fs::create_directories(outputDir))
      return error("cannot create '" + outputDir + "': " + ec.message());
    for (auto [i, s] : llvm::enumerate(storage)) {
      std::string path = outputDir + "/arg" + std::to_string(i) + ".bin";
      std::ofstream out(path, std::ios::binary);
      out.write(reinterpret_cast<const char *>(s.data()), s.size());
      if (!out)
        return error("cannot write '" + path + "'");
    }
  }
  return 0;
}
