//===- Common.cpp - what every op family's lowering shares ----------------===//
//
// Reading and writing blocks (one vector per block along the quantization
// axis, static lanes where a strided access would be dynamically indexed),
// placing scales in their layout, the loop nest over blocks.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "mxq/Conversion/IndexExpr.h"

namespace mxq::loops {

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The result sizes of `op`, static wherever its result types are (so that
/// the tensors built from them have exactly the result types).
LogicalResult resultSizes(Operation *op, OpBuilder &b,
                          ReifiedRankedShapedTypeDims &dims) {
  if (failed(cast<ReifyRankedShapedTypeOpInterface>(op).reifyResultShapes(
          b, dims)))
    return failure();
  for (auto [i, result] : llvm::enumerate(op->getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (!type.isDynamicDim(d))
        dims[i][d] = b.getIndexAttr(type.getDimSize(d));
  }
  return success();
}

/// `elt` shaped like `like` (vector or scalar).
Type shapedLike(Type like, Type elt) {
  if (auto v = dyn_cast<VectorType>(like))
    return VectorType::get(v.getShape(), elt);
  return elt;
}

/// i32 code bits (scalar or vector) as values of the small float `elt`.
Value toSmallFloat(OpBuilder &b, Location loc, Value bits, Type elt) {
  Type intTy = shapedLike(bits.getType(),
                          b.getIntegerType(elt.getIntOrFloatBitWidth()));
  // f32 (stored fp32 scales): the bits are the value's.
  Value narrow = intTy == bits.getType()
                     ? bits
                     : arith::TruncIOp::create(b, loc, intTy, bits).getResult();
  return arith::BitcastOp::create(b, loc, shapedLike(bits.getType(), elt),
                                  narrow);
}

Value blockScaleValue(OpBuilder &b, Location loc, Value stored) {
  if (getElementTypeOrSelf(stored.getType()).isF32())
    return stored;
  return num::scaleValue(b, loc, fromSmallFloat(b, loc, stored));
}

/// Values of a small float type (scalar or vector) as i32 code bits.
Value fromSmallFloat(OpBuilder &b, Location loc, Value v) {
  Type elt = getElementTypeOrSelf(v.getType());
  Type intTy = shapedLike(v.getType(),
                          b.getIntegerType(elt.getIntOrFloatBitWidth()));
  Value narrow = arith::BitcastOp::create(b, loc, intTy, v);
  return arith::ExtUIOp::create(b, loc,
                                shapedLike(v.getType(), b.getI32Type()),
                                narrow);
}

/// Widens f16/bf16 to f32 (exact); f32 stays. bf16 through num::bf16ToF32.
Value toF32(OpBuilder &b, Location loc, Value v) {
  Type elt = getElementTypeOrSelf(v.getType());
  if (elt.isF32())
    return v;
  if (elt.isBF16())
    return num::bf16ToF32(b, loc, v);
  return arith::ExtFOp::create(b, loc, shapedLike(v.getType(), b.getF32Type()),
                               v);
}

/// Rounds f32 to `elt` (nearest even; a no-op for f32). bf16 is rounded
/// with integer IR (see num::bf16BitsOf).
Value fromF32(OpBuilder &b, Location loc, Value v, Type elt) {
  if (elt.isF32())
    return v;
  if (elt.isBF16()) {
    Value bits = arith::TruncIOp::create(
        b, loc, shapedLike(v.getType(), b.getI16Type()),
        num::bf16BitsOf(b, loc, v));
    return arith::BitcastOp::create(b, loc, shapedLike(v.getType(), elt), bits);
  }
  return arith::TruncFOp::create(b, loc, shapedLike(v.getType(), elt), v);
}

/// The tensor index of the scale of block `blk` of the line at `ivs` (the
/// loop indices of the data, the axis entry ignored), per layout.
SmallVector<Value> scaleIndex(OpBuilder &b, Location loc, ValueRange ivs,
                              int64_t axis, Value blk, Value numBlocks,
                              dialect::ScaleLayout layout) {
  int64_t rank = ivs.size();
  SmallVector<Value> index(ivs.begin(), ivs.end());
  auto ix = [&](Value v) { return ::mxq::IndexExpr(b, loc, v); };
  switch (layout) {
  case dialect::ScaleLayout::linear:
    index[axis] = blk;
    return index;
  case dialect::ScaleLayout::pairs: {
    auto [pair, slot] = ::mxq::pairSlotOf(ix(blk));
    index[axis] = pair;
    index.push_back(slot);
    return index;
  }
  case dialect::ScaleLayout::swizzle_32_4_4: {
    int64_t rowDim = axis == rank - 1 ? rank - 2 : rank - 1;
    Value tilesPerBand = arith::CeilDivUIOp::create(
        b, loc, numBlocks, indexConst(b, loc, ::mxq::kSwizzleTileCols));
    SmallVector<Value> result(ivs.take_front(rank - 2));
    result.push_back(
        ::mxq::swizzleOffsetOf(ix(ivs[rowDim]), ix(blk), ix(tilesPerBand)));
    return result;
  }
  }
  llvm_unreachable("unknown layout");
}

/// Marks the loops of a block nest as free of dependences between
/// iterations (each writes its own codes and scale bytes), so that a target
/// can run them in parallel (mxq-parallelize-loops).
void markParallel(scf::LoopNest &nest, Type codes, int64_t axis,
                  int64_t rank) {
  bool sharedBytes =
      codes && isa<Float4E2M1FNType>(codes) && axis != rank - 1;
  for (auto [d, loop] : llvm::enumerate(nest.loops))
    loop->setAttr(sharedBytes && int64_t(d) == rank - 1
                      ? ::mxq::kParallelPairsAttr
                      : ::mxq::kParallelLoopAttr,
                  UnitAttr::get(loop.getContext()));
}

/// Loop bounds over the data of `source` with `axis` split into blocks.
void blockLoopBounds(OpBuilder &b, Location loc, Value source, int64_t axis,
                     int64_t block, SmallVector<Value> &lbs,
                     SmallVector<Value> &ubs, SmallVector<Value> &steps) {
  int64_t rank = cast<RankedTensorType>(source.getType()).getRank();
  for (int64_t d = 0; d < rank; ++d) {
    Value size = tensor::DimOp::create(b, loc, source, d);
    if (d == axis)
      size = arith::CeilDivUIOp::create(b, loc, size, indexConst(b, loc, block));
    lbs.push_back(indexConst(b, loc, 0));
    ubs.push_back(size);
    steps.push_back(indexConst(b, loc, 1));
  }
}

/// Stores `lanes` values at static lane indices: no dynamic vector indexing
/// (which a GPU keeps in local memory) and no branches. `store(offset,
/// value)` stores the value of a lane at an offset into the block. In a
/// ragged block (`count` live lanes) lane k stores at min(k, count - 1) the
/// value of lane min(k, count - 1), kept in a running select, so the lanes
/// past the end rewrite the last element with its own value. Lanes keep the
/// order of a whole block, so that LLVM, sinking the stores of the two
/// versions together, merges values, never lane indices into a dynamic
/// extract.
void storeLanes(OpBuilder &b, Location loc, int64_t lanes, Value count,
                bool inBounds, function_ref<Value(int64_t)> valueOf,
                function_ref<void(Value, Value)> store) {
  Value last, keep;
  if (!inBounds)
    last = arith::SubIOp::create(b, loc, count, indexConst(b, loc, 1));
  for (int64_t lane = 0; lane < lanes; ++lane) {
    Value v = valueOf(lane);
    Value offset = indexConst(b, loc, lane);
    if (!inBounds) {
      Value live = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         offset, count);
      keep = lane == 0 ? v : arith::SelectOp::create(b, loc, live, v, keep);
      v = keep;
      offset = arith::MinUIOp::create(b, loc, offset, last);
    }
    store(offset, v);
  }
}

/// Loads `lanes` values at static lane indices (see storeLanes) with
/// `load(offset)`; in a ragged block lane k loads at min(k, count - 1) and
/// is replaced by `zero` past the end.
SmallVector<Value> loadLanes(OpBuilder &b, Location loc, int64_t lanes,
                             Value count, bool inBounds, Value zero,
                             function_ref<Value(Value)> load) {
  Value last;
  if (!inBounds)
    last = arith::SubIOp::create(b, loc, count, indexConst(b, loc, 1));
  SmallVector<Value> values;
  for (int64_t lane = 0; lane < lanes; ++lane) {
    Value offset = indexConst(b, loc, lane);
    if (!inBounds)
      offset = arith::MinUIOp::create(b, loc, offset, last);
    Value v = load(offset);
    if (!inBounds)
      v = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                indexConst(b, loc, lane), count),
          v, zero);
    values.push_back(v);
  }
  return values;
}

