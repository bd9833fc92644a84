//===- DualQuantize.cpp - mxq.dual_quantize to loops ----------------------===//
//
// Row- and column-wise from one read of each 32 x 32 tile (byte-sized
// codes), or two quantizes and a transpose (what a GPU thread can hold).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::loops {
namespace {

/// The rows of the 2-D vector `v`.
SmallVector<Value> rowsOf(OpBuilder &b, Location l, Value v) {
  SmallVector<Value> rows;
  for (int64_t i = 0, e = cast<VectorType>(v.getType()).getDimSize(0); i < e;
       ++i)
    rows.push_back(vector::ExtractOp::create(b, l, v, i));
  return rows;
}

/// The 2-D vector of `type` whose rows are `rows`.
Value fromRows(OpBuilder &b, Location l, VectorType type, ValueRange rows) {
  Value v = arith::ConstantOp::create(b, l, type, b.getZeroAttr(type));
  for (auto [i, row] : llvm::enumerate(rows))
    v = vector::InsertOp::create(b, l, row, v, int64_t(i));
  return v;
}

/// The transpose of the square [n, n] vector `v` (n a power of two) as
/// log2(n) stages of shuffles of two rows each: stage h swaps, in every
/// 2h x 2h block, the top-right h x h block with the bottom-left one (the
/// stages commute; after all of them every element has crossed the
/// diagonal). No shuffle is wider than two rows: vector.transpose becomes
/// one shuffle of all n * n lanes, which LLVM's code generator took most of
/// the dual kernel's compile time to combine.
Value transposeByRows(OpBuilder &b, Location l, Value v) {
  auto type = cast<VectorType>(v.getType());
  int64_t n = type.getDimSize(0);
  SmallVector<Value> rows = rowsOf(b, l, v);
  for (int64_t h = n / 2; h >= 1; h /= 2) {
    SmallVector<int64_t> top, bottom;
    for (int64_t c = 0; c < n; ++c) {
      bool left = c % (2 * h) < h;
      top.push_back(left ? c : n + c - h);
      bottom.push_back(left ? c + h : n + c);
    }
    for (int64_t r = 0; r < n; ++r) {
      if (r % (2 * h) >= h)
        continue;
      Value a = rows[r], c = rows[r + h];
      rows[r] = vector::ShuffleOp::create(b, l, a, c, top);
      rows[r + h] = vector::ShuffleOp::create(b, l, a, c, bottom);
    }
  }
  return fromRows(b, l, type, rows);
}

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
    BlockPolicies policies = BlockPolicies::of(op, codeElt);

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
        size =
            arith::CeilDivUIOp::create(rw, loc, size, indexConst(rw, loc, T));
      lbs.push_back(indexConst(rw, loc, 0));
      ubs.push_back(size);
      steps.push_back(indexConst(rw, loc, 1));
    }
    Value m = tensor::DimOp::create(rw, loc, input, rank - 2);
    Value k = tensor::DimOp::create(rw, loc, input, rank - 1);
    Value rowBlocks = ubs[rank - 1], colBlocks = ubs[rank - 2];
    VectorType tileIn = VectorType::get({T, T}, inType.getElementType());

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
          // A whole tile is read and written unmasked; a ragged one masked,
          // its missing elements read as 0 (they change no amax). The
          // numerics between are emitted once for both: they are most of
          // the code, and LLVM's code generation time grows with it.
          Value whole = arith::AndIOp::create(
              b, l,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, rows,
                                    indexConst(b, l, T)),
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, cols,
                                    indexConst(b, l, T)));
          AffineMap minor2 =
              AffineMap::getMinorIdentityMap(rank, 2, b.getContext());
          auto read = [&](OpBuilder &rb, Location rl, bool inBounds) {
            Value zero = arith::ConstantOp::create(
                rb, rl, rb.getFloatAttr(inType.getElementType(), 0.0));
            Value tile = vector::TransferReadOp::create(
                rb, rl, tileIn, input, at, zero, minor2,
                ArrayRef<bool>{inBounds, inBounds});
            scf::YieldOp::create(rb, rl, tile);
          };
          Value tile =
              scf::IfOp::create(
                  b, l, whole,
                  [&](OpBuilder &tb, Location tl) { read(tb, tl, true); },
                  [&](OpBuilder &eb, Location el) { read(eb, el, false); })
                  .getResult(0);
          Value x = toF32(b, l, tile);

          // One orientation: amax over `dim`, scales, codes (the |x| bits
          // of both orientations are one computation after CSE).
          auto quantize = [&](int64_t dim, Value &s) {
            Value amax = num::blockAmax(b, l, x, {dim == 0, dim == 1});
            Value mult;
            std::tie(s, mult) =
                policies.scaleAndMultiplier(b, l, amax, native());
            Value r;
            if (dim == 0) {
              r = vector::BroadcastOp::create(b, l, x.getType(), mult);
            } else { // row scales: r[i][j] = scale of row i, a splat a row
              auto rowType = VectorType::get({T}, b.getF32Type());
              SmallVector<Value> splats;
              for (int64_t i = 0; i < T; ++i)
                splats.push_back(vector::BroadcastOp::create(
                    b, l, rowType, vector::ExtractOp::create(b, l, mult, i)));
              r = fromRows(b, l, cast<VectorType>(x.getType()), splats);
            }
            Value y = arith::MulFOp::create(b, l, x, r);
            return policies.encode(b, l, y, native());
          };
          Value sRow, sCol;
          Value rowCodes = toSmallFloat(b, l, quantize(1, sRow), codeElt);
          Value colBytes = arith::TruncIOp::create(
              b, l, VectorType::get({T, T}, b.getI8Type()), quantize(0, sCol));
          Value colCodes = arith::BitcastOp::create(
              b, l, VectorType::get({T, T}, codeElt),
              transposeByRows(b, l, colBytes));

          auto write = [&](OpBuilder &b, Location l,
                           bool inBounds) -> SmallVector<Value> {
            // The scales of `count` lines starting at `first`, at their
            // swizzled offsets: the tile's lines are one 32-row stripe of a
            // swizzle tile (`first` is a multiple of T), so line k's scale
            // lies kSwizzleRowBytes * k after line 0's. One vector.scatter
            // (masked to `count` lines in a ragged tile) rather than T
            // tensor.inserts, whose chains bufferization analyses in time
            // that grows with their length (a third of the MLIR pipeline).
            static_assert(T == ::mxq::kSwizzleStripeRows,
                          "a dual tile's lines are one swizzle stripe");
            auto storeScales = [&](Value scales, Value s, Value first,
                                   Value count, int64_t rowDim, int64_t axis,
                                   Value blk, Value numBlocks) {
              SmallVector<Value> pos(at);
              pos[rowDim] = first;
              SmallVector<Value> base =
                  scaleIndex(b, l, pos, axis, blk, numBlocks,
                             dialect::ScaleLayout::swizzle_32_4_4);
              SmallVector<int32_t> offsets;
              for (int64_t k = 0; k < T; ++k)
                offsets.push_back(int32_t(k * ::mxq::kSwizzleRowBytes));
              auto offsetType = VectorType::get({T}, b.getI32Type());
              Value lines = arith::ConstantOp::create(
                  b, l, offsetType, DenseElementsAttr::get(offsetType,
                                                           ArrayRef(offsets)));
              auto maskType = VectorType::get({T}, b.getI1Type());
              Value mask =
                  inBounds ? arith::ConstantOp::create(
                                 b, l, maskType,
                                 DenseElementsAttr::get(maskType, true))
                                 .getResult()
                           : vector::CreateMaskOp::create(b, l, maskType,
                                                          ValueRange{count})
                                 .getResult();
              return vector::ScatterOp::create(
                         b, l, scales.getType(), scales, base, lines, mask,
                         toSmallFloat(b, l, s, scaleElt))
                  .getResult();
            };
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
          auto ifOp = scf::IfOp::create(
              b, l, whole,
              [&](OpBuilder &tb, Location tl) {
                scf::YieldOp::create(tb, tl, write(tb, tl, true));
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, write(eb, el, false));
              });
          return scf::ValueVector(ifOp.getResults().begin(),
                                  ifOp.getResults().end());
        });
    markParallel(nest);
    replaceWithResultTypes(rw, op, nest.results);
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
          op.getNanElement(), dialect::ScaleLayout::swizzle_32_4_4,
          op.getUnderflow());
    };
    auto rows = makeQuantize(rank - 1, op.getCodes0().getType(),
                             op.getScales0().getType());
    auto cols = makeQuantize(rank - 2, colCodesType, op.getScales1().getType());
    ReifiedRankedShapedTypeDims dims;
    if (failed(resultSizes(op, rw, dims)))
      return failure();
    Value init =
        tensor::EmptyOp::create(rw, loc, dims[2], codes1Type.getElementType());
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rank; ++d)
      perm.push_back(d);
    std::swap(perm[rank - 1], perm[rank - 2]);
    // linalg.transpose wants input and init shapes to agree where known.
    auto initType = cast<RankedTensorType>(init.getType());
    SmallVector<int64_t> inShape(initType.getShape());
    std::swap(inShape[rank - 1], inShape[rank - 2]);
    Value colCodes = cols.getCodes();
    auto inType = RankedTensorType::get(inShape, initType.getElementType());
    if (colCodes.getType() != inType)
      colCodes = tensor::CastOp::create(rw, loc, inType, colCodes);
    Value transposed =
        linalg::TransposeOp::create(rw, loc, colCodes, init, perm)
            .getResult()[0];
    transposed = tensor::CastOp::create(rw, loc, codes1Type, transposed);
    replaceWithResultTypes(
        rw, op,
        {rows.getCodes(), rows.getScales(), transposed, cols.getScales()});
    return success();
  }
};

} // namespace

void populateDualQuantizeLowering(
    RewritePatternSet &patterns,
    std::shared_ptr<const num::NativeConverts> native, bool tiled) {
  patterns.add<DualQuantizeLowering>(patterns.getContext(), native);
  if (tiled)
    patterns.add<DualQuantizeTiled>(patterns.getContext(), native);
}

} // namespace mxq::loops
