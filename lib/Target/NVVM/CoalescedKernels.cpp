//===- CoalescedKernels.cpp - lane-cooperative quantize and dequantize ----===//
//
// The NVIDIA target's own mapping of the block ops along the last axis (its
// thread mapping, nothing else: every number comes from the shared
// builders, mxq/Conversion/BlockBuilders.h, and the shared numerics).
//
// The shared expansion gives a thread whole blocks; a warp's 32 threads then
// read addresses one block apart, and half of every 32-byte sector they
// touch is wasted. Here a block of 32 elements is spread over L lanes that
// each own one 16-byte chunk of the input (L = 4 for 16-bit inputs, 8 for
// f32; dequantize: 16 bytes of results, so 4 or 8 codes a lane), so
// consecutive lanes access consecutive chunks: a warp's loads and stores
// touch the minimum number of sectors. Quantize combines the lanes'
// absolute maxima with butterfly shuffles (exact: an unsigned maximum of |x| bits, in any order), and the
// first lane of each block stores its scale byte. Every thread of a thread
// block takes part in the shuffles (none leaves early); threads past the
// end compute on nothing and store nothing.
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/NVVM/CoalescedKernels.h"

#include "mxq/Conversion/BlockBuilders.h"
#include "mxq/Support/Formats.h"
#include "mxq/Support/ScaleLayout.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
namespace loops = ::mxq::loops;
namespace num = ::mxq::numerics;
namespace dialect = ::mlir::mxq;

namespace {

constexpr int64_t kThreads = 256; ///< threads per thread block
constexpr int64_t kBlock = 32;    ///< the MX block these kernels take

Value idx(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIndexOp::create(b, l, v);
}

/// A buffer of `tensor` for the kernel to read (bufferization makes it the
/// caller's device buffer).
Value bufferOf(OpBuilder &b, Location l, Value tensor) {
  auto t = cast<RankedTensorType>(tensor.getType());
  return bufferization::ToBufferOp::create(
      b, l, MemRefType::get(t.getShape(), t.getElementType()), tensor,
      /*readOnly=*/true);
}

/// A new buffer of `sizes` x `elt`.
Value allocate(OpBuilder &b, Location l, ArrayRef<OpFoldResult> sizes,
               Type elt) {
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamic;
  for (OpFoldResult s : sizes) {
    if (auto c = getConstantIntValue(s)) {
      shape.push_back(*c);
    } else {
      shape.push_back(ShapedType::kDynamic);
      dynamic.push_back(cast<Value>(s));
    }
  }
  return memref::AllocOp::create(b, l, MemRefType::get(shape, elt), dynamic);
}

Value asTensor(OpBuilder &b, Location l, Value buffer) {
  auto m = cast<MemRefType>(buffer.getType());
  return bufferization::ToTensorOp::create(
      b, l, RankedTensorType::get(m.getShape(), m.getElementType()), buffer,
      /*restrict=*/true, /*writable=*/true);
}

/// Where a lane works: its row (the indices before the last axis), the
/// block along the last axis, its first column, how many of its `lanes`
/// elements exist, and whether it is a thread past the end.
struct LanePlace {
  SmallVector<Value> lead;
  Value blk, col0, count, full, valid, lane;
};

/// The unsigned maximum of `bits` (i32) over the lanes `lane ^ d` for d in
/// `offsets` (butterfly shuffles).
Value laneMax(OpBuilder &b, Location l, Value bits, ArrayRef<int64_t> offsets) {
  Value width = arith::ConstantIntOp::create(b, l, 32, 32);
  for (int64_t d : offsets)
    bits = arith::MaxUIOp::create(
        b, l, bits,
        gpu::ShuffleOp::create(b, l, bits,
                               arith::ConstantIntOp::create(b, l, d, 32), width,
                               gpu::ShuffleMode::XOR)
            .getShuffleResult());
  return bits;
}

/// Sets `p.count`, the elements of the lane at `p.col0` on a row of `size`
/// (clamp(size - col0, 0, elems), 0 unless `live`), and `p.full`.
void countLane(OpBuilder &b, Location l, LanePlace &p, Value size,
               int64_t elems, Value live) {
  Value in = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, p.col0,
                                   size);
  Value left = arith::MinUIOp::create(
      b, l, arith::SubIOp::create(b, l, size, p.col0), idx(b, l, elems));
  Value n = arith::SelectOp::create(b, l, arith::AndIOp::create(b, l, live, in),
                                    left, idx(b, l, 0));
  p.count = n;
  p.full = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, n,
                                 idx(b, l, elems));
}

