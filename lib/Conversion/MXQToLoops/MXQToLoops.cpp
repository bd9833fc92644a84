//===- MXQToLoops.cpp - mxq ops to loops, vectors and exact numerics ------===//
//
// The target-independent expansion of mxq: every block becomes one vector
// (read along the quantization axis, masked at a ragged tail), every number
// is computed by the shared numerics library, and scales are stored straight
// into their layout (the offsets of mxq/Support/ScaleLayout.h, built as IR).
//
//===----------------------------------------------------------------------===//
#include "mxq/Conversion/Passes.h"
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Numerics/Numerics.h"
#include "mxq/Support/ScaleLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mxq {
#define GEN_PASS_DEF_CONVERTMXQTOLOOPS
#include "mxq/Conversion/Passes.h.inc"
} // namespace mxq

using namespace mlir;
namespace num = ::mxq::numerics;
namespace dialect = ::mlir::mxq;

namespace {

/// A lowering pattern that may use the target's native converts.
template <typename Op>
struct NumericsPattern : OpRewritePattern<Op> {
  NumericsPattern(MLIRContext *ctx,
                  std::shared_ptr<const num::NativeConverts> native,
                  PatternBenefit benefit = 1)
      : OpRewritePattern<Op>(ctx, benefit), nativeConverts(std::move(native)) {}
  const num::NativeConverts *native() const { return nativeConverts.get(); }

private:
  std::shared_ptr<const num::NativeConverts> nativeConverts;
};

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
  Value narrow = arith::TruncIOp::create(b, loc, intTy, bits);
  return arith::BitcastOp::create(b, loc, shapedLike(bits.getType(), elt),
                                  narrow);
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
  auto c = [&](int64_t v) { return indexConst(b, loc, v); };
  auto div = [&](Value x, int64_t d) {
    return arith::DivUIOp::create(b, loc, x, c(d)).getResult();
  };
  auto rem = [&](Value x, int64_t d) {
    return arith::RemUIOp::create(b, loc, x, c(d)).getResult();
  };
  auto mul = [&](Value x, Value y) {
    return arith::MulIOp::create(b, loc, x, y).getResult();
  };
  auto add = [&](Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y).getResult();
  };
  switch (layout) {
  case dialect::ScaleLayout::linear:
    index[axis] = blk;
    return index;
  case dialect::ScaleLayout::pairs:
    index[axis] = div(blk, 2);
    index.push_back(rem(blk, 2));
    return index;
  case dialect::ScaleLayout::swizzle_32_4_4: {
    // ::mxq::swizzleOffset, as IR.
    int64_t rowDim = axis == rank - 1 ? rank - 2 : rank - 1;
    Value row = ivs[rowDim];
    Value tilesPerBand = arith::CeilDivUIOp::create(
        b, loc, numBlocks, c(::mxq::kSwizzleTileCols));
    Value tile = add(mul(div(row, ::mxq::kSwizzleTileRows), tilesPerBand),
                     div(blk, ::mxq::kSwizzleTileCols));
    Value offset = add(
        add(mul(tile, c(::mxq::kSwizzleTileBytes)), mul(rem(row, 32), c(16))),
        add(mul(div(rem(row, 128), 32), c(4)), rem(blk, 4)));
    SmallVector<Value> result(ivs.take_front(rank - 2));
    result.push_back(offset);
    return result;
  }
  }
  llvm_unreachable("unknown layout");
}

