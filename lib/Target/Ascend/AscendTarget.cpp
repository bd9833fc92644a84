//===- AscendTarget.cpp - the Ascend-like target: pipeline and runner -----===//
//
// Compiling keeps the module; the first run with a set of input shapes
// specialises the entry function to them (as CANN's host-side tiling does
// per shape) and lowers it to vtile kernels for the chip, which are kept
// for later runs with those shapes; every run runs the kernels on the
// simulator.
//
//===----------------------------------------------------------------------===//
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Runtime/Tensor.h"
#include "mxq/Support/ScaleLayout.h"
#include "mxq/Target/Ascend/Passes.h"
#include "mxq/Target/Ascend/Simulator.h"
#include "mxq/Target/Target.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <map>
#include <memory>

using namespace mlir;
namespace dialect = ::mlir::mxq;

namespace mxq::vtile {
namespace {

/// The entry function of `module` with static argument shapes from
/// `inputs` (and the results of its ops that follow).
LogicalResult specialise(func::FuncOp func,
                         const std::vector<RawTensor> &inputs,
                         std::string &error) {
  if (func.getNumArguments() != inputs.size()) {
    error = "@" + func.getSymName().str() + " takes " +
            std::to_string(func.getNumArguments()) + " arguments, but " +
            std::to_string(inputs.size()) + " were given";
    return failure();
  }
  SmallVector<Type> args;
  for (auto [arg, in] : llvm::zip(func.getArguments(), inputs)) {
    auto t = dyn_cast<RankedTensorType>(arg.getType());
    if (!t || t.getRank() != int64_t(in.shape.size())) {
      error = "an input does not fit @" + func.getSymName().str();
      return failure();
    }
    arg.setType(RankedTensorType::get(in.shape, t.getElementType()));
    args.push_back(arg.getType());
  }
  // Result shapes follow from the inputs' by the layouts' one formula
  // (mxq::scaleShape, the verifier's and the reference's).
  auto withShape = [](Value v, const std::vector<int64_t> &shape) {
    v.setType(RankedTensorType::get(
        shape, cast<RankedTensorType>(v.getType()).getElementType()));
  };
  auto scalesOf = [](RankedTensorType in, int64_t axis, int64_t block,
                     ::mxq::ScaleLayout layout, std::vector<int64_t> &out) {
    std::string ignored;
    return ::mxq::scaleShape(in.getShape().vec(), axis, block, layout, out,
                             ignored);
  };
  func.walk([&](dialect::QuantizeOp q) {
    auto in = cast<RankedTensorType>(q.getInput().getType());
    std::vector<int64_t> scales;
    if (!in.hasStaticShape() ||
        !scalesOf(in, q.getAxis(), q.getBlockSize(),
                  dialect::toSupport(q.getScaleLayout()), scales))
      return;
    withShape(q.getCodes(), in.getShape().vec());
    withShape(q.getScales(), scales);
  });
  func.walk([&](dialect::DualQuantizeOp q) {
    auto in = cast<RankedTensorType>(q.getInput().getType());
    int64_t rank = in.getRank();
    std::vector<int64_t> scales;
    if (!in.hasStaticShape() || rank < 2 ||
        !scalesOf(in, rank - 1, 32, ::mxq::ScaleLayout::Swizzle32x4x4, scales))
      return;
    std::vector<int64_t> transposed = in.getShape().vec();
    std::swap(transposed[rank - 1], transposed[rank - 2]);
    withShape(q.getCodes0(), in.getShape().vec());
    withShape(q.getScales0(), scales);
    withShape(q.getCodes1(), transposed);
    withShape(q.getScales1(), scales);
  });
  func.walk([&](dialect::TwoLevelQuantizeOp q) {
    auto in = cast<RankedTensorType>(q.getInput().getType());
    std::vector<int64_t> level0, level1;
    int64_t last = in.getRank() - 1;
    if (!in.hasStaticShape() || last < 0 ||
        !scalesOf(in, last, kTwoLevelBlock0, ::mxq::ScaleLayout::Linear,
                  level0) ||
        !scalesOf(in, last, kTwoLevelBlock1, ::mxq::ScaleLayout::Pairs, level1))
      return;
    withShape(q.getY(), in.getShape().vec());
    withShape(q.getLevel0Scales(), level0);
    withShape(q.getLevel1Scales(), level1);
  });
  func.walk([&](dialect::FakeQuantOp f) {
    f.getResult().setType(f.getInput().getType());
  });
  func.walk([&](dialect::FakeQuantGradOp f) {
    f.getResult().setType(f.getGrad().getType());
  });
  func.walk([&](dialect::ConvertScaleLayoutOp c) {
    auto codes = cast<RankedTensorType>(c.getCodes().getType());
    std::vector<int64_t> scales;
    if (codes.hasStaticShape() &&
        scalesOf(codes, c.getAxis(), c.getBlockSize(),
                 dialect::toSupport(c.getTo()), scales))
      withShape(c.getResult(), scales);
  });
  func.walk([&](dialect::DequantizeOp d) {
    auto codes = cast<RankedTensorType>(d.getCodes().getType());
    auto out = cast<RankedTensorType>(d.getResult().getType());
    if (codes.hasStaticShape())
      d.getResult().setType(
          RankedTensorType::get(codes.getShape(), out.getElementType()));
  });
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  func.setFunctionType(
      FunctionType::get(func.getContext(), args, ret.getOperandTypes()));
  return success();
}

class AscendExecutable : public Executable {
public:
  AscendExecutable(OwningOpRef<ModuleOp> module, std::string entry,
                   std::string spec, Chip chip, TilingOptions tiling,
                   bool profile, std::string trace)
      : module(std::move(module)), entry(std::move(entry)),
        spec(std::move(spec)), chip(chip), tiling(tiling), profile(profile),
        trace(std::move(trace)) {}

