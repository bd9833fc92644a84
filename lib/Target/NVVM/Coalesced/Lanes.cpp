//===- Lanes.cpp - the lane mapping of the coalesced kernels --------------===//
//
// How the coalesced kernels map a block to lanes (CoalescedKernels.cpp says
// why): the launch, a lane's place and element count, its reads and writes
// (whole 16-byte vectors where the lane is full), the butterfly maximum
// over a block's lanes, and the pairs layout's padding byte.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"

namespace mxq::nvvm::coalesced {

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
                 int64_t blockElems) {
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
               int64_t elems, bool asBits) {
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
               const LanePlace &p, Type codeElt) {
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

LanePlace shifted(OpBuilder &b, Location l, const LanePlace &p, Value size,
                  int64_t shift, int64_t elems) {
  LanePlace q = p;
  q.col0 = arith::AddIOp::create(b, l, p.col0, idx(b, l, shift));
  countLane(b, l, q, size, elems, p.valid);
  return q;
}

} // namespace mxq::nvvm::coalesced