/// Marks the loops of a block nest as free of dependences between
/// iterations (each writes its own codes and scale bytes), so that a target
/// can run them in parallel (mxq-parallelize-loops).
void markParallel(scf::LoopNest &nest) {
  for (scf::ForOp loop : nest.loops)
    loop->setAttr(::mxq::kParallelLoopAttr,
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

/// Blocks of at most this many lanes store sub-byte codes with static lane
/// indices.
constexpr int64_t kUnrolledLanes = 64;

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

/// Writes the code vector `codes` (i32) of one block at `at` along `axis`.
/// Byte-sized codes are one masked vector store; narrower ones (FP6, FP4) are
/// stored one by one, because LLVM packs vectors of i4/i6 in memory while
/// memrefs keep one element per byte.
Value writeCodes(OpBuilder &b, Location loc, Value codes, Value dest,
                 ArrayRef<Value> at, int64_t axis, Value count,
                 bool inBounds = false) {
  auto destType = cast<RankedTensorType>(dest.getType());
  Type elt = destType.getElementType();
  int64_t rank = destType.getRank();
  if (elt.getIntOrFloatBitWidth() == 8) {
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
  if (lanes <= kUnrolledLanes) {
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
                bool inBounds = false) {
  auto type = cast<RankedTensorType>(source.getType());
  Type elt = type.getElementType();
  int64_t rank = type.getRank();
  VectorType i32Vec = VectorType::get({block}, b.getI32Type());
  if (elt.getIntOrFloatBitWidth() == 8) {
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

struct QuantizeLowering : NumericsPattern<dialect::QuantizeOp> {
  using NumericsPattern::NumericsPattern;

  /// Blocks handled per iteration when the blocks are contiguous (along the
  /// last axis): their scales are computed as one vector.
  static constexpr int64_t kGroup = 4;

  LogicalResult matchAndRewrite(dialect::QuantizeOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value input = op.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    int64_t rank = inType.getRank(), axis = op.getAxis();
    int64_t block = op.getBlockSize();
    Type codeElt = op.getCodes().getType().getElementType();
    Type scaleElt = op.getScales().getType().getElementType();
    ::mxq::ElementFormat format = *dialect::getElementFormat(codeElt);
    auto algorithm = dialect::toSupport(op.getScaleAlgorithm());
    auto inf = dialect::toSupport(op.getInfPolicy());
    auto rounding = dialect::toSupport(op.getRounding());
    auto nanElement = dialect::toSupport(op.getNanElement());
    auto layout = op.getScaleLayout();

    ReifiedRankedShapedTypeDims dims;
    if (failed(resultSizes(op, rw, dims)))
      return failure();
    Value codes = tensor::EmptyOp::create(rw, loc, dims[0], codeElt);
    Value scales = tensor::EmptyOp::create(rw, loc, dims[1], scaleElt);
    Value pad = toSmallFloat(
        rw, loc, num::i32Const(rw, loc, rw.getI32Type(), ::mxq::kScalePad),
        scaleElt);
    scales = linalg::FillOp::create(rw, loc, ValueRange{pad}, ValueRange{scales})
                 .getResult(0);

    SmallVector<Value> lbs, ubs, steps;
    blockLoopBounds(rw, loc, input, axis, block, lbs, ubs, steps);
    Value size = tensor::DimOp::create(rw, loc, input, axis);
    Value numBlocks = ubs[axis];
    AffineMap map = AffineMap::get(rank, 0, rw.getAffineDimExpr(axis));

    // The codes and scale bytes (i32) of `group` consecutive blocks read as
    // one vector<group x block> at `at`.
    auto compute = [&](OpBuilder &b, Location l, ArrayRef<Value> at,
                       int64_t group, bool inBounds, Value &scaleBytes) -> Value {
      // A block across rows reads lane by lane (see readAlongAxis).
      Value count;
      if (axis != rank - 1 && !inBounds)
        count = blockCount(b, l, size, at[axis], block);
      Value v = readAlongAxis(b, l, input, at, axis, group * block, count,
                              inBounds);
      Value x = toF32(b, l, v);
      if (group == 1) {
        Value absBits = arith::AndIOp::create(
            b, l,
            arith::BitcastOp::create(
                b, l, VectorType::get({block}, b.getI32Type()), x),
            num::i32Const(b, l, x.getType(), 0x7FFFFFFF));
        Value amax = arith::BitcastOp::create(
            b, l, b.getF32Type(),
            vector::ReductionOp::create(b, l, vector::CombiningKind::MAXUI,
                                        absBits));
        Value sByte = num::scaleByte(b, l, amax, algorithm, inf, format, native());
        scaleBytes = vector::BroadcastOp::create(
            b, l, VectorType::get({1}, b.getI32Type()), sByte);
        Value r = vector::BroadcastOp::create(b, l, x.getType(),
                                              num::scaleMultiplier(b, l, sByte));
        return num::encodeElement(b, l, arith::MulFOp::create(b, l, x, r),
                                  format, rounding, nanElement, native());
      }
      VectorType tile = VectorType::get({group, block}, b.getF32Type());
      VectorType tileI32 = VectorType::get({group, block}, b.getI32Type());
      x = vector::ShapeCastOp::create(b, l, tile, x);
      // amax: |x| as bits orders like |x| as floats and every NaN pattern is
      // above +Inf, so an unsigned integer maximum is the NaN-propagating
      // float maximum, exactly, and cheap (the tail reads as 0).
      Value absBits = arith::AndIOp::create(
          b, l, arith::BitcastOp::create(b, l, tileI32, x),
          num::i32Const(b, l, tileI32, 0x7FFFFFFF));
      Value amaxBits = vector::MultiDimReductionOp::create(
          b, l, absBits,
          num::i32Const(b, l, VectorType::get({group}, b.getI32Type()), 0),
          ArrayRef<bool>{false, true}, vector::CombiningKind::MAXUI);
      Value amax = arith::BitcastOp::create(
          b, l, VectorType::get({group}, b.getF32Type()), amaxBits);
      scaleBytes = num::scaleByte(b, l, amax, algorithm, inf, format, native());
      Value r = num::scaleMultiplier(b, l, scaleBytes);
      // r[g] along each row of the tile.
      Value rows = vector::BroadcastOp::create(
          b, l, tile, num::f32Const(b, l, b.getF32Type(), 0.0f));
      for (int64_t g = 0; g < group; ++g) {
        Value rg = vector::ExtractOp::create(b, l, r, g);
        rows = vector::InsertOp::create(
            b, l,
            vector::BroadcastOp::create(
                b, l, VectorType::get({block}, b.getF32Type()), rg),
            rows, g);
      }
      Value code = num::encodeElement(b, l, arith::MulFOp::create(b, l, x, rows),
                                      format, rounding, nanElement, native());
      return vector::ShapeCastOp::create(
                 b, l, VectorType::get({group * block}, b.getI32Type()), code)
          .getResult();
    };

    // One block (any axis, any layout), masked when it is the ragged tail.
    auto oneBlock = [&](OpBuilder &b, Location l, ValueRange ivs, Value blk,
                        Value codesT, Value scalesT) -> SmallVector<Value> {
      Value k0 = arith::MulIOp::create(b, l, blk, indexConst(b, l, block));
      SmallVector<Value> at(ivs.begin(), ivs.end());
      at[axis] = k0;
      auto emit = [&](OpBuilder &b, Location l,
                      bool inBounds) -> SmallVector<Value> {
        Value s;
        Value code = compute(b, l, at, 1, inBounds, s);
        Value count = blockCount(b, l, size, k0, block);
        Value newCodes =
            writeCodes(b, l, code, codesT, at, axis, count, inBounds);
        SmallVector<Value> pos(ivs.begin(), ivs.end());
        SmallVector<Value> sIdx =
            scaleIndex(b, l, pos, axis, blk, numBlocks, layout);
        Value byte = vector::ExtractOp::create(b, l, s, 0);
        Value newScales = tensor::InsertOp::create(
            b, l, toSmallFloat(b, l, byte, scaleElt), scalesT, sIdx);
        return {newCodes, newScales};
      };
      return splitOnWholeBlock(b, l, size, k0, block, emit);
    };

    bool grouped = axis == rank - 1 && codeElt.getIntOrFloatBitWidth() == 8;
    if (grouped)
      ubs[axis] = arith::CeilDivUIOp::create(rw, loc, numBlocks,
                                             indexConst(rw, loc, kGroup));
    scf::LoopNest nest = scf::buildLoopNest(
        rw, loc, lbs, ubs, steps, ValueRange{codes, scales},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iters) -> scf::ValueVector {
          if (!grouped)
            return oneBlock(b, l, ivs, ivs[axis], iters[0], iters[1]);
          // kGroup whole blocks at once; otherwise (the end of the line)
          // block by block.
          Value b0 = arith::MulIOp::create(b, l, ivs[axis],
                                           indexConst(b, l, kGroup));
          Value k0 = arith::MulIOp::create(b, l, b0, indexConst(b, l, block));
          Value end = arith::AddIOp::create(
              b, l, k0, indexConst(b, l, kGroup * block));
          Value whole = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ule,
                                              end, size);
          auto ifOp = scf::IfOp::create(
              b, l, whole,
              [&](OpBuilder &tb, Location tl) {
                SmallVector<Value> at(ivs.begin(), ivs.end());
                at[axis] = k0;
                Value s;
                Value code = compute(tb, tl, at, kGroup, true, s);
                Value newCodes = writeCodes(tb, tl, code, iters[0], at, axis,
                                            Value(), true);
                Value newScales = iters[1];
                if (layout == dialect::ScaleLayout::linear) {
                  SmallVector<Value> sAt(ivs.begin(), ivs.end());
                  sAt[axis] = b0;
                  newScales = vector::TransferWriteOp::create(
                                  tb, tl, toSmallFloat(tb, tl, s, scaleElt),
                                  newScales, sAt, map, ArrayRef<bool>{true})
                                  .getResult();
                } else {
                  for (int64_t g = 0; g < kGroup; ++g) {
                    Value blk = arith::AddIOp::create(tb, tl, b0,
                                                      indexConst(tb, tl, g));
                    SmallVector<Value> sIdx =
                        scaleIndex(tb, tl, ivs, axis, blk, numBlocks, layout);
                    Value byte = vector::ExtractOp::create(tb, tl, s, g);
                    newScales = tensor::InsertOp::create(
                        tb, tl, toSmallFloat(tb, tl, byte, scaleElt),
                        newScales, sIdx);
                  }
                }
                scf::YieldOp::create(tb, tl, ValueRange{newCodes, newScales});
              },
              [&](OpBuilder &eb, Location el) {
                Value left = arith::SubIOp::create(eb, el, numBlocks, b0);
                Value count = arith::MinUIOp::create(
                    eb, el, left, indexConst(eb, el, kGroup));
                auto loop = scf::ForOp::create(
                    eb, el, indexConst(eb, el, 0), count,
                    indexConst(eb, el, 1), ValueRange{iters[0], iters[1]},
                    [&](OpBuilder &lb, Location ll, Value g, ValueRange it) {
                      Value blk = arith::AddIOp::create(lb, ll, b0, g);
                      scf::YieldOp::create(
                          lb, ll, oneBlock(lb, ll, ivs, blk, it[0], it[1]));
                    });
                scf::YieldOp::create(eb, el, loop.getResults());
              });
          return SmallVector<Value>(ifOp.getResults());
        });
    markParallel(nest);
    rw.replaceOp(op, nest.results);
    return success();
  }
};

struct DequantizeLowering : OpRewritePattern<dialect::DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(dialect::DequantizeOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value codes = op.getCodes(), scales = op.getScales();
    auto codesType = op.getCodes().getType();
    int64_t axis = op.getAxis();
    int64_t block = op.getBlockSize();
    Type resElt = op.getResult().getType().getElementType();
    ::mxq::ElementFormat format =
        *dialect::getElementFormat(codesType.getElementType());

    ReifiedRankedShapedTypeDims dims;
    if (failed(resultSizes(op, rw, dims)))
      return failure();
    Value result = tensor::EmptyOp::create(rw, loc, dims[0], resElt);
    SmallVector<Value> lbs, ubs, steps;
    blockLoopBounds(rw, loc, codes, axis, block, lbs, ubs, steps);
    Value size = tensor::DimOp::create(rw, loc, codes, axis);
    Value numBlocks = ubs[axis];

    scf::LoopNest nest = scf::buildLoopNest(
        rw, loc, lbs, ubs, steps, ValueRange{result},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iters) -> scf::ValueVector {
          Value blk = ivs[axis];
          Value k0 = arith::MulIOp::create(b, l, blk, indexConst(b, l, block));
          SmallVector<Value> at(ivs.begin(), ivs.end());
          at[axis] = k0;
          Value count = blockCount(b, l, size, k0, block);
          SmallVector<Value> sIdx = scaleIndex(b, l, ivs, axis, blk, numBlocks,
                                               op.getScaleLayout());
          Value s = fromSmallFloat(
              b, l, tensor::ExtractOp::create(b, l, scales, sIdx));
          // Whole blocks unmasked, the ragged tail masked.
          auto emit = [&](OpBuilder &b, Location l,
                          bool inBounds) -> SmallVector<Value> {
            Value code =
                readCodes(b, l, codes, at, axis, block, count, inBounds);
            Value value = num::decodeElement(b, l, code, format);
            Value scale = vector::BroadcastOp::create(
                b, l, value.getType(), num::scaleValue(b, l, s));
            Value y = num::canonicalizeNaN(
                b, l, arith::MulFOp::create(b, l, value, scale));
            Value out = fromF32(b, l, y, resElt);
            return {writeAlongAxis(b, l, out, iters[0], at, axis, count,
                                   inBounds)};
          };
          return splitOnWholeBlock(b, l, size, k0, block, emit);
        });
    markParallel(nest);
    rw.replaceOp(op, nest.results);
    return success();
  }
};

/// convert_scale_layout: one byte per block, from its place in one layout to
/// its place in the other (the layout offsets of scaleIndex).
struct ConvertScaleLayoutLowering
    : OpRewritePattern<dialect::ConvertScaleLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(dialect::ConvertScaleLayoutOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value codes = op.getCodes(), scales = op.getScales();
    int64_t axis = op.getAxis(), block = op.getBlockSize();
    Type scaleElt = op.getResult().getType().getElementType();
    ReifiedRankedShapedTypeDims dims;
    if (failed(resultSizes(op, rw, dims)))
      return failure();
    Value pad = toSmallFloat(
        rw, loc, num::i32Const(rw, loc, rw.getI32Type(), ::mxq::kScalePad),
        scaleElt);
    Value result = linalg::FillOp::create(
                       rw, loc, ValueRange{pad},
                       ValueRange{tensor::EmptyOp::create(rw, loc, dims[0],
                                                          scaleElt)})
                       .getResult(0);
    SmallVector<Value> lbs, ubs, steps;
    blockLoopBounds(rw, loc, codes, axis, block, lbs, ubs, steps);
    Value numBlocks = ubs[axis];
    scf::LoopNest nest = scf::buildLoopNest(
        rw, loc, lbs, ubs, steps, ValueRange{result},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iters) -> scf::ValueVector {
          Value blk = ivs[axis];
          Value byte = tensor::ExtractOp::create(
              b, l, scales,
              scaleIndex(b, l, ivs, axis, blk, numBlocks, op.getFrom()));
          return {tensor::InsertOp::create(
              b, l, byte, iters[0],
              scaleIndex(b, l, ivs, axis, blk, numBlocks, op.getTo()))};
        });
    markParallel(nest);
    rw.replaceOp(op, nest.results);
    return success();
  }
};