/// Whether the codes of a block of `elt` along `axis` are one vector
/// transfer: byte-sized codes always (masked where ragged); FP4 codes (two a
/// byte in memory, mxq-pack-fp4-memory) and FP6 codes (one a byte: every
/// target's pipeline stores a vector of i6 as bytes, mxq-byte-sized-memory)
/// along the last axis in a whole block.
static bool codesAsVector(Type elt, int64_t axis, int64_t rank,
                          bool inBounds) {
  if (elt.getIntOrFloatBitWidth() == 8)
    return true;
  return isa<Float4E2M1FNType, Float6E2M3FNType, Float6E3M2FNType>(elt) &&
         axis == rank - 1 && inBounds;
}

/// Writes the code vector `codes` (i32) of one block at `at` along `axis`:
/// one vector store where codesAsVector says so, otherwise code by code.
Value writeCodes(OpBuilder &b, Location loc, Value codes, Value dest,
                 ArrayRef<Value> at, int64_t axis, Value count,
                 bool inBounds) {
  auto destType = cast<RankedTensorType>(dest.getType());
  Type elt = destType.getElementType();
  int64_t rank = destType.getRank();
  if (codesAsVector(elt, axis, rank, inBounds)) {
    AffineMap map = AffineMap::get(rank, 0, b.getAffineDimExpr(axis));
    Value v = toSmallFloat(b, loc, codes, elt);
    return vector::TransferWriteOp::create(b, loc, v, dest, at, map,
                                           ArrayRef<bool>{inBounds})
        .getResult();
  }
  int64_t lanes = cast<VectorType>(codes.getType()).getNumElements();
  auto insertLane = [&](OpBuilder &nb, Location nloc, OpFoldResult lane,
                        Value into) {
    Value c = vector::ExtractOp::create(nb, nloc, codes, lane);
    SmallVector<Value> pos(at.begin(), at.end());
    Value laneValue = isa<Value>(lane)
                          ? cast<Value>(lane)
                          : indexConst(nb, nloc, *getConstantIntValue(lane));
    pos[axis] = arith::AddIOp::create(nb, nloc, at[axis], laneValue);
    return tensor::InsertOp::create(nb, nloc, toSmallFloat(nb, nloc, c, elt),
                                    into, pos)
        .getResult();
  };
  // A ragged block of FP4 codes along the last axis in a loop: each of its
  // stores becomes a read-modify-write of a packed byte
  // (mxq-pack-fp4-memory), whose 32 unrolled copies made two thirds of the
  // FP4 kernel's code and compile time; the one ragged block of a row is
  // not where the run time goes. Along another axis the lanes stay static:
  // there the loop's dynamic lane index put a GPU kernel's codes in local
  // memory (test/Target/NVVM/ptxas.test).
  bool packedRagged =
      !inBounds && isa<Float4E2M1FNType>(elt) && axis == rank - 1;
  if (lanes <= kUnrolledLanes && !packedRagged) {
    Value t = dest;
    storeLanes(
        b, loc, lanes, count, inBounds,
        [&](int64_t lane) {
          return vector::ExtractOp::create(b, loc, codes, lane).getResult();
        },
        [&](Value offset, Value c) {
          SmallVector<Value> pos(at.begin(), at.end());
          pos[axis] = arith::AddIOp::create(b, loc, at[axis], offset);
          t = tensor::InsertOp::create(b, loc, toSmallFloat(b, loc, c, elt), t,
                                       pos);
        });
    return t;
  }
  auto loop = scf::ForOp::create(
      b, loc, indexConst(b, loc, 0), count, indexConst(b, loc, 1),
      ValueRange{dest},
      [&](OpBuilder &nb, Location nloc, Value lane, ValueRange iter) {
        scf::YieldOp::create(nb, nloc, insertLane(nb, nloc, lane, iter[0]));
      });
  return loop.getResult(0);
}

