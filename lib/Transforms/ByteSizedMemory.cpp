//===- ByteSizedMemory.cpp - sub-byte integers accessed as bytes ----------===//
//
// A memref of FP6 codes (and, before mxq-pack-fp4-memory, of FP4 codes)
// keeps one code per byte (LLVM gives i4 and i6 an allocation size of one
// byte, but packs a vector of them in memory). Accessing those bytes as i8
// writes the same bytes: a vector of codes becomes one vector store of
// bytes (the CPU target), and LLVM no longer folds extracts of codes into
// vectors of i4, which NVPTX legalises through local memory (the GPU
// target). Shared by both targets' pipelines.
//
//===----------------------------------------------------------------------===//
#include "mxq/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mxq {
#define GEN_PASS_DEF_MXQBYTESIZEDMEMORY
#include "mxq/Transforms/Passes.h.inc"
} // namespace mxq

using namespace mlir;

namespace {

bool isSubByte(Type t) {
  auto i = dyn_cast<IntegerType>(t);
  return i && i.getWidth() < 8;
}

/// A vector of sub-byte integers (LLVM packs those in memory; a memref of
/// FP4/FP6 codes holds one per byte).
bool isSubByteVector(Type t) {
  auto v = dyn_cast<VectorType>(t);
  return v && !v.isScalable() && isSubByte(v.getElementType());
}

/// The vector type `t` with i8 elements.
VectorType bytesOf(Type t) {
  auto v = cast<VectorType>(t);
  return VectorType::get(v.getShape(), IntegerType::get(t.getContext(), 8));
}

struct WidenStore : OpRewritePattern<LLVM::StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::StoreOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value value = op.getValue();
    if (isSubByteVector(value.getType())) {
      // One code per byte. A truncation from a wider vector truncates to
      // bytes and masks instead (no vector of sub-byte integers is left for
      // NVPTX to legalise through local memory); otherwise zero-extend.
      VectorType byteType = bytesOf(value.getType());
      Value wide;
      auto trunc = value.getDefiningOp<LLVM::TruncOp>();
      auto from = trunc ? dyn_cast<VectorType>(trunc.getArg().getType())
                        : VectorType();
      if (from && from.getElementType().getIntOrFloatBitWidth() > 8) {
        unsigned bits = cast<VectorType>(value.getType())
                            .getElementType()
                            .getIntOrFloatBitWidth();
        Value bytes = LLVM::TruncOp::create(rw, loc, byteType, trunc.getArg());
        Value mask = LLVM::ConstantOp::create(
            rw, loc, byteType,
            SplatElementsAttr::get(byteType,
                                   rw.getI8IntegerAttr((1 << bits) - 1)));
        wide = LLVM::AndOp::create(rw, loc, bytes, mask);
      } else {
        wide = LLVM::ZExtOp::create(rw, loc, byteType, value);
      }
      rw.modifyOpInPlace(op, [&] { op.getValueMutable().assign(wide); });
      return success();
    }
    if (!isSubByte(value.getType()))
      return failure();
    Value wide;
    auto trunc = value.getDefiningOp<LLVM::TruncOp>();
    if (trunc && cast<IntegerType>(trunc.getArg().getType()).getWidth() > 8) {
      // trunc to i8 and a mask, not trunc to iN and zext: LLVM would fold
      // the narrow truncation of a vector element into a vector of iN.
      unsigned bits = cast<IntegerType>(value.getType()).getWidth();
      Value byte = LLVM::TruncOp::create(rw, loc, rw.getI8Type(),
                                         trunc.getArg());
      Value mask = LLVM::ConstantOp::create(
          rw, loc, rw.getI8Type(), rw.getI8IntegerAttr((1 << bits) - 1));
      wide = LLVM::AndOp::create(rw, loc, byte, mask);
    } else {
      wide = LLVM::ZExtOp::create(rw, loc, rw.getI8Type(), value);
    }
    rw.modifyOpInPlace(op, [&] { op.getValueMutable().assign(wide); });
    return success();
  }
};

struct WidenLoad : OpRewritePattern<LLVM::LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::LoadOp op,
                                PatternRewriter &rw) const override {
    Type narrow = op.getResult().getType();
    if (!isSubByte(narrow) && !isSubByteVector(narrow))
      return failure();
    rw.setInsertionPointAfter(op);
    auto wide = cast<LLVM::LoadOp>(rw.clone(*op));
    wide.getResult().setType(isSubByte(narrow) ? Type(rw.getI8Type())
                                               : Type(bytesOf(narrow)));
    rw.replaceOpWithNewOp<LLVM::TruncOp>(op, narrow, wide.getResult());
    return success();
  }
};

struct MXQByteSizedMemory
    : ::mxq::impl::MXQByteSizedMemoryBase<MXQByteSizedMemory> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    ::mxq::populateByteSizedMemoryPatterns(patterns);
    // One walk: each load and store is rewritten once, and what the
    // patterns create matches none of them. The greedy driver also folded
    // and simplified the whole module, which took longer than the rewrite
    // (LLVM's clean-up does that work after translation anyway).
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void ::mxq::populateByteSizedMemoryPatterns(RewritePatternSet &patterns) {
  patterns.add<WidenStore, WidenLoad>(patterns.getContext());
}
