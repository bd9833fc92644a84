//===- Dequantize.cpp - dequantize kernels --------------------------------===//
//
// mxq.dequantize (along the last axis or a column axis) as vtile kernels.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::vtile::lowering {

/// UB bytes of a column tile of a dequantize: `g` block-rows x `c` columns.
int64_t dequantizeColumnBytes(const DequantizePlan &p, int64_t g, int64_t c,
                              bool dbl, int64_t laneRows) {
  int64_t n = (laneRows ? laneRows : g * p.block) * c, nb = g * c;
  int64_t depth = dbl ? 2 : 1;
  int64_t bytes = 0;
  bytes += depth * roundUp(n * p.codeBits / 8, 32); // codes
  bytes += depth * roundUp(nb * scaleElementBytes(p.f32), 32); // scales
  bytes += roundUp(n * 4, 32);                      // D (decoded)
  bytes += p.emulate ? roundUp(n * 4, 32)           // X, or Q
                     : (p.codeBits == 4 ? roundUp(n * 2, 32) : 0);
  bytes += roundUp(n * 4, 32) + roundUp(n / 8, 32);            // W, lane mask
  bytes += (p.outBytes == 4 ? depth : 1) * roundUp(n * 4, 32); // P
  bytes += p.outBytes == 4 ? 0 : depth * roundUp(n * p.outBytes, 32);
  bytes += 4 * roundUp(nb, 256) * 4 + roundUp(nb, 256) / 8; // S, T, MB, CONST
  if (p.swizzle) // the scale words' burst slots, the gather offsets
    bytes += depth * c * g * 8 + roundUp(c * 4, 32);
  return bytes;
}

int64_t dequantizeBytes(const DequantizePlan &p, int64_t t, int64_t c,
                        bool dbl) {
  int64_t n = t * c, nb = n / p.block, depth = dbl ? 2 : 1;
  int64_t bytes = 0;
  bytes += depth * roundUp(n * p.codeBits / 8, 32); // codes
  bytes += depth * t * scaleRowBytes(c / p.block, p.f32); // scales
  bytes += roundUp(n * 4, 32);                      // D (decoded)
  bytes += p.emulate                                // X, or Q
               ? roundUp(n * 4, 32)
               : (p.codeBits == 4 ? roundUp(n * 2, 32) : 0);
  bytes += roundUp(n * 4, 32) + roundUp(n / 8, 32);            // W, lane mask
  bytes += (p.outBytes == 4 ? depth : 1) * roundUp(n * 4, 32); // P
  bytes += p.outBytes == 4 ? 0 : depth * roundUp(n * p.outBytes, 32);
  bytes += 3 * roundUp(nb, 256) * 4 + roundUp(nb, 256) / 8; // S, MB, CONST
  if (p.swizzle) // the scale words' burst slots, the gather offsets
    bytes += depth * t * (c / p.block) * 8 + (c / p.block) * 32;
  return bytes;
}

/// The column tiling of a dequantize along a non-last axis: columns a
/// multiple of 64 (whole 32-byte blocks of every buffer, FP4 included),
/// block-rows even for the pairs layout, as many as the UB holds while
/// leaving tiles for every core.
LogicalResult planDequantizeColumns(func::FuncOp func, const Chip &chip,
                                    const TilingOptions &options,
                                    DequantizePlan &p, int64_t rank) {
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(p.op.getCodes().getType()).getShape();
  p.mid = fp4Segments(p.format, shape, p.op.getAxis());
  // swizzle_32_4_4 lays out the last two axes only (the verifier's C5),
  // so a swizzled grid never has segments.
  assert((p.mid == 1 || !p.swizzle) && "segments of a swizzled grid");
  p.n /= p.mid;
  int64_t budget = chip.ubBytes - chip.ubReserved;
  auto fits = [&](int64_t g, int64_t c) {
    return dequantizeColumnBytes(p, g, c, options.doubleBuffer) <= budget;
  };
  auto chunkBytes = [&](int64_t g, int64_t rc, int64_t c) {
    return dequantizeColumnBytes(p, g, c, options.doubleBuffer, rc);
  };
  ColumnTiling t{p.outer * p.mid, p.m, p.n, p.block, p.pairs, p.swizzle};
  if (failed(pickColumnTiling(func, chip, options, fits, t, chunkBytes)))
    return failure();
  p.chunkRows = t.chunkRows;
  p.groups = t.groups, p.tileRows = t.tileRows, p.tileCols = t.tileCols;
  p.slices = t.slices, p.rowTiles = t.rowTiles, p.tiles = t.tiles;
  p.cores = t.cores;
  return success();
}

