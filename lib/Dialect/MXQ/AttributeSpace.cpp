//===- AttributeSpace.cpp - every value an mxq attribute may take ---------===//
#include "mxq/Dialect/MXQ/AttributeSpace.h"
#include "mxq/Dialect/MXQ/MXQ.h"

using namespace mlir::mxq;

/// Every case of an ODS I32 enum, as its word.
template <typename Enum, typename Stringify>
static std::vector<std::string> words(uint32_t max, Stringify stringify) {
  std::vector<std::string> out;
  for (uint32_t v = 0; v <= max; ++v)
    out.push_back(stringify(static_cast<Enum>(v)).str());
  return out;
}

const AttributeSpace &mlir::mxq::attributeSpace() {
  static const AttributeSpace space = [] {
    AttributeSpace s;
    s.scaleAlgorithms = words<ScaleAlgorithm>(
        getMaxEnumValForScaleAlgorithm(),
        [](ScaleAlgorithm v) { return stringifyScaleAlgorithm(v); });
    s.infPolicies = words<InfPolicy>(
        getMaxEnumValForInfPolicy(),
        [](InfPolicy v) { return stringifyInfPolicy(v); });
    s.roundings = words<Rounding>(
        getMaxEnumValForRounding(),
        [](Rounding v) { return stringifyRounding(v); });
    s.nanElements = words<NanElement>(
        getMaxEnumValForNanElement(),
        [](NanElement v) { return stringifyNanElement(v); });
    s.scaleLayouts = words<ScaleLayout>(
        getMaxEnumValForScaleLayout(),
        [](ScaleLayout v) { return stringifyScaleLayout(v); });
    s.underflows = words<Underflow>(
        getMaxEnumValForUnderflow(),
        [](Underflow v) { return stringifyUnderflow(v); });
    s.products = words<Product>(
        getMaxEnumValForProduct(),
        [](Product v) { return stringifyProduct(v); });
    s.resultCasts = words<ResultCast>(
        getMaxEnumValForResultCast(),
        [](ResultCast v) { return stringifyResultCast(v); });
    s.divDenormals = words<DivDenormals>(
        getMaxEnumValForDivDenormals(),
        [](DivDenormals v) { return stringifyDivDenormals(v); });
    for (auto f : {::mxq::ElementFormat::E4M3FN, ::mxq::ElementFormat::E5M2,
                   ::mxq::ElementFormat::E2M3FN, ::mxq::ElementFormat::E3M2FN,
                   ::mxq::ElementFormat::E2M1FN})
      s.codeTypes.push_back(::mxq::formatInfo(f).name);
    s.sourceTypes = {"f32", "f16", "bf16"};
    s.sweptBlocks = {s.smallBlock,         s.blockQuantum,
                     2 * s.blockQuantum,   3 * s.blockQuantum,
                     5 * s.blockQuantum,   s.maxBlock};
    return s;
  }();
  return space;
}
