//===- ParseFuzzer.cpp - parse, verify and every pipeline ----------------===//
//
// Any text as an MLIR module with mxq and everything its pipelines use
// registered: parsing, verification and, for a module that verifies, every
// target pipeline (the CPU pipeline and the GPU pipeline for both chips, to
// PTX) may fail with a diagnostic but never crash, assert or hang. Seed it
// with the tests and examples (scripts/fuzz.sh does).
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Large inputs only slow the search down.
  if (size > 16384)
    return 0;
  MLIRContext &ctx = ::mxq::fuzz::context();
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, &ctx, "fuzz");
  if (!module || failed(verify(*module)))
    return 0;
  static const char *pipelines[] = {
      "builtin.module(mxq-cpu-pipeline)",
      "builtin.module(mxq-gpu-pipeline{chip=sm_90})",
      "builtin.module(mxq-gpu-pipeline{chip=sm_100a})",
  };
  for (const char *p : pipelines) {
    if (!::mxq::lookupTarget(llvm::StringRef(p).contains("gpu") ? "nvvm"
                                                                  : "cpu"))
      continue;
    std::string err;
    llvm::raw_string_ostream errs(err);
    FailureOr<OpPassManager> parsed = parsePassPipeline(p, errs);
    if (failed(parsed))
      ::mxq::fuzz::fail(std::string("the pipeline does not parse: ") + p);
    PassManager pm(&ctx, parsed->getOpAnchorName());
    static_cast<OpPassManager &>(pm) = std::move(*parsed);
    OwningOpRef<ModuleOp> copy(module->clone());
    (void)pm.run(*copy);
  }
  return 0;
}