/// The launch of ceil(total / kThreads) thread blocks of kThreads threads
/// (none when total is 0) around `body`, for `lanesPerBlock` lanes of
/// `elems` elements per block of `blockElems` of the rows of `shape` (the
/// sizes of the data, `numBlocks` blocks a row); a lane's first element is
/// blk * blockElems + lane * elems.
void launchLanes(OpBuilder &b, Location l, ArrayRef<Value> shape,
                 Value numBlocks, int64_t lanesPerBlock, int64_t elems,
                 function_ref<void(OpBuilder &, Location, LanePlace &)> body,
                 int64_t blockElems = kBlock) {
  Value rows = idx(b, l, 1);
  for (Value d : shape.drop_back())
    rows = arith::MulIOp::create(b, l, rows, d);
  Value total = arith::MulIOp::create(
      b, l, arith::MulIOp::create(b, l, rows, numBlocks),
      idx(b, l, lanesPerBlock));
  Value any = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt, total,
                                    idx(b, l, 0));
  auto guard = scf::IfOp::create(b, l, any, /*withElseRegion=*/false);
  OpBuilder g = guard.getThenBodyBuilder();
  Value one = idx(g, l, 1);
  Value grid = arith::CeilDivUIOp::create(g, l, total, idx(g, l, kThreads));
  auto launch = gpu::LaunchOp::create(g, l, grid, one, one,
                                      idx(g, l, kThreads), one, one);
  OpBuilder k = OpBuilder::atBlockBegin(&launch.getBody().front());
  Value gid = arith::AddIOp::create(
      k, l,
      arith::MulIOp::create(k, l, launch.getBlockIds().x, idx(k, l, kThreads)),
      launch.getThreadIds().x);
  LanePlace p;
  p.valid = arith::CmpIOp::create(k, l, arith::CmpIPredicate::ult, gid, total);
  Value g0 = arith::SelectOp::create(k, l, p.valid, gid, idx(k, l, 0));
  Value L = idx(k, l, lanesPerBlock);
  p.lane = arith::RemUIOp::create(k, l, g0, L);
  Value t = arith::DivUIOp::create(k, l, g0, L);
  p.blk = arith::RemUIOp::create(k, l, t, numBlocks);
  Value row = arith::DivUIOp::create(k, l, t, numBlocks);
  p.lead.resize(shape.size() - 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d) {
    p.lead[d] = arith::RemUIOp::create(k, l, row, shape[d]);
    row = arith::DivUIOp::create(k, l, row, shape[d]);
  }
  p.col0 = arith::AddIOp::create(
      k, l, arith::MulIOp::create(k, l, p.blk, idx(k, l, blockElems)),
      arith::MulIOp::create(k, l, p.lane, idx(k, l, elems)));
  countLane(k, l, p, shape.back(), elems, p.valid);
  body(k, l, p);
  gpu::TerminatorOp::create(k, l);
}

/// `elems` elements of `buffer` at (lead..., col0): one unmasked vector
/// where the lane is full, else the live ones (zeros after). With `asBits`
/// (code buffers), the codes' i32 bits (fromSmallFloat), taken lane by lane
/// in the ragged case so that no vector of sub-byte integers is built (NVPTX
/// legalises those through local memory).
Value readLane(OpBuilder &b, Location l, Value buffer, const LanePlace &p,
               int64_t elems, bool asBits = false) {
  Type elt = cast<MemRefType>(buffer.getType()).getElementType();
  VectorType vt = VectorType::get({elems}, elt);
  VectorType out = asBits ? VectorType::get({elems}, b.getI32Type()) : vt;
  SmallVector<Value> at(p.lead);
  at.push_back(p.col0);
  auto ifOp = scf::IfOp::create(
      b, l, p.full,
      [&](OpBuilder &tb, Location tl) {
        Value v = vector::TransferReadOp::create(
            tb, tl, vt, buffer, at,
            arith::ConstantOp::create(tb, tl, tb.getZeroAttr(elt)),
            ArrayRef<bool>{true});
        if (asBits)
          v = loops::fromSmallFloat(tb, tl, v);
        scf::YieldOp::create(tb, tl, v);
      },
      [&](OpBuilder &eb, Location el) {
        Value v = arith::ConstantOp::create(eb, el, eb.getZeroAttr(out));
        for (int64_t k = 0; k < elems; ++k) {
          Value in = arith::CmpIOp::create(eb, el, arith::CmpIPredicate::ult,
                                           idx(eb, el, k), p.count);
          SmallVector<Value> pos(at);
          pos.back() = arith::AddIOp::create(eb, el, p.col0, idx(eb, el, k));
          auto lane = scf::IfOp::create(
              eb, el, in,
              [&](OpBuilder &ib, Location il) {
                Value e = memref::LoadOp::create(ib, il, buffer, pos);
                if (asBits)
                  e = loops::fromSmallFloat(ib, il, e);
                scf::YieldOp::create(
                    ib, il,
                    vector::InsertOp::create(ib, il, e, v, k).getResult());
              },
              [&](OpBuilder &ib, Location il) {
                scf::YieldOp::create(ib, il, v);
              });
          v = lane.getResult(0);
        }
        scf::YieldOp::create(eb, el, v);
      });
  return ifOp.getResult(0);
}

/// Writes the lane's vector `v` at (lead..., col0): whole where the lane is
/// full, else its live elements one by one. With `codeElt`, `v` holds i32
/// code bits, converted to `codeElt` as a whole vector or lane by lane (no
/// vector of sub-byte integers is taken apart).
void writeLane(OpBuilder &b, Location l, Value v, Value buffer,
               const LanePlace &p, Type codeElt = {}) {
  int64_t elems = cast<VectorType>(v.getType()).getNumElements();
  SmallVector<Value> at(p.lead);
  at.push_back(p.col0);
  scf::IfOp::create(
      b, l, p.full,
      [&](OpBuilder &tb, Location tl) {
        Value whole = codeElt ? loops::toSmallFloat(tb, tl, v, codeElt) : v;
        vector::TransferWriteOp::create(tb, tl, whole, buffer, at,
                                        ArrayRef<bool>{true});
        scf::YieldOp::create(tb, tl);
      },
      [&](OpBuilder &eb, Location el) {
        for (int64_t k = 0; k < elems; ++k) {
          Value in = arith::CmpIOp::create(eb, el, arith::CmpIPredicate::ult,
                                           idx(eb, el, k), p.count);
          auto lane = scf::IfOp::create(eb, el, in, /*withElse=*/false);
          OpBuilder ib = lane.getThenBodyBuilder();
          SmallVector<Value> pos(at);
          pos.back() = arith::AddIOp::create(ib, el, p.col0, idx(ib, el, k));
          Value e = vector::ExtractOp::create(ib, el, v, k);
          if (codeElt)
            e = loops::toSmallFloat(ib, el, e, codeElt);
          memref::StoreOp::create(ib, el, e, buffer, pos);
        }
        scf::YieldOp::create(eb, el);
      });
}

/// The sizes of `buffer` (of rank `rank`) as index values.
SmallVector<Value> sizesOf(OpBuilder &b, Location l, Value buffer) {
  SmallVector<Value> s;
  auto m = cast<MemRefType>(buffer.getType());
  for (int64_t d = 0; d < m.getRank(); ++d)
    s.push_back(memref::DimOp::create(b, l, buffer, d));
  return s;
}

