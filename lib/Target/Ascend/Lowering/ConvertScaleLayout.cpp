//===- ConvertScaleLayout.cpp - convert_scale_layout kernels --------------===//
//
// mxq.convert_scale_layout as vtile kernels.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::vtile::lowering {

/// UB bytes a column convert tile of `g` block-rows x `c` columns takes.
int64_t convertColumnBytes(const ConvertPlan &p, int64_t g, int64_t c,
                           bool dbl) {
  int64_t depth = dbl ? 2 : 1, nb = g * c;
  auto stage = [&](bool swizzle) {
    return swizzle ? c * g * 8 : roundUp(nb, 32);
  };
  int64_t bytes = 2 * roundUp(nb * 4, 32); // the u32 lanes, a temporary
  bytes += depth * (stage(p.fromSwizzle) + stage(p.toSwizzle));
  if (p.fromSwizzle) // gather offsets, the columns' lane mask
    bytes += c * 4 + roundUp(nb * 4, 32);
  if (p.toSwizzle) // slot offsets
    bytes += g * 256;
  return bytes;
}

/// UB bytes a convert tile of `t` rows of `c` blocks takes.
int64_t convertBytes(const ConvertPlan &p, int64_t t, int64_t c, bool dbl) {
  int64_t depth = dbl ? 2 : 1, lanes = t * c;
  int64_t pitch = roundUp(c, 32);
  int64_t bytes = roundUp(lanes * 4, 32); // the u32 lanes
  bytes += depth * (p.fromSwizzle ? lanes * 8 : t * pitch);
  bytes += depth * (p.toSwizzle ? lanes * 8 : t * pitch);
  if (p.fromSwizzle) // packed rows, gather offsets, the lane mask
    bytes += roundUp(lanes, 32) + c * 32 + roundUp(lanes * 4, 32);
  if (p.toSwizzle) // packed rows, slot offsets
    bytes += roundUp(lanes, 32) + c * 256;
  return bytes;
}

