//===- mxq-opt.cpp - the mxq optimizer driver -----------------------------===//
//
// mxq plus the upstream dialects and passes that its pipelines use.
//
//===----------------------------------------------------------------------===//
#include "mxq/Dialect/MXQ/MXQ.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::memref::registerMemRefPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::mxq::MXQDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect,
                  mlir::memref::MemRefDialect>();

  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "mxq version " << MXQ_VERSION << "\n";
  });
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mxq optimizer driver\n", registry));
}