/// dual_quantize with byte-sized codes, reading the input once: each 32 x 32
/// tile is one 2-D vector; its rows are the row-wise blocks, its columns the
/// column-wise blocks (reduced across the other dimension, so no transpose of
/// the input is needed); only the column-wise code tile is transposed, as
/// bytes, to land in the [K, M] codes.
struct DualQuantizeTiled : NumericsPattern<dialect::DualQuantizeOp> {
  DualQuantizeTiled(MLIRContext *ctx,
                    std::shared_ptr<const num::NativeConverts> native)
      : NumericsPattern(ctx, std::move(native), /*benefit=*/2) {}

  LogicalResult matchAndRewrite(dialect::DualQuantizeOp op,
                                PatternRewriter &rw) const override {
    Type codeElt = op.getCodes0().getType().getElementType();
    if (codeElt.getIntOrFloatBitWidth() != 8)
      return rw.notifyMatchFailure(op, "sub-byte codes use the two-pass form");
    constexpr int64_t T = 32; // the MX block, and the tile edge
    Location loc = op.getLoc();
    Value input = op.getInput();
    auto inType = op.getInput().getType();
    int64_t rank = inType.getRank();
    Type scaleElt = op.getScales0().getType().getElementType();
    ::mxq::ElementFormat format = *dialect::getElementFormat(codeElt);
    auto algorithm = dialect::toSupport(op.getScaleAlgorithm());
    auto inf = dialect::toSupport(op.getInfPolicy());
    auto rounding = dialect::toSupport(op.getRounding());
    auto nanElement = dialect::toSupport(op.getNanElement());

    ReifiedRankedShapedTypeDims dims;
    if (failed(resultSizes(op, rw, dims)))
      return failure();
    Value pad = toSmallFloat(
        rw, loc, num::i32Const(rw, loc, rw.getI32Type(), ::mxq::kScalePad),
        scaleElt);
    auto filled = [&](ArrayRef<OpFoldResult> sizes) {
      Value e = tensor::EmptyOp::create(rw, loc, sizes, scaleElt);
      return linalg::FillOp::create(rw, loc, ValueRange{pad}, ValueRange{e})
          .getResult(0);
    };
    Value codes0 = tensor::EmptyOp::create(rw, loc, dims[0], codeElt);
    Value scales0 = filled(dims[1]);
    Value codes1 = tensor::EmptyOp::create(rw, loc, dims[2], codeElt);
    Value scales1 = filled(dims[3]);

    SmallVector<Value> lbs, ubs, steps;
    for (int64_t d = 0; d < rank; ++d) {
      Value size = tensor::DimOp::create(rw, loc, input, d);
      if (d >= rank - 2)
        size = arith::CeilDivUIOp::create(rw, loc, size, indexConst(rw, loc, T));
      lbs.push_back(indexConst(rw, loc, 0));
      ubs.push_back(size);
      steps.push_back(indexConst(rw, loc, 1));
    }
    Value m = tensor::DimOp::create(rw, loc, input, rank - 2);
    Value k = tensor::DimOp::create(rw, loc, input, rank - 1);
    Value rowBlocks = ubs[rank - 1], colBlocks = ubs[rank - 2];
    VectorType tileIn = VectorType::get({T, T}, inType.getElementType());
    VectorType tileI32 = VectorType::get({T, T}, rw.getI32Type());
    VectorType lineI32 = VectorType::get({T}, rw.getI32Type());

    scf::LoopNest nest = scf::buildLoopNest(
        rw, loc, lbs, ubs, steps, ValueRange{codes0, scales0, codes1, scales1},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iters) -> scf::ValueVector {
          Value ti = ivs[rank - 2], tj = ivs[rank - 1];
          Value i0 = arith::MulIOp::create(b, l, ti, indexConst(b, l, T));
          Value j0 = arith::MulIOp::create(b, l, tj, indexConst(b, l, T));
          SmallVector<Value> at(ivs.begin(), ivs.end());
          at[rank - 2] = i0;
          at[rank - 1] = j0;
          Value rows = blockCount(b, l, m, i0, T);
          Value cols = blockCount(b, l, k, j0, T);
          // A whole tile is read and written unmasked; a ragged one masked.
          auto emit = [&](OpBuilder &b, Location l,
                          bool inBounds) -> SmallVector<Value> {
          Value zero = arith::ConstantOp::create(
              b, l, b.getFloatAttr(inType.getElementType(), 0.0));
          AffineMap minor2 =
              AffineMap::getMinorIdentityMap(rank, 2, b.getContext());
          Value tile = vector::TransferReadOp::create(
              b, l, tileIn, input, at, zero, minor2,
              ArrayRef<bool>{inBounds, inBounds});
          Value x = toF32(b, l, tile);
          Value absBits = arith::AndIOp::create(
              b, l, arith::BitcastOp::create(b, l, tileI32, x),
              num::i32Const(b, l, tileI32, 0x7FFFFFFF));
          Value zeros = num::i32Const(b, l, lineI32, 0);

          // One orientation: amax over `dim`, scales, codes.
          auto quantize = [&](int64_t dim, Value &s) {
            SmallVector<bool> mask = {dim == 0, dim == 1};
            Value amaxBits = vector::MultiDimReductionOp::create(
                b, l, absBits, zeros, mask, vector::CombiningKind::MAXUI);
            Value amax = arith::BitcastOp::create(
                b, l, VectorType::get({T}, b.getF32Type()), amaxBits);
            s = num::scaleByte(b, l, amax, algorithm, inf, format, native());
            Value r = vector::BroadcastOp::create(
                b, l, x.getType(), num::scaleMultiplier(b, l, s));
            if (dim == 1) // row scales: r[i][j] = scale of row i
              r = vector::TransposeOp::create(b, l, r, ArrayRef<int64_t>{1, 0});
            Value y = arith::MulFOp::create(b, l, x, r);
            return num::encodeElement(b, l, y, format, rounding, nanElement, native());
          };
          // The scales of `count` lines starting at `first`, at their
          // swizzled offsets: static lanes (no dynamic vector indexing, which
          // a GPU spills); in a ragged tile lanes past the end rewrite the
          // last line's byte (see storeLanes).
          auto storeScales = [&](Value scales, Value s, Value first,
                                 Value count, int64_t rowDim, int64_t axis,
                                 Value blk, Value numBlocks) {
            storeLanes(
                b, l, T, count, inBounds,
                [&](int64_t lane) {
                  return vector::ExtractOp::create(b, l, s, lane).getResult();
                },
                [&](Value offset, Value byte) {
                  SmallVector<Value> pos(at);
                  pos[rowDim] = arith::AddIOp::create(b, l, first, offset);
                  SmallVector<Value> idx =
                      scaleIndex(b, l, pos, axis, blk, numBlocks,
                                 dialect::ScaleLayout::swizzle_32_4_4);
                  scales = tensor::InsertOp::create(
                      b, l, toSmallFloat(b, l, byte, scaleElt), scales, idx);
                });
            return scales;
          };

          Value sRow, sCol;
          Value rowCodes = toSmallFloat(b, l, quantize(1, sRow), codeElt);
          Value colBytes = arith::TruncIOp::create(
              b, l, VectorType::get({T, T}, b.getI8Type()), quantize(0, sCol));
          Value colCodes = arith::BitcastOp::create(
              b, l, VectorType::get({T, T}, codeElt),
              vector::TransposeOp::create(b, l, colBytes,
                                          ArrayRef<int64_t>{1, 0}));
          Value c0 = vector::TransferWriteOp::create(
                         b, l, rowCodes, iters[0], at, minor2,
                         ArrayRef<bool>{inBounds, inBounds})
                         .getResult();
          SmallVector<Value> atT(at);
          std::swap(atT[rank - 1], atT[rank - 2]);
          Value c1 = vector::TransferWriteOp::create(
                         b, l, colCodes, iters[2], atT, minor2,
                         ArrayRef<bool>{inBounds, inBounds})
                         .getResult();
          Value s0 = storeScales(iters[1], sRow, i0, rows, rank - 2, rank - 1,
                                 tj, rowBlocks);
          Value s1 = storeScales(iters[3], sCol, j0, cols, rank - 1, rank - 2,
                                 ti, colBlocks);
          return {c0, s0, c1, s1};
          };
          Value whole = arith::AndIOp::create(
              b, l,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, rows,
                                    indexConst(b, l, T)),
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, cols,
                                    indexConst(b, l, T)));
          auto ifOp = scf::IfOp::create(
              b, l, whole,
              [&](OpBuilder &tb, Location tl) {
                scf::YieldOp::create(tb, tl, emit(tb, tl, true));
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, emit(eb, el, false));
              });
          return scf::ValueVector(ifOp.getResults().begin(), ifOp.getResults().end());
        });
    markParallel(nest);
    rw.replaceOp(op, nest.results);
    return success();
  }
};

