//===- Passes.h - passes of the CPU target ----------------------*- C++ -*-===//
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
/// Patterns of mxq-prefetch-loads: before every vector load (masked or
/// not) of at least `minBytes` bytes, prefetches of its lines `ahead` times
/// its size further on.
void populatePrefetchLoadsPatterns(mlir::RewritePatternSet &patterns,
                                   int64_t ahead = 8, int64_t minBytes = 64);

#define GEN_PASS_REGISTRATION
#include "mxq/Target/CPU/Passes.h.inc"

} // namespace mxq::cpu

#endif // MXQ_TARGET_CPU_PASSES_H
