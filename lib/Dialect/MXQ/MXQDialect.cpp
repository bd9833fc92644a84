//===- MXQDialect.cpp - the mxq dialect -----------------------------------===//
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
static_assert(static_cast<uint32_t>(ScaleAlgorithm::encode) ==
              static_cast<uint32_t>(::mxq::ScaleAlgorithm::Encode));
static_assert(static_cast<uint32_t>(ScaleAlgorithm::decode) ==
              static_cast<uint32_t>(::mxq::ScaleAlgorithm::Decode));
static_assert(static_cast<uint32_t>(ScaleAlgorithm::tosa) ==
              static_cast<uint32_t>(::mxq::ScaleAlgorithm::Tosa));
static_assert(static_cast<uint32_t>(Division::reciprocal) ==
              static_cast<uint32_t>(::mxq::Division::Reciprocal));
static_assert(static_cast<uint32_t>(InfPolicy::exponent) ==
              static_cast<uint32_t>(::mxq::InfPolicy::Exponent));
static_assert(static_cast<uint32_t>(Rounding::floor) ==
              static_cast<uint32_t>(::mxq::Rounding::Floor));
static_assert(static_cast<uint32_t>(NanElement::zero) ==
              static_cast<uint32_t>(::mxq::NanElement::Zero));
static_assert(static_cast<uint32_t>(ScaleLayout::pairs) ==
              static_cast<uint32_t>(::mxq::ScaleLayout::Pairs));

//===----------------------------------------------------------------------===//
// Enum attributes: one word each (printed after a space, as the op formats
// expect), and a parse error that names the attribute and lists its words
// rather than the C++ enum type.
//===----------------------------------------------------------------------===//

template <typename Attr, typename Enum>
static Attribute parseWord(AsmParser &parser, StringRef what,
                           std::optional<Enum> (*symbolize)(StringRef),
                           StringRef (*stringify)(Enum), uint32_t max) {
  std::string words;
  for (uint32_t v = 0; v <= max; ++v)
    words += (v ? ", " : "") + stringify(static_cast<Enum>(v)).str();
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (failed(parser.parseOptionalKeyword(&word))) {
    parser.emitError(loc) << "expected a word for " << what << " (one of "
                          << words << ")";
    return {};
  }
  std::optional<Enum> value = symbolize(word);
  if (!value) {
    parser.emitError(loc) << "'" << word << "' is not a word for " << what
                          << "; expected one of " << words;
    return {};
  }
  return Attr::get(parser.getContext(), *value);
}

#define MXQ_ENUM_WORDS(Enum, what)                                             \
  Attribute Enum##Attr::parse(AsmParser &parser, Type) {                       \
    return parseWord<Enum##Attr, Enum>(parser, what, symbolize##Enum,          \
                                       stringify##Enum,                        \
                                       getMaxEnumValFor##Enum());              \
  }                                                                            \
  void Enum##Attr::print(AsmPrinter &printer) const {                          \
    printer << ' ' << stringify##Enum(getValue());                             \
  }
MXQ_ENUM_WORDS(ScaleAlgorithm, "scale")
MXQ_ENUM_WORDS(InfPolicy, "inf")
MXQ_ENUM_WORDS(Rounding, "rounding")
MXQ_ENUM_WORDS(NanElement, "nan_element")
MXQ_ENUM_WORDS(ScaleLayout, "layout")
MXQ_ENUM_WORDS(Underflow, "underflow")
MXQ_ENUM_WORDS(DivDenormals, "div_denormals")
MXQ_ENUM_WORDS(Product, "product")
MXQ_ENUM_WORDS(ResultCast, "cast")
MXQ_ENUM_WORDS(Division, "division")
#undef MXQ_ENUM_WORDS

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

::mxq::SourceType mlir::mxq::getSourceType(Type type) {
  return type.isF16()    ? ::mxq::SourceType::F16
         : type.isBF16() ? ::mxq::SourceType::BF16
                         : ::mxq::SourceType::F32;
}

std::optional<::mxq::F32ScaleRule> mlir::mxq::getF32ScaleRule(QuantizeOp op) {
  if (!op.getScales().getType().getElementType().isF32())
    return std::nullopt;
  return ::mxq::F32ScaleRule{
      toSupport(op.getScaleAlgorithm()),
      *getElementFormat(op.getCodes().getType().getElementType()),
      op.getAmaxFloor() ? op.getAmaxFloor()->convertToFloat() : 0.0f,
      op.getPow2(),
      toSupport(op.getDivision()),
      getSourceType(op.getInput().getType().getElementType())};
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
