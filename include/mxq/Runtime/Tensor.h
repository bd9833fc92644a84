//===- Tensor.h - a tensor in memory, as every runner sees it -----*- C++ -*-===//
#ifndef MXQ_RUNTIME_TENSOR_H
#define MXQ_RUNTIME_TENSOR_H

#include "mlir/IR/Types.h"

#include <cstdint>
#include <vector>

namespace mxq {

/// A tensor as bytes in memory: row-major, one element of its type per
/// element (f32: 4 bytes, f16/bf16: 2, MX codes and E8M0: 1, FP4/FP6 codes in
/// the low bits of a byte). What every target's executable takes and gives.
struct RawTensor {
  std::vector<int64_t> shape;
  mlir::Type elementType;
  std::vector<uint8_t> data;
};

/// Bytes one element of `type` takes in memory, 0 if unsupported.
unsigned bytesPerElement(mlir::Type type);

} // namespace mxq

#endif // MXQ_RUNTIME_TENSOR_H
