//===- NVVMTarget.cpp - the NVIDIA target: pipeline and registration ------===//
#include "mxq/Target/NVVM/NVVMTarget.h"
#include "mxq/Conversion/Passes.h"
#include "mxq/Target/NVVM/EmulatorRunner.h"
#include "mxq/Target/NVVM/GPURunner.h"
#include "mxq/Target/NVVM/NVGPU.h"
#include "mxq/Target/NVVM/Passes.h"
#include "mxq/Target/Target.h"
#include "mxq/Transforms/Passes.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;

void mxq::buildGPUPipeline(OpPassManager &pm,
                           const GPUPipelineOptions &options) {
  std::string error;
  auto target = NVGPUTarget::parse(options.chip, options.ptx, error);
  // An impossible target keeps its version: mxq-check-nvgpu-target, first in
  // the pipeline, reports it.
  int version = target ? target->ptx : options.ptx;
  nvvm::MXQCheckNVGPUTargetOptions check;
  check.chip = options.chip;
  check.ptx = version;
  pm.addPass(nvvm::createMXQCheckNVGPUTarget(check));
  // The shared stages, with the chip's native converts.
  MXQTileOptions tile;
  tile.tileSizes = {0};
  pm.addNestedPass<func::FuncOp>(createMXQTile(tile));
  nvvm::ConvertMXQToLoopsNVVMOptions loops;
  loops.chip = options.chip;
  loops.ptx = version;
  pm.addPass(nvvm::createConvertMXQToLoopsNVVM(loops));
  addMXQBufferizationPasses(pm);
  // Block loops to threads: 128 blocks (along the innermost loop) a thread
  // block.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createMXQParallelizeLoops());
  // A tensor of one block has no block loop left (canonicalization folds
  // one-iteration loops): its code becomes a one-thread kernel too.
  pm.addNestedPass<func::FuncOp>(nvvm::createMXQWrapStraightLineInKernels());
  pm.addNestedPass<func::FuncOp>(
      createParallelLoopTilingPass({1, 128}, /*noMinMaxBounds=*/true));
  pm.addNestedPass<func::FuncOp>(createGpuMapParallelLoopsPass());
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createCanonicalizerPass());
  // FP4 codes two per byte (every target's memory form of f4E2M1FN).
  pm.addPass(memref::createFoldMemRefAliasOpsPass());
  pm.addPass(createMXQPackFP4Memory());
  // One byte view per buffer (the pass makes one per access).
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(createLowerAffinePass());
  pm.addNestedPass<func::FuncOp>(nvvm::createMXQAlignVectorAccesses());
  // Kernels outlined, buffers on the device, one stream.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(nvvm::createMXQGPUDeviceBuffers());
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  // NVVM inside the kernels, LLVM outside, then the binary.
  GpuNVVMAttachTargetOptions attach;
  attach.chip = options.chip;
  attach.features = "+ptx" + std::to_string(version);
  pm.addPass(createGpuNVVMAttachTarget(attach));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(nvvm::createMXQPrepareWorkgroupMemory());
  ConvertVectorToLLVMPassOptions toLLVM;
  toLLVM.vectorTransposeLowering = vector::VectorTransposeLowering::Shuffle1D;
  kernels.addPass(createConvertVectorToLLVMPass(toLLVM));
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createMXQByteSizedMemory());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.format == "emulator") {
    // The same kernels, compiled for the host and the SIMT emulator.
    pm.addPass(nvvm::createMXQEmulateGPUKernels());
    return;
  }
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

namespace {

struct GPUPipelineCLOptions : PassPipelineOptions<GPUPipelineCLOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("the NVIDIA chip (sm_90, sm_100a)"),
                           llvm::cl::init("sm_90")};
  Option<int> ptx{*this, "ptx",
                  llvm::cl::desc("PTX ISA version times ten (0: the chip's "
                                 "minimum)"),
                  llvm::cl::init(0)};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("isa (PTX, no toolkit needed), bin, fatbin, or "
                     "emulator (host code for the SIMT emulator)"),
      llvm::cl::init("isa")};
  Option<std::string> toolkit{
      *this, "toolkit", llvm::cl::desc("CUDA toolkit for bin/fatbin"),
      llvm::cl::init("/usr/local/cuda")};
};

