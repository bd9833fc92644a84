/*===- mxq-c/Attributes.h - C API: mxq's enum attributes ---------*- C -*-===*\
|*                                                                            *|
|* For every enum attribute of the dialect: the C enum (values equal to the   *|
|* dialect's), a constructor, an isa test and a getter. The words are those   *|
|* of the IR (`scale = rceil` is MXQ_SCALE_ALGORITHM_RCEIL).                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef MXQ_C_ATTRIBUTES_H
#define MXQ_C_ATTRIBUTES_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum MxqScaleAlgorithm {
  MXQ_SCALE_ALGORITHM_FLOOR = 0,
  MXQ_SCALE_ALGORITHM_RCEIL = 1,
  MXQ_SCALE_ALGORITHM_CEIL = 2,
  MXQ_SCALE_ALGORITHM_EVEN = 3,
  MXQ_SCALE_ALGORITHM_ENCODE = 4, /* NVFP4, E4M3 scales: TransformerEngine */
  MXQ_SCALE_ALGORITHM_DECODE = 5, /* NVFP4, E4M3 scales: torchao */
  MXQ_SCALE_ALGORITHM_TOSA = 6    /* TOSA 1.1 calc_block_scale */
} MxqScaleAlgorithm;

typedef enum MxqInfPolicy {
  MXQ_INF_POLICY_NAN = 0,
  MXQ_INF_POLICY_SATURATE = 1,
  MXQ_INF_POLICY_EXPONENT = 2
} MxqInfPolicy;

typedef enum MxqRounding {
  MXQ_ROUNDING_RNE = 0,
  MXQ_ROUNDING_AWAY = 1,
  MXQ_ROUNDING_FLOOR = 2
} MxqRounding;

typedef enum MxqNanElement {
  MXQ_NAN_ELEMENT_MAX = 0,
  MXQ_NAN_ELEMENT_ZERO = 1
} MxqNanElement;

typedef enum MxqScaleLayout {
  MXQ_SCALE_LAYOUT_LINEAR = 0,
  MXQ_SCALE_LAYOUT_SWIZZLE_32_4_4 = 1,
  MXQ_SCALE_LAYOUT_PAIRS = 2
} MxqScaleLayout;

typedef enum MxqUnderflow {
  MXQ_UNDERFLOW_KEEP = 0,
  MXQ_UNDERFLOW_FLUSH_E0 = 1,
  MXQ_UNDERFLOW_FLUSH_LE_EMAX = 2
} MxqUnderflow;

typedef enum MxqDivDenormals {
  MXQ_DIV_DENORMALS_IEEE = 0,
  MXQ_DIV_DENORMALS_FTZ = 1
} MxqDivDenormals;

typedef enum MxqProduct { MXQ_PRODUCT_F32 = 0, MXQ_PRODUCT_BF16 = 1 } MxqProduct;

typedef enum MxqResultCast {
  MXQ_RESULT_CAST_IEEE = 0,
  MXQ_RESULT_CAST_SATURATE = 1
} MxqResultCast;

#define MXQ_DECLARE_ENUM_ATTR(Name)                                            \
  MLIR_CAPI_EXPORTED MlirAttribute mxq##Name##AttrGet(MlirContext ctx,         \
                                                      Mxq##Name value);        \
  MLIR_CAPI_EXPORTED bool mxqAttributeIsA##Name(MlirAttribute attr);           \
  MLIR_CAPI_EXPORTED Mxq##Name mxq##Name##AttrGetValue(MlirAttribute attr)

/* mxqScaleAlgorithmAttrGet, mxqAttributeIsAScaleAlgorithm,
   mxqScaleAlgorithmAttrGetValue, and so on for each enum. */
MXQ_DECLARE_ENUM_ATTR(ScaleAlgorithm);
MXQ_DECLARE_ENUM_ATTR(InfPolicy);
MXQ_DECLARE_ENUM_ATTR(Rounding);
MXQ_DECLARE_ENUM_ATTR(NanElement);
MXQ_DECLARE_ENUM_ATTR(ScaleLayout);
MXQ_DECLARE_ENUM_ATTR(Underflow);
MXQ_DECLARE_ENUM_ATTR(DivDenormals);
MXQ_DECLARE_ENUM_ATTR(Product);
MXQ_DECLARE_ENUM_ATTR(ResultCast);

#undef MXQ_DECLARE_ENUM_ATTR

#ifdef __cplusplus
}
#endif

#endif /* MXQ_C_ATTRIBUTES_H */
