//===- MXQ.h - the mxq dialect ----------------------------------*- C++ -*-===//
#ifndef MXQ_DIALECT_MXQ_MXQ_H
#define MXQ_DIALECT_MXQ_MXQ_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"

#include "mxq/Support/Formats.h"

#include "mxq/Dialect/MXQ/MXQDialect.h.inc"
#include "mxq/Dialect/MXQ/MXQEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mxq/Dialect/MXQ/MXQAttrs.h.inc"

#define GET_OP_CLASSES
#include "mxq/Dialect/MXQ/MXQOps.h.inc"

namespace mlir::mxq {

/// The element format of an MX code type, or nothing if `type` is not one.
std::optional<::mxq::ElementFormat> getElementFormat(Type type);

/// The MLIR type of an element format.
Type getElementType(MLIRContext *ctx, ::mxq::ElementFormat format);

/// Conversions between the dialect's enum attributes and the plain enums of
/// the shared support library (same values, checked at compile time).
inline ::mxq::ScaleAlgorithm toSupport(ScaleAlgorithm v) {
  return static_cast<::mxq::ScaleAlgorithm>(v);
}
inline ::mxq::InfPolicy toSupport(InfPolicy v) {
  return static_cast<::mxq::InfPolicy>(v);
}
inline ::mxq::Rounding toSupport(Rounding v) {
  return static_cast<::mxq::Rounding>(v);
}
inline ::mxq::NanElement toSupport(NanElement v) {
  return static_cast<::mxq::NanElement>(v);
}
inline ::mxq::ScaleLayout toSupport(ScaleLayout v) {
  return static_cast<::mxq::ScaleLayout>(v);
}
inline ::mxq::Underflow toSupport(Underflow v) {
  return static_cast<::mxq::Underflow>(v);
}
inline ::mxq::Product toSupport(Product v) {
  return static_cast<::mxq::Product>(v);
}
inline ::mxq::DivDenormals toSupport(DivDenormals v) {
  return static_cast<::mxq::DivDenormals>(v);
}
inline ::mxq::Division toSupport(Division v) {
  return static_cast<::mxq::Division>(v);
}
/// The source type of a wide float type (f32, f16, bf16; f32 for any other).
::mxq::SourceType getSourceType(Type type);

/// The stored-scale rule of a quantize with f32 scales (blockwise FP8), or
/// nothing for E8M0 and E4M3 scales: its words, read once for every target.
std::optional<::mxq::F32ScaleRule> getF32ScaleRule(QuantizeOp op);

} // namespace mlir::mxq

#endif // MXQ_DIALECT_MXQ_MXQ_H
