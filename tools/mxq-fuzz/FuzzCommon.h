//===- FuzzCommon.h - shared pieces of mxq's fuzz targets -------*- C++ -*-===//
//
// The context every target uses (mxq's dialects, targets and passes
// registered once), a diagnostic handler that keeps the fuzzers quiet, and a
// reader of fuzz bytes for the structured target. Each target defines
// LLVMFuzzerTestOneInput; built with -DMXQ_LIBFUZZER=ON (clang) they link
// libFuzzer, otherwise StandaloneMain.cpp replays files and random inputs.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TOOLS_FUZZ_FUZZCOMMON_H
#define MXQ_TOOLS_FUZZ_FUZZCOMMON_H

#include "mxq/InitAll.h"
#include "mxq/Target/Target.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace mxq::fuzz {

/// The one context of a fuzz process, with everything registered and
/// diagnostics swallowed (a fuzzer reports crashes, not errors).
inline mlir::MLIRContext &context() {
  static mlir::MLIRContext *ctx = [] {
    ::mxq::registerAllTargets();
    ::mxq::registerPasses();
    mlir::DialectRegistry registry;
    ::mxq::registerDialects(registry);
    auto *c = new mlir::MLIRContext(registry);
    c->loadAllAvailableDialects();
    c->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
    // One thread: a fuzz input must not depend on scheduling.
    c->disableMultithreading();
    return c;
  }();
  return *ctx;
}

/// A mismatch or a broken promise: print it and abort, which libFuzzer
/// records as a crash with the input that caused it.
[[noreturn]] inline void fail(const std::string &what) {
  std::fprintf(stderr, "mxq fuzz: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

/// Takes values from the fuzz input, front to back; zeros once it is used
/// up (so every input is a valid program choice).
class Bytes {
public:
  Bytes(const uint8_t *data, size_t size) : data(data), size(size) {}
  uint8_t byte() { return at < size ? data[at++] : 0; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v |= uint32_t(byte()) << (8 * i);
    return v;
  }
  /// A value in [0, n).
  size_t below(size_t n) { return n == 0 ? 0 : byte() % n; }
  template <typename T> const T &pick(const std::vector<T> &v) {
    return v[below(v.size())];
  }
  bool flag() { return byte() & 1; }

private:
  const uint8_t *data;
  size_t size;
  size_t at = 0;
};

} // namespace mxq::fuzz

#endif // MXQ_TOOLS_FUZZ_FUZZCOMMON_H
