//===- InitAll.cpp - everything mxq's tools register ----------------------===//
//
// The one translation unit that includes the registration headers of the
// upstream dialects and passes (they are slow to compile).
//
//===----------------------------------------------------------------------===//
#include "mxq/InitAll.h"
#include "mxq/Conversion/Passes.h"
#include "mxq/Dialect/MXQ/MXQ.h"
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
         "convert-cf-to-llvm,convert-ub-to-llvm,reconcile-unrealized-casts";
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
