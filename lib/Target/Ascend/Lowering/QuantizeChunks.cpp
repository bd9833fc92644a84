//===- QuantizeChunks.cpp - long blocks along a non-last axis -------------===//
//
// mxq.quantize along a non-last axis whose blocks are too long for a tile
// of whole block-rows (a block of 1024 rows of 64 f32 columns is 256 KiB of
// input alone, more than a 950's UB): each tile of `groups` block-rows is
// read from GM twice, in chunks of `chunkRows` rows. The first pass takes
// each block's lane-wise maximum over its chunks, the scale recipe then
// runs once on the tile's blocks and its scales go out, and the second pass
// multiplies each chunk by its block's multiplier and writes its codes.
// The shared lowering walks a long block the same way (amax over the
// chunks, then the codes), so the numerics are those of emitColumns: only
// the order of the reads differs.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::vtile::lowering {

void emitColumnChunks(func::FuncOp func, const Chip &chip, const Plan &p,
                      const TilingOptions &options) {
  MLIRContext *ctx = func.getContext();
  dialect::QuantizeOp op = p.op;
  SmallVector<Value> gmValues = {op.getInput(), op.getCodes(), op.getScales()};
  const bool dbl = options.doubleBuffer;
  const bool fp4 = p.format == ElementFormat::E2M1FN;
  const bool nanZero = op.getNanElement() == dialect::NanElement::zero;
  const CodeScratch scratch =
      codeScratch(p.format, op.getNanElement(), p.emulate);
  const BlockPolicy policy = blockPolicyOf(p);
  auto rounding = op.getRounding();
  bool productBF16 = op.getProduct() == dialect::Product::bf16;
  Location loc = op.getLoc();

  Frame f = beginKernel(func, gmValues, p.cores);
  OpBuilder b = OpBuilder::atBlockBegin(f.entry);
  Emitter e{b, loc, chip};
  Value x = f.entry->getArgument(0), codesGM = f.entry->getArgument(1),
        scalesGM = f.entry->getArgument(2);
  Type f32 = b.getF32Type();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  auto u32v = [&](int64_t v) { return IntegerAttr::get(u32, v); };

  const int64_t B = p.block, G = p.groups, RC = p.chunkRows, C = p.tileCols;
  const int64_t N = RC * C, NB = G * C;
  const int64_t maskLanes = roundUp(NB, 256), perBlock = maskLanes * 4;
  const int64_t inPitch = C * p.inBytes, codePitch = C * p.codeBits / 8;
  const int64_t depth = dbl ? 2 : 1;

  // The buffers columnBytes counts with `laneRows` = RC, in its order.
  int64_t inSize = roundUp(N * p.inBytes, 32);
  Value inBuf = e.buffer(depth * inSize);
  Value xBuf = p.inBytes == 4 ? Value() : e.buffer(N * 4);
  Value pBuf = e.buffer(N * 4);
  Value qBuf = needsQ(p) ? e.buffer(N * qLaneBytes(p)) : Value();
  Value wBuf = scratch.w ? e.buffer(N * 4) : Value();
  Value laneMask = scratch.mask ? e.buffer(N / 8) : Value();
  int64_t codeSize = roundUp(N * p.codeBits / 8, 32);
  Value codeBuf = e.buffer(depth * codeSize);
  int64_t scaleSize = roundUp(NB * scaleElementBytes(p.f32.has_value()), 32);
  Value scaleBuf = e.buffer(depth * scaleSize);
  Value amBuf = e.buffer(perBlock), eBuf = e.buffer(perBlock),
        sBuf = e.buffer(perBlock), mbBuf = e.buffer(perBlock),
        constBuf = e.buffer(perBlock), tBuf = e.buffer(perBlock),
        t2Buf = e.buffer(perBlock), blockMask = e.buffer(maskLanes / 8);
  int64_t slotSize = C * G * 8, groupLanes = G * 64;
  Value slotBuf = p.swizzle ? e.buffer(depth * slotSize) : Value();
  Value slotOffsets = p.swizzle ? e.buffer(groupLanes * 4) : Value();
  if (p.swizzle)
    emitColumnSlotOffsets(e, slotOffsets, pBuf, G, C);
  BlockBuffers blocks{amBuf, eBuf,  sBuf,      mbBuf, constBuf,
                      tBuf,  t2Buf, blockMask, NB,    maskLanes};
  for (int64_t i = 0; i < extraBlockSlots(policy); ++i)
    blocks.extra.push_back(e.buffer(perBlock));

  openTileLoop(e, f, p.tiles, p.cores, dbl);
  Value t = f.t, pp = f.pp;
  Value in = e.add(inBuf, e.mul(pp, inSize));
  Value codesUB = e.add(codeBuf, e.mul(pp, codeSize));
  Value scalesUB = e.add(scaleBuf, e.mul(pp, scaleSize));
  Value slotsUB = p.swizzle ? e.add(slotBuf, e.mul(pp, slotSize)) : Value();
  // t = (o * rowTiles + rowTile) * slices + slice
  Value slice = e.rem(t, p.slices), rest = e.div(t, p.slices);
  Value rowTile = e.rem(rest, p.rowTiles), o = e.div(rest, p.rowTiles);
  // FP4 rows of an odd last dimension: the tile's segment (Plan::mid).
  Segments segs(e, o, p.mid, p.n, p.codeBits);
  const int64_t rowN = segs.rowElems(), codeRow = segs.rowBytes();
  Value m0 = e.mul(rowTile, G * B), c0 = e.mul(slice, C);
  Value rows = e.min(e.idx(G * B), e.sub(e.idx(p.m), m0));
  // Swizzled slices run up to the columns padded to 128: past the input
  // a tile has no columns (all zero input: the grid's padding rows).
  Value cols =
      p.swizzle ? e.min(e.idx(C), arith::MaxSIOp::create(
                                      b, loc, e.sub(e.idx(p.n), c0), e.idx(0)))
                : e.min(e.idx(C), e.sub(e.idx(p.n), c0));
  auto padded = [&](Value len) { return e.mul(e.div(e.add(len, 31), 32), 32); };
  auto ult = [&](Value a, Value c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, a, c)
        .getResult();
  };
  // Swizzled, a ragged last slice's missing columns are rows of the scale
  // grid's padding (zeroed). FP4's padding nibble lane is zero without it:
  // the DMA in pads the last element's 32-byte block with zeros.
  bool raggedCols = p.swizzle && roundUp(p.n, 128) > p.n;
  Value inLen = e.mul(cols, p.inBytes);

  // Block-row j's rows in this tile: min(B, rows - jB), 0 past the rows.
  auto blockRows = [&](int64_t j) {
    Value past = e.sub(rows, e.idx(std::min<int64_t>(j * B, G * B)));
    Value has = ult(e.idx(j * B), rows);
    Value n = e.min(e.idx(B), past);
    return arith::SelectOp::create(b, loc, has, n, e.idx(0)).getResult();
  };
  // For each chunk of block-row j: `body(r0, chunkRows)` with r0 the
  // chunk's first row in the tile.
  auto forChunks = [&](int64_t j,
                       const std::function<void(Value, Value)> &body) {
    Value rowsJ = blockRows(j);
    Value chunks = e.div(e.add(rowsJ, RC - 1), RC);
    auto loop = scf::ForOp::create(b, loc, e.idx(0), chunks, e.idx(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k = loop.getInductionVar();
    Value done = e.mul(k, RC);
    body(e.add(done, j * B), e.min(e.idx(RC), e.sub(rowsJ, done)));
  };
  // A chunk into `in` (with `zero`, zeroed first where its rows or,
  // swizzled, its columns do not fill it: missing rows are zero input, as
  // the whole block-row kernel's) and widened to f32 in X; the input buffer
  // is then free again unless X is it (f32 input: `release` frees it).
  auto load = [&](Value r0, Value chunkRows, bool zero) -> Value {
    e.flag(false, Pipe::v, Pipe::mte2, pp);
    if (zero) {
      Value partial = ult(chunkRows, e.idx(RC));
      if (raggedCols)
        partial = arith::OrIOp::create(b, loc, partial, ult(cols, e.idx(C)));
      auto zeroing = scf::IfOp::create(b, loc, partial, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&zeroing.getThenRegion().front());
      e.dup(in, IntegerAttr::get(u32, 0), u32, N * p.inBytes / 4);
      e.flag(true, Pipe::v, Pipe::mte2, e.idx(2));
      e.flag(false, Pipe::v, Pipe::mte2, e.idx(2));
    }
    CopyGmToUbOp::create(
        b, loc, in, x,
        e.mul(e.add(e.mul(e.add(e.mul(o, p.m), e.add(m0, r0)), rowN),
                    segs.col(e, c0)),
              p.inBytes),
        chunkRows, inLen, e.mul(e.sub(e.idx(rowN), cols), p.inBytes),
        e.div(e.sub(e.idx(inPitch), padded(inLen)), 32),
        b.getI64IntegerAttr(0));
    e.flag(true, Pipe::mte2, Pipe::v, pp);
    e.flag(false, Pipe::mte2, Pipe::v, pp);
    if (p.inBytes == 4)
      return in;
    e.cast(xBuf, f32, in, p.inType, RoundMode::none, false, N);
    e.flag(true, Pipe::v, Pipe::mte2, pp);
    return xBuf;
  };
  auto release = [&] {
    if (p.inBytes == 4)
      e.flag(true, Pipe::v, Pipe::mte2, pp);
  };

  // Pass 1: each block's amax, the lane-wise maximum of |x| bits over its
  // chunks (each chunk halved onto its first row, then into AM).
  e.dup(amBuf, u32v(0), u32, NB);
  for (int64_t j = 0; j < G; ++j)
    forChunks(j, [&](Value r0, Value chunkRows) {
      Value X = load(r0, chunkRows, /*zero=*/true);
      emitAbsBits(e, pBuf, X, amaxIgnoresNaN(policy), N);
      release();
      for (int64_t len = RC; len > 1; len -= len / 2) {
        int64_t h = len / 2;
        e.binary(BinaryKind::max, pBuf, pBuf, e.add(pBuf, (len - h) * C * 4),
                 u32, h * C);
      }
      Value am = e.add(amBuf, j * C * 4);
      e.binary(BinaryKind::max, am, am, pBuf, u32, C);
    });
  emitScaleAndMultiplier(e, blocks, policy);

  // The scales out, as emitColumns writes them.
  e.flag(false, Pipe::mte3, Pipe::v, pp);
  packColumnScales(e, p, scalesUB, slotsUB, sBuf, tBuf, t2Buf, slotOffsets, G,
                   C);
  e.flag(true, Pipe::v, Pipe::mte3, pp);
  e.flag(false, Pipe::v, Pipe::mte3, pp);
  writeColumnScales(e, p, segs, scalesGM, scalesUB, slotsUB, o, rowTile, c0,
                    cols, rows);
  e.flag(true, Pipe::mte3, Pipe::v, pp);

  // Pass 2: each chunk times its block's multiplier, its codes out.
  Value codeLen = e.div(e.add(e.mul(cols, p.codeBits), 7), 8);
  for (int64_t j = 0; j < G; ++j)
    forChunks(j, [&](Value r0, Value chunkRows) {
      // Rows past the chunk's are never written out: not zeroed.
      Value X = load(r0, chunkRows, /*zero=*/false);
      e.mulRows(pBuf, X, e.add(mbBuf, j * C * 4), RC, C, elementKind(p));
      release();
      e.flag(false, Pipe::mte3, Pipe::v, pp);
      emitCodes(e, p.codeType, rounding, productBF16, nanZero,
                /*preRound=*/fp4 && !productBF16 && !p.inType.isBF16(),
                p.emulate, pBuf, qBuf, wBuf, laneMask, codesUB, N);
      e.flag(true, Pipe::v, Pipe::mte3, pp);
      e.flag(false, Pipe::v, Pipe::mte3, pp);
      CopyUbToGmOp::create(
          b, loc, codesGM,
          e.add(e.mul(e.add(e.mul(o, p.m), e.add(m0, r0)), codeRow),
                segs.byte(e, e.div(e.mul(c0, p.codeBits), 8))),
          codesUB, chunkRows, codeLen,
          e.div(e.sub(e.idx(codePitch), padded(codeLen)), 32),
          e.sub(e.idx(codeRow), codeLen));
      e.flag(true, Pipe::mte3, Pipe::v, pp);
    });

  finishKernel(e, f);
}

} // namespace mxq::vtile::lowering