/// Reads the codes of one block as a vector of i32 (see writeCodes).
Value readCodes(OpBuilder &b, Location loc, Value source, ArrayRef<Value> at,
                int64_t axis, int64_t block, Value count,
                bool inBounds) {
  auto type = cast<RankedTensorType>(source.getType());
  Type elt = type.getElementType();
  int64_t rank = type.getRank();
  VectorType i32Vec = VectorType::get({block}, b.getI32Type());
  if (codesAsVector(elt, axis, rank, inBounds)) {
    AffineMap map = AffineMap::get(rank, 0, b.getAffineDimExpr(axis));
    Value pad = toSmallFloat(b, loc, num::i32Const(b, loc, b.getI32Type(), 0),
                             elt);
    Value v = vector::TransferReadOp::create(
        b, loc, VectorType::get({block}, elt), source, at, pad, map,
        ArrayRef<bool>{inBounds});
    return fromSmallFloat(b, loc, v);
  }
  Value init = num::i32Const(b, loc, i32Vec, 0);
  auto laneCode = [&](OpBuilder &nb, Location nloc, Value lane) {
    SmallVector<Value> pos(at.begin(), at.end());
    pos[axis] = arith::AddIOp::create(nb, nloc, at[axis], lane);
    return fromSmallFloat(nb, nloc,
                          tensor::ExtractOp::create(nb, nloc, source, pos));
  };
  if (block <= kUnrolledLanes) {
    SmallVector<Value> lanes = loadLanes(
        b, loc, block, count, inBounds,
        num::i32Const(b, loc, b.getI32Type(), 0),
        [&](Value offset) { return laneCode(b, loc, offset); });
    return vector::FromElementsOp::create(b, loc, i32Vec, lanes);
  }
  auto loop = scf::ForOp::create(
      b, loc, indexConst(b, loc, 0), count, indexConst(b, loc, 1),
      ValueRange{init},
      [&](OpBuilder &nb, Location nloc, Value lane, ValueRange iter) {
        Value v = vector::InsertOp::create(nb, nloc, laneCode(nb, nloc, lane),
                                           iter[0],
                                           ArrayRef<OpFoldResult>{lane});
        scf::YieldOp::create(nb, nloc, v);
      });
  return loop.getResult(0);
}

