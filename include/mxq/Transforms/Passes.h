//===- Passes.h - mxq transformation passes ---------------------*- C++ -*-===//
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
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"

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

/// The type conversion of mxq-pack-fp4-memory: a memref of f4E2M1FN (identity
/// layout) to a memref of i8 of the same shape that holds the packed codes.
void populatePackFP4MemoryTypeConversion(mlir::TypeConverter &converter);

/// The vector accesses to FP4 buffers under `root` whose first column is
/// even by construction (a block's first column; mxq::knownMultiple), so
/// that mxq-pack-fp4-memory moves their packed bytes without a run-time
/// test. Asked of the IR before the conversion changes it.
llvm::DenseSet<mlir::Operation *> findEvenFP4Columns(mlir::Operation *root);

/// The patterns of mxq-pack-fp4-memory (loads, stores, vector transfers,
/// allocations, copies, function signatures, calls and returns of FP4
/// buffers) and the legality they establish in `target`. `evenColumns`
/// (findEvenFP4Columns, optional) names the accesses known to start on a
/// byte; the others test their column at run time.
void populatePackFP4MemoryPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns,
    mlir::ConversionTarget &target,
    const llvm::DenseSet<mlir::Operation *> *evenColumns = nullptr);

/// Patterns of mxq-byte-sized-memory (LLVM-dialect loads and stores of
/// sub-byte integers, FP6 codes, as bytes).
void populateByteSizedMemoryPatterns(mlir::RewritePatternSet &patterns);

/// Patterns of mxq-materialize-scale-layout.
void populateMaterializeScaleLayoutPatterns(mlir::RewritePatternSet &patterns);


#define GEN_PASS_REGISTRATION
#include "mxq/Transforms/Passes.h.inc"

} // namespace mxq

#endif // MXQ_TRANSFORMS_PASSES_H