LogicalResult planDequantize(func::FuncOp func, const Chip &chip,
                             const TilingOptions &options, DequantizePlan &p) {
  auto op = soleOp<dialect::DequantizeOp>(func);
  if (!op)
    return fail(func, kOneOpMessage);
  if (failed(checkStaticShapes(func, op)))
    return failure();
  p.op = op;
  auto codes = cast<RankedTensorType>(op.getCodes().getType());
  auto out = cast<RankedTensorType>(op.getResult().getType());
  int64_t rank = codes.getRank(), axis = op.getAxis();
  p.columns = axis != rank - 1;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = codes.getShape()[d];
    if (d < axis)
      p.outer *= size;
    else if (d > axis)
      p.n *= size;
  }
  p.m = codes.getShape()[axis];
  for (int64_t d : codes.getShape().drop_back())
    p.rows *= d;
  p.k = codes.getShape().back();
  p.block = op.getBlockSize();
  p.swizzle = op.getScaleLayout() == dialect::ScaleLayout::swizzle_32_4_4;
  if (p.swizzle && !p.columns) {
    p.mRows = codes.getShape()[rank - 2];
    p.batch = p.mRows ? p.rows / p.mRows : 0;
  }
  p.pairs = op.getScaleLayout() == dialect::ScaleLayout::pairs;
  p.codeType = codes.getElementType();
  p.format = *dialect::getElementFormat(p.codeType);
  p.codeBits = p.format == ElementFormat::E2M1FN ? 4 : 8;
  // FP6 (the core has no cast) and every format on a chip without MX casts
  // (a2): the codes are decoded by integer code.
  p.emulate = p.format == ElementFormat::E2M3FN ||
              p.format == ElementFormat::E3M2FN || !chip.mxCasts;
  p.outType = out.getElementType();
  p.outBytes = p.outType.getIntOrFloatBitWidth() / 8;
  p.saturate = op.getCast() == dialect::ResultCast::saturate;
  p.f32 = cast<ShapedType>(op.getScales().getType()).getElementType().isF32();
  if (p.columns)
    return planDequantizeColumns(func, chip, options, p, rank);
  Tiling t;
  if (!p.swizzle) {
    if (failed(pickBlockColumnTiling(
            func, chip, options, p.rows, p.k, p.block,
            [&](int64_t r, int64_t c) {
              return dequantizeBytes(p, r, c, options.doubleBuffer);
            },
            t)))
      return failure();
    p.tileRows = t.tileRows, p.tileCols = t.tileCols, p.slices = t.slices;
    p.tiles = t.tiles, p.cores = t.cores;
    return success();
  }
  // Swizzled: whole 32-row groups; columns 4 blocks times a power of two.
  auto bytes = [&](int64_t r, int64_t c) {
    return dequantizeBytes(p, roundUp(r, 32), c, options.doubleBuffer);
  };
  int64_t unit = 4 * p.block;
  if (options.tileRows % 32)
    return fail(func, "tile-rows = " + Twine(options.tileRows) +
                          " is not a multiple of 32 (swizzle_32_4_4 scales "
                          "are read 32 rows at a time)");
  if (failed(check32Rows(func, chip, options.tileCols ? options.tileCols : unit,
                         bytes)))
    return failure();
  int64_t start = unit;
  while (start < p.k && start < (int64_t(1) << 20))
    start *= 2;
  auto valid = [&](int64_t c) {
    return c > 0 && c % unit == 0 && llvm::isPowerOf2_64(c / unit);
  };
  int64_t swizzleRows = roundUp(p.mRows, 32);
  if (failed(pickTiling(func, chip, options, p.batch * swizzleRows, p.k, start,
                        unit, valid,
                        "4 blocks (" + std::to_string(unit) +
                            " columns) times a power of two (swizzled "
                            "scales are gathered by shifts and masks)",
                        bytes, chip.maxBurstCount, t)))
    return failure();
  p.tileRows = std::max<int64_t>(32, t.tileRows / 32 * 32);
  p.tileCols = t.tileCols, p.slices = t.slices;
  p.batchTiles = ceilDiv(swizzleRows, p.tileRows);
  p.tiles = p.batch * p.batchTiles * p.slices;
  p.cores = std::clamp<int64_t>(p.tiles, 1, chip.cores);
  return success();
}

