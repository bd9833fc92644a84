//===- ParseFuzzer.cpp - parse, verify and every pipeline -----------------===//
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
// Its mutator (LLVMFuzzerCustomMutator, which also makes the standalone
// driver mutate the seeds instead of running random bytes that never
// parse) is one time in four libFuzzer's byte-level one and otherwise
// textual (mutateText: numbers made edge values, words made other words of
// their attribute, lines deleted or repeated), so that more mutants parse
// and reach the verifiers. A text that does not parse returns -1, which
// keeps it out of libFuzzer's corpus and the standalone driver's pool.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

/// A mutation that keeps most of a module's text well formed, so that the
/// mutant still parses and reaches the verifiers and pipelines: a number
/// (not an SSA, symbol or block name) made an edge value, or a word of the
/// dialect made another of its class (the words of one attribute, element
/// types); one in eight, a line deleted or repeated. Byte-level mutations
/// alone left one input in a hundred parseable; with these, and unparsed
/// inputs kept out of the pool, a third to three fifths parse (the counts
/// the target prints at exit say how a run fared).
static size_t mutateText(uint8_t *data, size_t size, size_t maxSize,
                         unsigned seed) {
  static const std::vector<std::string> numbers = {
      "0",   "1",   "2",    "3",    "7",     "15",         "16",
      "17",  "31",  "32",   "33",   "64",    "96",         "128",
      "255", "256", "1024", "4096", "65536", "2147483647", "-1"};
  static const std::vector<std::vector<std::string>> classes = {
      {"floor", "rceil", "ceil", "even", "tosa", "encode", "decode"},
      {"nan", "saturate", "exponent"},
      {"keep", "flush_e0", "flush_le_emax"},
      {"rne", "away", "floor"},
      {"max", "zero"},
      {"linear", "pairs", "swizzle_32_4_4"},
      {"ieee", "saturate"},
      {"exact", "reciprocal"},
      {"f32", "bf16", "f16", "f8E4M3FN", "f8E5M2", "f6E2M3FN", "f6E3M2FN",
       "f4E2M1FN", "f8E8M0FNU", "i8", "i32", "index"}};
  std::mt19937 r(seed);
  std::string text(reinterpret_cast<const char *>(data), size);
  if (text.empty())
    return size;
  auto isWord = [](char c) {
    return std::isalnum((unsigned char)c) || c == '_';
  };
  if (r() % 8 == 0) { // a line deleted, or repeated
    size_t at = r() % text.size();
    size_t b = text.rfind('\n', at);
    b = b == std::string::npos ? 0 : b + 1;
    size_t e = text.find('\n', at);
    e = e == std::string::npos ? text.size() : e + 1;
    std::string line = text.substr(b, e - b);
    if (r() % 2)
      text.erase(b, e - b);
    else
      text.insert(e, line);
  } else {
    // A few tries at a random token that is a number or a dialect word.
    for (int tries = 0; tries < 32; ++tries) {
      size_t at = r() % text.size();
      if (!isWord(text[at]))
        continue;
      size_t b = at, e = at;
      while (b > 0 && isWord(text[b - 1]))
        --b;
      while (e < text.size() && isWord(text[e]))
        ++e;
      std::string token = text.substr(b, e - b);
      char before = b ? text[b - 1] : ' ';
      if (before == '%' || before == '@' || before == '^' || before == '#')
        continue;
      const std::vector<std::string> *from = nullptr;
      if (std::isdigit((unsigned char)token[0]))
        from = &numbers;
      for (const auto &c : classes)
        if (!from && std::find(c.begin(), c.end(), token) != c.end())
          from = &c;
      if (!from)
        continue;
      text.replace(b, e - b, (*from)[r() % from->size()]);
      break;
    }
  }
  if (text.size() > maxSize)
    return size;
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  if (seed % 4)
    return mutateText(data, size, maxSize, seed / 4);
  return LLVMFuzzerMutate(data, size, maxSize);
}

namespace {
/// What the inputs reached, printed at exit: a run is worth only as much
/// as the share of its inputs that parse, verify and reach the pipelines.
struct Reached {
  uint64_t parsed = 0, verified = 0, distinct = 0, pipelines = 0;
};

Reached &reached() {
  static Reached &r = *[] {
    auto *r = new Reached();
    std::atexit([] {
      const Reached &c = reached();
      std::printf("mxq-parse-fuzzer: %llu parsed, %llu verified, %llu "
                  "distinct modules, %llu through the pipelines\n",
                  (unsigned long long)c.parsed, (unsigned long long)c.verified,
                  (unsigned long long)c.distinct,
                  (unsigned long long)c.pipelines);
    });
    return r;
  }();
  return r;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Reached &counts = reached();
  // Large inputs only slow the search down.
  if (size > 16384)
    return 0;
  MLIRContext &ctx = ::mxq::fuzz::context();
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      text, ParserConfig(&ctx, /*verifyAfterParse=*/false), "fuzz");
  if (!module)
    return -1; // libFuzzer: not worth keeping in the corpus
  ++counts.parsed;
  if (failed(verify(*module)))
    return 0;
  ++counts.verified;
  constexpr uint64_t kRepeatShare = 64;
  static auto &seen = *new std::unordered_set<uint64_t>();
  static uint64_t repeats = 0;
  std::string printed;
  {
    llvm::raw_string_ostream os(printed);
    module->print(os);
  }
  bool isNew = seen.insert(llvm::xxh3_64bits(printed)).second;
  counts.distinct += isNew;
  if (!isNew && ++repeats % kRepeatShare != 0)
    return 0;
  ++counts.pipelines;
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
