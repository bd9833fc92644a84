//===- KnownMultiple.h - what an index is a multiple of ---------*- C++ -*-===//
//
// One small analysis of index arithmetic, shared by the passes that need to
// know, without running anything, that an index is a multiple of something:
// mxq-pack-fp4-memory (does an access start on a byte: an even column?) and
// the GPU target's mxq-align-vector-accesses (what alignment does an access
// have?).
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TRANSFORMS_KNOWNMULTIPLE_H
#define MXQ_TRANSFORMS_KNOWNMULTIPLE_H

#include "mlir/IR/Value.h"

#include <cstdint>

namespace mxq {

/// A number every value of `v` is a multiple of (0: `v` is 0; 1 where
/// nothing is known). Looks through constants, products, sums and
/// differences, shifts by constants, index casts, affine.apply, and the
/// induction variables of scf.for and scf.parallel, `depth` levels deep.
/// Index arithmetic wraps modulo 2^64, which keeps every power-of-two
/// factor this reports.
uint64_t knownMultiple(mlir::Value v, int depth = 8);

} // namespace mxq

#endif // MXQ_TRANSFORMS_KNOWNMULTIPLE_H
