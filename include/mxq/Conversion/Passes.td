//===- Passes.td - mxq conversion passes --------------------*- tablegen -*-===//
#ifndef MXQ_CONVERSION_PASSES_TD
#define MXQ_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMXQToLoops : Pass<"convert-mxq-to-loops", "::mlir::ModuleOp"> {
  let summary = "Expand mxq ops into loops over blocks with exact integer numerics";
  let description = [{
    Rewrites every mxq op on tensors into `scf.for` loops over its blocks.
    Each block is read as one vector (`vector.transfer_read` along the
    quantization axis, masked at a ragged tail), its scale and codes are
    computed by the shared numerics library (`mxq/Numerics/Numerics.h`, exact
    integer IR, no `arith.truncf` to small floats), and the results are
    written with `vector.transfer_write` and `tensor.insert`. Element-wise
    ops (`fake_quant`, `fake_quant_grad`) become `linalg.generic`.
    The result is ordinary tensor IR that one-shot bufferization accepts.
    The patterns are available as `mxq::populateMXQToLoopsPatterns`.

    With `chip` (an NVIDIA chip such as `sm_90` or `sm_100a`, and `ptx`),
    element codes and RCEIL scales use the chip's conversion instructions
    wherever the target description says it has them and they are exact
    (`nvvm.convert.f32x2.to.f8x2` and friends, round to nearest even,
    finite inputs; Inf and NaN codes are still chosen by integer IR).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "NVIDIA chip whose native converts to use (empty: integer IR only)">,
    Option<"ptx", "ptx", "int", /*default=*/"0",
           "PTX ISA version times ten (0: the chip's minimum)">,
    Option<"tileDual", "tile-dual", "bool", /*default=*/"true",
           "lower dual_quantize as one loop over 32 x 32 tiles (false: two "
           "quantizes and a transpose)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // MXQ_CONVERSION_PASSES_TD
