//===- Tensor.h - a tensor in memory, as every runner sees it ---*- C++ -*-===//
#ifndef MXQ_RUNTIME_TENSOR_H
#define MXQ_RUNTIME_TENSOR_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace mxq {

/// A tensor as bytes in memory: row-major, one element of its type per
/// element (f32: 4 bytes, f16/bf16: 2, MX codes and E8M0: 1, FP6 codes in
/// the low bits of a byte), but FP4 codes two per byte along the last axis
/// (element 2i in the low nibble; a row of K codes takes ceil(K / 2) bytes,
/// an odd K leaving the last high nibble 0). `shape` is the logical shape.
/// What every target's executable takes and gives: the compiled code's
/// memory form (mxq-pack-fp4-memory) and the .npy data.
struct RawTensor {
  std::vector<int64_t> shape;
  mlir::Type elementType;
  std::vector<uint8_t> data;
};

/// One result as an executable holds it: row-major bytes in the memory form
/// above (FP4 packed), borrowed, not owned.
struct ResultView {
  mlir::Type elementType;
  llvm::ArrayRef<int64_t> shape;
  llvm::ArrayRef<uint8_t> bytes;
};

/// Bytes one element of `type` takes in memory, 0 if unsupported (FP4: 1,
/// but see storageBytes).
unsigned bytesPerElement(mlir::Type type);

/// Bytes a tensor of `type` elements and `shape` takes in memory (FP4
/// packed), 0 if the type is unsupported.
uint64_t storageBytes(mlir::Type type, const std::vector<int64_t> &shape);

} // namespace mxq

#endif // MXQ_RUNTIME_TENSOR_H