/// In the pairs layout, the lane that stores the scale of block `blk` (of
/// `numBlocks` a row) also stores the padding byte after it when it is the
/// last block and has no partner, so that no separate fill kernel writes
/// the scales twice.
void storePairPadding(OpBuilder &b, Location l, ArrayRef<Value> lead,
                      Value blk, Value numBlocks, Value scales, Type scaleElt) {
  Value last = arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::eq, blk,
      arith::SubIOp::create(b, l, numBlocks, idx(b, l, 1)));
  Value even = arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, l, blk, idx(b, l, 2)), idx(b, l, 0));
  auto pad = scf::IfOp::create(b, l, arith::AndIOp::create(b, l, last, even),
                               /*withElse=*/false);
  OpBuilder pb = pad.getThenBodyBuilder();
  SmallVector<Value> at(lead);
  at.push_back(arith::DivUIOp::create(pb, l, blk, idx(pb, l, 2)));
  at.push_back(idx(pb, l, 1));
  memref::StoreOp::create(
      pb, l,
      loops::toSmallFloat(
          pb, l, num::i32Const(pb, l, pb.getI32Type(), ::mxq::kScalePad),
          scaleElt),
      scales, at);
}

bool isWideFloat(Type t) { return t.isF32() || t.isBF16() || t.isF16(); }

struct CoalescedQuantize : loops::NumericsPattern<dialect::QuantizeOp> {
  CoalescedQuantize(MLIRContext *ctx,
                    std::shared_ptr<const num::NativeConverts> native)
      : NumericsPattern(ctx, std::move(native), /*benefit=*/2) {}

  LogicalResult matchAndRewrite(dialect::QuantizeOp op,
                                PatternRewriter &rw) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    int64_t rank = inType.getRank();
    Type inElt = inType.getElementType();
    Type codeElt = op.getCodes().getType().getElementType();
    Type scaleElt = op.getScales().getType().getElementType();
    if (int64_t(op.getAxis()) != rank - 1 ||
        int64_t(op.getBlockSize()) != kBlock ||
        !isWideFloat(inElt) || codeElt.getIntOrFloatBitWidth() > 8)
      return rw.notifyMatchFailure(op, "not a last-axis block-32 quantize");
    Location loc = op.getLoc();
    int64_t elems = inElt.isF32() ? 4 : 8; // 16 bytes a lane
    int64_t lanes = kBlock / elems;
    auto policies = loops::BlockPolicies::of(op, codeElt);
    bool bf16Product = op.getProduct() == dialect::Product::bf16;
    auto layout = op.getScaleLayout();

    ReifiedRankedShapedTypeDims dims;
    if (failed(loops::resultSizes(op, rw, dims)))
      return failure();
    Value input = bufferOf(rw, loc, op.getInput());
    Value codes = allocate(rw, loc, dims[0], codeElt);
    Value scales = allocate(rw, loc, dims[1], scaleElt);
    if (layout == dialect::ScaleLayout::swizzle_32_4_4) {
      // The padding of the swizzled layout (ref: kScalePad); the pairs
      // layout's is stored by the kernel (storePairPadding).
      Value pad = loops::toSmallFloat(
          rw, loc, num::i32Const(rw, loc, rw.getI32Type(), ::mxq::kScalePad),
          scaleElt);
      linalg::FillOp::create(rw, loc, ValueRange{pad}, ValueRange{scales});
    }
    SmallVector<Value> shape = sizesOf(rw, loc, input);
    Value numBlocks =
        arith::CeilDivUIOp::create(rw, loc, shape.back(), idx(rw, loc, kBlock));
    const num::NativeConverts *nat = native();
    launchLanes(rw, loc, shape, numBlocks, lanes, elems,
                [&](OpBuilder &b, Location l, LanePlace &p) {
      Value x = loops::toF32(b, l, readLane(b, l, input, p, elems));
      // The block's amax: this lane's, then the other lanes' by shuffles.
      Type i32 = b.getI32Type();
      Value bits = arith::BitcastOp::create(b, l, i32, policies.amax(b, l, x));
      SmallVector<int64_t> offsets;
      for (int64_t d = 1; d < lanes; d *= 2)
        offsets.push_back(d);
      bits = laneMax(b, l, bits, offsets);
      Value amax = arith::BitcastOp::create(b, l, b.getF32Type(), bits);
      auto [sByte, mult] = policies.scaleAndMultiplier(b, l, amax, nat);
      Value r = vector::BroadcastOp::create(b, l, x.getType(), mult);
      Value y = policies.scaled(b, l, x, r);
      if (bf16Product)
        y = loops::roundTo(b, l, y, b.getBF16Type());
      Value code = policies.encode(b, l, y, nat);
      writeLane(b, l, code, codes, p, codeElt);
      // The first lane of a block stores its scale.
      Value first = arith::AndIOp::create(
          b, l, p.valid,
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, p.lane,
                                idx(b, l, 0)));
      auto store = scf::IfOp::create(b, l, first, /*withElse=*/false);
      OpBuilder sb = store.getThenBodyBuilder();
      SmallVector<Value> ivs(p.lead);
      ivs.push_back(p.col0);
      SmallVector<Value> at =
          loops::scaleIndex(sb, l, ivs, rank - 1, p.blk, numBlocks, layout);
      memref::StoreOp::create(sb, l, loops::toSmallFloat(sb, l, sByte, scaleElt),
                              scales, at);
      if (layout == dialect::ScaleLayout::pairs)
        storePairPadding(sb, l, p.lead, p.blk, numBlocks, scales, scaleElt);
    });
    loops::replaceWithResultTypes(
        rw, op, {asTensor(rw, loc, codes), asTensor(rw, loc, scales)});
    return success();
  }

};

