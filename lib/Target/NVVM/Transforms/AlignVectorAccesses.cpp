//===- AlignVectorAccesses.cpp - aligned vector loads and stores ----------===//
//
// A vector access is only as wide in hardware as the alignment LLVM is told:
// NVPTX splits an access of alignment 2 into one instruction per element.
// This pass proves alignments from the indices and puts them on vector.load
// and vector.store.
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/NVVM/Passes.h"
#include "mxq/Transforms/KnownMultiple.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/bit.h"

#include <numeric>

namespace mxq::nvvm {
#define GEN_PASS_DEF_MXQALIGNVECTORACCESSES
#include "mxq/Target/NVVM/Passes.h.inc"
} // namespace mxq::nvvm

using namespace mlir;

namespace {

/// The attribute on a kernel launch whose buffers' dynamic strides are
/// multiples of the base alignment (the launch is the checked version).
constexpr const char *kAlignedStridesAttr = "mxq.aligned_strides";

/// Whether `op` sits in a launch versioned on aligned strides.
bool stridesAssumedAligned(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (p->hasAttr(kAlignedStridesAttr))
      return true;
  return false;
}

/// The alignment in bytes that the access of `base` at `indices` provably
/// has, at most `cap`; 0 if the access is not contiguous along the last
/// dimension. With `alignedStrides`, every dynamic stride is taken to be a
/// multiple of `cap` bytes.
uint64_t provenAlignment(Value base, ValueRange indices, int64_t cap,
                         bool alignedStrides = false) {
  auto type = dyn_cast<MemRefType>(base.getType());
  if (!type || !type.getElementType().isIntOrFloat())
    return 0;
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  // FP6 codes take one byte each in memory (mxq-byte-sized-memory keeps
  // them so, vectors included); FP4 buffers are i8 here already
  // (mxq-pack-fp4-memory).
  if (bits > 8 && bits % 8 != 0)
    return 0;
  uint64_t bytes = bits < 8 ? 1 : bits / 8;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
      strides.back() != 1)
    return 0;
  uint64_t g = ShapedType::isDynamic(offset) ? 1 : offset * bytes;
  for (auto [index, stride] : llvm::zip(indices, strides)) {
    uint64_t m = ::mxq::knownMultiple(index);
    if (m == 0)
      continue;
    if (ShapedType::isDynamic(stride)) {
      if (!alignedStrides)
        return bytes;
      g = std::gcd(g, m * static_cast<uint64_t>(cap));
      continue;
    }
    g = std::gcd(g, m * static_cast<uint64_t>(stride) * bytes);
  }
  uint64_t align = static_cast<uint64_t>(cap);
  if (g != 0)
    align = std::min<uint64_t>(align, uint64_t(1) << llvm::countr_zero(g));
  return std::max<uint64_t>(align, bytes);
}

/// The widest alignment a transfer of `v` can use: its bytes (a power of
/// two not above), at most `cap`. A stride need only be a multiple of this
/// for the access to reach it (an FP4 row of packed bytes stored 4 bytes a
/// lane needs a pitch of 4, not 16).
template <typename TransferOp>
int64_t usefulAlignment(TransferOp op, int64_t cap) {
  VectorType v = op.getVectorType();
  int64_t bytes = std::max<int64_t>(
      1, v.getNumElements() * v.getElementType().getIntOrFloatBitWidth() / 8);
  return std::min<int64_t>(cap, int64_t(llvm::bit_floor(uint64_t(bytes))));
}

/// Whether the transfer is a plain contiguous 1-D access: no mask, in
/// bounds, along the last dimension.
/// Longer vectors stay as they are: NVPTX's register coalescer takes tens of
/// seconds on kernels with aligned loads of 1 KiB vectors.
constexpr int64_t kMaxVectorBytes = 256;

template <typename TransferOp>
bool isContiguous1D(TransferOp op) {
  VectorType v = op.getVectorType();
  if (v.getRank() != 1 || v.isScalable() || op.getMask())
    return false;
  if (!v.getElementType().isIntOrFloat() ||
      v.getNumElements() * v.getElementType().getIntOrFloatBitWidth() >
          kMaxVectorBytes * 8)
    return false;
  if (!op.getInBoundsValues()[0])
    return false;
  auto type = dyn_cast<MemRefType>(op.getBase().getType());
  if (!type || type.getElementType() != v.getElementType())
    return false;
  AffineMap map = op.getPermutationMap();
  return map.getNumResults() == 1 && map.isMinorIdentity();
}

