//===- CPUTarget.cpp - the CPU target: pipeline and registration ----------===//
#include "mxq/Target/CPU/CPUTarget.h"
#include "mxq/Conversion/Passes.h"
#include "mxq/Target/CPU/CPURunner.h"
#include "mxq/Target/CPU/Passes.h"
#include "mxq/Target/Target.h"
#include "mxq/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <optional>

using namespace mlir;

bool mxq::hasOpenMPRuntime(std::string &why) {
#ifdef MXQ_OPENMP_RUNTIME
  return true;
#else
  why = "this build found no OpenMP runtime (libomp.so of LLVM 22: install "
        "libomp-22-dev and reconfigure), so the CPU target runs on one thread";
  return false;
#endif
}

void mxq::buildCPUPipeline(OpPassManager &pm, llvm::ArrayRef<int64_t> tileSizes,
                           unsigned threads) {
  // The shared stages: tiling, then loops, vectors and exact numerics.
  MXQTileOptions tile;
  tile.tileSizes.assign(tileSizes.begin(), tileSizes.end());
  pm.addNestedPass<func::FuncOp>(createMXQTile(tile));
  pm.addPass(createConvertMXQToLoops());
  addMXQBufferizationPasses(pm);
  // Loops and vectors down to what the LLVM conversions take.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(cpu::createMXQForallToParallelFor());
  // Temporaries are freed (a tile's codes before their transpose, a copy of
  // a shared fill, a fused producer's buffer): without this a long-running
  // caller (Python, the fuzzers) grew with every call, as LeakSanitizer
  // showed (scripts/sanitize.sh). After scf.forall became scf.for: the
  // deallocation pass leaves a forall body's allocations alone. Results
  // stay the caller's; a result the function does not own is cloned.
  // Upstream's buffer-deallocation-pipeline without its three canonicalize
  // runs and its CSE: on these functions they change nothing that reaches
  // LLVM (the LLVM IR of the quantize, FP4 and dual kernels is byte-
  // identical) and cost a fifth of the MLIR pipeline's time.
  memref::ExpandReallocPassOptions realloc;
  realloc.emitDeallocs = false;
  pm.addPass(memref::createExpandReallocPass(realloc));
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(memref::createFoldMemRefAliasOpsPass());
  // FP4 codes two per byte (every target's memory form of f4E2M1FN).
  pm.addPass(createMXQPackFP4Memory());
  // One byte view per buffer (the pass makes one per access).
  pm.addPass(createCSEPass());
  if (threads != 1) {
    // Every core: the block loop nests (their iterations write disjoint
    // bytes, mxq.parallel) become scf.parallel, then OpenMP work-sharing
    // loops. Each block's bytes are computed the same way on any thread, so
    // the results do not depend on the thread count.
    pm.addNestedPass<func::FuncOp>(createMXQParallelizeLoops());
    ConvertSCFToOpenMPPassOptions omp;
    omp.numThreads = threads;
    pm.addPass(createConvertSCFToOpenMPPass(omp));
    pm.addPass(cpu::createMXQInlineAllocaScopes());
  }
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // The LLVM dialect.
  ConvertVectorToLLVMPassOptions toLLVM;
  toLLVM.vectorTransposeLowering = vector::VectorTransposeLowering::Shuffle1D;
  pm.addPass(createConvertVectorToLLVMPass(toLLVM));
  // The rest (memref, math, arith, index, func, cf, ub) in one conversion
  // through the dialects' ConvertToLLVM interfaces (mxq::registerDialects):
  // the same IR as one pass per dialect, in a fifth less time.
  pm.addPass(createConvertToLLVMPass());
  if (threads != 1)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // FP6 codes are one a byte in memory, but LLVM packs a vector of i6:
  // loads and stores of them as bytes (a block's codes one vector store).
  pm.addPass(createMXQByteSizedMemory());
  // What the x86 backend would get wrong: scalar bf16 in registers.
  pm.addPass(cpu::createMXQBF16MemoryAsI16());
  // The input streams in ahead of the arithmetic (bench/RESULTS.md).
  pm.addPass(cpu::createMXQPrefetchLoads());
}

namespace {

/// The first negative tile size, if any (mxq-tile takes 0 for untiled).
std::optional<int64_t> negativeTileSize(llvm::ArrayRef<int64_t> sizes) {
  for (int64_t t : sizes)
    if (t < 0)
      return t;
  return std::nullopt;
}

struct CPUPipelineOptions : PassPipelineOptions<CPUPipelineOptions> {
  ListOption<int64_t> tileSizes{
      *this, "tile-sizes",
      llvm::cl::desc("tile sizes of mxq-tile (iteration-domain units, 0 for "
                     "untiled; default: the pass's)")};
  Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("1: sequential block loops (the default); N: OpenMP "
                     "work-sharing loops on N threads; 0: on as many as the "
                     "OpenMP runtime chooses (every core)"),
      llvm::cl::init(1)};
};

class CPUTarget : public mxq::Target {
public:
  llvm::StringRef name() const override { return "cpu"; }
  llvm::StringRef description() const override {
    return "the host CPU through LLVM, run by the LLVM JIT";
  }
  void registerPasses() const override {
    mxq::cpu::registerMXQCPUPasses();
    mxq::registerTargetPipeline<CPUPipelineOptions>(
        "mxq-cpu-pipeline",
        "Lower mxq ops to LLVM for the host CPU: mxq-tile, "
        "convert-mxq-to-loops, eliminate-empty-tensors, one-shot-bufferize, "
        "mxq-forall-to-parallel-for, fold-memref-alias-ops, "
        "vector/memref/arith/math/"
        "func/cf/ub to LLVM, mxq-bf16-memory-as-i16 (see "
        "mxq::buildCPUPipeline)",
        [](OpPassManager &pm, const CPUPipelineOptions &o, std::string &error) {
          std::vector<int64_t> sizes(o.tileSizes.begin(), o.tileSizes.end());
          if (auto t = negativeTileSize(sizes)) {
            error = "a tile size cannot be negative, but one is " +
                    std::to_string(*t);
            return false;
          }
          mxq::buildCPUPipeline(pm, sizes, o.threads);
          return true;
        });
  }
  bool checkOptions(const mxq::TargetOptions &options,
                    std::string &error) const override {
    mxq::TargetOptions rest = options;
    rest.tileSizes.clear();
    rest.threads = 0;
    if (options.threads < 0) {
      error = "--num-threads: a thread count cannot be negative, but it is " +
              std::to_string(options.threads);
      return false;
    }
    std::string why;
    if (options.threads > 1 && !mxq::hasOpenMPRuntime(why)) {
      error = "--num-threads=" + std::to_string(options.threads) + ": " + why;
      return false;
    }
    if (auto t = negativeTileSize(options.tileSizes)) {
      error = "--tile-sizes: a tile size cannot be negative, but one is " +
              std::to_string(*t);
      return false;
    }
    return Target::checkOptions(rest, error);
  }
  std::unique_ptr<mxq::Executable> compile(ModuleOp module,
                                           const std::string &entry,
                                           const mxq::TargetOptions &options,
                                           std::string &error) const override {
    if (!checkOptions(options, error))
      return nullptr;
    std::string why;
    unsigned threads =
        mxq::hasOpenMPRuntime(why) ? unsigned(options.threads) : 1u;
    return mxq::CPUExecutable::compile(module, entry, error, options.tileSizes,
                                       threads, options.cache);
  }
};

} // namespace

void mxq::registerCPUTarget() { registerTarget(std::make_unique<CPUTarget>()); }
