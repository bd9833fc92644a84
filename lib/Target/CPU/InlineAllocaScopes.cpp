//===- InlineAllocaScopes.cpp - alloca scopes without allocas inlined -----===//
#include "mxq/Target/CPU/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mxq::cpu {
#define GEN_PASS_DEF_MXQINLINEALLOCASCOPES
#include "mxq/Target/CPU/Passes.h.inc"
} // namespace mxq::cpu

using namespace mlir;

namespace {

struct MXQInlineAllocaScopes
    : ::mxq::cpu::impl::MXQInlineAllocaScopesBase<MXQInlineAllocaScopes> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation()->walk([&](memref::AllocaScopeOp scope) {
      bool allocates = scope->walk([](memref::AllocaOp) {
                              return WalkResult::interrupt();
                            }).wasInterrupted();
      if (!allocates && scope.getBodyRegion().hasOneBlock())
        scopes.push_back(scope);
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      Block &body = scope.getBodyRegion().front();
      auto ret = cast<memref::AllocaScopeReturnOp>(body.getTerminator());
      SmallVector<Value> results(ret.getResults());
      rewriter.eraseOp(ret);
      rewriter.inlineBlockBefore(&body, scope);
      rewriter.replaceOp(scope, results);
    }
  }
};

} // namespace
