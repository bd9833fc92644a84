//===- Passes.h - mxq transformation passes -----------------------*- C++ -*-===//
#ifndef MXQ_TRANSFORMS_PASSES_H
#define MXQ_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mxq {

#define GEN_PASS_DECL
#include "mxq/Transforms/Passes.h.inc"

/// Tiles `op` (an mxq op) with `tileSizes` (iteration-domain units, 0 for
/// untiled, missing trailing sizes 0) into scf.forall or scf.for loops and
/// replaces it. Fails with a diagnostic on the op for invalid sizes.
llvm::LogicalResult tileMXQOp(mlir::RewriterBase &rewriter,
                              mlir::TilingInterface op,
                              llvm::ArrayRef<int64_t> tileSizes, bool forall);

/// Adds what every target runs after convert-mxq-to-loops: canonicalization,
/// CSE, empty-tensor elimination and one-shot bufferization of whole
/// functions (results returned as allocations of identity layout).
void addMXQBufferizationPasses(mlir::OpPassManager &pm);

/// Patterns of mxq-materialize-scale-layout.
void populateMaterializeScaleLayoutPatterns(mlir::RewritePatternSet &patterns);


#define GEN_PASS_REGISTRATION
#include "mxq/Transforms/Passes.h.inc"

} // namespace mxq

#endif // MXQ_TRANSFORMS_PASSES_H
