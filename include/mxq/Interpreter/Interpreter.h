//===- Interpreter.h - run mxq functions on the C++ reference ---*- C++ -*-===//
//
// Executes a func.func made of mxq ops by calling the reference for each op:
// the `--reference` mode of mxq-run, and the oracle that compiled code is
// compared with.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_INTERPRETER_INTERPRETER_H
#define MXQ_INTERPRETER_INTERPRETER_H

#include "mxq/Runtime/Tensor.h"
#include "mxq/Support/Npy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <string>
#include <vector>

namespace mxq {

/// Converts the .npy contents of argument `index` of type `type` into a
/// tensor in memory (FP4 codes unpacked to one per byte); false and a
/// sentence in `error` if the file does not fit the type (dtype, rank, a
/// static dimension). FP4 codes are packed two per byte along the last
/// axis, so a file of b bytes per row holds 2b - 1 or 2b codes: the count is
/// the type's last dimension where it is static, else `fp4Length` where
/// given (the file must then have ceil(fp4Length / 2) bytes per row), else
/// 2b.
bool tensorFromNpy(const npy::Array &array, mlir::RankedTensorType type,
                   unsigned index, RawTensor &tensor, std::string &error,
                   int64_t fp4Length = -1);

/// The .npy form of a tensor in memory (FP4 packed two per byte, element 0
/// in the low nibble; FP4/FP6 codes masked to their width).
npy::Array tensorToNpy(const RawTensor &tensor);

/// The same two, taking the bytes over instead of copying them where the
/// forms agree (all but packed FP4 and the masked FP6 codes): the one copy
/// of the data a caller holds moves between file and tensor.
bool tensorFromNpy(npy::Array &&array, mlir::RankedTensorType type,
                   unsigned index, RawTensor &tensor, std::string &error,
                   int64_t fp4Length = -1);
npy::Array tensorToNpy(RawTensor &&tensor);

/// Writes a result to `path` in its .npy form straight from the bytes it
/// lies in (FP6 codes, which are masked to their width, through a copy).
bool writeNpy(const std::string &path, const ResultView &result,
              std::string &error);

/// Checks that tensors of the shapes of `inputs` are valid arguments of
/// `func`: the function is specialised to those shapes and its mxq ops are
/// verified, so inputs that contradict each other (scales that do not fit
/// their codes, an odd last dimension where an even one is needed, channel
/// parameters of the wrong length) are rejected with the verifier's
/// sentence before any target runs. Every target's run goes through this
/// one check (mxq-run calls it whatever --target is).
bool checkInputs(mlir::func::FuncOp func, const std::vector<RawTensor> &inputs,
                 std::string &error);

/// Runs `func` on `args` through the reference, in the same in-memory form
/// as every target's executable. On failure, returns false and sets `error`.
bool interpret(mlir::func::FuncOp func, const std::vector<RawTensor> &args,
               std::vector<RawTensor> &results, std::string &error);

} // namespace mxq

#endif // MXQ_INTERPRETER_INTERPRETER_H
