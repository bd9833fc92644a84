/*===- mxq-capi-test.c - the C API from plain C ---------------------------===*\
|*                                                                            *|
|* Registers the dialect, parses and verifies a module, runs the CPU pipeline *|
|* on it through the pass manager, builds enum attributes, then compiles a    *|
|* quantize for the cpu and reference targets, runs both on the same strided  *|
|* data and prints the bytes (checked by FileCheck in capi.test), and checks  *|
|* that bad input is an error with the dialect's words.                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#include "mxq-c/Attributes.h"
#include "mxq-c/Dialects.h"
#include "mxq-c/Execution.h"
#include "mxq-c/Passes.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToStderr(MlirStringRef s, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s", (int)s.length, s.data);
}

static void printToStdout(MlirStringRef s, void *userData) {
  (void)userData;
  printf("%.*s", (int)s.length, s.data);
}

static char lastError[4096];
static void keepError(MlirStringRef s, void *userData) {
  (void)userData;
  size_t n = s.length < sizeof(lastError) - 1 ? s.length : sizeof(lastError) - 1;
  memcpy(lastError, s.data, n);
  lastError[n] = 0;
}

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAILED: %s (line %d)\n", #cond, __LINE__);              \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static const char *kModule =
    "func.func @q(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, "
    "tensor<?x?xf8E8M0FNU>) {\n"
    "  %q, %s = mxq.quantize %x axis = 1 scale = rceil inf = nan "
    "layout = linear\n"
    "      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>\n"
    "  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>\n"
    "}\n";

/* Runs @q for `target` on a 2x40 column-major view of a 40x2 buffer; returns
   the codes (80 bytes) and scales (4 bytes). */
