/*===- mxq-c/Execution.h - C API: compile and run a function -----*- C -*-===*\
|*                                                                            *|
|* Compiles a function of a module for a registered target (by name: "cpu",   *|
|* "reference", ...) and runs it on caller-owned strided buffers. The data    *|
|* conventions are those of the targets' in-memory tensors: one element per   *|
|* element of the buffer's element type (f32: 4 bytes, f16/bf16: 2, FP8,      *|
|* E8M0, FP6 and FP4 codes: 1 byte each, FP4/FP6 in the low bits). Errors are *|
|* a failed MlirLogicalResult and the sentence (the dialect's diagnostic      *|
|* text where there is one) passed to the caller's callback.                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef MXQ_C_EXECUTION_H
#define MXQ_C_EXECUTION_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A compiled function, with the results of its last run.
typedef struct MxqExecutable {
  void *ptr;
} MxqExecutable;

/// What a compile may be asked for (mxq::TargetOptions).
typedef struct MxqCompileOptions {
  MlirStringRef chip;        ///< empty: the target's default
  int isaVersion;            ///< 0: the chip's default
  const int64_t *tileSizes;  ///< null or numTileSizes sizes
  intptr_t numTileSizes;
} MxqCompileOptions;

/// A caller-owned strided buffer. `strides` counts elements (not bytes); null
/// means row-major contiguous. FP4 (f4E2M1FN) buffers hold two codes a byte
/// along the last axis (element 2i in the low nibble, ceil(K / 2) bytes a row
/// of K codes) and must be contiguous: `shape` is the logical one, `strides`
/// null (see mxqGetBufferByteSize).
typedef struct MxqBuffer {
  void *data;
  intptr_t rank;
  const int64_t *shape;
  const int64_t *strides;
  MlirType elementType;
} MxqBuffer;

/// Options with every field at its default.
MLIR_CAPI_EXPORTED MxqCompileOptions mxqCompileOptionsGetDefault(void);

/// The names of the registered targets, comma-separated (after
/// mxqRegisterPasses).
MLIR_CAPI_EXPORTED void mxqGetTargetNames(MlirStringCallback callback,
                                          void *userData);

/// Compiles @`entry` of `module` (not changed) for `target`. On failure
/// `*result` is null and the error goes to `onError`.
MLIR_CAPI_EXPORTED MlirLogicalResult
mxqCompile(MlirModule module, MlirStringRef entry, MlirStringRef target,
           MxqCompileOptions options, MxqExecutable *result,
           MlirStringCallback onError, void *userData);

/// Runs `executable` on `numInputs` buffers, in argument order. The inputs
/// are checked against the function (element types, ranks, shapes that
/// contradict each other) with the same checks as mxq-run. The results stay
/// in the executable until the next run.
MLIR_CAPI_EXPORTED MlirLogicalResult
mxqExecutableRun(MxqExecutable executable, const MxqBuffer *inputs,
                 intptr_t numInputs, MlirStringCallback onError,
                 void *userData);

/// The number of results of the last run.
MLIR_CAPI_EXPORTED intptr_t mxqExecutableGetNumResults(MxqExecutable executable);
/// The rank of result `index`.
MLIR_CAPI_EXPORTED intptr_t mxqExecutableGetResultRank(MxqExecutable executable,
                                                       intptr_t index);
/// Dimension `dim` of result `index`.
MLIR_CAPI_EXPORTED int64_t mxqExecutableGetResultDim(MxqExecutable executable,
                                                     intptr_t index,
                                                     intptr_t dim);
/// The element type of result `index`.
MLIR_CAPI_EXPORTED MlirType
mxqExecutableGetResultElementType(MxqExecutable executable, intptr_t index);
/// Copies result `index` into `destination`, whose element type and shape
/// must be the result's.
MLIR_CAPI_EXPORTED MlirLogicalResult mxqExecutableCopyResult(
    MxqExecutable executable, intptr_t index, MxqBuffer destination,
    MlirStringCallback onError, void *userData);
/// Frees `executable` (null is fine).
MLIR_CAPI_EXPORTED void mxqExecutableDestroy(MxqExecutable executable);

/// Bytes one element of `type` takes in a buffer, 0 if mxq does not take it
/// (FP4: 1, but its codes are packed two per byte; see mxqGetBufferByteSize).
MLIR_CAPI_EXPORTED intptr_t mxqGetElementByteWidth(MlirType type);

/// Bytes a contiguous buffer of `type` and logical `shape` (rank `rank`)
/// takes: FP4 ceil(K / 2) bytes a row. -1 for a type mxq does not take or a
/// negative dimension.
MLIR_CAPI_EXPORTED int64_t mxqGetBufferByteSize(MlirType type, intptr_t rank,
                                                const int64_t *shape);

#ifdef __cplusplus
}
#endif

#endif /* MXQ_C_EXECUTION_H */
