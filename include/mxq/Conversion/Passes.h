//===- Passes.h - mxq conversion passes -------------------------*- C++ -*-===//
#ifndef MXQ_CONVERSION_PASSES_H
#define MXQ_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mxq::numerics {
class NativeConverts;
} // namespace mxq::numerics

namespace mxq {

/// How the shared expansion lowers `dual_quantize`: a choice of the target
/// (its registers and memory), which its LoopsTarget states.
enum class DualQuantizeForm {
  /// One loop over 32 x 32 tiles: each tile's rows read from cache by three
  /// row loops, its column codes transposed in registers (a CPU core's
  /// vector registers and caches).
  Tiles,
  /// A row-wise and a column-wise quantize and a transpose of the column
  /// codes (what a GPU thread can hold).
  TwoQuantizes,
};

/// What the shared expansion needs to know of the target it lowers for.
/// Each target's folder fills one in; shared code reads it and never names
/// a target.
struct LoopsTarget {
  /// The target's conversion instructions where they are exact (see
  /// numerics::NativeConverts); null: integer IR throughout.
  std::shared_ptr<const numerics::NativeConverts> native;
  DualQuantizeForm dualForm = DualQuantizeForm::Tiles;
};

#define GEN_PASS_DECL
#include "mxq/Conversion/Passes.h.inc"

/// The attribute convert-mxq-to-loops puts on the scf.for loops over blocks:
/// their iterations write disjoint codes and scales.
constexpr const char *kParallelLoopAttr = "mxq.parallel";
/// A block loop whose iterations are parallel two by two: consecutive
/// iterations 2i and 2i + 1 write one byte (FP4 codes of two columns) and run
/// in one thread, in order (mxq-parallelize-loops).
constexpr const char *kParallelPairsAttr = "mxq.parallel_pairs";

/// Patterns that expand every mxq op into loops, vectors and exact integer
/// numerics on tensors (the body of convert-mxq-to-loops), for `target`:
/// its native converts where they are exact, its form of dual_quantize.
/// The default is a target without native converts that takes the tiled
/// dual (the generic pass's).
void populateMXQToLoopsPatterns(mlir::RewritePatternSet &patterns,
                                const LoopsTarget &target = {});

/// The body of convert-mxq-to-loops (and of a target's variant of it, with
/// its LoopsTarget and its own patterns, `targetPatterns`, which add
/// theirs with a higher benefit to take the ops they map themselves):
/// applies the patterns to `root` and fails with a diagnostic on any mxq op
/// left. It only rewrites: no folding or region simplification (the
/// pipelines canonicalize next; the greedy driver's folding of every op it
/// created was two thirds of this pass's time).
llvm::LogicalResult convertMXQToLoops(
    mlir::Operation *root, const LoopsTarget &target,
    llvm::function_ref<void(mlir::RewritePatternSet &)> targetPatterns = {});

/// TOSA 1.1's MXFP casts as mxq ops (the body of convert-tosa-to-mxq):
/// cast_to_block_scaled to mxq.quantize with scale = tosa,
/// cast_from_block_scaled to mxq.dequantize.
void populateTOSAToMXQPatterns(mlir::RewritePatternSet &patterns);
/// Applies them to `root`; a diagnostic and failure on a TOSA MXFP op mxq
/// cannot state (mxint8 data, unranked tensors, matmul_t_block_scaled).
/// Succeeds without change on IR that has none (every front end calls it).
llvm::LogicalResult convertTOSAToMXQ(mlir::Operation *root);

#define GEN_PASS_REGISTRATION
#include "mxq/Conversion/Passes.h.inc"

} // namespace mxq

#endif // MXQ_CONVERSION_PASSES_H