/// The products `P` made results: NaN the canonical quiet NaN, or +0 where
/// the result cast saturates (then +-Inf the largest finite f32), and the
/// cast to a 16-bit result type into `outUB` after waiting for its buffer.
void emitResultTail(Emitter &e, const DequantizePlan &p, Value P, Value wBuf,
                    Value laneMask, Value outUB, Value pp, int64_t N) {
  Type f32 = e.b.getF32Type();
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u32v = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  // NaN: the canonical quiet NaN, or +0 where the result cast saturates.
  replaceNaNLanes(e, P, wBuf, laneMask, u32v(p.saturate ? 0 : 0x7FC00000), u32,
                  N);
  if (p.saturate && p.outBytes == 4) { // +-Inf: +-the largest finite f32
    e.scalar(BinaryKind::And, wBuf, P, u32v(0x7FFFFFFF), u32, N);
    e.cmps(CmpPredicate::eq, laneMask, wBuf, u32v(0x7F800000), u32, N);
    e.scalar(BinaryKind::And, wBuf, P, u32v(0x80000000), u32, N);
    e.scalar(BinaryKind::Or, wBuf, wBuf, u32v(0x7F7FFFFF), u32, N);
    e.sel(P, laneMask, wBuf, P, u32, N);
  }
  if (p.outBytes != 4) {
    e.flag(false, Pipe::mte3, Pipe::v, pp);
    e.cast(outUB, p.outType, P, f32, RoundMode::rint, p.saturate, N);
  }
}

