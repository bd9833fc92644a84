//===- InitAll.cpp - everything mxq's tools register ----------------------===//
//
// The one translation unit that includes the registration headers of the
// upstream dialects and passes (they are slow to compile).
//
//===----------------------------------------------------------------------===//
#include "mxq/InitAll.h"
#include "mxq/Conversion/Passes.h"
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Target/NVGPU.h"
#include "mxq/Target/Passes.h"
#include "mxq/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Tensor/TransformOps/TensorTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/TensorTilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void ::mxq::registerDialects(DialectRegistry &registry) {
  registry.insert<mlir::mxq::MXQDialect, affine::AffineDialect,
                  arith::ArithDialect, bufferization::BufferizationDialect,
                  cf::ControlFlowDialect, func::FuncDialect,
                  index::IndexDialect, LLVM::LLVMDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, transform::TransformDialect,
                  gpu::GPUDialect, NVVM::NVVMDialect,
                  ub::UBDialect, vector::VectorDialect>();
  linalg::registerTransformDialectExtension(registry);
  scf::registerTransformDialectExtension(registry);
  tensor::registerTransformDialectExtension(registry);
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  tensor::registerTilingInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
  registerAllGPUToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  // What convert-gpu-to-nvvm and gpu-to-llvm lower through the
  // ConvertToLLVM interfaces of the dialects inside kernels.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
}

std::string(::mxq::cpuPipeline)(llvm::ArrayRef<int64_t> tileSizes) {
  std::string pipeline = cpuPipeline();
  if (tileSizes.empty())
    return pipeline;
  std::string sizes;
  for (int64_t s : tileSizes)
    sizes += (sizes.empty() ? "" : ",") + std::to_string(s);
  std::string tile = "func.func(mxq-tile)";
  return "func.func(mxq-tile{tile-sizes=" + sizes + "})" +
         pipeline.substr(tile.size());
}

const char *::mxq::cpuPipeline() {
  return "func.func(mxq-tile),convert-mxq-to-loops,canonicalize,cse,"
         "eliminate-empty-tensors,"
         "one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map},"
         "canonicalize,cse,canonicalize,"
         "func.func(convert-linalg-to-loops),scf-forall-to-for,fold-memref-alias-ops,"
         "func.func(lower-vector-multi-reduction),"
         "convert-vector-to-scf{full-unroll=true},lower-affine,convert-scf-to-cf,"
         "expand-strided-metadata,lower-affine,canonicalize,cse,"
         "convert-vector-to-llvm{vector-transpose-lowering=shuffle1d},"
         "finalize-memref-to-llvm,"
         "convert-math-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,"
         "convert-func-to-llvm,"
         "convert-cf-to-llvm,convert-ub-to-llvm,reconcile-unrealized-casts,"
         "mxq-bf16-memory-as-i16,canonicalize";
}

namespace {
struct GPUPipelineOptions : PassPipelineOptions<GPUPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("the NVIDIA chip (sm_90, sm_100a)"),
                           llvm::cl::init("sm_90")};
  Option<int> ptx{*this, "ptx",
                  llvm::cl::desc("PTX ISA version times ten (0: the chip's "
                                 "minimum)"),
                  llvm::cl::init(0)};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("isa (PTX, no toolkit needed), bin or fatbin"),
      llvm::cl::init("isa")};
  Option<std::string> toolkit{
      *this, "toolkit", llvm::cl::desc("CUDA toolkit for bin/fatbin"),
      llvm::cl::init("/usr/local/cuda")};
};
} // namespace