  /// The function lowered for one set of input shapes: one kernel per mxq
  /// op, each with the GM buffers it takes (operands, then results), the
  /// sizes of the buffers after the inputs, and the result buffers.
  struct Lowered {
    OwningOpRef<ModuleOp> module;
    std::vector<std::pair<func::FuncOp, std::vector<size_t>>> kernels;
    std::vector<uint64_t> bufferBytes; ///< buffers past the inputs'
    SmallVector<Type> resultTypes;
    std::vector<size_t> resultBuffers;
    std::string error; ///< why it did not lower (the same every run)
  };

  /// The lowering for `inputs`' shapes, made at the first run with them
  /// (as CANN tiles on the host per shape) and kept: the lowering is most of
  /// a small run's time, and a caller (a fuzzer, a benchmark's repeats)
  /// runs the same shapes again and again. At most 64 sets of shapes.
  const Lowered &loweredFor(const std::vector<RawTensor> &inputs) {
    std::vector<std::vector<int64_t>> key;
    for (const RawTensor &in : inputs)
      key.push_back(in.shape);
    auto it = lowerings.find(key);
    if (it != lowerings.end())
      return *it->second;
    if (lowerings.size() >= 64)
      lowerings.clear();
    auto l = std::make_unique<Lowered>();
    if (!lower(inputs, *l, l->error) && l->error.empty())
      l->error = "the ascend lowering failed";
    return *(lowerings[key] = std::move(l));
  }