/// dual_quantize = quantize along the last axis, and quantize along the
/// second-last axis with its codes transposed (both swizzled).
struct DualQuantizeLowering : NumericsPattern<dialect::DualQuantizeOp> {
  using NumericsPattern::NumericsPattern;

  LogicalResult matchAndRewrite(dialect::DualQuantizeOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value input = op.getInput();
    int64_t rank = op.getInput().getType().getRank();
    auto codes1Type = op.getCodes1().getType();
    SmallVector<int64_t> colShape(codes1Type.getShape());
    std::swap(colShape[rank - 1], colShape[rank - 2]);
    auto colCodesType =
        RankedTensorType::get(colShape, codes1Type.getElementType());
    auto makeQuantize = [&](int64_t axis, Type codesType, Type scalesType) {
      return dialect::QuantizeOp::create(
          rw, loc, codesType, scalesType, input, axis, 32,
          op.getScaleAlgorithm(), op.getInfPolicy(), op.getRounding(),
          op.getNanElement(), dialect::ScaleLayout::swizzle_32_4_4);
    };
    auto rows = makeQuantize(rank - 1, op.getCodes0().getType(),
                             op.getScales0().getType());
    auto cols =
        makeQuantize(rank - 2, colCodesType, op.getScales1().getType());
    ReifiedRankedShapedTypeDims dims;
    if (failed(resultSizes(op, rw, dims)))
      return failure();
    Value init = tensor::EmptyOp::create(rw, loc, dims[2],
                                         codes1Type.getElementType());
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rank; ++d)
      perm.push_back(d);
    std::swap(perm[rank - 1], perm[rank - 2]);
    Value transposed =
        linalg::TransposeOp::create(rw, loc, cols.getCodes(), init, perm)
            .getResult()[0];
    transposed = tensor::CastOp::create(rw, loc, codes1Type, transposed);
    rw.replaceOp(op, {rows.getCodes(), rows.getScales(), transposed,
                      cols.getScales()});
    return success();
  }
};