LogicalResult planConvert(func::FuncOp func, const Chip &chip,
                          const TilingOptions &options, ConvertPlan &p) {
  auto op = soleOp<dialect::ConvertScaleLayoutOp>(func);
  if (!op)
    return fail(func, kOneOpMessage);
  if (failed(checkStaticShapes(func, op)))
    return failure();
  p.op = op;
  auto codes = cast<RankedTensorType>(op.getCodes().getType());
  int64_t rank = codes.getRank(), axis = op.getAxis();
  using Layout = dialect::ScaleLayout;
  Layout from = op.getFrom(), to = op.getTo();
  p.fromSwizzle = from == Layout::swizzle_32_4_4;
  p.toSwizzle = to == Layout::swizzle_32_4_4;
  p.fromPairs = from == Layout::pairs, p.toPairs = to == Layout::pairs;
  int64_t block = op.getBlockSize();
  if (axis != rank - 1) {
    p.columns = true;
    ColumnTiling &t = p.cols;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = codes.getShape()[d];
      if (d < axis)
        t.outer *= size;
      else if (d > axis)
        t.n *= size;
    }
    t.m = codes.getShape()[axis];
    t.block = block;
    t.pairs = p.fromPairs || p.toPairs;
    t.swizzle = p.fromSwizzle || p.toSwizzle;
    t.padColumns = p.toSwizzle;
    p.nbK = ceilDiv(t.m, block);
    int64_t budget = chip.ubBytes - chip.ubReserved;
    if (failed(pickColumnTiling(
            func, chip, options,
            [&](int64_t g, int64_t c) {
              return convertColumnBytes(p, g, c, options.doubleBuffer) <=
                     budget;
            },
            t)))
      return failure();
    p.tiles = p.nbK == 0 || t.n == 0 ? 0 : t.tiles;
    p.cores = std::clamp<int64_t>(p.tiles, 1, chip.cores);
    return success();
  }
  p.nbK = ceilDiv(codes.getShape().back(), block);
  auto rowBytes = [&](Layout l) {
    return l == Layout::pairs ? 2 * ceilDiv(p.nbK, 2) : p.nbK;
  };
  p.fromRow = rowBytes(from), p.toRow = rowBytes(to);
  for (int64_t d : codes.getShape().drop_back())
    p.rows *= d;
  bool swizzled = p.fromSwizzle || p.toSwizzle;
  // Blocks a tile row: a multiple of 8 lanes (a strided cast's rows start
  // on 32 bytes) of at most 64, or of 32; swizzled, 4-lane words times a
  // power of two (the slots are gathered by shifts and masks).
  auto valid = [&](int64_t c) {
    if (c < 8)
      return false;
    return swizzled ? llvm::isPowerOf2_64(c)
                    : c % 8 == 0 && (c <= 64 || c % 32 == 0);
  };
  std::string rule = swizzled ? "8 blocks times a power of two (swizzled "
                                "scales are gathered by shifts and masks)"
                              : "a multiple of 8 blocks of at most 64, or "
                                "a multiple of 32 blocks";
  int64_t budget = chip.ubBytes - chip.ubReserved;
  int64_t least = swizzled ? 32 : 1;
  auto fits = [&](int64_t t, int64_t c) {
    return convertBytes(p, t, c, options.doubleBuffer) <= budget;
  };
  if (options.tileCols) {
    int64_t c = options.tileCols / block;
    if (options.tileCols % block || !valid(c))
      return fail(func, "tile-cols = " + Twine(options.tileCols) +
                            " is not a tile of " + rule + ", blocks of " +
                            Twine(block));
    if (!fits(least, c))
      return fail(func,
                  "a tile of " + Twine(least) + " rows of " + Twine(c) +
                      " scales needs " +
                      Twine(convertBytes(p, least, c, options.doubleBuffer)) +
                      " bytes of UB, more than the " + Twine(budget) +
                      " chip " + Twine(chip.name) + " has");
    p.nbr = c;
  } else {
    int64_t c = swizzled      ? std::max<int64_t>(8, llvm::PowerOf2Ceil(p.nbK))
                : p.nbK <= 64 ? std::max<int64_t>(8, roundUp(p.nbK, 8))
                              : roundUp(p.nbK, 32);
    while (c > 8 && !fits(least, c))
      c = swizzled ? c / 2
          : c > 64 ? std::max<int64_t>(64, c / 2 / 32 * 32)
                   : c - 8;
    if (!fits(least, c))
      return fail(func, "a tile of " + Twine(least) + " rows of " + Twine(c) +
                            " scales does not fit the " + Twine(budget) +
                            "-byte UB of chip " + Twine(chip.name));
    p.nbr = c;
  }
  p.slices = std::max<int64_t>(1, ceilDiv(p.nbK, p.nbr));
  if (swizzled) {
    p.mRows = codes.getShape()[rank - 2];
    p.batch = p.mRows ? p.rows / p.mRows : 0;
    p.spanRows = roundUp(p.mRows, p.toSwizzle ? 128 : 32);
  }
  int64_t span = swizzled ? p.batch * p.spanRows : p.rows;
  int64_t most = least;
  while (most + least <= std::min<int64_t>(span, chip.maxBurstCount) &&
         fits(most + least, p.nbr))
    most += least;
  if (options.tileRows) {
    if (swizzled && options.tileRows % 32)
      return fail(func, "tile-rows = " + Twine(options.tileRows) +
                            " is not a multiple of 32 (swizzle_32_4_4 "
                            "scales move 32 rows at a time)");
    if (options.tileRows > chip.maxBurstCount)
      return fail(func, "tile-rows = " + Twine(options.tileRows) +
                            " is more than the " + Twine(chip.maxBurstCount) +
                            " bursts one DMA moves (a burst a row)");
    if (options.tileRows > most && !fits(options.tileRows, p.nbr))
      return fail(func, "tile-rows = " + Twine(options.tileRows) + " of " +
                            Twine(p.nbr) + " scales needs " +
                            Twine(convertBytes(p, options.tileRows, p.nbr,
                                               options.doubleBuffer)) +
                            " bytes of UB, more than the " + Twine(budget) +
                            " chip " + Twine(chip.name) + " has");
    p.tileRows = options.tileRows;
  } else {
    int64_t perSlice = ceilDiv(chip.cores, p.slices);
    p.tileRows =
        std::clamp<int64_t>(span / perSlice / least * least, least, most);
  }
  if (swizzled) {
    p.batchTiles = ceilDiv(p.spanRows, p.tileRows);
    p.rowTiles = p.batch * p.batchTiles;
  } else {
    p.rowTiles = ceilDiv(p.rows, p.tileRows);
  }
  p.tiles = p.nbK == 0 ? 0 : p.rowTiles * p.slices;
  p.cores = std::clamp<int64_t>(p.tiles, 1, chip.cores);
  return success();
}