  /// Lowers the function for `inputs`' shapes into `l` (see Lowered).
  bool lower(const std::vector<RawTensor> &inputs, Lowered &l,
             std::string &error) {
    OwningOpRef<ModuleOp> copy = module->clone();
    MLIRContext *ctx = copy->getContext();
    auto func = copy->lookupSymbol<func::FuncOp>(entry);
    if (!func) {
      error = "the module has no function @" + entry;
      return false;
    }
    if (failed(specialise(func, inputs, error)))
      return false;
    (*copy)->setAttr(kChipAttr, StringAttr::get(ctx, spec));
    // GM: one buffer per value, the inputs' first.
    llvm::DenseMap<Value, size_t> bufferOf;
    size_t buffers = 0;
    for (Value arg : func.getArguments())
      bufferOf[arg] = buffers++;
    auto allocate = [&](Value v) {
      auto t = cast<RankedTensorType>(v.getType());
      std::vector<int64_t> shape(t.getShape().begin(), t.getShape().end());
      bufferOf[v] = buffers++;
      l.bufferBytes.push_back(storageBytes(t.getElementType(), shape));
    };
    // One kernel function per op.
    auto &kernels = l.kernels;
    auto &resultTypes = l.resultTypes;
    auto &resultBuffers = l.resultBuffers;
    std::string message;
    {
      ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &d) {
        if (message.empty() && d.getSeverity() == DiagnosticSeverity::Error)
          message = d.str();
        return success();
      });
      OpBuilder b(ctx);
      int index = 0;
      for (Operation &op : func.getBody().front().without_terminator()) {
        if (!isa<dialect::MXQDialect>(op.getDialect())) {
          error = "@" + entry + " holds '" + op.getName().getStringRef().str() +
                  "'; the ascend target runs functions of mxq ops";
          return false;
        }
        std::vector<size_t> buffers;
        for (Value v : op.getOperands()) {
          if (!bufferOf.count(v)) {
            error = "@" + entry + ": an operand of '" +
                    op.getName().getStringRef().str() +
                    "' is not an argument or an mxq result";
            return false;
          }
          buffers.push_back(bufferOf[v]);
        }
        b.setInsertionPoint(func);
        auto kernel = func::FuncOp::create(
            b, op.getLoc(),
            func.getSymName().str() +
                (index ? "_" + std::to_string(index) : std::string("_kernel")),
            FunctionType::get(ctx, op.getOperandTypes(), op.getResultTypes()));
        ++index;
        Block *body = kernel.addEntryBlock();
        OpBuilder kb = OpBuilder::atBlockBegin(body);
        IRMapping map;
        map.map(op.getOperands(), body->getArguments());
        Operation *clone = kb.clone(op, map);
        func::ReturnOp::create(kb, op.getLoc(), clone->getResults());
        if (failed(lowerFunctionToVTile(kernel, chip, tiling))) {
          error = message.empty() ? "the ascend lowering failed" : message;
          // The lowering names the kernel; name the entry instead.
          size_t at = error.find("@" + kernel.getSymName().str());
          if (at != std::string::npos)
            error.replace(at, kernel.getSymName().size() + 1, "@" + entry);
          return false;
        }
        // Results get GM once the lowering took the op (their shapes are
        // then static).
        for (Value r : op.getResults()) {
          if (!cast<RankedTensorType>(r.getType()).hasStaticShape()) {
            error = "@" + entry + ": a result of '" +
                    op.getName().getStringRef().str() +
                    "' has no static shape for these inputs";
            return false;
          }
          allocate(r);
          buffers.push_back(bufferOf[r]);
        }
        kernels.push_back({kernel, buffers});
      }
      auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
      for (Value v : ret.getOperands()) {
        resultTypes.push_back(v.getType());
        resultBuffers.push_back(bufferOf[v]);
      }
      func.erase();
      PassManager cleanup(ctx);
      cleanup.addPass(createCanonicalizerPass());
      cleanup.addPass(createCSEPass());
      if (failed(mlir::verify(*copy)) || failed(cleanup.run(*copy))) {
        error = message.empty() ? "the ascend lowering failed" : message;
        return false;
      }
    }
    l.module = std::move(copy);
    return true;
  }