static void runQuantize(MlirContext ctx, MlirModule module, const char *target,
                        uint8_t codes[80], uint8_t scales[4]) {
  MxqExecutable exe;
  MlirLogicalResult r =
      mxqCompile(module, mlirStringRefCreateFromCString("q"),
                 mlirStringRefCreateFromCString(target),
                 mxqCompileOptionsGetDefault(), &exe, printToStderr, NULL);
  CHECK(mlirLogicalResultIsSuccess(r));
  /* storage[j][i] holds x[i][j]: x is 2x40 with strides (1, 2). */
  float storage[40][2];
  for (int j = 0; j < 40; ++j)
    for (int i = 0; i < 2; ++i)
      storage[j][i] = (i == 0) ? (float)(j + 1) / 4.0f : -(float)j * 1000.0f;
  storage[3][1] = 1.0f / 0.0f; /* an Inf in row 1, block 0 */
  int64_t shape[2] = {2, 40};
  int64_t strides[2] = {1, 2};
  MxqBuffer input = {storage, 2, shape, strides, mlirF32TypeGet(ctx)};
  r = mxqExecutableRun(exe, &input, 1, printToStderr, NULL);
  CHECK(mlirLogicalResultIsSuccess(r));
  CHECK(mxqExecutableGetNumResults(exe) == 2);
  CHECK(mxqExecutableGetResultRank(exe, 0) == 2);
  CHECK(mxqExecutableGetResultDim(exe, 0, 1) == 40);
  CHECK(mxqExecutableGetResultDim(exe, 1, 1) == 2);
  MlirType e4m3 = mxqExecutableGetResultElementType(exe, 0);
  CHECK(mlirTypeIsAFloat8E4M3FN(e4m3));
  MlirType e8m0 = mxqExecutableGetResultElementType(exe, 1);
  CHECK(mlirTypeIsAFloat8E8M0FNU(e8m0));
  MxqBuffer out0 = {codes, 2, shape, NULL, e4m3};
  CHECK(mlirLogicalResultIsSuccess(
      mxqExecutableCopyResult(exe, 0, out0, printToStderr, NULL)));
  int64_t sshape[2] = {2, 2};
  MxqBuffer out1 = {scales, 2, sshape, NULL, e8m0};
  CHECK(mlirLogicalResultIsSuccess(
      mxqExecutableCopyResult(exe, 1, out1, printToStderr, NULL)));
  /* A destination of the wrong shape is an error. */
  CHECK(mlirLogicalResultIsFailure(
      mxqExecutableCopyResult(exe, 1, out0, keepError, NULL)));
  printf("copy error: %s\n", lastError);
  /* An input of the wrong element type is an error. */
  MxqBuffer bad = {storage, 2, shape, strides, mlirF16TypeGet(ctx)};
  CHECK(mlirLogicalResultIsFailure(
      mxqExecutableRun(exe, &bad, 1, keepError, NULL)));
  printf("run error: %s\n", lastError);
  mxqExecutableDestroy(exe);
}

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mxqRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreate();
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__mxq__(), ctx);
  mxqRegisterPasses();
  printf("dialect: %.*s\n",
         (int)mlirDialectHandleGetNamespace(mlirGetDialectHandle__mxq__()).length,
         mlirDialectHandleGetNamespace(mlirGetDialectHandle__mxq__()).data);
  printf("targets: ");
  mxqGetTargetNames(printToStdout, NULL);
  printf("\n");

  /* Enum attributes round-trip. */
  MlirAttribute a = mxqScaleAlgorithmAttrGet(ctx, MXQ_SCALE_ALGORITHM_RCEIL);
  CHECK(mxqAttributeIsAScaleAlgorithm(a));
  CHECK(!mxqAttributeIsAScaleLayout(a));
  CHECK(mxqScaleAlgorithmAttrGetValue(a) == MXQ_SCALE_ALGORITHM_RCEIL);
  MlirAttribute l = mxqScaleLayoutAttrGet(ctx, MXQ_SCALE_LAYOUT_SWIZZLE_32_4_4);
  CHECK(mxqScaleLayoutAttrGetValue(l) == MXQ_SCALE_LAYOUT_SWIZZLE_32_4_4);
  printf("attrs: ");
  mlirAttributePrint(a, printToStdout, NULL);
  printf(" ");
  mlirAttributePrint(l, printToStdout, NULL);
  printf(" ");
  mlirAttributePrint(mxqUnderflowAttrGet(ctx, MXQ_UNDERFLOW_FLUSH_LE_EMAX),
                     printToStdout, NULL);
  printf("\n");

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  CHECK(!mlirModuleIsNull(module));
  CHECK(mlirOperationVerify(mlirModuleGetOperation(module)));

  /* The CPU pipeline through the pass manager, on a clone. */
  MlirOperation clone = mlirOperationClone(mlirModuleGetOperation(module));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult r = mlirParsePassPipeline(
      opm, mlirStringRefCreateFromCString("builtin.module(mxq-cpu-pipeline)"),
      printToStderr, NULL);
  CHECK(mlirLogicalResultIsSuccess(r));
  r = mlirPassManagerRunOnOp(pm, clone);
  CHECK(mlirLogicalResultIsSuccess(r));
  MlirOperation body = mlirBlockGetFirstOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(clone, 0)));
  printf("lowered: %.*s\n",
         (int)mlirIdentifierStr(mlirOperationGetName(body)).length,
         mlirIdentifierStr(mlirOperationGetName(body)).data);
  mlirPassManagerDestroy(pm);
  mlirOperationDestroy(clone);

  uint8_t codes[80], scales[4], refCodes[80], refScales[4];
  runQuantize(ctx, module, "cpu", codes, scales);
  runQuantize(ctx, module, "reference", refCodes, refScales);
  CHECK(memcmp(codes, refCodes, sizeof codes) == 0);
  CHECK(memcmp(scales, refScales, sizeof scales) == 0);
  printf("scales: %02x %02x %02x %02x\n", scales[0], scales[1], scales[2],
         scales[3]);
  printf("codes row 0:");
  for (int j = 0; j < 8; ++j)
    printf(" %02x", codes[j]);
  printf("\ncodes row 1:");
  for (int j = 0; j < 8; ++j)
    printf(" %02x", codes[40 + j]);
  printf("\n");

  /* Errors: an unknown target, a missing function, a verifier error. */
  MxqExecutable exe;
  CHECK(mlirLogicalResultIsFailure(mxqCompile(
      module, mlirStringRefCreateFromCString("q"),
      mlirStringRefCreateFromCString("tpu"), mxqCompileOptionsGetDefault(),
      &exe, keepError, NULL)));
  CHECK(exe.ptr == NULL);
  printf("target error: %s\n", lastError);
  CHECK(mlirLogicalResultIsFailure(mxqCompile(
      module, mlirStringRefCreateFromCString("nope"),
      mlirStringRefCreateFromCString("cpu"), mxqCompileOptionsGetDefault(),
      &exe, keepError, NULL)));
  printf("entry error: %s\n", lastError);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  printf("done\n");
  return 0;
}
