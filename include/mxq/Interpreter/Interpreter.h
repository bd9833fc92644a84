//===- Interpreter.h - run mxq functions on the C++ reference ----*- C++ -*-===//
//
// Executes a func.func made of mxq ops by calling the reference for each op:
// the `--reference` mode of mxq-run, and the oracle that compiled code is
// compared with.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_INTERPRETER_INTERPRETER_H
#define MXQ_INTERPRETER_INTERPRETER_H

#include "mxq/Support/Npy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <string>
#include <vector>

namespace mxq {

/// A run-time tensor: f32/f16/bf16 elements as exact fp32 `values`; MX codes
/// and E8M0 scales as one byte per element in `bytes`.
struct Buffer {
  std::vector<int64_t> shape;
  mlir::Type elementType;
  std::vector<float> values;
  std::vector<uint8_t> bytes;
};

/// The .npy dtype that carries tensors of `elementType` (see README).
std::string npyDescrFor(mlir::Type elementType);

/// Converts the .npy contents of argument `index` of type `type` into a
/// buffer; false and a sentence in `error` if the file does not fit.
/// FP4 codes are packed two per byte along the last axis, so a file of b
/// bytes per row holds 2b - 1 or 2b codes: the count is the type's last
/// dimension where it is static, else `fp4Length` where given (the file must
/// then have ceil(fp4Length / 2) bytes per row), else 2b.
bool bufferFromNpy(const npy::Array &array, mlir::RankedTensorType type,
                   unsigned index, Buffer &buffer, std::string &error,
                   int64_t fp4Length = -1);

/// The .npy form of a buffer (FP4 packed two per byte, low nibble first).
npy::Array bufferToNpy(const Buffer &buffer);

/// The memory bytes of a validated argument (see bufferFromNpy): the .npy
/// data as it is, FP4 codes unpacked to one per byte.
std::vector<uint8_t> rawFromNpy(const npy::Array &array,
                                mlir::Type elementType,
                                const std::vector<int64_t> &shape);

/// The .npy form of memory bytes of `shape` and `elementType` (FP4 packed,
/// FP4/FP6 codes masked to their width).
npy::Array rawToNpy(mlir::Type elementType, const std::vector<int64_t> &shape,
                    const std::vector<uint8_t> &data);

/// Runs `func` on `args` through the reference. On failure, returns false and
/// sets `error`.
bool interpret(mlir::func::FuncOp func, const std::vector<Buffer> &args,
               std::vector<Buffer> &results, std::string &error);

} // namespace mxq

#endif // MXQ_INTERPRETER_INTERPRETER_H