  /// Runs the function as one kernel per mxq op, in order, each op's
  /// operands and results in GM (a function of one op is one kernel; a
  /// chain such as quantize then dequantize, or the two quantizations of
  /// CANN's dual-axis op, runs unfused, each kernel reading its inputs
  /// from GM).
  bool run(const std::vector<RawTensor> &inputs,
           std::vector<RawTensor> &results, std::string &error) override {
    const Lowered &l = loweredFor(inputs);
    if (!l.error.empty()) {
      error = l.error;
      return false;
    }
    const auto &kernels = l.kernels;
    // GM: the inputs copied (a kernel writes only its results, but the
    // caller's bytes stay the caller's), then uninitialised GM, as on the
    // device: 0xA5 where no kernel writes, so that a byte a kernel forgets
    // (a layout's padding) is a wrong answer rather than a lucky zero.
    std::vector<std::vector<uint8_t>> storage;
    for (const RawTensor &in : inputs)
      storage.push_back(in.data);
    for (uint64_t bytes : l.bufferBytes)
      storage.emplace_back(bytes, 0xA5);
    // Run the kernels in order; their reports add up.
    last = SimReport();
    for (auto [i, k] : llvm::enumerate(kernels)) {
      std::vector<GlobalBuffer> buffers;
      for (size_t at : k.second)
        buffers.push_back({storage[at].data(), int64_t(storage[at].size())});
      SimReport one;
      std::string path = trace;
      if (!path.empty() && i)
        path += "." + std::to_string(i);
      if (!simulate(k.first, chip, buffers, one, error, path))
        return false;
      last.cores = std::max(last.cores, one.cores);
      last.cycles += one.cycles;
      for (int p = 0; p < 4; ++p)
        last.busy[p] += one.busy[p] * double(one.cores) /
                        double(std::max<int64_t>(last.cores, 1));
      last.gmRead += one.gmRead;
      last.gmWritten += one.gmWritten;
      last.instructions += one.instructions;
    }
    results.clear();
    for (auto [t, at] : llvm::zip(l.resultTypes, l.resultBuffers)) {
      auto tt = cast<RankedTensorType>(t);
      RawTensor r;
      r.shape.assign(tt.getShape().begin(), tt.getShape().end());
      r.elementType = tt.getElementType();
      r.data = storage[at];
      results.push_back(std::move(r));
    }
    if (profile)
      reportText =
          last.summary(chip) + (kernels.size() > 1
                                    ? "  (" + std::to_string(kernels.size()) +
                                          " kernels, run one after another)\n"
                                    : std::string());
    return true;
  }

  bool time(const std::vector<RawTensor> &inputs, int repeat, Timing &timing,
            std::string &error) override {
    if (!timeRuns(inputs, repeat, timing, error))
      return false;
    timing.deviceMillis = last.cycles / chip.freqHz * 1e3; // modelled
    return true;
  }

  std::string report() const override { return reportText; }

private:
  OwningOpRef<ModuleOp> module;
  std::string entry;
  std::string spec; ///< the chip as written (overrides included)
  Chip chip;
  TilingOptions tiling;
  bool profile;
  std::string trace;
  SimReport last;
  std::string reportText;
  std::map<std::vector<std::vector<int64_t>>, std::unique_ptr<Lowered>>
      lowerings;
};

struct AscendPipelineOptions : PassPipelineOptions<AscendPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("a2, 950pr or 950dt, fields "
                                          "overridable (\"950pr,cores=8\")"),
                           llvm::cl::init("950pr")};
  Option<int64_t> tileRows{*this, "tile-rows",
                           llvm::cl::desc("rows of a UB tile (0: chosen)"),
                           llvm::cl::init(0)};
  Option<int64_t> tileCols{*this, "tile-cols",
                           llvm::cl::desc("columns of a UB tile (0: chosen)"),
                           llvm::cl::init(0)};
  Option<bool> doubleBuffer{*this, "double-buffer",
                            llvm::cl::desc("two buffers per stage where the UB holds them"),
                            llvm::cl::init(true)};
  ListOption<int64_t> tileShape{
      *this, "tile-shape",
      llvm::cl::desc("PyPTO's set_vec_tile_shapes for mxq.quantize (the tile "
                     "contract's rules apply)")};
  Option<std::string> performanceMode{
      *this, "performance-mode",
      llvm::cl::desc("PyPTO quant_mx's performance mode, true or false (the "
                     "tile contract's rules apply)")};
};

