//===- MXQEnums.td - mxq enum attributes -------------------*- tablegen -*-===//
#ifndef MXQ_ENUMS_TD
#define MXQ_ENUMS_TD

include "mxq/Dialect/MXQ/MXQDialect.td"
include "mlir/IR/EnumAttr.td"

def MXQ_ScaleAlgorithm : I32EnumAttr<"ScaleAlgorithm",
    "how the block scale is derived from the block's absolute maximum", [
  I32EnumAttrCase<"floor", 0>,   // OCP MX v1.0, PyPTO ROUND_DOWN, CANN scaleAlg 0
  I32EnumAttrCase<"rceil", 1>,   // PyTorch MXFP_E8M0_RU, PyPTO ROUND_UP, cuBLAS
  I32EnumAttrCase<"ceil", 2>,    // torchao CEIL
  I32EnumAttrCase<"even", 3>,    // torchao EVEN
  I32EnumAttrCase<"encode", 4>,  // NVFP4, E4M3 scales: TransformerEngine
  I32EnumAttrCase<"decode", 5>,  // NVFP4, E4M3 scales: torchao nvfp4_quantize
  I32EnumAttrCase<"tosa", 6>,    // TOSA 1.1 calc_block_scale (CAST_TO_BLOCK_SCALED)
]> {
  let cppNamespace = "::mlir::mxq";
  let genSpecializedAttr = 0;
}
def MXQ_ScaleAlgorithmAttr : EnumAttr<MXQ_Dialect, MXQ_ScaleAlgorithm,
                                      "scale_algorithm"> {
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def MXQ_InfPolicy : I32EnumAttr<"InfPolicy",
    "which scale byte a block holding an infinity (and no NaN) gets", [
  I32EnumAttrCase<"nan", 0>,       // 0xFF: PyTorch, CANN, OCP reference
  I32EnumAttrCase<"saturate", 1>,  // 0xFE: PyPTO NV, TransformerEngine
  I32EnumAttrCase<"exponent", 2>,  // the floor exponent path: PyPTO OCP
]> {
  let cppNamespace = "::mlir::mxq";
  let genSpecializedAttr = 0;
}
def MXQ_InfPolicyAttr : EnumAttr<MXQ_Dialect, MXQ_InfPolicy, "inf_policy"> {
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def MXQ_Rounding : I32EnumAttr<"Rounding",
    "how a scaled element is rounded onto the element grid", [
  I32EnumAttrCase<"rne", 0>,    // nearest, ties to even (CANN "rint")
  I32EnumAttrCase<"away", 1>,   // nearest, ties away from zero (CANN "round")
  I32EnumAttrCase<"floor", 2>,  // toward negative infinity (CANN "floor")
]> {
  let cppNamespace = "::mlir::mxq";
  let genSpecializedAttr = 0;
}
def MXQ_RoundingAttr : EnumAttr<MXQ_Dialect, MXQ_Rounding, "rounding"> {
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def MXQ_NanElement : I32EnumAttr<"NanElement",
    "the code a NaN element gets (a NaN element is one of a block whose scale is NaN)", [
  I32EnumAttrCase<"max", 0>,   // the format's NaN code, or +max without one (FP4 0x7): Ascend encoders
  I32EnumAttrCase<"zero", 1>,  // +0 (0x00): CANN kernels' saturating casts, CANN golden (nan_to_num)
]> {
  let cppNamespace = "::mlir::mxq";
  let genSpecializedAttr = 0;
}
def MXQ_NanElementAttr : EnumAttr<MXQ_Dialect, MXQ_NanElement, "nan_element"> {
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def MXQ_ScaleLayout : I32EnumAttr<"ScaleLayout",
    "how the grid of block scales is laid out in the scale tensor", [
  I32EnumAttrCase<"linear", 0>,
  I32EnumAttrCase<"swizzle_32_4_4", 1>,
  I32EnumAttrCase<"pairs", 2>,
]> {
  let cppNamespace = "::mlir::mxq";
  let genSpecializedAttr = 0;
}
def MXQ_ScaleLayoutAttr : EnumAttr<MXQ_Dialect, MXQ_ScaleLayout, "scale_layout"> {
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def MXQ_Underflow : I32EnumAttr<"Underflow",
    "what the elements of a block with a tiny floor scale are multiplied by", [
  I32EnumAttrCase<"keep", 0>,           // 2^127: OCP, PyPTO, CANN golden
  I32EnumAttrCase<"flush_e0", 1>,       // 0 when E(amax) == 0: CANN DualLevel L1, dual-axis
  I32EnumAttrCase<"flush_le_emax", 2>,  // 0 when E(amax) <= emax: CANN DynamicMxQuant
]> {
  let cppNamespace = "::mlir::mxq";
  let genSpecializedAttr = 0;
}
def MXQ_UnderflowAttr : EnumAttr<MXQ_Dialect, MXQ_Underflow, "underflow"> {
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def MXQ_DivDenormals : I32EnumAttr<"DivDenormals",
    "how the level-0 division of two_level_quantize treats subnormals", [
  I32EnumAttrCase<"ieee", 0>,  // IEEE division (the golden scripts)
  I32EnumAttrCase<"ftz", 1>,   // subnormal dividends and quotients become 0 (the CANN kernel's Div)
]> {
  let cppNamespace = "::mlir::mxq";
  let genSpecializedAttr = 0;
}
def MXQ_DivDenormalsAttr : EnumAttr<MXQ_Dialect, MXQ_DivDenormals,
                                    "div_denormals"> {
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def MXQ_Product : I32EnumAttr<"Product",
    "the precision of the scaled element before it is cast to its code", [
  I32EnumAttrCase<"f32", 0>,   // fl32(x * 2^(127 - s)): OCP, PyTorch, PyPTO
  I32EnumAttrCase<"bf16", 1>,  // rounded to bf16 first (CANN FP4 from bf16: a bf16 multiply)
]> {
  let cppNamespace = "::mlir::mxq";
  let genSpecializedAttr = 0;
}
def MXQ_ProductAttr : EnumAttr<MXQ_Dialect, MXQ_Product, "product"> {
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def MXQ_Division : I32EnumAttr<"Division",
    "how fp32 block scales divide (the ratio amax / max and the elements)", [
  I32EnumAttrCase<"exact", 0>,       // a / b rounded once: DeepSeek act_quant, TE
  I32EnumAttrCase<"reciprocal", 1>,  // a * fl32(1 / b): DeepGEMM (PyTorch's CUDA division by a scalar)
]> {
  let cppNamespace = "::mlir::mxq";
  let genSpecializedAttr = 0;
}
def MXQ_DivisionAttr : EnumAttr<MXQ_Dialect, MXQ_Division, "division"> {
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def MXQ_ResultCast : I32EnumAttr<"ResultCast",
    "how dequantize's fp32 value becomes a value of the result type", [
  I32EnumAttrCase<"ieee", 0>,      // nearest even; overflow to Inf, NaN stays NaN
  I32EnumAttrCase<"saturate", 1>,  // nearest even; beyond the range (Inf too) the largest finite, NaN +0 (Ascend SAT casts)
]> {
  let cppNamespace = "::mlir::mxq";
  let genSpecializedAttr = 0;
}
def MXQ_ResultCastAttr : EnumAttr<MXQ_Dialect, MXQ_ResultCast, "result_cast"> {
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

#endif // MXQ_ENUMS_TD