/// Emits `body` twice under `scf.if (the block is whole)`: whole blocks use
/// unmasked vector accesses, the one ragged tail block masked ones.
SmallVector<Value>
splitOnWholeBlock(OpBuilder &b, Location loc, Value size, Value k0,
                  int64_t block,
                  function_ref<SmallVector<Value>(OpBuilder &, Location, bool)>
                      body) {
  Value end = arith::AddIOp::create(b, loc, k0, indexConst(b, loc, block));
  Value whole =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end, size);
  auto ifOp = scf::IfOp::create(
      b, loc, whole,
      [&](OpBuilder &tb, Location tl) {
        scf::YieldOp::create(tb, tl, body(tb, tl, true));
      },
      [&](OpBuilder &eb, Location el) {
        scf::YieldOp::create(eb, el, body(eb, el, false));
      });
  return SmallVector<Value>(ifOp.getResults());
}

/// Elements of the block that starts at `k0` on an axis of `size`.
Value blockCount(OpBuilder &b, Location loc, Value size, Value k0,
                 int64_t block) {
  Value left = arith::SubIOp::create(b, loc, size, k0);
  return arith::MinUIOp::create(b, loc, left, indexConst(b, loc, block));
}

Value chunksOf(OpBuilder &b, Location loc, Value size, Value k0,
               int64_t block, bool inBounds) {
  if (inBounds)
    return indexConst(b, loc, block / kChunk);
  return arith::CeilDivUIOp::create(b, loc, blockCount(b, loc, size, k0, block),
                                    indexConst(b, loc, kChunk));
}