std::string(::mxq::gpuPipeline)(const std::string &chip, int ptx,
                                const std::string &format,
                                const std::string &toolkit) {
  std::string error;
  auto target = NVGPUTarget::parse(chip, ptx, error);
  // An impossible target keeps its version: mxq-check-nvgpu-target, first in
  // the pipeline, reports it.
  int version = target ? target->ptx : ptx;
  std::string features = "+ptx" + std::to_string(version);
  return "mxq-check-nvgpu-target{chip=" + chip +
         " ptx=" + std::to_string(version) +
         "},func.func(mxq-tile{tile-sizes=0}),convert-mxq-to-loops-nvvm{chip=" +
         chip + " ptx=" + std::to_string(version) + "},"
         "canonicalize,cse,eliminate-empty-tensors,"
         "one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map},"
         "canonicalize,cse,canonicalize,"
         "func.func(convert-linalg-to-parallel-loops),canonicalize,"
         "func.func(mxq-parallelize-loops),"
         "func.func(scf-parallel-loop-tiling{parallel-loop-tile-sizes=1,128 "
         "no-min-max-bounds=true}),"
         "func.func(gpu-map-parallel-loops),convert-parallel-loops-to-gpu,"
         "canonicalize,func.func(lower-vector-multi-reduction),"
         "convert-vector-to-scf{full-unroll=true},lower-affine,"
         "func.func(mxq-align-vector-accesses),"
         "gpu-launch-sink-index-computations,gpu-kernel-outlining,"
         "mxq-gpu-device-buffers,func.func(gpu-async-region),"
         "convert-scf-to-cf,expand-strided-metadata,"
         "lower-affine,canonicalize,"
         "nvvm-attach-target{chip=" + chip + " features=" + features +
         "},gpu.module(convert-vector-to-llvm{vector-transpose-lowering="
         "shuffle1d},convert-gpu-to-nvvm,mxq-byte-sized-memory,canonicalize,"
         "cse,reconcile-unrealized-casts),"
         "gpu-to-llvm,reconcile-unrealized-casts,"
         "gpu-module-to-binary{format=" + format + " toolkit=" + toolkit + "}";
}

llvm::LogicalResult(::mxq::buildCPUPipeline)(OpPassManager &pm,
                                             llvm::ArrayRef<int64_t> tileSizes) {
  // The textual pipeline names registered passes.
  static bool registered = (registerPasses(), true);
  (void)registered;
  return parsePassPipeline(cpuPipeline(tileSizes), pm);
}

void ::mxq::registerPasses() {
  static bool done = false;
  if (done)
    return;
  done = true;
  ::mxq::registerMXQConversionPasses();
  ::mxq::registerMXQTargetPasses();
  ::mxq::registerMXQTransformsPasses();
  registerTransformsPasses();
  registerConversionPasses();
  bufferization::registerBufferizationPasses();
  bufferization::registerBufferizationPipelines();
  memref::registerMemRefPasses();
  registerLinalgPasses();
  registerSCFPasses();
  vector::registerVectorPasses();
  transform::registerInterpreterPass();
  registerGPUPasses();
  gpu::registerGPUToNVVMPipeline();
  PassPipelineRegistration<GPUPipelineOptions>(
      "mxq-gpu-pipeline",
      "Lower mxq ops to NVIDIA kernels and serialize them (PTX by default): "
      "mxq-check-nvgpu-target, convert-mxq-to-loops, one-shot-bufferize, "
      "mxq-parallelize-loops, scf-parallel-loop-tiling, gpu-map-parallel-loops, "
      "convert-parallel-loops-to-gpu, gpu-kernel-outlining, nvvm-attach-target, "
      "convert-gpu-to-nvvm, gpu-to-llvm, gpu-module-to-binary (see "
      "mxq::gpuPipeline)",
      [](OpPassManager &pm, const GPUPipelineOptions &o) {
        if (failed(parsePassPipeline(
                gpuPipeline(o.chip, o.ptx, o.format, o.toolkit), pm)))
          llvm::report_fatal_error("mxq: the GPU pipeline does not parse");
      });
  PassPipelineRegistration<>(
      "mxq-cpu-pipeline",
      "Lower mxq ops to LLVM for the host CPU: mxq-tile, "
      "convert-mxq-to-loops, eliminate-empty-tensors, one-shot-bufferize, "
      "scf-forall-to-for, fold-memref-alias-ops, vector/memref/arith/math/"
      "func/cf/ub to LLVM (see mxq::cpuPipeline)",
      [](OpPassManager &pm) {
        if (failed(buildCPUPipeline(pm)))
          llvm::report_fatal_error("mxq: the CPU pipeline does not parse");
      });

}
