//===- Passes.td - mxq target passes -------------------------*- tablegen -*-===//
#ifndef MXQ_TARGET_PASSES_TD
#define MXQ_TARGET_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMXQToLoopsNVVM
    : Pass<"convert-mxq-to-loops-nvvm", "::mlir::ModuleOp"> {
  let summary = "convert-mxq-to-loops with an NVIDIA chip's native converts";
  let description = [{
    The shared expansion of `convert-mxq-to-loops` (the same patterns, the
    same numerics) given what the NVIDIA target adds: its conversion
    instructions (`nvvm.convert.f32x2.to.*`), where the target description
    (`mxq/Target/NVGPU.h`) says `chip` has them and they are exact, and
    `dual_quantize` as two quantizes and a transpose (a GPU thread cannot
    hold the 32 x 32 tile of the fused form without spilling).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "the NVIDIA chip (sm_90, sm_100a, ...)">,
    Option<"ptx", "ptx", "int", /*default=*/"0",
           "PTX ISA version times ten (0: the chip's minimum)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // MXQ_TARGET_PASSES_TD