/// 16-bit floats cross memory as i16 when they are not one contiguous
/// vector: LLVM 22's x86 backend carries a scalar bfloat in an f32 register
/// and rounds it back with a truncation that flushes subnormals, so no scalar
/// bf16 (or f16) value may exist between a load or store and its vector.
static bool travelsAsI16(Type elt) {
  return isa<FloatType>(elt) && elt.getIntOrFloatBitWidth() == 16;
}

/// Reads `lanes` elements of `source` along `axis` at `at` as a vector of
/// its element type, zeros past `count` (the live lanes; ignored when
/// `inBounds`). The last axis is one transfer; any other axis reads lane by
/// lane: static lanes up to kUnrolledLanes (a strided transfer becomes a
/// dynamically indexed vector, which a GPU keeps in local memory), a loop
/// beyond, 16-bit floats as i16 either way (see travelsAsI16).
Value readAlongAxis(OpBuilder &b, Location l, Value source,
                    ArrayRef<Value> at, int64_t axis, int64_t lanes,
                    Value count, bool inBounds) {
  auto type = cast<RankedTensorType>(source.getType());
  Type elt = type.getElementType();
  int64_t rank = type.getRank();
  Value zero = arith::ConstantOp::create(b, l, b.getZeroAttr(elt));
  bool asI16 = travelsAsI16(elt);
  if (axis == rank - 1 || (!asI16 && lanes > kUnrolledLanes))
    return vector::TransferReadOp::create(
        b, l, VectorType::get({lanes}, elt), source, at, zero,
        AffineMap::get(rank, 0, b.getAffineDimExpr(axis)),
        ArrayRef<bool>{inBounds});
  Type laneTy = asI16 ? Type(b.getI16Type()) : elt;
  VectorType laneVec = VectorType::get({lanes}, laneTy);
  auto lane = [&](OpBuilder &nb, Location nl, Value offset) -> Value {
    SmallVector<Value> pos(at.begin(), at.end());
    pos[axis] = arith::AddIOp::create(nb, nl, at[axis], offset);
    Value e = tensor::ExtractOp::create(nb, nl, source, pos);
    return asI16 ? arith::BitcastOp::create(nb, nl, laneTy, e).getResult() : e;
  };
  Value v;
  if (lanes <= kUnrolledLanes) {
    Value laneZero = arith::ConstantOp::create(b, l, b.getZeroAttr(laneTy));
    SmallVector<Value> values =
        loadLanes(b, l, lanes, count, inBounds, laneZero,
                  [&](Value offset) { return lane(b, l, offset); });
    v = vector::FromElementsOp::create(b, l, laneVec, values);
  } else {
    Value n = inBounds ? indexConst(b, l, lanes) : count;
    v = scf::ForOp::create(
            b, l, indexConst(b, l, 0), n, indexConst(b, l, 1),
            ValueRange{arith::ConstantOp::create(b, l, b.getZeroAttr(laneVec))
                           .getResult()},
            [&](OpBuilder &nb, Location nl, Value k, ValueRange iter) {
              Value next = vector::InsertOp::create(
                  nb, nl, lane(nb, nl, k), iter[0], ArrayRef<OpFoldResult>{k});
              scf::YieldOp::create(nb, nl, next);
            })
            .getResult(0);
  }
  if (asI16)
    v = arith::BitcastOp::create(b, l, VectorType::get({lanes}, elt), v);
  return v;
}

