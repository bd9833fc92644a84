//===- VTile.h - the vector-tile dialect ------------------------*- C++ -*-===//
#ifndef MXQ_TARGET_ASCEND_VTILE_H
#define MXQ_TARGET_ASCEND_VTILE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <string>

#include "mxq/Target/Ascend/VTileDialect.h.inc"
#include "mxq/Target/Ascend/VTileEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mxq/Target/Ascend/VTileAttrs.h.inc"

#define GET_OP_CLASSES
#include "mxq/Target/Ascend/VTileOps.h.inc"

namespace mxq::vtile {

/// Lane width in bits of a type vtile instructions take (integers of 8, 16
/// and 32 bits, bf16, f16, f32, f8E4M3FN, f8E5M2, f4E2M1FN), or 0.
unsigned laneBits(mlir::Type type);

/// The CTRL bit the model has: set, a saturating f32 to FP8 cast turns NaN
/// into the NaN code instead of +0 (ascend-model.md §3.3).
inline constexpr int64_t kCtrlFP8SatNaN = 50;

/// Whether `type` is GM memory: a memref in #vtile.space<gm>.
bool isGlobalMemRef(mlir::Type type);

struct Chip;
/// Whether `chip` has a cast from `src` to `dst` lanes with `round` and
/// `sat`; else a sentence why.
bool checkCast(mlir::Type src, mlir::Type dst, RoundMode round, bool sat,
               const Chip &chip, std::string &why);

} // namespace mxq::vtile

#endif // MXQ_TARGET_ASCEND_VTILE_H
