/*===- mxq-c/Dialects.h - C API: the mxq dialect -----------------*- C -*-===*\
|*                                                                            *|
|* The dialect handle in upstream's convention, and one call that registers   *|
|* every dialect mxq's pipelines use (what mxq-opt has).                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef MXQ_C_DIALECTS_H
#define MXQ_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(MXQ, mxq);

/// Inserts mxq and every dialect, interface model and translation that mxq's
/// pipelines and targets use into `registry`.
MLIR_CAPI_EXPORTED void mxqRegisterAllDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif /* MXQ_C_DIALECTS_H */