/// The NVIDIA target, run through the CUDA driver ("nvvm") or by the SIMT
/// emulator on the CPU ("nvvm-emu"): the same pipeline up to the kernels'
/// serialisation.
class NVVMTarget : public mxq::Target {
public:
  explicit NVVMTarget(bool emulated) : emulated(emulated) {}
  llvm::StringRef name() const override {
    return emulated ? "nvvm-emu" : "nvvm";
  }
  llvm::StringRef description() const override {
    return emulated ? "NVIDIA kernels run by mxq's SIMT emulator on the CPU "
                      "(checked accesses, barriers, shuffles; --profile)"
                    : "NVIDIA GPUs through NVVM and PTX, run through the CUDA "
                      "driver";
  }
  void registerDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect, NVVM::NVVMDialect>();
    registerAllGPUToLLVMIRTranslations(registry);
    NVVM::registerNVVMTargetInterfaceExternalModels(registry);
    // What convert-gpu-to-nvvm and gpu-to-llvm lower through the
    // ConvertToLLVM interfaces of the dialects inside kernels.
    gpu::registerConvertGpuToLLVMInterface(registry);
    registerConvertNVVMToLLVMInterface(registry);
  }
  void registerPasses() const override {
    if (emulated)
      return; // the same passes as nvvm's
    mxq::nvvm::registerMXQNVVMPasses();
    registerGPUPasses();
    mxq::registerTargetPipeline<GPUPipelineCLOptions>(
        "mxq-gpu-pipeline",
        "Lower mxq ops to NVIDIA kernels and serialize them (PTX by "
        "default): mxq-check-nvgpu-target, convert-mxq-to-loops-nvvm, "
        "one-shot-bufferize, mxq-parallelize-loops, "
        "mxq-wrap-straight-line-in-kernels, scf-parallel-loop-tiling, "
        "gpu-map-parallel-loops, convert-parallel-loops-to-gpu, "
        "gpu-kernel-outlining, nvvm-attach-target, convert-gpu-to-nvvm, "
        "gpu-to-llvm, gpu-module-to-binary (see mxq::buildGPUPipeline)",
        [](OpPassManager &pm, const GPUPipelineCLOptions &o,
           std::string &error) {
          mxq::GPUPipelineOptions options;
          options.chip = o.chip;
          options.ptx = o.ptx;
          options.format = o.format;
          options.toolkit = o.toolkit;
          if (options.format != "isa" && options.format != "bin" &&
              options.format != "fatbin" && options.format != "emulator") {
            error = "format is isa (PTX text), bin, fatbin or emulator, but "
                    "it is '" + options.format + "'";
            return false;
          }
          if ((options.format == "bin" || options.format == "fatbin") &&
              !llvm::sys::fs::exists(options.toolkit + "/bin/ptxas")) {
            error = "format " + options.format + " needs the CUDA toolkit, "
                    "but '" + options.toolkit + "/bin/ptxas' does not exist "
                    "(toolkit=...; format=isa needs none)";
            return false;
          }
          mxq::buildGPUPipeline(pm, options);
          return true;
        });
  }
  bool canRun(std::string &why) const override {
    return emulated || !mxq::GPUExecutable::deviceChip(why).empty();
  }
  bool checkOptions(const mxq::TargetOptions &options,
                    std::string &error) const override {
    if (!options.tileSizes.empty()) {
      error = "target " + name().str() + " takes no tile sizes (its pipeline "
              "maps blocks to threads itself)";
      return false;
    }
    // The rest (threads, a trace, a profile on the device) is the common
    // check's.
    mxq::TargetOptions rest = options;
    rest.chip.clear();
    rest.isaVersion = 0;
    if (emulated)
      rest.profile = false;
    if (!Target::checkOptions(rest, error))
      return false;
    if (!options.chip.empty() &&
        !mxq::NVGPUTarget::parse(options.chip, options.isaVersion, error))
      return false;
    return true;
  }
  std::unique_ptr<mxq::Executable>
  compile(ModuleOp module, const std::string &entry,
          const mxq::TargetOptions &options,
          std::string &error) const override {
    if (!checkOptions(options, error))
      return nullptr;
    if (emulated)
      return mxq::EmulatorExecutable::compile(
          module, entry, options.chip.empty() ? "sm_90" : options.chip,
          options.isaVersion, options.profile, error);
    return mxq::GPUExecutable::compile(module, entry, options.chip,
                                       options.isaVersion, error);
  }
  bool emitLibrary(ModuleOp module, const std::string &entry,
                   const mxq::TargetOptions &options, const std::string &path,
                   std::string &error) const override {
    if (emulated)
      return mxq::Target::emitLibrary(module, entry, options, path, error);
    if (options.chip.empty()) {
      error = "compiling ahead of time for nvvm needs a chip (--chip)";
      return false;
    }
    if (!checkOptions(options, error))
      return false;
    return mxq::GPUExecutable::emitSharedLibrary(
        module, entry, options.chip, options.isaVersion, path, error);
  }

private:
  bool emulated;
};

} // namespace

void mxq::registerNVVMTarget() {
  registerTarget(std::make_unique<NVVMTarget>(/*emulated=*/false));
  registerTarget(std::make_unique<NVVMTarget>(/*emulated=*/true));
}