/// Reads `len` elements along the last axis of `source` at `at` as f32
/// (zeros past the end).
Value readLastAxisF32(OpBuilder &b, Location loc, Value source,
                      ArrayRef<Value> at, int64_t len, bool inBounds = false) {
  auto type = cast<RankedTensorType>(source.getType());
  Value zero =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(type.getElementType(), 0.0));
  Value v = vector::TransferReadOp::create(
      b, loc, VectorType::get({len}, type.getElementType()), source, at, zero,
      AffineMap::getMinorIdentityMap(type.getRank(), 1, b.getContext()),
      ArrayRef<bool>{inBounds});
  return toF32(b, loc, v);
}

/// f32 values rounded to `elt` and widened back (what a cast to the input
/// type does).
Value roundTo(OpBuilder &b, Location loc, Value v, Type elt) {
  return toF32(b, loc, fromF32(b, loc, v, elt));
}

/// CANN DynamicDualLevelMxQuant (ref: twoLevelQuantize): one loop nest over
/// the 512-blocks computes the fp32 level-0 scales, a second over the
/// 32-groups recomputes each group's temp from them and emits its E8M0 byte
/// and FP4 codes.
struct TwoLevelQuantizeLowering
    : NumericsPattern<dialect::TwoLevelQuantizeOp> {
  using NumericsPattern::NumericsPattern;

  LogicalResult matchAndRewrite(dialect::TwoLevelQuantizeOp op,
                                PatternRewriter &rw) const override {
    constexpr int64_t kL0 = ::mxq::kTwoLevelBlock0, kL1 = ::mxq::kTwoLevelBlock1;
    Location loc = op.getLoc();
    Value input = op.getInput(), smooth = op.getSmooth();
    auto inType = op.getInput().getType();
    Type elt = inType.getElementType();
    int64_t rank = inType.getRank(), last = rank - 1;
    Type codeElt = op.getY().getType().getElementType();
    Type scaleElt = op.getLevel1Scales().getType().getElementType();

    ReifiedRankedShapedTypeDims dims;
    if (failed(resultSizes(op, rw, dims)))
      return failure();
    Value codes = tensor::EmptyOp::create(rw, loc, dims[0], codeElt);
    Value level0 = tensor::EmptyOp::create(rw, loc, dims[1], rw.getF32Type());
    Value level1 = tensor::EmptyOp::create(rw, loc, dims[2], scaleElt);
    Value pad = toSmallFloat(
        rw, loc, num::i32Const(rw, loc, rw.getI32Type(), ::mxq::kScalePad),
        scaleElt);
    level1 = linalg::FillOp::create(rw, loc, ValueRange{pad}, ValueRange{level1})
                 .getResult(0);
    Value n = tensor::DimOp::create(rw, loc, input, last);

    // x (times smooth, rounded to the input type) for `len` elements at k0.
    auto smoothed = [&](OpBuilder &b, Location l, ValueRange ivs, Value k0,
                        int64_t len, bool inBounds = false) {
      SmallVector<Value> at(ivs.begin(), ivs.end());
      at[last] = k0;
      Value x = readLastAxisF32(b, l, input, at, len, inBounds);
      if (!smooth)
        return x;
      Value sm = readLastAxisF32(b, l, smooth, {k0}, len, inBounds);
      return roundTo(b, l, arith::MulFOp::create(b, l, x, sm), elt);
    };

    // Level 0.
    SmallVector<Value> lbs, ubs, steps;
    blockLoopBounds(rw, loc, input, last, kL0, lbs, ubs, steps);
    scf::LoopNest nest0 = scf::buildLoopNest(
        rw, loc, lbs, ubs, steps, ValueRange{level0},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iters) -> scf::ValueVector {
          Value k0 = arith::MulIOp::create(b, l, ivs[last], indexConst(b, l, kL0));
          // The maximum of the finite |x| (Inf and NaN do not take part),
          // as fp32 bits (they order like the values), over the block's
          // 32-element chunks: whole chunks unmasked, the ragged one masked.
          Type i32 = b.getI32Type();
          Type i32v = VectorType::get({kL1}, i32);
          auto chunkMax = [&](OpBuilder &cb, Location cl, Value kc,
                              bool inBounds) {
            Value x = smoothed(cb, cl, ivs, kc, kL1, inBounds);
            Value absBits = arith::AndIOp::create(
                cb, cl, arith::BitcastOp::create(cb, cl, i32v, x),
                num::i32Const(cb, cl, i32v, 0x7FFFFFFF));
            Value finite = arith::CmpIOp::create(
                cb, cl, arith::CmpIPredicate::ult, absBits,
                num::i32Const(cb, cl, i32v, 0x7F800000));
            absBits = arith::SelectOp::create(cb, cl, finite, absBits,
                                              num::i32Const(cb, cl, i32v, 0));
            return vector::ReductionOp::create(
                       cb, cl, vector::CombiningKind::MAXUI, absBits)
                .getResult();
          };
          auto chunks = scf::ForOp::create(
              b, l, indexConst(b, l, 0), indexConst(b, l, kL0 / kL1),
              indexConst(b, l, 1),
              ValueRange{num::i32Const(b, l, i32, 0)},
              [&](OpBuilder &fb, Location fl, Value c, ValueRange m) {
                Value kc = arith::AddIOp::create(
                    fb, fl, k0,
                    arith::MulIOp::create(fb, fl, c, indexConst(fb, fl, kL1)));
                Value live = arith::CmpIOp::create(
                    fb, fl, arith::CmpIPredicate::ult, kc, n);
                auto inside = scf::IfOp::create(
                    fb, fl, live,
                    [&](OpBuilder &tb, Location tl) {
                      SmallVector<Value> r = splitOnWholeBlock(
                          tb, tl, n, kc, kL1,
                          [&](OpBuilder &wb, Location wl, bool inBounds)
                              -> SmallVector<Value> {
                            return {arith::MaxUIOp::create(
                                wb, wl, m[0], chunkMax(wb, wl, kc, inBounds))};
                          });
                      scf::YieldOp::create(tb, tl, r);
                    },
                    [&](OpBuilder &eb, Location el) {
                      scf::YieldOp::create(eb, el, m[0]);
                    });
                scf::YieldOp::create(fb, fl, inside.getResults());
              });
          Value amax =
              arith::BitcastOp::create(b, l, b.getF32Type(), chunks.getResult(0));
          Value l0 = arith::MulFOp::create(
              b, l, amax, num::f32Const(b, l, amax.getType(), 1.0f / 6.0f));
          Value l0Bits = arith::BitcastOp::create(b, l, b.getI32Type(), l0);
          Value subnormal = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::ult, l0Bits,
              num::i32Const(b, l, b.getI32Type(), 0x00800000));
          l0 = arith::SelectOp::create(
              b, l, subnormal, num::f32Const(b, l, l0.getType(), 0.0f), l0);
          Value t = tensor::InsertOp::create(b, l, l0, iters[0], ivs);
          return {t};
        });
    markParallel(nest0);
    level0 = nest0.results[0];

    // Level 1.
    lbs.clear();
    ubs.clear();
    steps.clear();
    blockLoopBounds(rw, loc, input, last, kL1, lbs, ubs, steps);
    Value numGroups = ubs[last];
    scf::LoopNest nest1 = scf::buildLoopNest(
        rw, loc, lbs, ubs, steps, ValueRange{codes, level1},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iters) -> scf::ValueVector {
          Value g = ivs[last];
          Value k0 = arith::MulIOp::create(b, l, g, indexConst(b, l, kL1));
          // Whole groups unmasked, the ragged tail masked.
          auto emit = [&](OpBuilder &b, Location l,
                          bool inBounds) -> SmallVector<Value> {
          Value x = smoothed(b, l, ivs, k0, kL1, inBounds);
          SmallVector<Value> l0At(ivs.begin(), ivs.end());
          l0At[last] = arith::DivUIOp::create(b, l, g,
                                              indexConst(b, l, kL0 / kL1));
          Value l0 = vector::BroadcastOp::create(
              b, l, x.getType(), tensor::ExtractOp::create(b, l, level0, l0At));
          Value zeroV = num::f32Const(b, l, x.getType(), 0.0f);
          Value isZero = arith::CmpFOp::create(
              b, l, arith::CmpFPredicate::OEQ, x, zeroV);
          Value temp = arith::SelectOp::create(
              b, l, isZero, x,
              roundTo(b, l, arith::DivFOp::create(b, l, x, l0), elt));
          // The largest bf16 exponent field; Inf and NaN count as 0xFF.
          Type i32v = VectorType::get({kL1}, b.getI32Type());
          auto c = [&](int64_t v) { return num::i32Const(b, l, i32v, v); };
          Value absBits = arith::AndIOp::create(
              b, l, arith::BitcastOp::create(b, l, i32v, temp), c(0x7FFFFFFF));
          Value exps = arith::ShRUIOp::create(b, l, absBits, c(23));
          Value maxExp = vector::ReductionOp::create(
              b, l, vector::CombiningKind::MAXUI, exps);
          auto s = [&](int64_t v) {
            return num::i32Const(b, l, b.getI32Type(), v);
          };
          auto eq = [&](Value x, int64_t v) {
            return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x,
                                         s(v));
          };
          Value byte = arith::SubIOp::create(
              b, l, arith::MaxUIOp::create(b, l, maxExp, s(2)), s(2));
          byte = arith::SelectOp::create(b, l, eq(maxExp, 0xFF),
                                         s(::mxq::kScaleNaN), byte);
          Value mult = num::scaleMultiplier(b, l, byte);
          mult = arith::SelectOp::create(
              b, l, eq(maxExp, 0),
              num::f32Const(b, l, b.getF32Type(), 0.0f), mult);
          Value v = arith::MulFOp::create(
              b, l, temp, vector::BroadcastOp::create(b, l, temp.getType(), mult));
          if (elt.isBF16())
            v = roundTo(b, l, v, elt);
          Value code = num::encodeElement(
              b, l, v, ::mxq::ElementFormat::E2M1FN,
              dialect::toSupport(op.getRounding()),
              dialect::toSupport(op.getNanElement()), native());
          SmallVector<Value> at(ivs.begin(), ivs.end());
          at[last] = k0;
          Value newCodes = writeCodes(b, l, code, iters[0], at, last,
                                      blockCount(b, l, n, k0, kL1), inBounds);
          SmallVector<Value> sIdx = scaleIndex(b, l, ivs, last, g, numGroups,
                                               dialect::ScaleLayout::pairs);
          Value newScales = tensor::InsertOp::create(
              b, l, toSmallFloat(b, l, byte, scaleElt), iters[1], sIdx);
          return {newCodes, newScales};
          };
          return splitOnWholeBlock(b, l, n, k0, kL1, emit);
        });
    markParallel(nest1);
    rw.replaceOp(op, {nest1.results[0], level0, nest1.results[1]});
    return success();
  }
};

