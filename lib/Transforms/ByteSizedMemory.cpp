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

/// A sub-byte integer or a vector of them (LLVM packs the latter in memory;
/// a memref of FP4/FP6 codes holds one per byte).
bool isSubByteValue(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return !v.isScalable() && isSubByte(v.getElementType());
  return isSubByte(t);
}

/// `t` (an integer or a vector of them) with i8 elements.
Type bytesOf(Type t) {
  Type i8 = IntegerType::get(t.getContext(), 8);
  if (auto v = dyn_cast<VectorType>(t))
    return VectorType::get(v.getShape(), i8);
  return i8;
}

struct WidenStore : OpRewritePattern<LLVM::StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::StoreOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value value = op.getValue();
    Type narrow = value.getType();
    if (!isSubByteValue(narrow))
      return failure();
    // One code per byte. A truncation from wider than a byte truncates to
    // bytes and masks instead of truncating to iN and zero-extending: LLVM
    // would fold the narrow truncation (of a vector element, or of a
    // vector) back into a vector of iN, which NVPTX legalises through local
    // memory.
    Type byteType = bytesOf(narrow);
    Value wide;
    auto trunc = value.getDefiningOp<LLVM::TruncOp>();
    if (trunc &&
        getElementTypeOrSelf(trunc.getArg().getType()).getIntOrFloatBitWidth() >
            8) {
      unsigned bits = getElementTypeOrSelf(narrow).getIntOrFloatBitWidth();
      Attribute mask = rw.getI8IntegerAttr((1 << bits) - 1);
      if (auto v = dyn_cast<VectorType>(byteType))
        mask = SplatElementsAttr::get(v, mask);
      Value bytes = LLVM::TruncOp::create(rw, loc, byteType, trunc.getArg());
      wide = LLVM::AndOp::create(
          rw, loc, bytes, LLVM::ConstantOp::create(rw, loc, byteType, mask));
    } else {
      wide = LLVM::ZExtOp::create(rw, loc, byteType, value);
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
    if (!isSubByteValue(narrow))
      return failure();
    rw.setInsertionPointAfter(op);
    auto wide = cast<LLVM::LoadOp>(rw.clone(*op));
    wide.getResult().setType(bytesOf(narrow));
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
