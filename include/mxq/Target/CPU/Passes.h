//===- Passes.h - passes of the CPU target ------------------------*- C++ -*-===//
#ifndef MXQ_TARGET_CPU_PASSES_H
#define MXQ_TARGET_CPU_PASSES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mxq::cpu {

#define GEN_PASS_DECL
#include "mxq/Target/CPU/Passes.h.inc"

/// Patterns of mxq-bf16-memory-as-i16.
void populateBF16MemoryAsI16Patterns(mlir::RewritePatternSet &patterns);
/// Patterns of mxq-prefetch-loads: prefetches `distance` bytes ahead of
/// every vector load of at least `minBytes` bytes.
void populatePrefetchLoadsPatterns(mlir::RewritePatternSet &patterns,
                                   int64_t distance = 2048,
                                   int64_t minBytes = 64);

#define GEN_PASS_REGISTRATION
#include "mxq/Target/CPU/Passes.h.inc"

} // namespace mxq::cpu

#endif // MXQ_TARGET_CPU_PASSES_H