void emitDequantize(func::FuncOp func, const Chip &chip,
                    const DequantizePlan &p, const TilingOptions &options) {
  MLIRContext *ctx = func.getContext();
  dialect::DequantizeOp op = p.op;
  SmallVector<Value> gmValues = {op.getCodes(), op.getScales(), op.getResult()};
  Location loc = op.getLoc();
  const bool dbl = options.doubleBuffer;
  const bool fp4 = p.codeBits == 4;

  Frame f = beginKernel(func, gmValues, p.cores);
  OpBuilder b = OpBuilder::atBlockBegin(f.entry);
  Emitter e{b, loc, chip};
  Value codesGM = f.entry->getArgument(0), scalesGM = f.entry->getArgument(1),
        outGM = f.entry->getArgument(2);
  Type f32 = b.getF32Type();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);

  const int64_t T = p.tileRows, C = p.tileCols, N = T * C, B = p.block;
  const int64_t nbr = C / B, NB = N / B, nbK = ceilDiv(p.k, B);
  const int64_t scaleRow = p.pairs ? 2 * ceilDiv(nbK, 2) : nbK;
  const int64_t codeRow = ceilDiv(p.k * p.codeBits, 8);
  const int64_t codePitch = C * p.codeBits / 8, outPitch = C * p.outBytes;
  const int64_t scalePitch = roundUp(nbr, 32);
  const int64_t maskLanes = roundUp(NB, 256), perBlock = maskLanes * 4;
  const int64_t depth = dbl ? 2 : 1;

  int64_t codeSize = roundUp(N * p.codeBits / 8, 32);
  Value codeBuf = e.buffer(depth * codeSize);
  const int64_t scaleBytes = scaleElementBytes(p.f32);
  const int64_t scaleRowPitch = scaleRowBytes(nbr, p.f32);
  int64_t scaleSize = T * scaleRowPitch;
  Value scaleBuf = e.buffer(depth * scaleSize);
  Value dBuf = e.buffer(N * 4);
  Value qBuf = p.emulate ? e.buffer(N * 4) : fp4 ? e.buffer(N * 2) : Value();
  Value wBuf = e.buffer(N * 4), laneMask = e.buffer(N / 8);
  int64_t pSize = roundUp(N * 4, 32);
  Value pBuf = e.buffer((p.outBytes == 4 ? depth : 1) * pSize);
  int64_t outSize = roundUp(N * p.outBytes, 32);
  Value outBuf = p.outBytes == 4 ? Value() : e.buffer(depth * outSize);
  Value sBuf = e.buffer(perBlock), mbBuf = e.buffer(perBlock),
        constBuf = e.buffer(perBlock), blockMask = e.buffer(maskLanes / 8);
  // Swizzled: each 32-row group's scale words DMA'd one to a 32-byte slot,
  // then gathered into packed rows (offsets: lane l of a group, q = nbr / 4
  // words a row, reads slot (l % q) * 32 + l / q).
  int64_t slotSize = T * nbr * 8;
  Value slotBuf = p.swizzle ? e.buffer(depth * slotSize) : Value();
  Value slotOffsets = p.swizzle ? e.buffer(nbr * 32) : Value();
  if (p.swizzle)
    emitSlotGatherOffsets(e, slotOffsets, wBuf, nbr);

  openTileLoop(e, f, p.tiles, p.cores, dbl);
  Value t = f.t, pp = f.pp;
  Value codesUB = e.add(codeBuf, e.mul(pp, codeSize));
  Value scalesUB = e.add(scaleBuf, e.mul(pp, scaleSize));
  Value P = p.outBytes == 4 ? e.add(pBuf, e.mul(pp, pSize)) : pBuf;
  Value outUB = p.outBytes == 4 ? P : e.add(outBuf, e.mul(pp, outSize));
  Value slice = e.rem(t, p.slices), rowTile = e.div(t, p.slices);
  Value r0 = e.mul(rowTile, T), c0 = e.mul(slice, C);
  Value rows = e.min(e.idx(T), e.sub(e.idx(p.rows), r0));
  Value cols = e.min(e.idx(C), e.sub(e.idx(p.k), c0));
  // Swizzled: r0 inside the tile's batch, gmRow the flat row.
  Value gmRow = r0, batchIdx;
  if (p.swizzle) {
    batchIdx = e.div(rowTile, p.batchTiles);
    r0 = e.mul(e.rem(rowTile, p.batchTiles), T);
    rows = e.min(e.idx(T), arith::MaxSIOp::create(
                               b, loc, e.sub(e.idx(p.mRows), r0), e.idx(0)));
    gmRow = e.add(e.mul(batchIdx, p.mRows), r0);
  }
  auto padded = [&](Value len) { return e.mul(e.div(e.add(len, 31), 32), 32); };

  // DMA in: the codes and the scale bytes of this tile.
  e.flag(false, Pipe::v, Pipe::mte2, pp);
  Value codeLen = e.div(e.add(e.mul(cols, p.codeBits), 7), 8);
  CopyGmToUbOp::create(
      b, loc, codesUB, codesGM,
      e.add(e.mul(gmRow, codeRow), e.div(e.mul(c0, p.codeBits), 8)), rows,
      codeLen, e.sub(e.idx(codeRow), codeLen),
      e.div(e.sub(e.idx(codePitch), padded(codeLen)), 32),
      b.getI64IntegerAttr(0));
  Value blocks = e.div(e.add(cols, B - 1), B);
  Value slotsUB;
  if (p.swizzle) {
    slotsUB = e.add(slotBuf, e.mul(pp, slotSize));
    copySwizzledSlots(e, /*write=*/false, scalesGM,
                      e.mul(batchIdx, swizzleBytes(p.mRows, nbK)), slotsUB, r0,
                      rows, T, e.div(c0, B), nbr, nbK);
  } else {
    Value scaleLen = e.mul(blocks, scaleBytes);
    CopyGmToUbOp::create(
        b, loc, scalesUB, scalesGM,
        e.mul(e.add(e.mul(r0, scaleRow), e.div(c0, B)), scaleBytes), rows,
        scaleLen, e.mul(e.sub(e.idx(scaleRow), blocks), scaleBytes),
        e.div(e.sub(e.idx(scaleRowPitch), padded(scaleLen)), 32),
        b.getI64IntegerAttr(0));
  }
  e.flag(true, Pipe::mte2, Pipe::v, pp);
  e.flag(false, Pipe::mte2, Pipe::v, pp);

  // Decode (exact) and widen the scale bytes.
  emitDecode(e, p, codesUB, qBuf, wBuf, laneMask, dBuf, N);
  if (p.swizzle) {
    for (int64_t g = 0; g < T / 32; ++g)
      e.repeated(nbr * 8, 64, 1, [&](int64_t off, Value r, IntegerAttr mask) {
        VGatherOp::create(b, loc, e.add(scalesUB, g * 32 * nbr + off * 4),
                          e.add(slotsUB, g * nbr * 256),
                          e.add(slotOffsets, off * 4), r, u32, mask);
      });
    e.cast(sBuf, u32, scalesUB, u8, RoundMode::none, false, NB);
  } else if (!p.f32) {
    readScaleRows(e, sBuf, scalesUB, T, nbr, scalePitch);
  }
  if (!p.f32) {
    e.flag(true, Pipe::v, Pipe::mte2, pp); // codes and scales consumed
    emitScaleValues(e, sBuf, mbBuf, constBuf, blockMask, NB, maskLanes);
  }

  if (p.outBytes == 4) // P is this tile's output buffer
    e.flag(false, Pipe::mte3, Pipe::v, pp);
  // Each block's scale value over its lanes: the f32 scales as stored
  // (rows of the UB tile, one at a time where they are not contiguous),
  // else the values of the scale bytes.
  auto broadcast = [&](Value dst, Value values, int64_t lanes) {
    e.repeated(lanes, 64, std::max<int64_t>(1, B / 8),
               [&](int64_t off, Value r, IntegerAttr) {
                 VBroadcastGroupOp::create(b, loc, e.add(dst, off * 4),
                                           e.add(values, off / B * 4), r, u32,
                                           B);
               });
  };
  if (!p.f32)
    broadcast(P, mbBuf, N);
  else if (scaleRowPitch == nbr * 4)
    broadcast(P, scalesUB, N);
  else
    for (int64_t r = 0; r < T; ++r)
      broadcast(e.add(P, r * C * 4), e.add(scalesUB, r * scaleRowPitch), C);
  if (p.f32)
    e.flag(true, Pipe::v, Pipe::mte2, pp); // codes and scales consumed
  e.binary(BinaryKind::mul, P, dBuf, P, f32, N);
  emitResultTail(e, p, P, wBuf, laneMask, outUB, pp, N);

  // DMA out.
  e.flag(true, Pipe::v, Pipe::mte3, pp);
  e.flag(false, Pipe::v, Pipe::mte3, pp);
  Value outLen = e.mul(cols, p.outBytes);
  CopyUbToGmOp::create(
      b, loc, outGM, e.mul(e.add(e.mul(gmRow, p.k), c0), p.outBytes), outUB,
      rows, outLen, e.div(e.sub(e.idx(outPitch), padded(outLen)), 32),
      e.mul(e.sub(e.idx(p.k), cols), p.outBytes));
  e.flag(true, Pipe::mte3, Pipe::v, pp);

  finishKernel(e, f);
}

