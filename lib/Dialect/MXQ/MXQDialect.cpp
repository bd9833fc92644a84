//===- MXQDialect.cpp - the mxq dialect -------------------------------------===//
#include "mxq/Dialect/MXQ/MXQ.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mxq;

#include "mxq/Dialect/MXQ/MXQDialect.cpp.inc"
#include "mxq/Dialect/MXQ/MXQEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mxq/Dialect/MXQ/MXQAttrs.cpp.inc"

// The dialect enums and the support enums are one set of values.
static_assert(static_cast<uint32_t>(ScaleAlgorithm::rceil) ==
              static_cast<uint32_t>(::mxq::ScaleAlgorithm::RCeil));
static_assert(static_cast<uint32_t>(ScaleAlgorithm::even) ==
              static_cast<uint32_t>(::mxq::ScaleAlgorithm::Even));
static_assert(static_cast<uint32_t>(InfPolicy::exponent) ==
              static_cast<uint32_t>(::mxq::InfPolicy::Exponent));
static_assert(static_cast<uint32_t>(Rounding::floor) ==
              static_cast<uint32_t>(::mxq::Rounding::Floor));
static_assert(static_cast<uint32_t>(NanElement::zero) ==
              static_cast<uint32_t>(::mxq::NanElement::Zero));
static_assert(static_cast<uint32_t>(ScaleLayout::pairs) ==
              static_cast<uint32_t>(::mxq::ScaleLayout::Pairs));

void MXQDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mxq/Dialect/MXQ/MXQAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "mxq/Dialect/MXQ/MXQOps.cpp.inc"
      >();
}

std::optional<::mxq::ElementFormat> mlir::mxq::getElementFormat(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return ::mxq::ElementFormat::E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return ::mxq::ElementFormat::E5M2;
  if (isa<Float6E2M3FNType>(type))
    return ::mxq::ElementFormat::E2M3FN;
  if (isa<Float6E3M2FNType>(type))
    return ::mxq::ElementFormat::E3M2FN;
  if (isa<Float4E2M1FNType>(type))
    return ::mxq::ElementFormat::E2M1FN;
  return std::nullopt;
}

Type mlir::mxq::getElementType(MLIRContext *ctx, ::mxq::ElementFormat format) {
  switch (format) {
  case ::mxq::ElementFormat::E4M3FN:
    return Float8E4M3FNType::get(ctx);
  case ::mxq::ElementFormat::E5M2:
    return Float8E5M2Type::get(ctx);
  case ::mxq::ElementFormat::E2M3FN:
    return Float6E2M3FNType::get(ctx);
  case ::mxq::ElementFormat::E3M2FN:
    return Float6E3M2FNType::get(ctx);
  case ::mxq::ElementFormat::E2M1FN:
    return Float4E2M1FNType::get(ctx);
  }
  return {};
}