struct CoalescedDequantize : OpRewritePattern<dialect::DequantizeOp> {
  CoalescedDequantize(MLIRContext *ctx)
      : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(dialect::DequantizeOp op,
                                PatternRewriter &rw) const override {
    auto codesType = cast<RankedTensorType>(op.getCodes().getType());
    int64_t rank = codesType.getRank();
    Type resElt = op.getResult().getType().getElementType();
    if (int64_t(op.getAxis()) != rank - 1 ||
        int64_t(op.getBlockSize()) != kBlock ||
        !isWideFloat(resElt))
      return rw.notifyMatchFailure(op, "not a last-axis block-32 dequantize");
    Location loc = op.getLoc();
    // 16 bytes of results a lane (codes: 4 or 8 bytes).
    int64_t elems = resElt.isF32() ? 4 : 8, lanes = kBlock / elems;
    ::mxq::ElementFormat format =
        *dialect::getElementFormat(codesType.getElementType());
    ReifiedRankedShapedTypeDims dims;
    if (failed(loops::resultSizes(op, rw, dims)))
      return failure();
    Value codes = bufferOf(rw, loc, op.getCodes());
    Value scales = bufferOf(rw, loc, op.getScales());
    Value result = allocate(rw, loc, dims[0], resElt);
    SmallVector<Value> shape = sizesOf(rw, loc, codes);
    Value numBlocks =
        arith::CeilDivUIOp::create(rw, loc, shape.back(), idx(rw, loc, kBlock));
    bool saturate = op.getCast() == dialect::ResultCast::saturate;
    launchLanes(rw, loc, shape, numBlocks, lanes, elems,
                [&](OpBuilder &b, Location l, LanePlace &p) {
      Value code = readLane(b, l, codes, p, elems, /*asBits=*/true);
      // Every lane of a block reads its scale (one sector for the warp).
      SmallVector<Value> ivs(p.lead);
      ivs.push_back(p.col0);
      SmallVector<Value> at = loops::scaleIndex(b, l, ivs, rank - 1, p.blk,
                                                numBlocks, op.getScaleLayout());
      // A thread past the end reads scale 0 (it stores nothing).
      SmallVector<Value> safe;
      for (Value v : at)
        safe.push_back(arith::SelectOp::create(b, l, p.valid, v, idx(b, l, 0)));
      Value s = loops::blockScaleValue(
          b, l, memref::LoadOp::create(b, l, scales, safe));
      Value value = num::decodeElement(b, l, code, format);
      Value scale = vector::BroadcastOp::create(b, l, value.getType(), s);
      Value y = num::canonicalizeNaN(b, l,
                                     arith::MulFOp::create(b, l, value, scale));
      if (saturate)
        y = loops::saturateTo(b, l, y, resElt);
      writeLane(b, l, loops::fromF32(b, l, y, resElt), result, p);
    });
    loops::replaceWithResultTypes(rw, op, {asTensor(rw, loc, result)});
    return success();
  }
};


