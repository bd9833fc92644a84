//===- GPUDeviceBuffers.cpp - host allocations on the device --------------===//
//
// After outlining, a host function of the GPU pipeline only allocates
// buffers and launches kernels on them; its arguments are device buffers.
// This pass allocates its buffers on the device too, and refuses host code
// that would read or write one.
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/NVVM/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mxq::nvvm {
#define GEN_PASS_DEF_MXQGPUDEVICEBUFFERS
#include "mxq/Target/NVVM/Passes.h.inc"
} // namespace mxq::nvvm

using namespace mlir;

namespace {

/// Whether `op` reads or writes the contents of a memref.
bool touchesBuffer(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::any_of(list, [](const MemoryEffects::EffectInstance &e) {
    if (!isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect()))
      return false;
    Value v = e.getValue();
    return !v || isa<BaseMemRefType>(v.getType());
  });
}

} // namespace

LogicalResult(::mxq::nvvm::moveBuffersToDevice)(func::FuncOp func) {
  IRRewriter rw(func.getContext());
  bool failedHost = false;
  func.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      rw.setInsertionPoint(alloc);
      rw.replaceOpWithNewOp<gpu::AllocOp>(
          alloc, alloc.getType(), Type(), ValueRange{},
          alloc.getDynamicSizes(), alloc.getSymbolOperands(), UnitAttr());
      return WalkResult::advance();
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      rw.setInsertionPoint(dealloc);
      gpu::DeallocOp::create(rw, dealloc.getLoc(), Type(), ValueRange{},
                             dealloc.getMemref());
      rw.eraseOp(dealloc);
      return WalkResult::advance();
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      // A whole-buffer copy between device buffers (bufferization's
      // copy of a value that two results share) is a device copy.
      auto src = dyn_cast<MemRefType>(copy.getSource().getType());
      auto dst = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (src && dst && src.getLayout().isIdentity() &&
          dst.getLayout().isIdentity()) {
        rw.setInsertionPoint(copy);
        gpu::MemcpyOp::create(rw, copy.getLoc(), Type(), ValueRange{},
                              copy.getTarget(), copy.getSource());
        rw.eraseOp(copy);
        return WalkResult::advance();
      }
    }
    if (isa<gpu::GPUDialect>(op->getDialect()))
      return WalkResult::advance();
    if (touchesBuffer(op)) {
      op->emitOpError()
          << "reads or writes a buffer in host code, which the GPU "
             "pipeline cannot run: every buffer lives in device memory "
             "(the loop around it was not mapped to a kernel)";
      failedHost = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(failedHost);
}

namespace {

struct MXQGPUDeviceBuffers
    : ::mxq::nvvm::impl::MXQGPUDeviceBuffersBase<MXQGPUDeviceBuffers> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(::mxq::nvvm::moveBuffersToDevice(func)))
        return signalPassFailure();
  }
};

} // namespace