/// Writes the vector `v` into `dest` along `axis` at `at`, `count` live
/// lanes (ignored when `inBounds`); the counterpart of readAlongAxis.
Value writeAlongAxis(OpBuilder &b, Location l, Value v, Value dest,
                     ArrayRef<Value> at, int64_t axis, Value count,
                     bool inBounds) {
  auto type = cast<RankedTensorType>(dest.getType());
  Type elt = type.getElementType();
  int64_t rank = type.getRank();
  int64_t lanes = cast<VectorType>(v.getType()).getNumElements();
  bool asI16 = travelsAsI16(elt);
  if (axis == rank - 1 || (!asI16 && lanes > kUnrolledLanes))
    return vector::TransferWriteOp::create(
               b, l, v, dest, at,
               AffineMap::get(rank, 0, b.getAffineDimExpr(axis)),
               ArrayRef<bool>{inBounds})
        .getResult();
  if (asI16)
    v = arith::BitcastOp::create(
        b, l, VectorType::get({lanes}, b.getI16Type()), v);
  auto insert = [&](OpBuilder &nb, Location nl, Value offset, Value x,
                    Value into) -> Value {
    SmallVector<Value> pos(at.begin(), at.end());
    pos[axis] = arith::AddIOp::create(nb, nl, at[axis], offset);
    if (asI16)
      x = arith::BitcastOp::create(nb, nl, elt, x);
    return tensor::InsertOp::create(nb, nl, x, into, pos);
  };
  if (lanes <= kUnrolledLanes) {
    Value t = dest;
    storeLanes(
        b, l, lanes, count, inBounds,
        [&](int64_t k) {
          return vector::ExtractOp::create(b, l, v, k).getResult();
        },
        [&](Value offset, Value x) { t = insert(b, l, offset, x, t); });
    return t;
  }
  Value n = inBounds ? indexConst(b, l, lanes) : count;
  return scf::ForOp::create(
             b, l, indexConst(b, l, 0), n, indexConst(b, l, 1),
             ValueRange{dest},
             [&](OpBuilder &nb, Location nl, Value k, ValueRange iter) {
               Value x = vector::ExtractOp::create(nb, nl, v,
                                                   ArrayRef<OpFoldResult>{k});
               scf::YieldOp::create(nb, nl, insert(nb, nl, k, x, iter[0]));
             })
      .getResult(0);
}

void replaceWithResultTypes(PatternRewriter &rw, Operation *op,
                            ValueRange values) {
  SmallVector<Value> cast;
  for (auto [v, result] : llvm::zip(values, op->getResults()))
    cast.push_back(v.getType() == result.getType()
                       ? v
                       : tensor::CastOp::create(rw, op->getLoc(),
                                                result.getType(), v)
                             .getResult());
  rw.replaceOp(op, cast);
}

Value roundTo(OpBuilder &b, Location loc, Value v, Type elt) {
  return toF32(b, loc, fromF32(b, loc, v, elt));
}

Value saturateTo(OpBuilder &b, Location loc, Value v, Type elt) {
  // ref: saturateToSource. NaN to +0, then round; an infinite result (or
  // input) becomes the largest finite value of `elt` with its sign.
  Value zero = num::f32Const(b, loc, v.getType(), 0.0f);
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  Value r = roundTo(b, loc, arith::SelectOp::create(b, loc, isNaN, zero, v),
                    elt);
  float max = ::mxq::sourceMaxFinite(dialect::getSourceType(elt));
  Value bits = arith::BitcastOp::create(
      b, loc, shapedLike(v.getType(), b.getI32Type()), r);
  Value sign = arith::AndIOp::create(
      b, loc, bits, num::i32Const(b, loc, bits.getType(), 0x80000000));
  Value inf = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(b, loc, bits,
                            num::i32Const(b, loc, bits.getType(), 0x7FFFFFFF)),
      num::i32Const(b, loc, bits.getType(), 0x7F800000));
  Value signedMax = arith::BitcastOp::create(
      b, loc, v.getType(),
      arith::OrIOp::create(
          b, loc, sign,
          num::i32Const(b, loc, bits.getType(),
                        int64_t(llvm::bit_cast<uint32_t>(max)))));
  return arith::SelectOp::create(b, loc, inf, signedMax, r);
}

} // namespace mxq::loops