/// dual_quantize, reading its input once: a thread block of kThreads
/// threads per 128 x 128 tile (one SWIZZLE_32_4_4 atom of both scale
/// tensors). The tile in shared memory is 32 KiB: all 128 columns of a
/// 16-bit input, or 64 columns of f32, the two halves taken in turn through
/// steps 1-3 (the scale atoms staged across both).
///  1. Row pass: each lane loads one 16-byte chunk (8 16-bit or 4 f32
///     elements; a warp: 512 contiguous bytes), keeps it in shared memory,
///     and quantizes its row block with its 3 or 7 neighbours (shuffles),
///     storing its codes (coalesced) and the block's scale into the staged
///     row-scale atom.
///  2. Column pass: a thread per (column, 32-row block), the 32 elements read
///     down a column of the shared tile (a warp reads 32 consecutive
///     columns of one row: no bank conflict), its scale into the staged
///     column-scale atom and its 32 codes kept in registers.
///  3. The column codes staged transposed in shared memory (rows padded to
///     144 bytes: conflict-free 16-byte stores), then written out as rows of
///     [K, M] in 16-byte chunks, and both scale atoms as 512 contiguous
///     bytes (the column scales are staged column by column, four bytes
///     each, and gathered into the swizzled order by the copy: stored in
///     atom order, a warp's 32 columns would fall 16 bytes apart, on 8
///     banks). The padding entries of an atom keep kScalePad.
struct CooperativeDualQuantize
    : loops::NumericsPattern<dialect::DualQuantizeOp> {
  CooperativeDualQuantize(MLIRContext *ctx,
                          std::shared_ptr<const num::NativeConverts> native)
      : NumericsPattern(ctx, std::move(native), /*benefit=*/3) {}

  static constexpr int64_t T = 128;        ///< tile edge
  static constexpr int64_t kPitch = 144;   ///< staged code row, bytes
  static constexpr int64_t kScales0 = 32768, kScales1 = kScales0 + 512;
  static constexpr int64_t kShared = kScales1 + 512;

  LogicalResult matchAndRewrite(dialect::DualQuantizeOp op,
                                PatternRewriter &rw) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    int64_t rank = inType.getRank();
    Type inElt = inType.getElementType();
    Type codeElt = op.getCodes0().getType().getElementType();
    Type scaleElt = op.getScales0().getType().getElementType();
    if (!isWideFloat(inElt) || codeElt.getIntOrFloatBitWidth() > 8)
      return rw.notifyMatchFailure(op, "f32/f16/bf16 input");
    // The tile held in shared memory: T rows of W elements (32 KiB): all
    // 128 columns of 16-bit input, half of f32 input (two halves in turn).
    const int64_t inBits = inElt.getIntOrFloatBitWidth();
    const int64_t W = T * 16 / inBits, halves = T / W;
    Type tileInt = rw.getIntegerType(inBits);
    Location loc = op.getLoc();
    MLIRContext *ctx = rw.getContext();
    auto policies = loops::BlockPolicies::of(op, codeElt);
    const num::NativeConverts *nat = native();
    ReifiedRankedShapedTypeDims dims;
    if (failed(loops::resultSizes(op, rw, dims)))
      return failure();
    Value input = bufferOf(rw, loc, op.getInput());
    Value codes0 = allocate(rw, loc, dims[0], codeElt);
    Value scales0 = allocate(rw, loc, dims[1], scaleElt);
    Value codes1 = allocate(rw, loc, dims[2], codeElt);
    Value scales1 = allocate(rw, loc, dims[3], scaleElt);
    SmallVector<Value> shape = sizesOf(rw, loc, input);
    Value M = shape[rank - 2], K = shape[rank - 1];
    Value batch = rank == 3 ? shape[0] : idx(rw, loc, 1);
    Value one = idx(rw, loc, 1);
    Value gx = arith::CeilDivUIOp::create(rw, loc, K, idx(rw, loc, T));
    Value gy = arith::CeilDivUIOp::create(rw, loc, M, idx(rw, loc, T));
    Value any = arith::CmpIOp::create(
        rw, loc, arith::CmpIPredicate::ugt,
        arith::MulIOp::create(rw, loc,
                              arith::MulIOp::create(rw, loc, gx, gy), batch),
        idx(rw, loc, 0));
    auto guard = scf::IfOp::create(rw, loc, any, /*withElseRegion=*/false);
    OpBuilder g = guard.getThenBodyBuilder();
    auto wgType = MemRefType::get(
        {kShared}, g.getI8Type(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    auto launch = gpu::LaunchOp::create(
        g, loc, gx, gy, batch, idx(g, loc, kThreads), one, one,
        /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
        /*asyncDependencies=*/ValueRange{}, TypeRange{wgType});
    OpBuilder b = OpBuilder::atBlockBegin(&launch.getBody().front());
    Location l = loc;
    Value shared = launch.getWorkgroupAttributions()[0];
    auto wsType = [&](ArrayRef<int64_t> shape, Type elt) {
      return MemRefType::get(shape, elt, MemRefLayoutAttrInterface(),
                             wgType.getMemorySpace());
    };
    Value tile = memref::ViewOp::create(b, l, wsType({T, W}, tileInt),
                                        shared, idx(b, l, 0), ValueRange{});
    Value staged = memref::ViewOp::create(
        b, l, wsType({W, kPitch}, b.getI8Type()), shared, idx(b, l, 0),
        ValueRange{});
    Value ss0 = memref::ViewOp::create(b, l, wsType({512}, b.getI8Type()),
                                       shared, idx(b, l, kScales0),
                                       ValueRange{});
    Value ss1 = memref::ViewOp::create(b, l, wsType({512}, b.getI8Type()),
                                       shared, idx(b, l, kScales1),
                                       ValueRange{});
    Value ss1Words = memref::ViewOp::create(
        b, l, wsType({128}, b.getI32Type()), shared, idx(b, l, kScales1),
        ValueRange{});
    Value t = launch.getThreadIds().x;
    Value bx = launch.getBlockIds().x, by = launch.getBlockIds().y;
    Value m0 = arith::MulIOp::create(b, l, by, idx(b, l, T));
    Value k0 = arith::MulIOp::create(b, l, bx, idx(b, l, T));
    SmallVector<Value> lead;
    if (rank == 3)
      lead.push_back(launch.getBlockIds().z);
    auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
      return arith::CmpIOp::create(b, l, p, x, y);
    };
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddIOp::create(b, l, x, y);
    };
    auto mul = [&](Value x, int64_t c) -> Value {
      return arith::MulIOp::create(b, l, x, idx(b, l, c));
    };
    auto divc = [&](Value x, int64_t c) -> Value {
      return arith::DivUIOp::create(b, l, x, idx(b, l, c));
    };
    auto remc = [&](Value x, int64_t c) -> Value {
      return arith::RemUIOp::create(b, l, x, idx(b, l, c));
    };
    // The tile's scale atoms, and where a block's byte lies in them: the
    // shared swizzle index (loops::scaleIndex) of the block, less that of
    // the atom's first block. scales0 quantizes x along K; scales1, x^T
    // along M.
    auto swizzled = [&](OpBuilder &sb, Value row, Value blk,
                        Value numBlocks) -> Value {
      SmallVector<Value> ivs(lead);
      ivs.push_back(row);
      ivs.push_back(idx(sb, l, 0)); // the axis entry is not read
      return loops::scaleIndex(sb, l, ivs, rank - 1, blk, numBlocks,
                               dialect::ScaleLayout::swizzle_32_4_4)
          .back();
    };
    Value blocksK = arith::CeilDivUIOp::create(b, l, K, idx(b, l, 32));
    Value blocksM = arith::CeilDivUIOp::create(b, l, M, idx(b, l, 32));
    Value k0Block = arith::DivUIOp::create(b, l, k0, idx(b, l, 32));
    Value m0Block = arith::DivUIOp::create(b, l, m0, idx(b, l, 32));
    // An atom starts at a multiple of its 512 bytes; said as such, so that
    // mxq-align-vector-accesses can prove the 16-byte copies aligned.
    auto atomStart = [&](Value offset) -> Value {
      return mul(divc(offset, ::mxq::kSwizzleTileBytes),
                 ::mxq::kSwizzleTileBytes);
    };
    Value base0 = atomStart(swizzled(b, m0, k0Block, blocksK));
    Value base1 = atomStart(swizzled(b, k0, m0Block, blocksM));
    auto barrier = [&] { gpu::BarrierOp::create(b, l); };
    Value padByte = arith::ConstantIntOp::create(b, l, ::mxq::kScalePad, 8);
    VectorType bytes16 = VectorType::get({16}, b.getI8Type());
    Value trueV = arith::ConstantIntOp::create(b, l, 1, 1);
    Value zeroByte = arith::ConstantIntOp::create(b, l, 0, 8);

    // 0. Both staged scale atoms start as padding.
    {
      Value isRow = cmp(arith::CmpIPredicate::ult, t, idx(b, l, 32));
      Value isCol = arith::AndIOp::create(
          b, l, arith::XOrIOp::create(b, l, isRow, trueV),
          cmp(arith::CmpIPredicate::ult, t, idx(b, l, 64)));
      Value pads = vector::BroadcastOp::create(b, l, bytes16, padByte);
      Value at = mul(remc(t, 32), 16);
      auto r = scf::IfOp::create(b, l, isRow, false);
      OpBuilder rb = r.getThenBodyBuilder();
      vector::TransferWriteOp::create(rb, l, pads, ss0, ValueRange{at},
                                      ArrayRef<bool>{true});
      auto c = scf::IfOp::create(b, l, isCol, false);
      OpBuilder cb = c.getThenBodyBuilder();
      vector::TransferWriteOp::create(cb, l, pads, ss1, ValueRange{at},
                                      ArrayRef<bool>{true});
    }
    barrier();

    Type i32 = b.getI32Type();
    VectorType codeBytes = VectorType::get({32}, b.getI8Type());
    // A lane takes 16 bytes of a row: 8 16-bit or 4 f32 elements, so a
    // warp's loads and its tile stores are contiguous (no sector or bank
    // half used); a block of 32 is 4 or 8 lanes.
    const int64_t perLane = 128 / inBits, lanesPerBlock = 32 / perLane;
    const int64_t chunksPerRow = W / perLane;
    SmallVector<int64_t> blockShuffles = {1, 2};
    if (lanesPerBlock == 8)
      blockShuffles.push_back(4);
    for (int64_t h = 0; h < halves; ++h) {
      // The first column of this half in the tile.
      const int64_t c0 = h * W;
      // 1. Row pass: T * W / perLane chunks, 256 a round.
      scf::ForOp::create(
          b, l, idx(b, l, 0), idx(b, l, T * W / perLane / kThreads), one,
          ValueRange{}, [&](OpBuilder &fb, Location fl, Value it, ValueRange) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(fb.getInsertionBlock(),
                                fb.getInsertionPoint());
            Value id = add(mul(it, kThreads), t);
            Value r = divc(id, chunksPerRow), c = remc(id, chunksPerRow);
            Value lane = remc(c, lanesPerBlock);
            // The block in the tile's row (0..3).
            Value blk = add(divc(c, lanesPerBlock), idx(b, l, c0 / 32));
            Value row = add(m0, r);
            Value rowLive = cmp(arith::CmpIPredicate::ult, row, M);
            LanePlace p;
            p.lead = lead;
            p.lead.push_back(row);
            p.col0 = add(k0, add(mul(c, perLane), idx(b, l, c0)));
            countLane(b, l, p, K, perLane, rowLive);
            p.valid = rowLive;
            p.lane = lane;
            Value v = readLane(b, l, input, p, perLane);
            vector::TransferWriteOp::create(
                b, l,
                arith::BitcastOp::create(
                    b, l, VectorType::get({perLane}, tileInt), v),
                tile, ValueRange{r, mul(c, perLane)}, ArrayRef<bool>{true});
            Value x = loops::toF32(b, l, v);
            Value bits =
                arith::BitcastOp::create(b, l, i32, policies.amax(b, l, x));
            bits = laneMax(b, l, bits, blockShuffles);
            Value amax = arith::BitcastOp::create(b, l, b.getF32Type(), bits);
            auto [sByte, mult] = policies.scaleAndMultiplier(b, l, amax, nat);
            Value y = policies.scaled(
                b, l, x, vector::BroadcastOp::create(b, l, x.getType(), mult));
            Value code = policies.encode(b, l, y, nat);
            writeLane(b, l, code, codes0, p, codeElt);
            // The block's scale, where the block exists.
            Value blockLive = arith::AndIOp::create(
                b, l, rowLive,
                cmp(arith::CmpIPredicate::ult, add(k0, mul(blk, 32)), K));
            Value first = arith::AndIOp::create(
                b, l, blockLive,
                cmp(arith::CmpIPredicate::eq, lane, idx(b, l, 0)));
            auto st = scf::IfOp::create(b, l, first, false);
            OpBuilder sb = st.getThenBodyBuilder();
            Value off = arith::SubIOp::create(
                sb, l,
                swizzled(sb, row,
                         arith::AddIOp::create(sb, l, k0Block, blk), blocksK),
                base0);
            memref::StoreOp::create(
                sb, l, arith::TruncIOp::create(sb, l, sb.getI8Type(), sByte),
                ss0, ValueRange{off});
            scf::YieldOp::create(fb, fl);
          });
      barrier();

      // 2. Column pass: the W columns' 4 blocks, W * 4 / 256 a thread.
      SmallVector<Value> columnCodes;
      SmallVector<Value> columnAt;
      for (int64_t pair = 0; pair < W * 4 / kThreads; ++pair) {
        Value id = add(idx(b, l, pair * kThreads), t);
        Value j = remc(id, W), rb = divc(id, W);
        SmallVector<Value> lanes;
        for (int64_t i = 0; i < 32; ++i)
          lanes.push_back(memref::LoadOp::create(
              b, l, tile, ValueRange{add(mul(rb, 32), idx(b, l, i)), j}));
        Value v = vector::FromElementsOp::create(
            b, l, VectorType::get({32}, tileInt), lanes);
        v = arith::BitcastOp::create(b, l, VectorType::get({32}, inElt), v);
        Value x = loops::toF32(b, l, v);
        Value amax = policies.amax(b, l, x);
        auto [sByte, mult] = policies.scaleAndMultiplier(b, l, amax, nat);
        Value y = policies.scaled(
            b, l, x, vector::BroadcastOp::create(b, l, x.getType(), mult));
        Value code = policies.encode(b, l, y, nat);
        columnCodes.push_back(arith::TruncIOp::create(b, l, codeBytes, code));
        columnAt.push_back(j);
        columnAt.push_back(rb);
        // The column in the tile, and in x.
        Value jt = add(j, idx(b, l, c0));
        Value live = arith::AndIOp::create(
            b, l, cmp(arith::CmpIPredicate::ult, add(k0, jt), K),
            cmp(arith::CmpIPredicate::ult, add(m0, mul(rb, 32)), M));
        auto st = scf::IfOp::create(b, l, live, false);
        OpBuilder sb = st.getThenBodyBuilder();
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(sb.getInsertionBlock(), sb.getInsertionPoint());
        // Staged linearly (column j's four bytes together: a warp's 32
        // columns hit 32 banks); the copy-out gathers the swizzled atom.
        Value off = add(mul(jt, 4), rb);
        memref::StoreOp::create(b, l,
                                arith::TruncIOp::create(b, l, b.getI8Type(),
                                                        sByte),
                                ss1, ValueRange{off});
      }
      barrier();
      // 3. The column codes staged transposed (over the tile, read), then
      // written out.
      for (size_t pair = 0; pair < columnCodes.size(); ++pair) {
        Value j = columnAt[2 * pair], rb = columnAt[2 * pair + 1];
        for (int64_t hh = 0; hh < 2; ++hh)
          vector::TransferWriteOp::create(
              b, l,
              vector::ExtractStridedSliceOp::create(b, l, columnCodes[pair],
                                                    {16 * hh}, {16}, {1}),
              staged, ValueRange{j, add(mul(rb, 32), idx(b, l, 16 * hh))},
              ArrayRef<bool>{true});
      }
      barrier();
      scf::ForOp::create(
          b, l, idx(b, l, 0), idx(b, l, W * T / 16 / kThreads), one,
          ValueRange{}, [&](OpBuilder &fb, Location fl, Value it, ValueRange) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(fb.getInsertionBlock(),
                                fb.getInsertionPoint());
            Value id = add(mul(it, kThreads), t);
            Value j = divc(id, 8), c = remc(id, 8);
            Value xCol = add(k0, add(j, idx(b, l, c0)));
            Value rowLive = cmp(arith::CmpIPredicate::ult, xCol, K);
            LanePlace p;
            p.lead = lead;
            p.lead.push_back(xCol);
            p.col0 = add(m0, mul(c, 16));
            countLane(b, l, p, M, 16, rowLive);
            Value v = vector::TransferReadOp::create(
                b, l, bytes16, staged, ValueRange{j, mul(c, 16)}, zeroByte,
                ArrayRef<bool>{true});
            Value wide =
                arith::ExtUIOp::create(b, l, VectorType::get({16}, i32), v);
            writeLane(b, l, wide, codes1, p, codeElt);
            scf::YieldOp::create(fb, fl);
          });
      // The next half overwrites the tile (and the staged codes).
      if (h + 1 < halves)
        barrier();
    }
    // Both scale atoms, 16 bytes a lane.
    {
      Value isRow = cmp(arith::CmpIPredicate::ult, t, idx(b, l, 32));
      Value isCol = arith::AndIOp::create(
          b, l, arith::XOrIOp::create(b, l, isRow, trueV),
          cmp(arith::CmpIPredicate::ult, t, idx(b, l, 64)));
      Value at = mul(remc(t, 32), 16);
      auto copy = [&](Value cond, Value from, Value to, Value base) {
        auto r = scf::IfOp::create(b, l, cond, false);
        OpBuilder rb = r.getThenBodyBuilder();
        Value v = vector::TransferReadOp::create(
            rb, l, bytes16, from, ValueRange{at}, zeroByte,
            ArrayRef<bool>{true});
        Value s = arith::BitcastOp::create(
            rb, l, VectorType::get({16}, scaleElt), v);
        SmallVector<Value> pos(lead);
        pos.push_back(arith::AddIOp::create(rb, l, base, at));
        vector::TransferWriteOp::create(rb, l, s, to, pos,
                                        ArrayRef<bool>{true});
      };
      copy(isRow, ss0, scales0, base0);
      // The column atom from its linear staging: chunk q of the atom holds
      // columns q, q+32, q+64, q+96, four bytes (blocks) each (the inverse
      // of the swizzle's in-atom order, checked byte for byte by the
      // cookbook dual tests).
      auto r = scf::IfOp::create(b, l, isCol, false);
      OpBuilder rb = r.getThenBodyBuilder();
      Value q = arith::RemUIOp::create(rb, l, t, idx(rb, l, 32));
      SmallVector<Value> words;
      for (int64_t a = 0; a < 4; ++a)
        words.push_back(memref::LoadOp::create(
            rb, l, ss1Words,
            ValueRange{arith::AddIOp::create(rb, l, q, idx(rb, l, 32 * a))}));
      Value v = vector::BitCastOp::create(
          rb, l, bytes16,
          vector::FromElementsOp::create(
              rb, l, VectorType::get({4}, rb.getI32Type()), words));
      SmallVector<Value> pos(lead);
      pos.push_back(arith::AddIOp::create(
          rb, l, base1, arith::MulIOp::create(rb, l, q, idx(rb, l, 16))));
      vector::TransferWriteOp::create(
          rb, l, arith::BitcastOp::create(rb, l, VectorType::get({16}, scaleElt), v),
          scales1, pos, ArrayRef<bool>{true});
    }
    gpu::TerminatorOp::create(b, l);
    loops::replaceWithResultTypes(
        rw, op,
        {asTensor(rw, loc, codes0), asTensor(rw, loc, scales0),
         asTensor(rw, loc, codes1), asTensor(rw, loc, scales1)});
    return success();
  }

};