void columnScaleValues(Emitter &e, const DequantizePlan &p,
                       const ColumnScaleBuffers &bufs, int64_t G, int64_t C,
                       Value pp) {
  MLIRContext *ctx = e.b.getContext();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  const int64_t NB = G * C;
  if (p.f32) { // the stored values multiply
    e.unary(UnaryKind::copy, bufs.values, bufs.scalesUB, u32, NB);
    e.flag(true, Pipe::v, Pipe::mte2, pp); // codes and scales consumed
    return;
  }
  if (p.swizzle)
    splitColumnSlots(e, bufs.s, bufs.t, bufs.slotsUB, bufs.slotOffsets, G, C);
  else if (p.pairs)
    splitColumnPairs(e, bufs.s, bufs.scalesUB, bufs.t, G, C);
  else
    e.cast(bufs.s, u32, bufs.scalesUB, u8, RoundMode::none, false, NB);
  e.flag(true, Pipe::v, Pipe::mte2, pp); // codes and scales consumed
  emitScaleValues(e, bufs.s, bufs.values, bufs.cst, bufs.blockMask, NB,
                  roundUp(NB, 256));
}

/// The kernel of a dequantize along a non-last axis: tiles of whole blocks
/// of rows (the codes seen as [outer, m, n]); each row is multiplied by its
/// block-row's scale values (the scale row re-read for every row: repeat
/// stride 0).
void emitDequantizeColumns(func::FuncOp func, const Chip &chip,
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

  const int64_t B = p.block, G = p.groups, R = G * B, C = p.tileCols;
  const int64_t N = R * C, NB = G * C;
  const int64_t maskLanes = roundUp(NB, 256), perBlock = maskLanes * 4;
  const int64_t codePitch = C * p.codeBits / 8, outPitch = C * p.outBytes;
  const int64_t depth = dbl ? 2 : 1;

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
  // Swizzled: the scale words (four block-rows' bytes of one column) of
  // each 32-column group DMA'd one to a 32-byte slot (copySwizzledSlots,
  // the grid's rows being the columns), then per word-row one gather
  // (column c: slot (c / 32) * G * 8 + c % 32 of that word-row), and the
  // words split into block-rows.
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
  Value m0 = e.mul(rowTile, R), c0 = e.mul(slice, C);
  Value rows = e.min(e.idx(R), e.sub(e.idx(p.m), m0));
  Value cols = e.min(e.idx(C), e.sub(e.idx(p.n), c0));
  auto padded = [&](Value len) { return e.mul(e.div(e.add(len, 31), 32), 32); };

  // DMA in: the tile's rows of codes, and its block-rows of scale bytes
  // (linear: a row of `cols` bytes each; pairs: a row of `cols` byte pairs
  // per two block-rows).
  e.flag(false, Pipe::v, Pipe::mte2, pp);
  Value codeLen = e.div(e.add(e.mul(cols, p.codeBits), 7), 8);
  CopyGmToUbOp::create(b, loc, codesUB, codesGM,
                       e.add(e.mul(e.add(e.mul(o, p.m), m0), codeRow),
                             segs.byte(e, e.div(e.mul(c0, p.codeBits), 8))),
                       rows, codeLen, e.sub(e.idx(codeRow), codeLen),
                       e.div(e.sub(e.idx(codePitch), padded(codeLen)), 32),
                       b.getI64IntegerAttr(0));
  readColumnScales(e, p, segs, scalesGM, scalesUB, slotsUB, o, m0, c0, cols);
  e.flag(true, Pipe::mte2, Pipe::v, pp);
  e.flag(false, Pipe::mte2, Pipe::v, pp);

  // Decode (exact); widen the scale bytes to one u32 lane a block-row
  // column (pairs: each 16-bit lane s0 | s1 << 8 split into two rows).
  emitDecode(e, p, codesUB, qBuf, wBuf, laneMask, dBuf, N);
  columnScaleValues(e, p, {scalesUB, slotsUB, slotOffsets, sBuf, tBuf, mbBuf,
                           constBuf, blockMask},
                    G, C, pp);

  // P: each row times its block-row's scale values.
  if (p.outBytes == 4) // P is this tile's output buffer
    e.flag(false, Pipe::mte3, Pipe::v, pp);
  for (int64_t j = 0; j < G; ++j)
    e.mulRows(e.add(P, j * B * C * 4), e.add(dBuf, j * B * C * 4),
              e.add(mbBuf, j * C * 4), B, C);
  emitResultTail(e, p, P, wBuf, laneMask, outUB, pp, N);

  // DMA out: the tile's rows.
  e.flag(true, Pipe::v, Pipe::mte3, pp);
  e.flag(false, Pipe::v, Pipe::mte3, pp);
  Value outLen = e.mul(cols, p.outBytes);
  CopyUbToGmOp::create(
      b, loc, outGM,
      e.mul(e.add(e.mul(e.add(e.mul(o, p.m), m0), rowN), segs.col(e, c0)),
            p.outBytes),
      outUB, rows, outLen, e.div(e.sub(e.idx(outPitch), padded(outLen)), 32),
      e.mul(e.sub(e.idx(rowN), cols), p.outBytes));
  e.flag(true, Pipe::mte3, Pipe::v, pp);

  finishKernel(e, f);
}

} // namespace mxq::vtile::lowering