/// Maps of per-tensor (the constant 0) or per-channel (along `axis`)
/// parameters.
AffineMap paramMap(MLIRContext *ctx, int64_t rank, std::optional<int64_t> axis) {
  if (axis)
    return AffineMap::get(rank, 0, getAffineDimExpr(*axis, ctx));
  return AffineMap::get(rank, 0, getAffineConstantExpr(0, ctx));
}

/// Replaces the element-wise `op` (one result shaped like its `data`
/// operands) by a linalg.generic over `data` then `params` (per tensor or
/// per channel along `axis`) whose scalar body is `body`.
LogicalResult
replaceByElementwise(Operation *op, PatternRewriter &rw, ValueRange data,
                     ValueRange params, std::optional<int64_t> axis,
                     function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = type.getRank();
  ReifiedRankedShapedTypeDims dims;
  if (failed(resultSizes(op, rw, dims)))
    return failure();
  Value init = tensor::EmptyOp::create(rw, loc, dims[0], type.getElementType());
  AffineMap id = rw.getMultiDimIdentityMap(rank);
  AffineMap p = paramMap(rw.getContext(), rank, axis);
  SmallVector<AffineMap> maps(data.size(), id);
  maps.append(params.size(), p);
  maps.push_back(id);
  SmallVector<Value> inputs(data.begin(), data.end());
  inputs.append(params.begin(), params.end());
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rw, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iters,
      [&](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, body(b, l, args));
      });
  rw.replaceOp(op, generic.getResults());
  return success();
}

