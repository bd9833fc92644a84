//===- Attributes.cpp - C API: mxq's enum attributes ----------------------===//
#include "mxq-c/Attributes.h"
#include "mxq/Dialect/MXQ/MXQ.h"

#include "mlir/CAPI/IR.h"

using namespace mlir::mxq;

// The C enums are the dialect's values, word for word.
#define MXQ_CHECK(CName, CppName, Word)                                        \
  static_assert(int(CName) == int(CppName::Word), #CName " drifted");
MXQ_CHECK(MXQ_SCALE_ALGORITHM_FLOOR, ScaleAlgorithm, floor)
MXQ_CHECK(MXQ_SCALE_ALGORITHM_RCEIL, ScaleAlgorithm, rceil)
MXQ_CHECK(MXQ_SCALE_ALGORITHM_CEIL, ScaleAlgorithm, ceil)
MXQ_CHECK(MXQ_SCALE_ALGORITHM_EVEN, ScaleAlgorithm, even)
MXQ_CHECK(MXQ_SCALE_ALGORITHM_ENCODE, ScaleAlgorithm, encode)
MXQ_CHECK(MXQ_SCALE_ALGORITHM_DECODE, ScaleAlgorithm, decode)
MXQ_CHECK(MXQ_SCALE_ALGORITHM_TOSA, ScaleAlgorithm, tosa)
MXQ_CHECK(MXQ_INF_POLICY_NAN, InfPolicy, nan)
MXQ_CHECK(MXQ_INF_POLICY_SATURATE, InfPolicy, saturate)
MXQ_CHECK(MXQ_INF_POLICY_EXPONENT, InfPolicy, exponent)
MXQ_CHECK(MXQ_ROUNDING_RNE, Rounding, rne)
MXQ_CHECK(MXQ_ROUNDING_AWAY, Rounding, away)
MXQ_CHECK(MXQ_ROUNDING_FLOOR, Rounding, floor)
MXQ_CHECK(MXQ_NAN_ELEMENT_MAX, NanElement, max)
MXQ_CHECK(MXQ_NAN_ELEMENT_ZERO, NanElement, zero)
MXQ_CHECK(MXQ_SCALE_LAYOUT_LINEAR, ScaleLayout, linear)
MXQ_CHECK(MXQ_SCALE_LAYOUT_SWIZZLE_32_4_4, ScaleLayout, swizzle_32_4_4)
MXQ_CHECK(MXQ_SCALE_LAYOUT_PAIRS, ScaleLayout, pairs)
MXQ_CHECK(MXQ_UNDERFLOW_KEEP, Underflow, keep)
MXQ_CHECK(MXQ_UNDERFLOW_FLUSH_E0, Underflow, flush_e0)
MXQ_CHECK(MXQ_UNDERFLOW_FLUSH_LE_EMAX, Underflow, flush_le_emax)
MXQ_CHECK(MXQ_DIV_DENORMALS_IEEE, DivDenormals, ieee)
MXQ_CHECK(MXQ_DIV_DENORMALS_FTZ, DivDenormals, ftz)
MXQ_CHECK(MXQ_PRODUCT_F32, Product, f32)
MXQ_CHECK(MXQ_PRODUCT_BF16, Product, bf16)
MXQ_CHECK(MXQ_RESULT_CAST_IEEE, ResultCast, ieee)
MXQ_CHECK(MXQ_RESULT_CAST_SATURATE, ResultCast, saturate)
#undef MXQ_CHECK

#define MXQ_DEFINE_ENUM_ATTR(Name)                                             \
  MlirAttribute mxq##Name##AttrGet(MlirContext ctx, Mxq##Name value) {         \
    return wrap(                                                               \
        mlir::Attribute(Name##Attr::get(unwrap(ctx), Name(int(value)))));      \
  }                                                                            \
  bool mxqAttributeIsA##Name(MlirAttribute attr) {                             \
    return mlir::isa<Name##Attr>(unwrap(attr));                                \
  }                                                                            \
  Mxq##Name mxq##Name##AttrGetValue(MlirAttribute attr) {                      \
    return Mxq##Name(int(mlir::cast<Name##Attr>(unwrap(attr)).getValue()));    \
  }

MXQ_DEFINE_ENUM_ATTR(ScaleAlgorithm)
MXQ_DEFINE_ENUM_ATTR(InfPolicy)
MXQ_DEFINE_ENUM_ATTR(Rounding)
MXQ_DEFINE_ENUM_ATTR(NanElement)
MXQ_DEFINE_ENUM_ATTR(ScaleLayout)
MXQ_DEFINE_ENUM_ATTR(Underflow)
MXQ_DEFINE_ENUM_ATTR(DivDenormals)
MXQ_DEFINE_ENUM_ATTR(Product)
MXQ_DEFINE_ENUM_ATTR(ResultCast)
