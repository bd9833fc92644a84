//===- Dialects.cpp - C API: the mxq dialect ------------------------------===//
#include "mxq-c/Dialects.h"
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/InitAll.h"
#include "mxq/Target/Target.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(MXQ, mxq, mlir::mxq::MXQDialect)

void mxqRegisterAllDialects(MlirDialectRegistry registry) {
  // The targets add their own dialects (gpu, nvvm, ...).
  ::mxq::registerAllTargets();
  ::mxq::registerDialects(*unwrap(registry));
}
