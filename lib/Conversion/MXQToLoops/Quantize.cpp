//===- Quantize.cpp - mxq.quantize to loops -------------------------------===//
//
// One vector per block (four blocks at once along the last axis), its scale
// and codes from the numerics library, scales stored into their layout.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::loops {
namespace {

struct QuantizeLowering : NumericsPattern<dialect::QuantizeOp> {
  using NumericsPattern::NumericsPattern;

  /// Blocks handled per iteration when the blocks are contiguous (along the
  /// last axis): their scales are computed as one vector.
  static constexpr int64_t kGroup = 4;
  // A group's scales are one vector write in every layout (see below).
  static_assert(kGroup % 2 == 0 && ::mxq::kSwizzleTileCols % kGroup == 0);
  /// Blocks of 16 (NVFP4, MX per 16) go eight to a group, the same 128
  /// lanes as four blocks of 32, except into the swizzled layout, whose
  /// 4-byte tile rows hold four.
  static constexpr int64_t kSmallBlockGroup = 8;

  LogicalResult matchAndRewrite(dialect::QuantizeOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value input = op.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    int64_t rank = inType.getRank(), axis = op.getAxis();
    int64_t block = op.getBlockSize();
    Type codeElt = op.getCodes().getType().getElementType();
    Type scaleElt = op.getScales().getType().getElementType();
    BlockPolicies policies = BlockPolicies::of(op, codeElt);
    // ref: quantize's product (rounded to bf16 with product = bf16).
    bool bf16Product = op.getProduct() == dialect::Product::bf16;
    auto product = [&](OpBuilder &b, Location l, Value x, Value r) -> Value {
      Value p = policies.scaled(b, l, x, r);
      return bf16Product ? roundTo(b, l, p, b.getBF16Type()) : p;
    };
    auto layout = op.getScaleLayout();

    ReifiedRankedShapedTypeDims dims;
    if (failed(resultSizes(op, rw, dims)))
      return failure();
    Value codes = tensor::EmptyOp::create(rw, loc, dims[0], codeElt);
    Value scales = tensor::EmptyOp::create(rw, loc, dims[1], scaleElt);
    // Groups of four blocks of 32 (one vector of 128 elements): byte codes
    // and FP4 (packed in memory later, mxq-pack-fp4-memory); FP6 codes stay
    // block by block.
    unsigned codeBits = codeElt.getIntOrFloatBitWidth();
    const int64_t group =
        block == 16 && layout != dialect::ScaleLayout::swizzle_32_4_4
            ? kSmallBlockGroup
            : kGroup;
    bool grouped = axis == rank - 1 && (codeBits == 8 || codeBits == 4) &&
                   block * group <= 4 * 32;
    // Padding scale bytes (the second of an odd line's last pair, a swizzle
    // tile's rows and columns past the data) hold kScalePad. The linear
    // layout has none: every byte is a block's scale, written below, and a
    // fill would only be written over (a byte loop over all the scales).
    // Paired scales in groups have one pad byte a line at most, which the
    // last group of the line writes (below) instead of a fill of them all.
    Value pad = toSmallFloat(
        rw, loc, num::i32Const(rw, loc, rw.getI32Type(), ::mxq::kScalePad),
        scaleElt);
    bool padInLastGroup = grouped && layout == dialect::ScaleLayout::pairs;
    if (layout != dialect::ScaleLayout::linear && !padInLastGroup)
      scales =
          linalg::FillOp::create(rw, loc, ValueRange{pad}, ValueRange{scales})
              .getResult(0);

    SmallVector<Value> lbs, ubs, steps;
    blockLoopBounds(rw, loc, input, axis, block, lbs, ubs, steps);
    Value size = tensor::DimOp::create(rw, loc, input, axis);
    Value numBlocks = ubs[axis];

    // TE's NVFP4 without a stored amax: the largest |x| of the whole tensor
    // (NaN ignored) first, block by block into a rank-0 tensor, a reduction
    // before the blocks (mxq-tile keeps this form whole).
    Value globalAmax;
    if (policies.nvfp4() &&
        policies.algorithm == ::mxq::ScaleAlgorithm::Encode &&
        !op.getOuter()) {
      Value zero = num::f32Const(rw, loc, rw.getF32Type(), 0.0f);
      // A filled empty tensor, not tensor.from_elements (a constant the GPU
      // pipeline would leave in host memory).
      Value init =
          linalg::FillOp::create(
              rw, loc, ValueRange{zero},
              ValueRange{tensor::EmptyOp::create(rw, loc, ArrayRef<int64_t>{},
                                                 rw.getF32Type())})
              .getResult(0);
      globalAmax =
          scf::buildLoopNest(
              rw, loc, lbs, ubs, steps, ValueRange{init},
              [&](OpBuilder &b, Location l, ValueRange ivs,
                  ValueRange iters) -> scf::ValueVector {
                SmallVector<Value> at(ivs.begin(), ivs.end());
                at[axis] = arith::MulIOp::create(b, l, ivs[axis],
                                                 indexConst(b, l, block));
                Value count;
                if (axis != rank - 1)
                  count = blockCount(b, l, size, at[axis], block);
                Value x = toF32(b, l,
                                readAlongAxis(b, l, input, at, axis, block,
                                              count, false));
                auto bits = [&](Value f) -> Value {
                  return arith::BitcastOp::create(b, l, b.getI32Type(), f);
                };
                Value cur = tensor::ExtractOp::create(b, l, iters[0],
                                                      ValueRange{});
                Value m = arith::MaxUIOp::create(b, l, bits(cur),
                                                 bits(policies.amax(b, l, x)));
                Value t = tensor::InsertOp::create(
                    b, l,
                    arith::BitcastOp::create(b, l, b.getF32Type(), m),
                    iters[0], ValueRange{});
                return {t};
              })
              .results[0];
    }
    // The outer value of the line at `ivs` (NVFP4): S_enc of its amax
    // (encode) or the decode scale P (decode, 1 when none is given).
    Value lineOuter;
    auto outerOf = [&](OpBuilder &b, Location l, ValueRange ivs) -> Value {
      if (!policies.nvfp4())
        return Value();
      Value v;
      if (Value o = op.getOuter()) {
        SmallVector<Value> at;
        if (cast<RankedTensorType>(o.getType()).getRank() != 0)
          for (int64_t d = 0; d < rank; ++d)
            if (d != axis)
              at.push_back(ivs[d]);
        v = tensor::ExtractOp::create(b, l, o, at);
      } else if (globalAmax) {
        v = tensor::ExtractOp::create(b, l, globalAmax, ValueRange{});
      } else {
        return num::f32Const(b, l, b.getF32Type(), 1.0f);
      }
      return policies.algorithm == ::mxq::ScaleAlgorithm::Encode
                 ? num::nvfp4EncodeScale(b, l, v)
                 : v;
    };

    // `group` consecutive blocks at `at`, read along the axis as one vector
    // of the input's element type (zeros past the end unless `inBounds`).
    auto read = [&](OpBuilder &b, Location l, ArrayRef<Value> at,
                    int64_t group, bool inBounds) -> Value {
      // A block across rows reads lane by lane (see readAlongAxis).
      Value count;
      if (axis != rank - 1 && !inBounds)
        count = blockCount(b, l, size, at[axis], block);
      return readAlongAxis(b, l, input, at, axis, group * block, count,
                           inBounds);
    };
    // The codes and scale bytes of `group` blocks read as `v`.
    auto numerics = [&](OpBuilder &b, Location l, Value v, int64_t group,
                        Value &scaleBytes) -> Value {
      Value x = toF32(b, l, v);
      if (group == 1) {
        Value amax = policies.amax(b, l, x);
        auto [sByte, mult] =
            policies.scaleAndMultiplier(b, l, amax, native(), lineOuter);
        scaleBytes = vector::BroadcastOp::create(
            b, l, VectorType::get({1}, b.getI32Type()), sByte);
        Value r = vector::BroadcastOp::create(b, l, x.getType(), mult);
        return policies.encode(b, l, product(b, l, x, r), native());
      }
      VectorType tile = VectorType::get({group, block}, b.getF32Type());
      if (x.getType() != tile) // pairsToF32 reads the group as its tile
        x = vector::ShapeCastOp::create(b, l, tile, x);
      // One amax per row of the tile (the tail reads as 0).
      Value amax = policies.amax(b, l, x, {false, true});
      Value r;
      std::tie(scaleBytes, r) =
          policies.scaleAndMultiplier(b, l, amax, native(), lineOuter);
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
      Value code = policies.encode(b, l, product(b, l, x, rows), native());
      return vector::ShapeCastOp::create(
                 b, l, VectorType::get({group * block}, b.getI32Type()), code)
          .getResult();
    };
    auto compute = [&](OpBuilder &b, Location l, ArrayRef<Value> at,
                       int64_t group, bool inBounds,
                       Value &scaleBytes) -> Value {
      return numerics(b, l, read(b, l, at, group, inBounds), group,
                      scaleBytes);
    };

    // A block longer than kUnrolledLanes, chunk by chunk: the amax (as the bits
    // of |x|, combined with maxui like num::blockAmax) over every chunk, then
    // each chunk's codes. Returns the scale byte (vector<1xi32>) and the
    // codes tensor.
    auto chunked = [&](OpBuilder &b, Location l, ArrayRef<Value> at,
                       bool inBounds, Value codesT) -> std::pair<Value, Value> {
      Value zero = indexConst(b, l, 0), one = indexConst(b, l, 1);
      Value chunks = chunksOf(b, l, size, at[axis], block, inBounds);
      auto chunkAt = [&](OpBuilder &cb, Location cl, Value c) {
        SmallVector<Value> a(at.begin(), at.end());
        a[axis] = arith::AddIOp::create(
            cb, cl, at[axis],
            arith::MulIOp::create(cb, cl, c, indexConst(cb, cl, kChunk)));
        return a;
      };
      auto countOf = [&](OpBuilder &cb, Location cl,
                         ArrayRef<Value> a) -> Value {
        return inBounds ? Value() : blockCount(cb, cl, size, a[axis], kChunk);
      };
      auto readChunk = [&](OpBuilder &cb, Location cl, ArrayRef<Value> a) {
        return toF32(cb, cl,
                     readAlongAxis(cb, cl, input, a, axis, kChunk,
                                   countOf(cb, cl, a), inBounds));
      };
      Value amaxBits =
          scf::ForOp::create(
              b, l, zero, chunks, one,
              ValueRange{num::i32Const(b, l, b.getI32Type(), 0)},
              [&](OpBuilder &cb, Location cl, Value c, ValueRange it) {
                Value x = readChunk(cb, cl, chunkAt(cb, cl, c));
                Value bits = arith::BitcastOp::create(
                    cb, cl, cb.getI32Type(), policies.amax(cb, cl, x));
                scf::YieldOp::create(
                    cb, cl,
                    ValueRange{arith::MaxUIOp::create(cb, cl, it[0], bits)
                                   .getResult()});
              })
              .getResult(0);
      Value amax = arith::BitcastOp::create(b, l, b.getF32Type(), amaxBits);
      auto [sByte, mult] =
          policies.scaleAndMultiplier(b, l, amax, native(), lineOuter);
      Value newCodes =
          scf::ForOp::create(
              b, l, zero, chunks, one, ValueRange{codesT},
              [&](OpBuilder &cb, Location cl, Value c, ValueRange it) {
                SmallVector<Value> a = chunkAt(cb, cl, c);
                Value x = readChunk(cb, cl, a);
                Value r =
                    vector::BroadcastOp::create(cb, cl, x.getType(), mult);
                Value code =
                    policies.encode(cb, cl, product(cb, cl, x, r), native());
                scf::YieldOp::create(
                    cb, cl,
                    ValueRange{writeCodes(cb, cl, code, it[0], a, axis,
                                          countOf(cb, cl, a), inBounds)});
              })
              .getResult(0);
      Value s = vector::BroadcastOp::create(
          b, l, VectorType::get({1}, b.getI32Type()), sByte);
      return {s, newCodes};
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
        Value newCodes;
        if (block <= kUnrolledLanes) {
          Value code = compute(b, l, at, 1, inBounds, s);
          Value count = blockCount(b, l, size, k0, block);
          newCodes = writeCodes(b, l, code, codesT, at, axis, count, inBounds);
        } else {
          std::tie(s, newCodes) = chunked(b, l, at, inBounds, codesT);
        }
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

    // bf16 along the last axis in groups: each 32-bit lane of the input
    // holds two neighbours, element 2i in its low half, so the even
    // elements are the lanes shifted up and the odd ones the lanes masked:
    // one operation each, without widening, and each block is read as its
    // even then its odd elements. The amax of a block is the same (the
    // same elements), each code is its element's, and code 2i and code
    // 2i + 1 meet in one lane again when they are packed (below).
    bool pairLanes = grouped && inType.getElementType().isBF16() &&
                     block % 2 == 0;
    auto pairsToF32 = [&](OpBuilder &b, Location l, Value v) -> Value {
      int64_t n = cast<VectorType>(v.getType()).getNumElements();
      Value halfs = arith::BitcastOp::create(
          b, l, VectorType::get({n}, b.getI16Type()), v);
      Value pairs = vector::ShapeCastOp::create(
          b, l, VectorType::get({n / block, block / 2}, b.getI32Type()),
          vector::BitCastOp::create(
              b, l, VectorType::get({n / 2}, b.getI32Type()), halfs));
      Value even = arith::ShLIOp::create(
          b, l, pairs, num::i32Const(b, l, pairs.getType(), 16));
      Value odd = arith::AndIOp::create(
          b, l, pairs,
          num::i32Const(b, l, pairs.getType(), int32_t(0xFFFF0000u)));
      auto rows = VectorType::get({n / block, block}, b.getI32Type());
      Value x = arith::ConstantOp::create(b, l, rows, b.getZeroAttr(rows));
      x = vector::InsertStridedSliceOp::create(b, l, even, x,
                                               ArrayRef<int64_t>{0, 0},
                                               ArrayRef<int64_t>{1, 1});
      x = vector::InsertStridedSliceOp::create(b, l, odd, x,
                                               ArrayRef<int64_t>{0, block / 2},
                                               ArrayRef<int64_t>{1, 1});
      // As the group's tile (the numerics' shape), so that no flattening
      // into one vector of n lanes and back goes through the branches.
      return arith::BitcastOp::create(
          b, l, VectorType::get({n / block, block}, b.getF32Type()), x);
    };
    // The codes of pairLanes (`codesV`, a bitcast of `bytes`, the packed
    // pairs) at `at` along the last axis: one vector write of a whole group; for the last group of
    // a line, its `count` live codes: a masked write of byte codes, or FP4
    // codes one by one in a loop, each its byte's low or high nibble
    // (read-modify-writes of packed bytes in memory).
    auto writePacked = [&](OpBuilder &b, Location l, Value codesV,
                           Value bytes, Value codesT, ArrayRef<Value> at,
                           Value count) -> Value {
      // Byte codes: one write, masked past the end of the line for the
      // last group.
      if (!count || codeBits == 8)
        return vector::TransferWriteOp::create(
                   b, l, codesV, codesT, at,
                   AffineMap::get(rank, 0, b.getAffineDimExpr(axis)),
                   ArrayRef<bool>{!count})
            .getResult();
      return scf::ForOp::create(
                 b, l, indexConst(b, l, 0), count, indexConst(b, l, 1),
                 ValueRange{codesT},
                 [&](OpBuilder &lb, Location ll, Value k, ValueRange it) {
                   Value code = num::packedFP4Code(lb, ll, bytes, k);
                   SmallVector<Value> pos(at.begin(), at.end());
                   pos[axis] = arith::AddIOp::create(lb, ll, at[axis], k);
                   Value t = tensor::InsertOp::create(
                       lb, ll, toSmallFloat(lb, ll, code, codeElt), it[0],
                       pos);
                   scf::YieldOp::create(lb, ll, t);
                 })
          .getResult(0);
    };

    if (grouped)
      ubs[axis] = arith::CeilDivUIOp::create(rw, loc, numBlocks,
                                             indexConst(rw, loc, group));
    scf::LoopNest nest = scf::buildLoopNest(
        rw, loc, lbs, ubs, steps, ValueRange{codes, scales},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iters) -> scf::ValueVector {
          lineOuter = outerOf(b, l, ivs);
          if (!grouped)
            return oneBlock(b, l, ivs, ivs[axis], iters[0], iters[1]);
          // `group` blocks at once, with one copy of the numerics for every
          // group: a group that runs past the end of the line reads zeros
          // there (which change no block's amax: |0| is the least) and
          // stores only its live codes and scales. Only the read and the
          // stores differ between a whole group and the last one of a line.
          Value b0 =
              arith::MulIOp::create(b, l, ivs[axis], indexConst(b, l, group));
          Value k0 = arith::MulIOp::create(b, l, b0, indexConst(b, l, block));
          SmallVector<Value> at(ivs.begin(), ivs.end());
          at[axis] = k0;
          Value x = splitOnWholeBlock(
              b, l, size, k0, group * block,
              [&](OpBuilder &rb, Location rl,
                  bool inBounds) -> SmallVector<Value> {
                Value v = read(rb, rl, at, group, inBounds);
                return {pairLanes ? pairsToF32(rb, rl, v) : toF32(rb, rl, v)};
              })[0];
          Value s;
          Value code = numerics(b, l, x, group, s);
          Value packed; // pairLanes: the codes' bytes, as pairs
          if (pairLanes) {
            // Each block's even elements' codes, then its odd elements'.
            // Code 2i and code 2i + 1 side by side in one 32-bit lane are
            // the element order in memory: FP4's packed byte i (even | odd
            // << 4, which mxq-pack-fp4-memory writes as it is) or FP8's
            // two bytes (even | odd << 8, truncated to 16 bits), without a
            // shuffle of lanes.
            Value halves = vector::ShapeCastOp::create(
                b, l, VectorType::get({2 * group, block / 2}, b.getI32Type()),
                code);
            SmallVector<int64_t> evenRows, oddRows;
            for (int64_t g = 0; g < group; ++g) {
              evenRows.push_back(2 * g);
              oddRows.push_back(2 * g + 1);
            }
            Value lo =
                vector::ShuffleOp::create(b, l, halves, halves, evenRows);
            Value hi = vector::ShuffleOp::create(b, l, halves, halves, oddRows);
            int64_t n = group * block;
            Value pairs = vector::ShapeCastOp::create(
                b, l, VectorType::get({n / 2}, b.getI32Type()),
                arith::OrIOp::create(
                    b, l, lo,
                    arith::ShLIOp::create(
                        b, l, hi,
                        num::i32Const(b, l, hi.getType(), codeBits))));
            // 2 x codeBits bits a pair: i8 (FP4) or i16 (FP8).
            packed = arith::TruncIOp::create(
                b, l,
                VectorType::get({n / 2}, b.getIntegerType(2 * codeBits)),
                pairs);
            code = arith::BitcastOp::create(
                b, l, VectorType::get({n}, codeElt),
                vector::BitCastOp::create(
                    b, l, VectorType::get({n}, b.getIntegerType(codeBits)),
                    packed));
          }
          auto whole = [&](OpBuilder &tb, Location tl) -> SmallVector<Value> {
            Value newCodes =
                pairLanes
                    ? writePacked(tb, tl, code, packed, iters[0], at,
                                  Value())
                    : writeCodes(tb, tl, code, iters[0], at, axis, Value(),
                                 true);
            // The group's scales lie together in every layout:
            // consecutive bytes (linear), two whole pairs (pairs), or
            // one 4-byte row of a 128 x 4 tile (swizzled, since b0 is a
            // multiple of the tile's 4 columns). One vector write.
            SmallVector<Value> sIdx =
                scaleIndex(tb, tl, ivs, axis, b0, numBlocks, layout);
            int64_t sRank = sIdx.size();
            Value sv = toSmallFloat(tb, tl, s, scaleElt);
            AffineMap sMap =
                AffineMap::getMinorIdentityMap(sRank, 1, tb.getContext());
            SmallVector<bool> sInBounds{true};
            if (layout == dialect::ScaleLayout::pairs) {
              sv = vector::ShapeCastOp::create(
                  tb, tl, VectorType::get({group / 2, 2}, scaleElt), sv);
              sMap =
                  AffineMap::getMinorIdentityMap(sRank, 2, tb.getContext());
              sInBounds.push_back(true);
            }
            Value newScales =
                vector::TransferWriteOp::create(tb, tl, sv, iters[1], sIdx,
                                                sMap, sInBounds)
                    .getResult();
            return {newCodes, newScales};
          };
          auto lastOfLine = [&](OpBuilder &eb,
                                Location el) -> SmallVector<Value> {
            // The end of the line: fewer than group * block elements
            // are left. Their codes (masked for byte codes, one by one
            // for FP4), then each live block's scale, in a loop (four
            // unrolled stores cost 3.5 ms of a quantize's compile).
            // Paired scales were not filled: a line with an odd number
            // of blocks ends on a half pair, whose second byte the loop
            // also writes, with kScalePad.
            Value left = arith::SubIOp::create(eb, el, size, k0);
            Value newCodes =
                pairLanes
                    ? writePacked(eb, el, code, packed, iters[0], at, left)
                    : writeCodes(eb, el, code, iters[0], at, axis, left,
                                 false);
            Value live = arith::CeilDivUIOp::create(
                eb, el, left, indexConst(eb, el, block));
            Value stored = live;
            if (padInLastGroup)
              stored = arith::MulIOp::create(
                  eb, el,
                  arith::CeilDivUIOp::create(eb, el, live,
                                             indexConst(eb, el, 2)),
                  indexConst(eb, el, 2));
            Value newScales =
                scf::ForOp::create(
                    eb, el, indexConst(eb, el, 0), stored,
                    indexConst(eb, el, 1), ValueRange{iters[1]},
                    [&](OpBuilder &sb, Location sl, Value g,
                        ValueRange it) {
                      Value blk = arith::AddIOp::create(sb, sl, b0, g);
                      SmallVector<Value> sIdx = scaleIndex(
                          sb, sl, ivs, axis, blk, numBlocks, layout);
                      Value byte = toSmallFloat(
                          sb, sl,
                          vector::ExtractOp::create(
                              sb, sl, s, ArrayRef<OpFoldResult>{g}),
                          scaleElt);
                      if (padInLastGroup)
                        byte = arith::SelectOp::create(
                            sb, sl,
                            arith::CmpIOp::create(
                                sb, sl, arith::CmpIPredicate::ult, g, live),
                            byte, pad);
                      Value t = tensor::InsertOp::create(sb, sl, byte,
                                                         it[0], sIdx);
                      scf::YieldOp::create(sb, sl, t);
                    })
                    .getResult(0);
            return {newCodes, newScales};
          };
          return splitOnWholeBlock(
              b, l, size, k0, group * block,
              [&](OpBuilder &sb, Location sl, bool inBounds) {
                return inBounds ? whole(sb, sl) : lastOfLine(sb, sl);
              });
        });
    markParallel(nest, codeElt, axis, rank);
    replaceWithResultTypes(rw, op, nest.results);
    return success();
  }
};

} // namespace

void populateQuantizeLowering(
    RewritePatternSet &patterns,
    std::shared_ptr<const num::NativeConverts> native) {
  patterns.add<QuantizeLowering>(patterns.getContext(), std::move(native));
}

} // namespace mxq::loops
