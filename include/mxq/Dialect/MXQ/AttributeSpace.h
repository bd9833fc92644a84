//===- AttributeSpace.h - every value an mxq attribute may take -*- C++ -*-===//
//
// One table of the values of every mxq attribute and operand type: the enum
// cases come from the ODS enums, the element formats from mxq/Support/
// Formats.h, the block rule is the one the verifiers enforce. The verifiers
// read it (the block rule), and the attribute sweep (tools/mxq-sweep)
// enumerates it and keeps what the verifiers accept, so a value added to an
// enum is swept the day it is added.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_DIALECT_MXQ_ATTRIBUTESPACE_H
#define MXQ_DIALECT_MXQ_ATTRIBUTESPACE_H

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::mxq {

struct AttributeSpace {
  /// The words of each enum attribute, in enum order.
  std::vector<std::string> scaleAlgorithms, infPolicies, roundings,
      nanElements, scaleLayouts, underflows, divDenormals, products,
      resultCasts;
  /// MLIR spellings of the code types (every element format).
  std::vector<std::string> codeTypes;
  /// MLIR spellings of the wide float types (quantize inputs, dequantize
  /// results).
  std::vector<std::string> sourceTypes;
  /// Block sizes are positive multiples of `blockQuantum` up to `maxBlock`,
  /// and `smallBlock` (NVFP4's 16, and MX scales per 16 as PTX's mxf4nvf4
  /// takes them). Not every multiple of 16: the expansion walks a long block
  /// in chunks of 32, and no scheme uses 48 or 80.
  int64_t blockQuantum = 32, maxBlock = 1024, smallBlock = 16;
  /// The block sizes a sweep takes: 16 (NVFP4's), the smallest multiple of
  /// 32, a power of two, two that are not (96, 160) and the largest.
  std::vector<int64_t> sweptBlocks;

  bool isValidBlock(int64_t block) const {
    return block == smallBlock ||
           (block > 0 && block % blockQuantum == 0 && block <= maxBlock);
  }
};

/// The table (built once).
const AttributeSpace &attributeSpace();

} // namespace mlir::mxq

#endif // MXQ_DIALECT_MXQ_ATTRIBUTESPACE_H
