//===- DualQuantize.cpp - mxq.dual_quantize to loops ----------------------===//
//
// Row- and column-wise a 32 x 32 tile at a time, its rows read from cache
// by three short loops (byte-sized codes), or two quantizes and a
// transpose (what a GPU thread can hold).
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

/// The transpose of the square [n, n] vector `v` of integers (n a power of
/// two) as log2(n) stages of shuffles of two rows each: stage h swaps, in
/// every 2h x 2h block, the top-right h x h block with the bottom-left one
/// (the stages commute; after all of them every element has crossed the
/// diagonal). A stage moves runs of h elements, so it shuffles them as
/// wider integers (up to i64: four lanes, not 32, for the first stage of a
/// 32 x 32 byte tile). No shuffle is wider than two rows: vector.transpose
/// becomes one shuffle of all n * n lanes, which LLVM's code generator took
/// most of the dual kernel's compile time to combine.
Value transposeByRows(OpBuilder &b, Location l, Value v) {
  auto type = cast<VectorType>(v.getType());
  int64_t n = type.getDimSize(0);
  unsigned bits = type.getElementTypeBitWidth();
  auto rowType = VectorType::get({n}, type.getElementType());
  SmallVector<Value> rows = rowsOf(b, l, v);
  for (int64_t h = n / 2; h >= 1; h /= 2) {
    unsigned unit = std::min<unsigned>(h * bits, 64);
    int64_t lanes = n * bits / unit, hu = h * bits / unit;
    auto unitType = VectorType::get({lanes}, b.getIntegerType(unit));
    SmallVector<int64_t> top, bottom;
    for (int64_t c = 0; c < lanes; ++c) {
      bool left = c % (2 * hu) < hu;
      top.push_back(left ? c : lanes + c - hu);
      bottom.push_back(left ? c + hu : lanes + c);
    }
    for (int64_t r = 0; r < n; ++r) {
      if (r % (2 * h) >= h)
        continue;
      Value a = vector::BitCastOp::create(b, l, unitType, rows[r]);
      Value c = vector::BitCastOp::create(b, l, unitType, rows[r + h]);
      rows[r] = vector::BitCastOp::create(
          b, l, rowType, vector::ShuffleOp::create(b, l, a, c, top));
      rows[r + h] = vector::BitCastOp::create(
          b, l, rowType, vector::ShuffleOp::create(b, l, a, c, bottom));
    }
  }
  return fromRows(b, l, type, rows);
}