/// LanePlace `p` moved `shift` elements along the row (`elems` a lane).
LanePlace shifted(OpBuilder &b, Location l, const LanePlace &p, Value size,
                  int64_t shift, int64_t elems) {
  LanePlace q = p;
  q.col0 = arith::AddIOp::create(b, l, p.col0, idx(b, l, shift));
  countLane(b, l, q, size, elems, p.valid);
  return q;
}

/// two_level_quantize (CANN DynamicDualLevelMxQuant) of a 16-bit input: a
/// warp per 512-element level-0 block, each lane two 16-byte chunks (lane l
/// elements [8l, 8l+8) and [256+8l, 256+8l+8), so each of the two loads is
/// one contiguous 512 bytes across the warp). The level-0 maximum is
/// combined over the warp (5 shuffles), each 32-element group's largest
/// exponent over its 4 lanes (2 shuffles); lane 0 stores the fp32 level-0
/// scale, the first lane of each group its E8M0 byte. Every number is
/// TwoLevelSteps' (the shared expansion's).
struct CoalescedTwoLevelQuantize
    : loops::NumericsPattern<dialect::TwoLevelQuantizeOp> {
  CoalescedTwoLevelQuantize(MLIRContext *ctx,
                            std::shared_ptr<const num::NativeConverts> native)
      : NumericsPattern(ctx, std::move(native), /*benefit=*/2) {}

  LogicalResult matchAndRewrite(dialect::TwoLevelQuantizeOp op,
                                PatternRewriter &rw) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    int64_t rank = inType.getRank();
    Type inElt = inType.getElementType();
    Type codeElt = op.getY().getType().getElementType();
    Type scaleElt = op.getLevel1Scales().getType().getElementType();
    constexpr int64_t kL0 = ::mxq::kTwoLevelBlock0;
    constexpr int64_t kL1 = ::mxq::kTwoLevelBlock1;
    if (!(inElt.isBF16() || inElt.isF16()) || kL0 != 512 || kL1 != 32)
      return rw.notifyMatchFailure(op, "16-bit input, blocks of 512 and 32");
    Location loc = op.getLoc();
    auto rules = loops::TwoLevelSteps::of(op);
    const num::NativeConverts *nat = native();
    ReifiedRankedShapedTypeDims dims;
    if (failed(loops::resultSizes(op, rw, dims)))
      return failure();
    Value input = bufferOf(rw, loc, op.getInput());
    Value smooth = op.getSmooth() ? bufferOf(rw, loc, op.getSmooth()) : Value();
    Value codes = allocate(rw, loc, dims[0], codeElt);
    Value level0 = allocate(rw, loc, dims[1], rw.getF32Type());
    Value level1 = allocate(rw, loc, dims[2], scaleElt);
    SmallVector<Value> shape = sizesOf(rw, loc, input);
    Value size = shape.back();
    Value numBlocks = arith::CeilDivUIOp::create(rw, loc, size, idx(rw, loc, kL0));
    Value numGroups = arith::CeilDivUIOp::create(rw, loc, size, idx(rw, loc, kL1));
    launchLanes(
        rw, loc, shape, numBlocks, /*lanesPerBlock=*/32, /*elems=*/8,
        [&](OpBuilder &b, Location l, LanePlace &p) {
          LanePlace half[2] = {p, shifted(b, l, p, size, 256, 8)};
          Value x[2];
          Value bits;
          for (int h = 0; h < 2; ++h) {
            x[h] = loops::toF32(b, l, readLane(b, l, input, half[h], 8));
            if (smooth) {
              LanePlace s = half[h];
              s.lead.clear();
              x[h] = rules.smoothed(
                  b, l, x[h], loops::toF32(b, l, readLane(b, l, smooth, s, 8)));
            }
            Value m = rules.finiteMaxBits(b, l, x[h]);
            bits = h ? arith::MaxUIOp::create(b, l, bits, m).getResult() : m;
          }
          bits = laneMax(b, l, bits, {1, 2, 4, 8, 16});
          Value l0 = rules.level0(b, l, bits);
          Value first = arith::AndIOp::create(
              b, l, p.valid,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, p.lane,
                                    idx(b, l, 0)));
          {
            auto st = scf::IfOp::create(b, l, first, false);
            OpBuilder sb = st.getThenBodyBuilder();
            SmallVector<Value> at(p.lead);
            at.push_back(p.blk);
            memref::StoreOp::create(sb, l, l0, level0, at);
          }
          Value groupLane = arith::RemUIOp::create(b, l, p.lane, idx(b, l, 4));
          for (int h = 0; h < 2; ++h) {
            Value temp = rules.temp(b, l, x[h], l0);
            Value maxExp = laneMax(b, l, rules.maxExponent(b, l, temp), {1, 2});
            auto [byte, mult] = rules.level1(b, l, maxExp);
            writeLane(b, l, rules.codes(b, l, temp, mult, nat), codes, half[h],
                      codeElt);
            // The group's first lane stores its byte, where the group exists.
            Value live = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::ult, half[h].col0, size);
            Value store = arith::AndIOp::create(
                b, l, arith::AndIOp::create(b, l, p.valid, live),
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, groupLane,
                                      idx(b, l, 0)));
            auto st = scf::IfOp::create(b, l, store, false);
            OpBuilder sb = st.getThenBodyBuilder();
            Value g = arith::DivUIOp::create(sb, l, half[h].col0,
                                             idx(sb, l, kL1));
            SmallVector<Value> ivs(p.lead);
            ivs.push_back(half[h].col0);
            SmallVector<Value> at = loops::scaleIndex(
                sb, l, ivs, rank - 1, g, numGroups, dialect::ScaleLayout::pairs);
            memref::StoreOp::create(
                sb, l, loops::toSmallFloat(sb, l, byte, scaleElt), level1, at);
            storePairPadding(sb, l, p.lead, g, numGroups, level1, scaleElt);
          }
        },
        /*blockElems=*/kL0);
    loops::replaceWithResultTypes(
        rw, op,
        {asTensor(rw, loc, codes), asTensor(rw, loc, level0),
         asTensor(rw, loc, level1)});
    return success();
  }

};

} // namespace

void ::mxq::nvvm::populateCoalescedKernelPatterns(
    RewritePatternSet &patterns,
    std::shared_ptr<const ::mxq::numerics::NativeConverts> native) {
  patterns.add<CoalescedQuantize>(patterns.getContext(), native);
  patterns.add<CoalescedTwoLevelQuantize>(patterns.getContext(), native);
  patterns.add<CooperativeDualQuantize>(patterns.getContext(),
                                        std::move(native));
  patterns.add<CoalescedDequantize>(patterns.getContext());
}