/// convert_scale_layout along a non-last axis: a tile of G block-rows x C
/// columns read in the source layout onto u32 lanes (block-row j's columns
/// at lanes j * C) as emitDequantizeColumns reads them, and written as
/// emitColumns writes them; the staging buffers zeroed as emitConvert's.
void emitConvertColumns(func::FuncOp func, const Chip &chip,
                        const ConvertPlan &p, const TilingOptions &options) {
  MLIRContext *ctx = func.getContext();
  dialect::ConvertScaleLayoutOp op = p.op;
  const ColumnTiling &ct = p.cols;
  SmallVector<Value> gmValues = {op.getScales(), op.getCodes(), op.getResult()};
  Location loc = op.getLoc();
  const bool dbl = options.doubleBuffer;
  Frame f = beginKernel(func, gmValues, p.cores);
  OpBuilder b = OpBuilder::atBlockBegin(f.entry);
  Emitter e{b, loc, chip};
  Value inGM = f.entry->getArgument(0), outGM = f.entry->getArgument(2);
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  auto u = [&](int64_t v) { return IntegerAttr::get(u32, v); };

  const int64_t G = ct.groups, C = ct.tileCols, NB = G * C, nb = p.nbK;
  const int64_t n = ct.n, depth = dbl ? 2 : 1;
  auto stageSize = [&](bool swizzle) {
    return swizzle ? C * G * 8 : roundUp(NB, 32);
  };
  const int64_t inSize = stageSize(p.fromSwizzle),
                outSize = stageSize(p.toSwizzle);
  Value sBuf = e.buffer(NB * 4), tBuf = e.buffer(NB * 4);
  Value inBuf = e.buffer(depth * inSize), outBuf = e.buffer(depth * outSize);
  // The slice holding the last column, and its columns.
  const int64_t lastSlice = n ? (n - 1) / C : 0, lastCols = n - lastSlice * C;
  const bool maskCols = p.fromSwizzle && p.toSwizzle && lastCols < C;
  Value inOffsets, colKeep, outOffsets;
  if (p.fromSwizzle) {
    inOffsets = e.buffer(C * 4);
    emitColumnGatherOffsets(e, inOffsets, tBuf, G, C);
  }
  if (maskCols) {
    // All ones on the last slice's real columns of every block-row: column
    // c of a row, (c - lastCols) >> 31, times 2^32 - 1.
    colKeep = e.buffer(NB * 4);
    for (int64_t j = 0; j < G; ++j)
      e.repeated(C, 64, 1, [&](int64_t off, Value r, IntegerAttr) {
        VIndexOp::create(b, loc, e.add(colKeep, (j * C + off) * 4), r, u32,
                         uint64_t(off));
      });
    e.scalar(BinaryKind::sub, colKeep, colKeep, u(lastCols), u32, NB);
    e.scalar(BinaryKind::shr, colKeep, colKeep, u(31), u32, NB);
    e.scalar(BinaryKind::mul, colKeep, colKeep, u(0xFFFFFFFF), u32, NB);
  }
  if (p.toSwizzle) {
    outOffsets = e.buffer(G * 64 * 4);
    emitColumnSlotOffsets(e, outOffsets, tBuf, G, C);
  }
  e.dup(inBuf, u(0), u32, depth * inSize / 4);
  e.dup(outBuf, u(0), u32, depth * outSize / 4);

  openTileLoop(e, f, p.tiles, p.cores, dbl);
  Value t = f.t, pp = f.pp;
  Value inUB = e.add(inBuf, e.mul(pp, inSize));
  Value outUB = e.add(outBuf, e.mul(pp, outSize));
  // t = (o * rowTiles + rowTile) * slices + slice
  Value slice = e.rem(t, ct.slices), rest = e.div(t, ct.slices);
  Value rowTile = e.rem(rest, ct.rowTiles), o = e.div(rest, ct.rowTiles);
  Value g0 = e.mul(rowTile, G), c0 = e.mul(slice, C);
  Value blockRows = e.min(e.idx(G), e.sub(e.idx(nb), g0));
  // Slices of a swizzled destination run to the columns padded to 128.
  Value cols = e.min(
      e.idx(C), arith::MaxSIOp::create(b, loc, e.sub(e.idx(n), c0), e.idx(0)));
  auto padded = [&](Value len) { return e.mul(e.div(e.add(len, 31), 32), 32); };
  const int64_t nh = ceilDiv(nb, 2);
  Value swizzleBase =
      (p.fromSwizzle || p.toSwizzle) ? e.mul(o, swizzleBytes(n, nb)) : Value();

  // DMA in.
  e.flag(false, Pipe::v, Pipe::mte2, pp);
  if (p.fromSwizzle) {
    copySwizzledSlots(e, /*write=*/false, inGM, swizzleBase, inUB, c0, cols, C,
                      g0, G, nb);
  } else if (p.fromPairs) {
    Value len = e.mul(cols, 2);
    CopyGmToUbOp::create(
        b, loc, inUB, inGM,
        e.mul(e.add(e.mul(e.add(e.mul(o, nh), e.div(g0, 2)), n), c0), 2),
        e.div(e.add(blockRows, 1), 2), len, e.mul(e.sub(e.idx(n), cols), 2),
        e.div(e.sub(e.idx(2 * C), padded(len)), 32), b.getI64IntegerAttr(0));
  } else {
    CopyGmToUbOp::create(
        b, loc, inUB, inGM, e.add(e.mul(e.add(e.mul(o, nb), g0), n), c0),
        blockRows, cols, e.sub(e.idx(n), cols),
        e.div(e.sub(e.idx(C), padded(cols)), 32), b.getI64IntegerAttr(0));
  }
  e.flag(true, Pipe::mte2, Pipe::v, pp);
  e.flag(false, Pipe::mte2, Pipe::v, pp);

  // One u32 lane a block (emitDequantizeColumns' widening).
  if (p.fromSwizzle) {
    splitColumnSlots(e, sBuf, tBuf, inUB, inOffsets, G, C);
  } else if (p.fromPairs) {
    splitColumnPairs(e, sBuf, inUB, tBuf, G, C);
  } else {
    e.cast(sBuf, u32, inUB, u8, RoundMode::none, false, NB);
  }
  auto inBranch = [&](Value cond, function_ref<void()> body) {
    auto branch = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    body();
  };
  // The source's padding that comes in with real data is set to 0: the
  // block-rows past the last (a pair's second byte, the rest of a 4-row
  // word) in the last row tile, and a swizzled source's grid rows past the
  // last column in the slice that holds it.
  const int64_t lastRows = nb - (ct.rowTiles - 1) * G;
  if ((p.fromSwizzle || p.fromPairs) && lastRows < G)
    inBranch(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rowTile,
                                   e.idx(ct.rowTiles - 1)),
             [&] {
               e.dup(e.add(sBuf, lastRows * C * 4), u(0), u32,
                     (G - lastRows) * C);
             });
  if (maskCols)
    inBranch(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slice,
                                   e.idx(lastSlice)),
             [&] { e.binary(BinaryKind::And, sBuf, sBuf, colKeep, u32, NB); });
  e.dup(inUB, u(0), u32, inSize / 4);
  e.flag(true, Pipe::v, Pipe::mte2, pp); // the source tile consumed

  // The destination layout (emitColumns' writers).
  e.flag(false, Pipe::mte3, Pipe::v, pp);
  if (p.toPairs) {
    joinColumnPairs(e, outUB, sBuf, tBuf, G, C);
  } else if (p.toSwizzle) {
    // The words in tBuf's first G / 4 word-rows, its next row the shifts.
    gatherColumnSlots(e, outUB, tBuf, sBuf, e.add(tBuf, G / 4 * C * 4),
                      outOffsets, G, C);
  } else {
    e.cast(outUB, u8, sBuf, u32, RoundMode::none, false, NB);
  }
  e.flag(true, Pipe::v, Pipe::mte3, pp);
  e.flag(false, Pipe::v, Pipe::mte3, pp);
  if (p.toSwizzle) {
    Value written = e.min(e.idx(C), e.sub(e.idx(roundUp(n, 128)), c0));
    copySwizzledSlots(e, /*write=*/true, outGM, swizzleBase, outUB, c0, written,
                      C, g0, G, nb);
  } else if (p.toPairs) {
    Value len = e.mul(cols, 2);
    CopyUbToGmOp::create(
        b, loc, outGM,
        e.mul(e.add(e.mul(e.add(e.mul(o, nh), e.div(g0, 2)), n), c0), 2), outUB,
        e.div(e.add(blockRows, 1), 2), len,
        e.div(e.sub(e.idx(2 * C), padded(len)), 32),
        e.mul(e.sub(e.idx(n), cols), 2));
  } else {
    CopyUbToGmOp::create(
        b, loc, outGM, e.add(e.mul(e.add(e.mul(o, nb), g0), n), c0), outUB,
        blockRows, cols, e.div(e.sub(e.idx(C), padded(cols)), 32),
        e.sub(e.idx(n), cols));
  }
  e.flag(true, Pipe::mte3, Pipe::v, pp);
  finishKernel(e, f);
}

