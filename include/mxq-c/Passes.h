/*===- mxq-c/Passes.h - C API: mxq's passes and pipelines --------*- C -*-===*\
|*                                                                            *|
|* Registers mxq's passes, its targets and their pipelines (mxq-cpu-pipeline, *|
|* mxq-gpu-pipeline, ...) with the global pass registry, so that              *|
|* mlirParsePassPipeline and mlirOpPassManagerAddPipeline find them by name.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef MXQ_C_PASSES_H
#define MXQ_C_PASSES_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every target of this build, mxq's passes and pipelines and the
/// upstream passes they use. Safe to call more than once.
MLIR_CAPI_EXPORTED void mxqRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* MXQ_C_PASSES_H */
