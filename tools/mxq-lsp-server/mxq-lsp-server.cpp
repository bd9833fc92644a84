//===- mxq-lsp-server.cpp - MLIR's language server with mxq ---------------===//
//
// Upstream's MLIR language server (diagnostics, hover, go-to-definition) with
// mxq and every dialect its pipelines and targets use registered. Point an
// editor's MLIR extension at it (README, "Editor support").
//
//===----------------------------------------------------------------------===//
#include "mxq/InitAll.h"
#include "mxq/Target/Target.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mxq::registerAllTargets();
  mlir::DialectRegistry registry;
  mxq::registerDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