/// dual_quantize with byte-sized codes, one 32 x 32 tile at a time: its
/// rows are the row-wise blocks, its columns the column-wise blocks. Three
/// loops over the tile's rows (each reads a row of 32 elements, from cache
/// after the first):
///   A. the column amax (an elementwise maximum of the rows' |x| bits), then
///      the column scales (one vector.scatter into the swizzled layout);
///   B. each row's column codes, written untransposed into the tile's own
///      region of the row codes (scratch no other tile touches, so the loop
///      over tiles stays parallel), then read back as one 32 x 32 tile,
///      transposed in five stages of two-row shuffles and written to the
///      [K, M] codes;
///   C. each row's amax, scale and codes, written over that scratch.
/// One body serves whole and ragged tiles alike (masked reads and writes;
/// missing elements read as 0, which changes no amax). Unrolling the tile
/// instead (one 2-D vector of 1024 lanes) ran about as fast but took LLVM's
/// code generator a third of a second to compile (docs/Rationale.md).
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
    auto rowIn = VectorType::get({T}, inType.getElementType());
    auto rowI32 = VectorType::get({T}, rw.getI32Type());
    auto tileCodes = VectorType::get({T, T}, codeElt);
    auto tileBytes = VectorType::get({T, T}, rw.getI8Type());

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
          Value zero = indexConst(b, l, 0), one = indexConst(b, l, 1);
          AffineMap minor1 =
              AffineMap::getMinorIdentityMap(rank, 1, b.getContext());
          AffineMap minor2 =
              AffineMap::getMinorIdentityMap(rank, 2, b.getContext());
          auto rowAt = [&](OpBuilder &rb, Location rl, Value r) {
            SmallVector<Value> a(at);
            a[rank - 2] = arith::AddIOp::create(rb, rl, i0, r);
            return a;
          };
          // Row r of the tile as f32 (masked past the input's last column).
          auto readRow = [&](OpBuilder &rb, Location rl, Value r) {
            Value pad0 = arith::ConstantOp::create(
                rb, rl, rb.getFloatAttr(inType.getElementType(), 0.0));
            return toF32(rb, rl,
                         vector::TransferReadOp::create(
                             rb, rl, rowIn, input, rowAt(rb, rl, r), pad0,
                             minor1, ArrayRef<bool>{false}));
          };
          auto writeRow = [&](OpBuilder &rb, Location rl, Value codes, Value r,
                              Value dest) {
            return vector::TransferWriteOp::create(rb, rl, codes, dest,
                                                   rowAt(rb, rl, r), minor1,
                                                   ArrayRef<bool>{false})
                .getResult();
          };
          auto rowLoop = [&](ValueRange init,
                             function_ref<SmallVector<Value>(
                                 OpBuilder &, Location, Value, ValueRange)>
                                 body) {
            return scf::ForOp::create(
                       b, l, zero, rows, one, init,
                       [&](OpBuilder &rb, Location rl, Value r,
                           ValueRange it) {
                         scf::YieldOp::create(rb, rl, body(rb, rl, r, it));
                       })
                .getResults();
          };

          // A: column amax and scales.
          Value colBits =
              rowLoop(
                  ValueRange{num::i32Const(b, l, rowI32, 0)},
                  [&](OpBuilder &rb, Location rl, Value r, ValueRange it) {
                    Value bits = num::absBits(rb, rl, readRow(rb, rl, r));
                    return SmallVector<Value>{
                        arith::MaxUIOp::create(rb, rl, it[0], bits)};
                  })
                  .front();
          Value colAmax = arith::BitcastOp::create(
              b, l, VectorType::get({T}, b.getF32Type()), colBits);
          auto [sCol, multCol] =
              policies.scaleAndMultiplier(b, l, colAmax, native());

          // B: column codes into the tile's region of the row codes, then
          // transposed into the [K, M] codes.
          Value scratch =
              rowLoop(ValueRange{iters[0]},
                      [&](OpBuilder &rb, Location rl, Value r, ValueRange it) {
                        Value y = arith::MulFOp::create(
                            rb, rl, readRow(rb, rl, r), multCol);
                        Value codes = toSmallFloat(
                            rb, rl, policies.encode(rb, rl, y, native()),
                            codeElt);
                        return SmallVector<Value>{
                            writeRow(rb, rl, codes, r, it[0])};
                      })
                  .front();
          Value padCode = arith::ConstantOp::create(
              b, l, b.getZeroAttr(codeElt));
          // Whole-tile accesses masked to the tile's rows and columns (an
          // explicit mask, not a bounds check: no branch per row, and a
          // masked-off lane touches no memory).
          auto maskOf = [&](Value r, Value c) {
            return vector::CreateMaskOp::create(
                       b, l, VectorType::get({T, T}, b.getI1Type()),
                       ValueRange{r, c})
                .getResult();
          };
          Value colTile = vector::TransferReadOp::create(
              b, l, Type(tileCodes), scratch, at, AffineMapAttr::get(minor2),
              padCode, maskOf(rows, cols), b.getBoolArrayAttr({true, true}));
          Value transposed = arith::BitcastOp::create(
              b, l, tileCodes,
              transposeByRows(
                  b, l, arith::BitcastOp::create(b, l, tileBytes, colTile)));
          SmallVector<Value> atT(at);
          std::swap(atT[rank - 1], atT[rank - 2]);
          Value c1 = vector::TransferWriteOp::create(
                         b, l, transposed, iters[2], atT,
                         AffineMapAttr::get(minor2), maskOf(cols, rows),
                         b.getBoolArrayAttr({true, true}))
                         .getResult();

          // The scales of `count` lines starting at `first`, at their
          // swizzled offsets: the tile's lines are one 32-row stripe of a
          // swizzle tile (`first` is a multiple of T), so line k's scale
          // lies kSwizzleRowBytes * k after line 0's.
          static_assert(T == ::mxq::kSwizzleStripeRows,
                        "a dual tile's lines are one swizzle stripe");
          auto scaleBase = [&](Value first, int64_t rowDim, int64_t axis,
                               Value blk, Value numBlocks) {
            SmallVector<Value> pos(at);
            pos[rowDim] = first;
            return scaleIndex(b, l, pos, axis, blk, numBlocks,
                              dialect::ScaleLayout::swizzle_32_4_4);
          };
          // The column scales: one vector.scatter, masked to the tile's
          // columns.
          SmallVector<int32_t> offsets;
          for (int64_t line = 0; line < T; ++line)
            offsets.push_back(int32_t(line * ::mxq::kSwizzleRowBytes));
          Value lines = arith::ConstantOp::create(
              b, l, rowI32, DenseElementsAttr::get(rowI32, ArrayRef(offsets)));
          Value colMask = vector::CreateMaskOp::create(
              b, l, VectorType::get({T}, b.getI1Type()), ValueRange{cols});
          Value s1 =
              vector::ScatterOp::create(
                  b, l, iters[3].getType(), iters[3],
                  scaleBase(j0, rank - 1, rank - 2, ti, colBlocks), lines,
                  colMask, toSmallFloat(b, l, sCol, scaleElt))
                  .getResult();

          // C: each row's amax, scale and codes (over the scratch).
          SmallVector<Value> base0 =
              scaleBase(i0, rank - 2, rank - 1, tj, rowBlocks);
          ValueRange rowResults = rowLoop(
              ValueRange{scratch, iters[1]},
              [&](OpBuilder &rb, Location rl, Value r, ValueRange it) {
                Value x = readRow(rb, rl, r);
                Value amax = num::blockAmax(rb, rl, x);
                auto [sByte, mult] =
                    policies.scaleAndMultiplier(rb, rl, amax, native());
                Value y = arith::MulFOp::create(
                    rb, rl, x,
                    vector::BroadcastOp::create(rb, rl, x.getType(), mult));
                Value codes = toSmallFloat(
                    rb, rl, policies.encode(rb, rl, y, native()), codeElt);
                SmallVector<Value> idx(base0);
                idx.back() = arith::AddIOp::create(
                    rb, rl, base0.back(),
                    arith::MulIOp::create(
                        rb, rl, r,
                        indexConst(rb, rl, ::mxq::kSwizzleRowBytes)));
                Value scales = tensor::InsertOp::create(
                    rb, rl, toSmallFloat(rb, rl, sByte, scaleElt), it[1], idx);
                return SmallVector<Value>{writeRow(rb, rl, codes, r, it[0]),
                                          scales};
              });
          return {rowResults[0], rowResults[1], c1, s1};
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
          rw, loc, codesType, scalesType, input, /*outer=*/Value(), axis, 32,
          op.getScaleAlgorithm(), op.getInfPolicy(), op.getRounding(),
          op.getNanElement(), dialect::ScaleLayout::swizzle_32_4_4,
          op.getUnderflow(), dialect::Product::f32, /*amax_floor=*/FloatAttr());
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
    std::shared_ptr<const num::NativeConverts> native, DualQuantizeForm form) {
  patterns.add<DualQuantizeLowering>(patterns.getContext(), native);
  if (form == DualQuantizeForm::Tiles)
    patterns.add<DualQuantizeTiled>(patterns.getContext(), native);
}

} // namespace mxq::loops