struct FakeQuantLowering : NumericsPattern<dialect::FakeQuantOp> {
  using NumericsPattern::NumericsPattern;

  LogicalResult matchAndRewrite(dialect::FakeQuantOp op,
                                PatternRewriter &rw) const override {
    Type elt = op.getInput().getType().getElementType();
    ::mxq::ElementFormat format = *dialect::getElementFormat(op.getFormat());
    float qmin = op.getQuantMin().convertToFloat();
    float qmax = op.getQuantMax().convertToFloat();
    return replaceByElementwise(
        op, rw, {op.getInput()}, {op.getStepSize(), op.getZeroPoint()},
        op.getAxis(), [&](OpBuilder &b, Location l, ValueRange args) {
          // ref: fakeQuant.
          Value x = toF32(b, l, args[0]), s = args[1], z = args[2];
          Value t = arith::AddFOp::create(
              b, l, arith::DivFOp::create(b, l, x, s), z);
          Value lo = num::f32Const(b, l, t.getType(), qmin);
          Value hi = num::f32Const(b, l, t.getType(), qmax);
          t = arith::SelectOp::create(
              b, l,
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, t, lo),
              lo, t);
          t = arith::SelectOp::create(
              b, l,
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, hi, t),
              hi, t);
          Value q = num::decodeElement(
              b, l,
              num::encodeElement(b, l, t, format, ::mxq::Rounding::RNE,
                                 ::mxq::NanElement::Max, native()),
              format);
          Value y = arith::MulFOp::create(
              b, l, arith::SubFOp::create(b, l, q, z), s);
          return fromF32(b, l, num::canonicalizeNaN(b, l, y), elt);
        });
  }
};

