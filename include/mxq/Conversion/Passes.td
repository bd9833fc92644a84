//===- Passes.td - mxq conversion passes -------------------*- tablegen -*-===//
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

    A target with native conversion instructions runs its own variant of
    this pass (in its folder), which hands them to the same patterns through
    `mxq::convertMXQToLoops` and `mxq::numerics::NativeConverts`.
  }];
  let options = [
    Option<"dualForm", "dual-form", "::mxq::DualQuantizeForm",
           /*default=*/"::mxq::DualQuantizeForm::Tiles",
           "how dual_quantize is lowered (a target's own pass states its "
           "form in its LoopsTarget)",
           [{::llvm::cl::values(
             clEnumValN(::mxq::DualQuantizeForm::Tiles, "tiles",
                        "one loop over 32 x 32 tiles, column codes "
                        "transposed in registers"),
             clEnumValN(::mxq::DualQuantizeForm::TwoQuantizes,
                        "two-quantizes",
                        "a row-wise and a column-wise quantize and a "
                        "transpose of the column codes"))}]>,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def ConvertTOSAToMXQ : Pass<"convert-tosa-to-mxq", "::mlir::ModuleOp"> {
  let summary = "TOSA 1.1's MXFP casts as mxq ops, with the specification's rule";
  let description = [{
    Rewrites `tosa.cast_to_block_scaled` into `mxq.quantize` along the last
    axis in blocks of 32 with `scale = tosa` (the specification's
    `calc_block_scale`, docs/Rationale.md "TOSA ingress") and
    `tosa.cast_from_block_scaled` into `mxq.dequantize`. What mxq cannot
    state is an error that says which: `!tosa.mxint8` data, unranked
    tensors, and `tosa.matmul_t_block_scaled` (not lowered yet). Every
    front end (mxq-run, the C API, Python) runs it before a target, so a
    function of these TOSA ops runs on every target. The patterns are
    `mxq::populateTOSAToMXQPatterns`.
  }];
  let dependentDialects = ["::mlir::mxq::MXQDialect"];
}

#endif // MXQ_CONVERSION_PASSES_TD
