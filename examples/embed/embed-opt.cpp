//===- embed-opt.cpp - a host compiler's tool that embeds mxq -------------===//
//
//   embed-opt FILE.mlir --pass-pipeline='builtin.module(mxq-cpu-pipeline)'
//   embed-opt --run-quantize
//
// The first form is an mlir-opt with mxq registered in the host's own
// registry; the second parses an mxq.quantize in the host's own MLIRContext,
// compiles it for the CPU target and runs it on a few values.
//
//===----------------------------------------------------------------------===//
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Execution/Execution.h"
#include "mxq/InitAll.h"
#include "mxq/Target/Target.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

static int runQuantize() {
  mlir::DialectRegistry registry;
  mxq::registerDialects(registry);
  mlir::MLIRContext context(registry);
  const char *ir = R"mlir(
    func.func @q(%x: tensor<2x32xf32>) -> (tensor<2x32xf8E4M3FN>, tensor<2x1xf8E8M0FNU>) {
      %q, %s = mxq.quantize %x axis = 1 scale = floor
          : tensor<2x32xf32> -> tensor<2x32xf8E4M3FN>, tensor<2x1xf8E8M0FNU>
      return %q, %s : tensor<2x32xf8E4M3FN>, tensor<2x1xf8E8M0FNU>
    })mlir";
  auto module = mlir::parseSourceString<mlir::ModuleOp>(ir, &context);
  if (!module)
    return 1;
  std::string error;
  auto function = mxq::CompiledFunction::compile(*module, "q", "cpu",
                                                 mxq::TargetOptions(), error);
  if (!function) {
    llvm::errs() << "compile: " << error << "\n";
    return 1;
  }
  mxq::RawTensor x;
  x.shape = {2, 32};
  x.elementType = mlir::Float32Type::get(&context);
  std::vector<float> values(64);
  for (int i = 0; i < 64; ++i)
    values[i] = i < 32 ? 0.5f * float(i) : -1000.0f;
  x.data.resize(64 * 4);
  std::memcpy(x.data.data(), values.data(), 64 * 4);
  std::vector<mxq::RawTensor> results;
  if (!function->run({x}, results, error)) {
    llvm::errs() << "run: " << error << "\n";
    return 1;
  }
  llvm::outs() << "scales:";
  for (uint8_t b : results[1].data)
    llvm::outs() << " " << llvm::format_hex_no_prefix(b, 2);
  llvm::outs() << "\ncodes:";
  for (int i = 0; i < 4; ++i)
    llvm::outs() << " " << llvm::format_hex_no_prefix(results[0].data[i], 2);
  llvm::outs() << "\n";
  return 0;
}

int main(int argc, char **argv) {
  mxq::registerAllTargets();
  if (argc == 2 && std::strcmp(argv[1], "--run-quantize") == 0)
    return runQuantize();
  mxq::registerPasses();
  mlir::DialectRegistry registry;
  mxq::registerDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "a host compiler with mxq\n", registry));
}
