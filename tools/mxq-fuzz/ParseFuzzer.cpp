//===- ParseFuzzer.cpp - parse, verify and every pipeline ----------------===//
//
// Any text as an MLIR module with mxq and everything its pipelines use
// registered: parsing, verification and, for a module that verifies, every
// target pipeline (the CPU pipeline and the GPU pipeline for both chips, to
// PTX) may fail with a diagnostic but never crash, assert or hang. Seed it
// with the tests and examples (scripts/fuzz.sh does).
//
// Every input is parsed and verified; the pipelines (most of an
// execution's time) run on a module that verifies only when it is new: its
// printed form (no locations, SSA names renumbered) hashes to a value not
// seen before in this process, and on one repeat in kRepeatShare. Mutations
// that change only spelling, comments or names are then as cheap as a
// parse. Replaying one input in a fresh process always runs the pipelines.
//
// Its mutator is libFuzzer's own; declaring it (LLVMFuzzerCustomMutator)
// makes the standalone driver mutate the seeds too, instead of running
// random bytes that never parse.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/xxhash.h"

#include <unordered_set>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size,
                                   size_t maxSize);
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned) {
  return LLVMFuzzerMutate(data, size, maxSize);
}

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
  constexpr uint64_t kRepeatShare = 64;
  static auto &seen = *new std::unordered_set<uint64_t>();
  static uint64_t repeats = 0;
  std::string printed;
  {
    llvm::raw_string_ostream os(printed);
    module->print(os);
  }
  if (!seen.insert(llvm::xxh3_64bits(printed)).second &&
      ++repeats % kRepeatShare != 0)
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