class AscendTarget : public Target {
public:
  llvm::StringRef name() const override { return "ascend"; }
  llvm::StringRef description() const override {
    return "an Ascend-like vector core (vtile), run by the cycle-estimating "
           "simulator";
  }
  void registerDialects(DialectRegistry &registry) const override {
    registry.insert<VTileDialect>();
  }
  void registerPasses() const override {
    registerMXQAscendPasses();
    registerTargetPipeline<AscendPipelineOptions>(
        "mxq-ascend-pipeline",
        "Lower mxq functions to vtile kernels for an Ascend-like vector core "
        "(convert-mxq-to-vtile, canonicalize, cse)",
        [](OpPassManager &pm, const AscendPipelineOptions &o,
           std::string &error) {
          Chip chip;
          if (!parseChip(o.chip, chip, error))
            return false;
          if (o.tileRows < 0 || o.tileCols < 0) {
            error = "a tile size cannot be negative";
            return false;
          }
          ConvertMXQToVTileOptions options;
          options.chip = o.chip;
          options.tileRows = o.tileRows;
          options.tileCols = o.tileCols;
          options.doubleBuffer = o.doubleBuffer;
          options.tileShape.assign(o.tileShape.begin(), o.tileShape.end());
          options.performanceMode = o.performanceMode;
          pm.addPass(createConvertMXQToVTile(options));
          pm.addPass(createCanonicalizerPass());
          pm.addPass(createCSEPass());
          return true;
        });
  }
  bool checkOptions(const TargetOptions &options,
                    std::string &error) const override {
    TargetOptions rest = options;
    rest.chip.clear();
    rest.tileSizes.clear();
    rest.profile = false;
    rest.trace.clear();
    if (!Target::checkOptions(rest, error))
      return false;
    Chip chip;
    if (!options.chip.empty() && !parseChip(options.chip, chip, error)) {
      error = "--chip: " + error;
      return false;
    }
    if (options.tileSizes.size() > 3 ||
        llvm::any_of(options.tileSizes, [](int64_t t) { return t < 0; })) {
      error = "--tile-sizes: the ascend target takes at most three "
              "non-negative sizes: tile rows, tile columns (0: chosen) and "
              "buffers per stage";
      return false;
    }
    if (options.tileSizes.size() == 3 && options.tileSizes[2] > 2) {
      error = "--tile-sizes: buffers per stage are 1 or 2 (0: 2), but the "
              "third size is " +
              std::to_string(options.tileSizes[2]);
      return false;
    }
    return true;
  }
  std::unique_ptr<Executable> compile(ModuleOp module, const std::string &entry,
                                      const TargetOptions &options,
                                      std::string &error) const override {
    if (!checkOptions(options, error))
      return nullptr;
    Chip chip;
    std::string spec = options.chip.empty() ? "950pr" : options.chip;
    if (!parseChip(spec, chip, error))
      return nullptr;
    if (!module.lookupSymbol<func::FuncOp>(entry)) {
      error = "the module has no function @" + entry;
      return nullptr;
    }
    TilingOptions tiling;
    if (!options.tileSizes.empty())
      tiling.tileRows = options.tileSizes[0];
    if (options.tileSizes.size() > 1)
      tiling.tileCols = options.tileSizes[1];
    if (options.tileSizes.size() > 2)
      tiling.doubleBuffer = options.tileSizes[2] != 1;
    return std::make_unique<AscendExecutable>(module.clone(), entry, spec, chip,
                                              tiling, options.profile,
                                              options.trace);
  }
};

} // namespace
} // namespace mxq::vtile

namespace mxq {
void registerAscendTarget() {
  registerTarget(std::make_unique<vtile::AscendTarget>());
}
} // namespace mxq
