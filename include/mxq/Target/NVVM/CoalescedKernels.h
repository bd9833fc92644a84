//===- CoalescedKernels.h - lane-cooperative GPU kernels --------*- C++ -*-===//
//
// The NVIDIA target's own mapping of quantize and dequantize along the last
// axis (blocks of 32, any element format, scale layout and policy): one
// gpu.launch in which each lane owns a 16-byte chunk of a block, so that a
// warp's 32 lanes read and write consecutive chunks (the minimum number of
// 32-byte sectors), with the block's absolute maximum combined by butterfly
// shuffles. The numbers of each block are the shared builders'
// (mxq/Conversion/BlockBuilders.h). The patterns take the ops on tensors
// (before bufferization) with benefit 2, ahead of the shared expansion.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_NVVM_COALESCEDKERNELS_H
#define MXQ_TARGET_NVVM_COALESCEDKERNELS_H

#include "mxq/Numerics/Numerics.h"

#include "mlir/IR/PatternMatch.h"

#include <memory>

namespace mxq::nvvm {

void populateCoalescedKernelPatterns(
    mlir::RewritePatternSet &patterns,
    std::shared_ptr<const numerics::NativeConverts> native);

} // namespace mxq::nvvm

#endif // MXQ_TARGET_NVVM_COALESCEDKERNELS_H