void emitConvert(func::FuncOp func, const Chip &chip, const ConvertPlan &p,
                 const TilingOptions &options) {
  MLIRContext *ctx = func.getContext();
  dialect::ConvertScaleLayoutOp op = p.op;
  SmallVector<Value> gmValues = {op.getScales(), op.getCodes(), op.getResult()};
  Location loc = op.getLoc();
  const bool dbl = options.doubleBuffer;
  Frame f = beginKernel(func, gmValues, p.cores);
  OpBuilder b = OpBuilder::atBlockBegin(f.entry);
  Emitter e{b, loc, chip};
  Value inGM = f.entry->getArgument(0), outGM = f.entry->getArgument(2);
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  auto u = [&](int64_t v) { return IntegerAttr::get(u32, v); };

  const int64_t T = p.tileRows, nbr = p.nbr, lanes = T * nbr, nbK = p.nbK;
  const int64_t pitch = roundUp(nbr, 32), depth = dbl ? 2 : 1;
  const int64_t inSize = p.fromSwizzle ? lanes * 8 : T * pitch;
  const int64_t outSize = p.toSwizzle ? lanes * 8 : T * pitch;
  // The blocks of the last slice: the lanes after them hold the source's
  // padding (swizzled) or nothing.
  const int64_t lastBlocks = nbK - (p.slices - 1) * nbr;
  Value sBuf = e.buffer(lanes * 4);
  Value inBuf = e.buffer(depth * inSize), outBuf = e.buffer(depth * outSize);
  Value packedIn, inOffsets, keep, packedOut, outOffsets;
  if (p.fromSwizzle) {
    packedIn = e.buffer(lanes);
    inOffsets = e.buffer(nbr * 32);
    keep = e.buffer(lanes * 4);
    emitSlotGatherOffsets(e, inOffsets, sBuf, nbr);
    // The last slice's lanes of real blocks: all ones, the rest 0 (lane
    // j of a row: (j - lastBlocks) >> 31, times 2^32 - 1).
    e.repeated(lanes, 64, 1, [&](int64_t off, Value r, IntegerAttr) {
      VIndexOp::create(b, loc, e.add(keep, off * 4), r, u32, uint64_t(off));
    });
    e.scalar(BinaryKind::And, keep, keep, u(nbr - 1), u32, lanes);
    e.scalar(BinaryKind::sub, keep, keep, u(lastBlocks), u32, lanes);
    e.scalar(BinaryKind::shr, keep, keep, u(31), u32, lanes);
    e.scalar(BinaryKind::mul, keep, keep, u(0xFFFFFFFF), u32, lanes);
  }
  if (p.toSwizzle) {
    packedOut = e.buffer(lanes);
    outOffsets = e.buffer(nbr * 256);
    emitSlotOffsets(e, outOffsets, outBuf, nbr); // outBuf as scratch
  }
  // Every staging buffer starts as 0 (the source's, zeroed again after
  // each use).
  e.dup(inBuf, u(0), u32, depth * inSize / 4);
  e.dup(outBuf, u(0), u32, depth * outSize / 4);

  openTileLoop(e, f, p.tiles, p.cores, dbl);
  Value t = f.t, pp = f.pp;
  Value inUB = e.add(inBuf, e.mul(pp, inSize));
  Value outUB = e.add(outBuf, e.mul(pp, outSize));
  bool swizzled = p.fromSwizzle || p.toSwizzle;
  Value slice = e.rem(t, p.slices), rowTile = e.div(t, p.slices);
  Value b0 = e.mul(slice, nbr);
  Value r0 = e.mul(rowTile, T), gmRow = r0, batchIdx, rowsIn, rowsOut;
  if (swizzled) {
    batchIdx = e.div(rowTile, p.batchTiles);
    r0 = e.mul(e.rem(rowTile, p.batchTiles), T);
    gmRow = e.add(e.mul(batchIdx, p.mRows), r0);
    rowsIn = e.min(e.idx(T), arith::MaxSIOp::create(
                                 b, loc, e.sub(e.idx(p.mRows), r0), e.idx(0)));
    rowsOut =
        p.toSwizzle ? e.min(e.idx(T), e.sub(e.idx(p.spanRows), r0)) : rowsIn;
  } else {
    rowsIn = rowsOut = e.min(e.idx(T), e.sub(e.idx(p.rows), r0));
  }
  Value swizzleBase =
      swizzled ? e.mul(batchIdx, swizzleBytes(p.mRows, nbK)) : Value();
  auto padded = [&](Value len) { return e.mul(e.div(e.add(len, 31), 32), 32); };

  // DMA in: the tile in the source layout.
  e.flag(false, Pipe::v, Pipe::mte2, pp);
  if (p.fromSwizzle) {
    copySwizzledSlots(e, /*write=*/false, inGM, swizzleBase, inUB, r0, rowsIn,
                      T, b0, nbr, nbK);
  } else {
    Value len = e.min(e.idx(nbr), e.sub(e.idx(nbK), b0));
    CopyGmToUbOp::create(b, loc, inUB, inGM, e.add(e.mul(gmRow, p.fromRow), b0),
                         rowsIn, len, e.sub(e.idx(p.fromRow), len),
                         e.div(e.sub(e.idx(pitch), padded(len)), 32),
                         b.getI64IntegerAttr(0));
  }
  e.flag(true, Pipe::mte2, Pipe::v, pp);
  e.flag(false, Pipe::mte2, Pipe::v, pp);

  // One u32 lane a block.
  if (p.fromSwizzle) {
    for (int64_t g = 0; g < T / 32; ++g)
      e.repeated(nbr * 8, 64, 1, [&](int64_t off, Value r, IntegerAttr mask) {
        VGatherOp::create(b, loc, e.add(packedIn, g * 32 * nbr + off * 4),
                          e.add(inUB, g * nbr * 256), e.add(inOffsets, off * 4),
                          r, u32, mask);
      });
    e.cast(sBuf, u32, packedIn, u8, RoundMode::none, false, lanes);
    auto inBranch = [&](Value cond, function_ref<void()> body) {
      auto branch = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&branch.getThenRegion().front());
      body();
    };
    // The last slice: the source's padding bytes in its last word set to 0.
    if (lastBlocks % 4)
      inBranch(
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slice,
                                e.idx(p.slices - 1)),
          [&] { e.binary(BinaryKind::And, sBuf, sBuf, keep, u32, lanes); });
    // A 32-row group is read whole: in the tile that holds row mRows, the
    // source's padding rows after it are set to 0 (a swizzled destination
    // writes them).
    int64_t tail = p.mRows % T;
    if (p.toSwizzle && tail)
      inBranch(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, r0,
                                     e.idx(p.mRows - tail)),
               [&] {
                 e.dup(e.add(sBuf, tail * nbr * 4), u(0), u32,
                       (T - tail) * nbr);
               });
  } else {
    readScaleRows(e, sBuf, inUB, T, nbr, pitch);
  }
  e.dup(inUB, u(0), u32, inSize / 4);
  e.flag(true, Pipe::v, Pipe::mte2, pp); // the source tile consumed

  // The destination layout.
  e.flag(false, Pipe::mte3, Pipe::v, pp);
  if (p.toSwizzle) {
    e.cast(packedOut, u8, sBuf, u32, RoundMode::none, false, lanes);
    gatherSlots(e, outUB, packedOut, outOffsets, T, nbr);
  } else {
    writeScaleRows(e, outUB, sBuf, T, nbr, pitch);
  }
  e.flag(true, Pipe::v, Pipe::mte3, pp);
  e.flag(false, Pipe::v, Pipe::mte3, pp);
  if (p.toSwizzle) {
    copySwizzledSlots(e, /*write=*/true, outGM, swizzleBase, outUB, r0, rowsOut,
                      T, b0, nbr, nbK);
  } else {
    // The pairs layout's odd last block takes its pad byte (lane nbK: 0).
    Value len = e.min(e.idx(nbr), e.sub(e.idx(p.toRow), b0));
    CopyUbToGmOp::create(b, loc, outGM, e.add(e.mul(gmRow, p.toRow), b0), outUB,
                         rowsOut, len,
                         e.div(e.sub(e.idx(pitch), padded(len)), 32),
                         e.sub(e.idx(p.toRow), len));
  }
  e.flag(true, Pipe::mte3, Pipe::v, pp);
  finishKernel(e, f);
}

} // namespace mxq::vtile::lowering
