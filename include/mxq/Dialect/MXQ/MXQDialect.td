//===- MXQDialect.td - the mxq dialect ---------------------*- tablegen -*-===//
#ifndef MXQ_DIALECT_TD
#define MXQ_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def MXQ_Dialect : Dialect {
  let name = "mxq";
  let cppNamespace = "::mlir::mxq";
  let summary = "Microscaling (MX) quantization, stated exactly.";
  let description = [{
    The `mxq` dialect states every microscaling (MX) quantization scheme in
    use today exactly: OCP MX, PyTorch `quantize_tensor(_dual)`, PyPTO
    `quant_mx`, CANN `DynamicMxQuant` / `DynamicDualLevelMxQuant` and OwLite
    `fake_fp8_quantize`. Where those systems disagree (scale rounding, what an
    Inf or NaN block gets, element rounding, what FP4 does with NaN, the scale
    layout) the choice is an explicit attribute, never an implicit default of
    one system.

    All ops work on ranked tensors with static or dynamic shapes. FP4 and FP6
    code tensors are logical: one element per element. Packing two FP4 codes
    into a byte (element `2i` in the low nibble) happens where tensors meet
    memory (the `.npy` interface of `mxq-run`, the runtime ABI); see
    `docs/Rationale.md`.

    The executable semantics of every op is the C++ reference library
    (`include/mxq/Reference/Reference.h`); every lowering is tested bit for bit
    against it.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // MXQ_DIALECT_TD
