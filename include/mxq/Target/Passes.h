//===- Passes.h - mxq target passes -------------------------------*- C++ -*-===//
#ifndef MXQ_TARGET_PASSES_H
#define MXQ_TARGET_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mxq {

#define GEN_PASS_DECL
#include "mxq/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mxq/Target/Passes.h.inc"

} // namespace mxq

#endif // MXQ_TARGET_PASSES_H
