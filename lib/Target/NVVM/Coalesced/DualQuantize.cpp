//===- DualQuantize.cpp - the cooperative dual quantize -------------------===//
#include "Kernels.h"

namespace mxq::nvvm::coalesced {
namespace {

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

} // namespace

void populateDualQuantize(RewritePatternSet &patterns,
                          std::shared_ptr<const num::NativeConverts> native) {
  patterns.add<CooperativeDualQuantize>(patterns.getContext(),
                                        std::move(native));
}

} // namespace mxq::nvvm::coalesced