struct FakeQuantGradLowering : OpRewritePattern<dialect::FakeQuantGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(dialect::FakeQuantGradOp op,
                                PatternRewriter &rw) const override {
    Type elt = op.getInput().getType().getElementType();
    float qmin = op.getQuantMin().convertToFloat();
    float qmax = op.getQuantMax().convertToFloat();
    return replaceByElementwise(
        op, rw, {op.getGrad(), op.getInput()}, {op.getStepSize()},
        op.getAxis(), [&](OpBuilder &b, Location l, ValueRange args) {
          // ref: fakeQuantGrad.
          Value g = args[0], x = toF32(b, l, args[1]), s = args[2];
          Value lo = arith::MulFOp::create(
              b, l, num::f32Const(b, l, s.getType(), qmin), s);
          Value hi = arith::MulFOp::create(
              b, l, num::f32Const(b, l, s.getType(), qmax), s);
          Value in = arith::AndIOp::create(
              b, l,
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, x, lo),
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLE, x, hi));
          Value zero =
              arith::ConstantOp::create(b, l, b.getFloatAttr(elt, 0.0));
          return arith::SelectOp::create(b, l, in, g, zero).getResult();
        });
  }
};

struct ConvertMXQToLoops
    : ::mxq::impl::ConvertMXQToLoopsBase<ConvertMXQToLoops> {
  using ConvertMXQToLoopsBase::ConvertMXQToLoopsBase;
  void runOnOperation() override {
    if (failed(::mxq::convertMXQToLoops(getOperation(), nullptr, tileDual)))
      signalPassFailure();
  }
};

} // namespace

llvm::LogicalResult(::mxq::convertMXQToLoops)(
    Operation *root, std::shared_ptr<const numerics::NativeConverts> native,
    bool tileDual) {
  RewritePatternSet patterns(root->getContext());
  populateMXQToLoopsPatterns(patterns, std::move(native), tileDual);
  if (failed(applyPatternsGreedily(root, std::move(patterns))))
    return failure();
  WalkResult left = root->walk([](Operation *op) {
    if (isa<dialect::MXQDialect>(op->getDialect())) {
      op->emitOpError() << "has no lowering to loops yet";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(left.wasInterrupted());
}

void ::mxq::populateMXQToLoopsPatterns(
    RewritePatternSet &patterns,
    std::shared_ptr<const numerics::NativeConverts> native, bool tileDual) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<QuantizeLowering, DualQuantizeLowering,
               TwoLevelQuantizeLowering, FakeQuantLowering>(ctx, native);
  if (tileDual)
    patterns.add<DualQuantizeTiled>(ctx, native);
  patterns.add<DequantizeLowering, ConvertScaleLayoutLowering,
               FakeQuantGradLowering>(ctx);
}
