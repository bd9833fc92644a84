//===- Passes.h - passes of the NVVM target ---------------------*- C++ -*-===//
#ifndef MXQ_TARGET_NVVM_PASSES_H
#define MXQ_TARGET_NVVM_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mxq::nvvm {

#define GEN_PASS_DECL
#include "mxq/Target/NVVM/Passes.h.inc"

/// Patterns of mxq-align-vector-accesses: aligned vector.load/store for
/// in-bounds contiguous transfers, assuming buffers aligned to
/// `baseAlignment` bytes.
void populateAlignVectorAccessesPatterns(mlir::RewritePatternSet &patterns,
                                         int64_t baseAlignment);

/// The body of mxq-gpu-device-buffers for one host function: allocations on
/// the device, whole copies as device copies; fails with a diagnostic on
/// any other host access to a buffer.
llvm::LogicalResult moveBuffersToDevice(mlir::func::FuncOp func);

#define GEN_PASS_REGISTRATION
#include "mxq/Target/NVVM/Passes.h.inc"

} // namespace mxq::nvvm

#endif // MXQ_TARGET_NVVM_PASSES_H
