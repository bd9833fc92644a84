//===- Passes.h - passes of the Ascend-like target --------------*- C++ -*-===//
#ifndef MXQ_TARGET_ASCEND_PASSES_H
#define MXQ_TARGET_ASCEND_PASSES_H

#include "mxq/Target/Ascend/Chip.h"
#include "mxq/Target/Ascend/VTile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

#include <optional>
#include <vector>

namespace mxq::vtile {

#define GEN_PASS_DECL
#include "mxq/Target/Ascend/Passes.h.inc"

/// How a function is tiled (0: chosen from the chip).
struct TilingOptions {
  int64_t tileRows = 0;
  int64_t tileCols = 0;
  bool doubleBuffer = true;
  /// PyPTO's tile contract for quant_mx (set_vec_tile_shapes and
  /// performance_mode); empty and unset: not asked for.
  std::vector<int64_t> tileShape;
  std::optional<bool> performanceMode;
};

/// Rewrites `func` (one mxq op on its arguments, static shapes) into a
/// vtile kernel for `chip`; a diagnostic on the function and failure when
/// it cannot.
mlir::LogicalResult lowerFunctionToVTile(mlir::func::FuncOp func,
                                         const Chip &chip,
                                         const TilingOptions &options);

#define GEN_PASS_REGISTRATION
#include "mxq/Target/Ascend/Passes.h.inc"

} // namespace mxq::vtile

#endif // MXQ_TARGET_ASCEND_PASSES_H