/// A contiguous transfer as an aligned vector.load or vector.store.
template <typename TransferOp>
struct AlignTransfer : OpRewritePattern<TransferOp> {
  AlignTransfer(MLIRContext *ctx, int64_t cap)
      : OpRewritePattern<TransferOp>(ctx), cap(cap) {}
  LogicalResult matchAndRewrite(TransferOp op,
                                PatternRewriter &rw) const override {
    if (!isContiguous1D(op))
      return failure();
    uint64_t align =
        provenAlignment(op.getBase(), op.getIndices(),
                        usefulAlignment(op, cap), stridesAssumedAligned(op));
    if (align == 0)
      return failure();
    if constexpr (std::is_same_v<TransferOp, vector::TransferReadOp>)
      rw.replaceOpWithNewOp<vector::LoadOp>(op, op.getVectorType(),
                                            op.getBase(), op.getIndices(),
                                            false, llvm::MaybeAlign(align));
    else
      rw.replaceOpWithNewOp<vector::StoreOp>(op, op.getVector(), op.getBase(),
                                             op.getIndices(), false,
                                             llvm::MaybeAlign(align));
    return success();
  }
  int64_t cap;
};

/// The buffers (defined outside `launch`) whose dynamic strides limit the
/// alignment of a contiguous transfer inside it.
/// With each, the stride multiple (bytes) its accesses need: the widest
/// useful alignment among them.
SetVector<Value> stridesWorthChecking(gpu::LaunchOp launch, int64_t cap,
                                      llvm::DenseMap<Value, int64_t> &need) {
  SetVector<Value> bases;
  auto consider = [&](auto op) {
    if (!isContiguous1D(op))
      return;
    Value base = op.getBase();
    if (launch->isAncestor(base.getParentRegion()->getParentOp()))
      return;
    int64_t useful = usefulAlignment(op, cap);
    uint64_t plain = provenAlignment(base, op.getIndices(), useful);
    uint64_t assumed = provenAlignment(base, op.getIndices(), useful, true);
    if (assumed > plain) {
      bases.insert(base);
      need[base] = std::max<int64_t>(need.lookup(base), useful);
    }
  };
  launch.walk([&](vector::TransferReadOp op) { consider(op); });
  launch.walk([&](vector::TransferWriteOp op) { consider(op); });
  return bases;
}

/// Versions `launch`: `scf.if (every dynamic stride of each base is a
/// multiple of the bytes its accesses need) { the launch, marked } else {
/// the launch }`.
void version(gpu::LaunchOp launch, const SetVector<Value> &bases,
             const llvm::DenseMap<Value, int64_t> &need) {
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  Value all;
  for (Value base : bases) {
    auto type = cast<MemRefType>(base.getType());
    auto [strides, offset] = type.getStridesAndOffset();
    // FP6 codes take a byte each in memory.
    int64_t elemBytes = std::max<int64_t>(
        1, type.getElementType().getIntOrFloatBitWidth() / 8);
    int64_t elems = std::max<int64_t>(1, need.lookup(base) / elemBytes);
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, base);
    for (auto [d, stride] : llvm::enumerate(strides)) {
      if (!ShapedType::isDynamic(stride))
        continue;
      Value rem = arith::RemUIOp::create(
          b, loc, meta.getStrides()[d],
          arith::ConstantIndexOp::create(b, loc, elems));
      Value ok = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, rem,
          arith::ConstantIndexOp::create(b, loc, 0));
      all = all ? arith::AndIOp::create(b, loc, all, ok).getResult() : ok;
    }
  }
  if (!all)
    return;
  auto ifOp = scf::IfOp::create(b, loc, all, /*withElseRegion=*/true);
  OpBuilder thenB = ifOp.getThenBodyBuilder();
  Operation *aligned = thenB.clone(*launch);
  aligned->setAttr(kAlignedStridesAttr, UnitAttr::get(launch.getContext()));
  launch->moveBefore(ifOp.elseBlock()->getTerminator());
}

struct MXQAlignVectorAccesses
    : ::mxq::nvvm::impl::MXQAlignVectorAccessesBase<MXQAlignVectorAccesses> {
  using MXQAlignVectorAccessesBase::MXQAlignVectorAccessesBase;
  void runOnOperation() override {
    if (baseAlignment <= 0 || !llvm::isPowerOf2_64(baseAlignment)) {
      getOperation()->emitError()
          << "mxq-align-vector-accesses: base-alignment must be a power of "
             "two, got "
          << static_cast<int64_t>(baseAlignment);
      return signalPassFailure();
    }
    // Version the kernels whose accesses a dynamic stride keeps narrow.
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk([&](gpu::LaunchOp launch) {
      if (!launch.getAsyncToken() && !launch->hasAttr(kAlignedStridesAttr) &&
          !launch->getParentOfType<gpu::LaunchOp>())
        launches.push_back(launch);
    });
    for (gpu::LaunchOp launch : launches) {
      llvm::DenseMap<Value, int64_t> need;
      SetVector<Value> bases =
          stridesWorthChecking(launch, baseAlignment, need);
      if (!bases.empty())
        version(launch, bases, need);
    }
    RewritePatternSet patterns(&getContext());
    ::mxq::nvvm::populateAlignVectorAccessesPatterns(patterns, baseAlignment);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void ::mxq::nvvm::populateAlignVectorAccessesPatterns(RewritePatternSet &patterns,
                                                int64_t baseAlignment) {
  patterns.add<AlignTransfer<vector::TransferReadOp>,
               AlignTransfer<vector::TransferWriteOp>>(patterns.getContext(),
                                                       baseAlignment);
}
