//===- DequantizeChunks.cpp - long blocks along a non-last axis -----------===//
//
// mxq.dequantize along a non-last axis whose blocks are too long for a tile
// of whole block-rows: each tile's scales (`groups` block-rows of
// `tileCols` columns) are read and made scale values once, then its codes
// are read, decoded, multiplied and written in chunks of `chunkRows` rows.
// The numerics are emitDequantizeColumns' (emitDecode, emitScaleValues,
// emitResultTail); only the tile's rows are walked in pieces.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::vtile::lowering {

void emitDequantizeColumnChunks(func::FuncOp func, const Chip &chip,
                                const DequantizePlan &p,
                                const TilingOptions &options) {
  dialect::DequantizeOp op = p.op;
  SmallVector<Value> gmValues = {op.getCodes(), op.getScales(), op.getResult()};
  Location loc = op.getLoc();
  const bool dbl = options.doubleBuffer;

  Frame f = beginKernel(func, gmValues, p.cores);
  OpBuilder b = OpBuilder::atBlockBegin(f.entry);
  Emitter e{b, loc, chip};
  Value codesGM = f.entry->getArgument(0), scalesGM = f.entry->getArgument(1),
        outGM = f.entry->getArgument(2);

  const int64_t B = p.block, G = p.groups, RC = p.chunkRows, C = p.tileCols;
  const int64_t N = RC * C, NB = G * C;
  const int64_t maskLanes = roundUp(NB, 256), perBlock = maskLanes * 4;
  const int64_t codePitch = C * p.codeBits / 8, outPitch = C * p.outBytes;
  const int64_t depth = dbl ? 2 : 1;

  // The buffers dequantizeColumnBytes counts with `laneRows` = RC.
  int64_t codeSize = roundUp(N * p.codeBits / 8, 32);
  Value codeBuf = e.buffer(depth * codeSize);
  int64_t scaleSize = roundUp(NB * scaleElementBytes(p.f32), 32);
  Value scaleBuf = e.buffer(depth * scaleSize);
  Value dBuf = e.buffer(N * 4);
  Value qBuf = p.emulate         ? e.buffer(N * 4)
               : p.codeBits == 4 ? e.buffer(N * 2)
                                 : Value();
  Value wBuf = e.buffer(N * 4), laneMask = e.buffer(N / 8);
  int64_t pSize = roundUp(N * 4, 32);
  Value pBuf = e.buffer((p.outBytes == 4 ? depth : 1) * pSize);
  int64_t outSize = roundUp(N * p.outBytes, 32);
  Value outBuf = p.outBytes == 4 ? Value() : e.buffer(depth * outSize);
  Value sBuf = e.buffer(perBlock), tBuf = e.buffer(perBlock),
        mbBuf = e.buffer(perBlock), constBuf = e.buffer(perBlock),
        blockMask = e.buffer(maskLanes / 8);
  int64_t slotSize = C * G * 8;
  Value slotBuf = p.swizzle ? e.buffer(depth * slotSize) : Value();
  Value slotOffsets = p.swizzle ? e.buffer(C * 4) : Value();
  if (p.swizzle)
    emitColumnGatherOffsets(e, slotOffsets, wBuf, G, C);

  openTileLoop(e, f, p.tiles, p.cores, dbl);
  Value t = f.t, pp = f.pp;
  Value codesUB = e.add(codeBuf, e.mul(pp, codeSize));
  Value scalesUB = e.add(scaleBuf, e.mul(pp, scaleSize));
  Value slotsUB = p.swizzle ? e.add(slotBuf, e.mul(pp, slotSize)) : Value();
  Value P = p.outBytes == 4 ? e.add(pBuf, e.mul(pp, pSize)) : pBuf;
  Value outUB = p.outBytes == 4 ? P : e.add(outBuf, e.mul(pp, outSize));
  // t = (o * rowTiles + rowTile) * slices + slice
  Value slice = e.rem(t, p.slices), rest = e.div(t, p.slices);
  Value rowTile = e.rem(rest, p.rowTiles), o = e.div(rest, p.rowTiles);
  // FP4 rows of an odd last dimension: the tile's segment (Plan::mid).
  Segments segs(e, o, p.mid, p.n, p.codeBits);
  const int64_t rowN = segs.rowElems(), codeRow = segs.rowBytes();
  Value m0 = e.mul(rowTile, G * B), c0 = e.mul(slice, C);
  Value rows = e.min(e.idx(G * B), e.sub(e.idx(p.m), m0));
  Value cols = e.min(e.idx(C), e.sub(e.idx(p.n), c0));
  auto padded = [&](Value len) { return e.mul(e.div(e.add(len, 31), 32), 32); };

  // The tile's scales, as emitDequantizeColumns reads them.
  e.flag(false, Pipe::v, Pipe::mte2, pp);
  readColumnScales(e, p, segs, scalesGM, scalesUB, slotsUB, o, m0, c0, cols);
  e.flag(true, Pipe::mte2, Pipe::v, pp);
  e.flag(false, Pipe::mte2, Pipe::v, pp);
  columnScaleValues(e, p, {scalesUB, slotsUB, slotOffsets, sBuf, tBuf, mbBuf,
                           constBuf, blockMask},
                    G, C, pp);

  // Each block-row's rows in chunks: codes in, decoded, times the block-row's
  // scale values, out.
  Value codeLen = e.div(e.add(e.mul(cols, p.codeBits), 7), 8);
  Value outLen = e.mul(cols, p.outBytes);
  for (int64_t j = 0; j < G; ++j) {
    Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                      e.idx(j * B), rows);
    Value rowsJ = arith::SelectOp::create(
        b, loc, has, e.min(e.idx(B), e.sub(rows, e.idx(j * B))), e.idx(0));
    Value chunks = e.div(e.add(rowsJ, RC - 1), RC);
    auto loop = scf::ForOp::create(b, loc, e.idx(0), chunks, e.idx(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value done = e.mul(loop.getInductionVar(), RC);
    Value r = e.add(e.add(m0, done), j * B); // the chunk's first row
    Value chunkRows = e.min(e.idx(RC), e.sub(rowsJ, done));

    e.flag(false, Pipe::v, Pipe::mte2, pp);
    CopyGmToUbOp::create(b, loc, codesUB, codesGM,
                         e.add(e.mul(e.add(e.mul(o, p.m), r), codeRow),
                               segs.byte(e, e.div(e.mul(c0, p.codeBits), 8))),
                         chunkRows, codeLen, e.sub(e.idx(codeRow), codeLen),
                         e.div(e.sub(e.idx(codePitch), padded(codeLen)), 32),
                         b.getI64IntegerAttr(0));
    e.flag(true, Pipe::mte2, Pipe::v, pp);
    e.flag(false, Pipe::mte2, Pipe::v, pp);
    emitDecode(e, p, codesUB, qBuf, wBuf, laneMask, dBuf, N);
    e.flag(true, Pipe::v, Pipe::mte2, pp); // codes consumed

    if (p.outBytes == 4) // P is this tile's output buffer
      e.flag(false, Pipe::mte3, Pipe::v, pp);
    e.mulRows(P, dBuf, e.add(mbBuf, j * C * 4), RC, C);
    emitResultTail(e, p, P, wBuf, laneMask, outUB, pp, N);
    e.flag(true, Pipe::v, Pipe::mte3, pp);
    e.flag(false, Pipe::v, Pipe::mte3, pp);
    CopyUbToGmOp::create(
        b, loc, outGM,
        e.mul(e.add(e.mul(e.add(e.mul(o, p.m), r), rowN), segs.col(e, c0)),
              p.outBytes),
        outUB, chunkRows, outLen,
        e.div(e.sub(e.idx(outPitch), padded(outLen)), 32),
        e.mul(e.sub(e.idx(rowN), cols), p.outBytes));
    e.flag(true, Pipe::mte3, Pipe::v, pp);
  }

  finishKernel(e, f);
}

} // namespace mxq::vtile::lowering
