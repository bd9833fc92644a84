//===- mxq-opt.cpp - the mxq optimizer driver -----------------------------===//
//
// mxq plus the upstream dialects and passes that its pipelines use.
//
//===----------------------------------------------------------------------===//
#include "mxq/InitAll.h"
#include "mxq/Target/Target.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mxq::registerAllTargets();
  mxq::registerPasses();
  mlir::DialectRegistry registry;
  mxq::registerDialects(registry);
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "mxq version " << MXQ_VERSION << "\n";
  });
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mxq optimizer driver\n", registry));
}
