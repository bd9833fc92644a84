//===- ScaleLayouts.cpp - scale layouts in UB and GM ----------------------===//
//
// Where scales go: scale rows gathered and cast to bytes, swizzle_32_4_4
// burst slots and their DMA, pairs and swizzled scales of column tiles.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "mxq/Conversion/IndexExpr.h"

namespace mxq::vtile::lowering {

/// Whether a row of `perRow` scale bytes needs writeScaleRows' gather: a
/// row of u32 lanes that does not start on a 32-byte block (a repeat's
/// stride is in whole blocks), i.e. fewer than 8 blocks or not a multiple
/// of 8 (at most 64: the gathered rows are 32 or 64 lanes).
bool scaleRowsGathered(int64_t perRow) {
  return perRow % 32 != 0 && perRow % 8 != 0;
}

/// The gather offsets (u32 lanes of byte offsets) of writeScaleRows for
/// `rows` rows of `perRow` scale lanes spread to rows of `pitch` lanes (32
/// or 64): lane l reads lane (l / pitch) * perRow + min(l % pitch, perRow -
/// 1) of the packed rows (the lanes past a row's end repeat its last, which
/// the DMA out does not write). `tmp` holds rows * pitch u32 lanes.
void emitScaleRowOffsets(Emitter &e, Value offsets, Value tmp, int64_t rows,
                         int64_t perRow, int64_t pitch) {
  OpBuilder &b = e.b;
  Type u32 = IntegerType::get(b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  int64_t lanes = rows * pitch;
  e.repeated(lanes, 64, 1, [&](int64_t off, Value r, IntegerAttr) {
    VIndexOp::create(b, e.loc, e.add(offsets, off * 4), r, u32, uint64_t(off));
  });
  e.scalar(BinaryKind::shr, tmp, offsets, u(llvm::Log2_64(pitch)), u32, lanes);
  e.scalar(BinaryKind::mul, tmp, tmp, u(perRow * 4), u32, lanes);
  e.scalar(BinaryKind::And, offsets, offsets, u(pitch - 1), u32, lanes);
  e.scalar(BinaryKind::min, offsets, offsets, u(perRow - 1), u32, lanes);
  e.scalar(BinaryKind::shl, offsets, offsets, u(2), u32, lanes);
  e.binary(BinaryKind::add, offsets, offsets, tmp, u32, lanes);
}

/// Scale bytes (u32 lanes in `s`, `perRow` a row) into `dst` rows of
/// `pitch` bytes: one contiguous cast when rows are whole 32-byte rows
/// (`perRow` a multiple of 32), one masked repeat per row when a row starts
/// on a 32-byte block (`perRow` a multiple of 8), else (scaleRowsGathered)
/// the rows gathered to `pitch` lanes each into `tmp` by `offsets`
/// (emitScaleRowOffsets) and cast in one go.
int64_t scaleRowBytes(int64_t perRow, bool f32) {
  int64_t pitch = roundUp(perRow, 32);
  if (!f32)
    return pitch;
  return scaleRowsGathered(perRow) ? pitch * 4 : perRow * 4;
}

void writeScaleRows(Emitter &e, Value dst, Value s, int64_t rows,
                    int64_t perRow, int64_t pitch, Value offsets, Value tmp) {
  OpBuilder &b = e.b;
  Type u32 = IntegerType::get(b.getContext(), 32, IntegerType::Unsigned);
  Type u8 = IntegerType::get(b.getContext(), 8, IntegerType::Unsigned);
  if (perRow % 32 == 0)
    return e.cast(dst, u8, s, u32, RoundMode::none, false, rows * perRow);
  if (scaleRowsGathered(perRow)) {
    e.repeated(rows * pitch, 64, 1, [&](int64_t off, Value r, IntegerAttr m) {
      VGatherOp::create(b, e.loc, e.add(tmp, off * 4), s,
                        e.add(offsets, off * 4), r, u32, m);
    });
    return e.cast(dst, u8, tmp, u32, RoundMode::none, false, rows * pitch);
  }
  for (int64_t row0 = 0; row0 < rows; row0 += e.chip.maxRepeat) {
    int64_t n = std::min<int64_t>(e.chip.maxRepeat, rows - row0);
    VCastOp::create(b, e.loc, e.add(dst, row0 * pitch),
                    e.add(s, row0 * perRow * 4), e.idx(n), u32, u8,
                    RoundMode::none, false, b.getI64IntegerAttr(perRow),
                    b.getDenseI64ArrayAttr({1, 1}),
                    b.getDenseI64ArrayAttr({pitch / 32, perRow * 4 / 32}));
  }
}

/// writeScaleRows backwards: scale bytes in rows of `pitch` bytes (`perRow`
/// a row, a multiple of 8) widened to u32 lanes in `s`, `perRow` a row.
void readScaleRows(Emitter &e, Value s, Value src, int64_t rows, int64_t perRow,
                   int64_t pitch) {
  OpBuilder &b = e.b;
  Type u32 = IntegerType::get(b.getContext(), 32, IntegerType::Unsigned);
  Type u8 = IntegerType::get(b.getContext(), 8, IntegerType::Unsigned);
  if (perRow % 32 == 0)
    return e.cast(s, u32, src, u8, RoundMode::none, false, rows * perRow);
  for (int64_t row0 = 0; row0 < rows; row0 += e.chip.maxRepeat) {
    int64_t n = std::min<int64_t>(e.chip.maxRepeat, rows - row0);
    VCastOp::create(b, e.loc, e.add(s, row0 * perRow * 4),
                    e.add(src, row0 * pitch), e.idx(n), u8, u32,
                    RoundMode::none, false, b.getI64IntegerAttr(perRow),
                    b.getDenseI64ArrayAttr({1, 1}),
                    b.getDenseI64ArrayAttr({perRow * 4 / 32, pitch / 32}));
  }
}

//===----------------------------------------------------------------------===//
// swizzle_32_4_4 scales
//
// Scale (r, c) of an [R, K] scale matrix lives at byte
//   ((r / 128) * W + c / 4) * 512 + (r % 32) * 16 + ((r % 128) / 32) * 4
//   + c % 4,  W = ceil(K / 4)
// (mxq/Support/ScaleLayout.h). A row's scales c = 4w .. 4w + 3 are one
// 4-byte word; for the 32 rows r0 + j of one 32-row group (r0 a multiple of
// 32) the words (w, j) sit at a uniform stride of 16 bytes in the order
// w * 32 + j. So one DataCopyPad of 4-byte bursts with a 12-byte GM gap
// writes a group's words, each burst from its own 32-byte UB slot; a
// vtile.vgather puts each word at the start of its slot (the other 28
// bytes of a slot repeat it).
//===----------------------------------------------------------------------===//

/// The gather offsets (u32 lanes, 8 a slot) of one 32-row group of packed
/// scale rows of `nbr` bytes (a multiple of 8): lane l, slot s = l / 8,
/// reads row s % 32, word s / 32: byte (s % 32) * nbr + (s / 32) * 4.
/// `tmp` holds nbr * 64 u32 lanes of scratch.
void emitSlotOffsets(Emitter &e, Value offsets, Value tmp, int64_t nbr) {
  OpBuilder &b = e.b;
  Type u32 = IntegerType::get(b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  int64_t lanes = nbr * 64;
  e.repeated(lanes, 64, 1, [&](int64_t off, Value r, IntegerAttr) {
    VIndexOp::create(b, e.loc, e.add(offsets, off * 4), r, u32, uint64_t(off));
  });
  e.scalar(BinaryKind::shr, offsets, offsets, u(3), u32, lanes);
  e.scalar(BinaryKind::And, tmp, offsets, u(31), u32, lanes);
  e.scalar(BinaryKind::mul, tmp, tmp, u(nbr), u32, lanes);
  e.scalar(BinaryKind::shr, offsets, offsets, u(5), u32, lanes);
  e.scalar(BinaryKind::shl, offsets, offsets, u(2), u32, lanes);
  e.binary(BinaryKind::add, offsets, offsets, tmp, u32, lanes);
}

/// Every 32-row group of the `rows` packed scale rows at `scales` gathered
/// into its burst slots: group g's (nbr / 4) * 32 slots from `slots` + g *
/// nbr * 256.
void gatherSlots(Emitter &e, Value slots, Value scales, Value offsets,
                 int64_t rows, int64_t nbr) {
  OpBuilder &b = e.b;
  Type u32 = IntegerType::get(b.getContext(), 32, IntegerType::Unsigned);
  for (int64_t g = 0; g < rows / 32; ++g) {
    Value dst = e.add(slots, g * nbr * 256), src = e.add(scales, g * 32 * nbr);
    e.repeated(nbr * 64, 64, 1, [&](int64_t off, Value r, IntegerAttr mask) {
      VGatherOp::create(b, e.loc, e.add(dst, off * 4), src,
                        e.add(offsets, off * 4), r, u32, mask);
    });
  }
}

/// The slots of a tile's 32-row groups to GM (`write`) or from it: rows
/// `r0` + 32g (inside the scale matrix at byte `base`) for the groups below
/// `rows` rows, scale columns from `b0` (a multiple of 4), `nbr` a row in
/// the tile, `nbK` in the matrix. One copy a group (or per 127 words: the
/// burst limit) of 4-byte bursts 16 bytes apart in GM, each burst on its
/// own 32 bytes of UB.
void copySwizzledSlots(Emitter &e, bool write, Value gm, Value base,
                       Value slots, Value r0, Value rows, int64_t tileRows,
                       Value b0, int64_t nbr, int64_t nbK) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int64_t words = nbr / 4, perCopy = e.chip.maxBurstCount / 32;
  int64_t W = ceilDiv(nbK, 4);
  Value w0 = e.div(b0, 4);
  Value valid = e.min(e.idx(words), e.sub(e.idx(W), w0));
  for (int64_t g = 0; g < tileRows / 32; ++g) {
    Value here = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       e.idx(g * 32), rows);
    auto branch = scf::IfOp::create(b, loc, here, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    Value r = e.add(r0, g * 32);
    // The offset of scale (r, 4 * w0): the one rule (ScaleLayout.h).
    auto ix = [&](Value v) { return ::mxq::IndexExpr(b, loc, v); };
    Value at = e.add(base, ::mxq::swizzleOffsetOf(
                               ix(r), ix(w0) * kSwizzleTileCols, ix(e.idx(W))));
    for (int64_t w = 0; w < words; w += perCopy) {
      Value n = valid;
      if (words > perCopy) {
        n = arith::MaxSIOp::create(b, loc, e.sub(valid, e.idx(w)), e.idx(0));
        n = e.min(n, e.idx(perCopy));
      }
      Value ub = e.add(slots, g * nbr * 256 + w * 1024);
      if (write)
        CopyUbToGmOp::create(b, loc, gm, e.add(at, w * 512), ub, e.mul(n, 32),
                             e.idx(4), e.idx(0), e.idx(12));
      else
        CopyGmToUbOp::create(b, loc, ub, gm, e.add(at, w * 512), e.mul(n, 32),
                             e.idx(4), e.idx(12), e.idx(0), IntegerAttr());
    }
  }
}

/// The gather offsets that put a 32-row group's burst slots back into
/// packed scale rows of `nbr` bytes (4 words times a power of two): lane l,
/// q = nbr / 4 words a row, reads slot (l % q) * 32 + l / q. `tmp` holds
/// nbr * 8 u32 lanes.
void emitSlotGatherOffsets(Emitter &e, Value offsets, Value tmp, int64_t nbr) {
  OpBuilder &b = e.b;
  Type u32 = IntegerType::get(b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  int64_t q = nbr / 4, lanes = nbr * 8;
  e.repeated(lanes, 64, 1, [&](int64_t off, Value r, IntegerAttr) {
    VIndexOp::create(b, e.loc, e.add(offsets, off * 4), r, u32, uint64_t(off));
  });
  e.scalar(BinaryKind::shr, tmp, offsets, u(llvm::Log2_64(q)), u32, lanes);
  e.scalar(BinaryKind::shl, tmp, tmp, u(5), u32, lanes);
  e.scalar(BinaryKind::And, offsets, offsets, u(q - 1), u32, lanes);
  e.scalar(BinaryKind::shl, offsets, offsets, u(10), u32, lanes);
  e.binary(BinaryKind::add, offsets, offsets, tmp, u32, lanes);
}

// Scales along a non-last axis, a tile of G block-rows x C columns: block
// row j's scales one u32 lane a column at lanes j * C. The pairs layout
// holds two block-rows' bytes of a column as one 16-bit lane (s0 | s1 <<
// 8); swizzle_32_4_4 (axis -2) four block-rows' bytes as one word, the
// grid's rows being the columns.

/// The slot offsets of a column tile's words (word-row w at lanes w * C of
/// `words`): slot s of a 32-column group reads word-row s / 32 of its
/// column s % 32 (byte offsets). `tmp` holds G * 64 u32 lanes.
void emitColumnSlotOffsets(Emitter &e, Value offsets, Value tmp, int64_t G,
                           int64_t C) {
  OpBuilder &b = e.b;
  Type u32 = IntegerType::get(b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  int64_t lanes = G * 64;
  e.repeated(lanes, 64, 1, [&](int64_t off, Value r, IntegerAttr) {
    VIndexOp::create(b, e.loc, e.add(offsets, off * 4), r, u32, uint64_t(off));
  });
  e.scalar(BinaryKind::shr, offsets, offsets, u(3), u32, lanes);
  e.scalar(BinaryKind::And, tmp, offsets, u(31), u32, lanes);
  e.scalar(BinaryKind::shr, offsets, offsets, u(5), u32, lanes);
  e.scalar(BinaryKind::mul, offsets, offsets, u(C), u32, lanes);
  e.binary(BinaryKind::add, offsets, offsets, tmp, u32, lanes);
  e.scalar(BinaryKind::shl, offsets, offsets, u(2), u32, lanes);
}

/// The gather offsets that read a column tile's words back from its slots:
/// column c reads slot (c / 32) * G * 8 + c % 32 of a word-row. `tmp` holds
/// C u32 lanes.
void emitColumnGatherOffsets(Emitter &e, Value offsets, Value tmp, int64_t G,
                             int64_t C) {
  OpBuilder &b = e.b;
  Type u32 = IntegerType::get(b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  e.repeated(C, 64, 1, [&](int64_t off, Value r, IntegerAttr) {
    VIndexOp::create(b, e.loc, e.add(offsets, off * 4), r, u32, uint64_t(off));
  });
  e.scalar(BinaryKind::And, tmp, offsets, u(31), u32, C);
  e.scalar(BinaryKind::shl, tmp, tmp, u(5), u32, C);
  e.scalar(BinaryKind::shr, offsets, offsets, u(5), u32, C);
  e.scalar(BinaryKind::mul, offsets, offsets, u(G * 256), u32, C);
  e.binary(BinaryKind::add, offsets, offsets, tmp, u32, C);
}

/// Pairs of block-rows' lanes of `s` joined into 16-bit lanes of `dst`
/// (`tmp`: G / 2 * C u32 lanes).
void joinColumnPairs(Emitter &e, Value dst, Value s, Value tmp, int64_t G,
                     int64_t C) {
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  Type u16 = IntegerType::get(e.b.getContext(), 16, IntegerType::Unsigned);
  for (int64_t h = 0; h < G / 2; ++h) {
    Value pair = e.add(tmp, h * C * 4);
    e.scalar(BinaryKind::shl, pair, e.add(s, (2 * h + 1) * C * 4),
             IntegerAttr::get(u32, 8), u32, C);
    e.binary(BinaryKind::Or, pair, pair, e.add(s, 2 * h * C * 4), u32, C);
  }
  e.cast(dst, u16, tmp, u32, RoundMode::none, false, G * C / 2);
}

/// joinColumnPairs backwards: the 16-bit lanes at `src` split into
/// block-rows of `s`.
void splitColumnPairs(Emitter &e, Value s, Value src, Value tmp, int64_t G,
                      int64_t C) {
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  Type u16 = IntegerType::get(e.b.getContext(), 16, IntegerType::Unsigned);
  auto u = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  e.cast(tmp, u32, src, u16, RoundMode::none, false, G * C / 2);
  for (int64_t h = 0; h < G / 2; ++h) {
    Value pair = e.add(tmp, h * C * 4);
    e.scalar(BinaryKind::And, e.add(s, 2 * h * C * 4), pair, u(0xFF), u32, C);
    e.scalar(BinaryKind::shr, e.add(s, (2 * h + 1) * C * 4), pair, u(8), u32,
             C);
  }
}

/// Four block-rows' lanes of `s` as one word a column (in `words`, word-row
/// w at lanes w * C; `tmp` C lanes), gathered into the burst slots of every
/// 32-column group by `offsets` (emitColumnSlotOffsets).
void gatherColumnSlots(Emitter &e, Value slots, Value words, Value s, Value tmp,
                       Value offsets, int64_t G, int64_t C) {
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  for (int64_t w = 0; w < G / 4; ++w) {
    Value word = e.add(words, w * C * 4);
    e.unary(UnaryKind::copy, word, e.add(s, 4 * w * C * 4), u32, C);
    for (int64_t k = 1; k < 4; ++k) {
      e.scalar(BinaryKind::shl, tmp, e.add(s, (4 * w + k) * C * 4),
               IntegerAttr::get(u32, 8 * k), u32, C);
      e.binary(BinaryKind::Or, word, word, tmp, u32, C);
    }
  }
  int64_t groupLanes = G * 64;
  for (int64_t g = 0; g < C / 32; ++g)
    e.repeated(groupLanes, 64, 1, [&](int64_t off, Value r, IntegerAttr m) {
      VGatherOp::create(e.b, e.loc, e.add(slots, g * G * 256 + off * 4),
                        e.add(words, g * 32 * 4), e.add(offsets, off * 4), r,
                        u32, m);
    });
}

/// gatherColumnSlots backwards: each word-row gathered from the slots
/// (`offsets`: emitColumnGatherOffsets) into `words`, then split into
/// block-rows of `s`.
void splitColumnSlots(Emitter &e, Value s, Value words, Value slots,
                      Value offsets, int64_t G, int64_t C) {
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  for (int64_t w = 0; w < G / 4; ++w) {
    Value word = e.add(words, w * C * 4);
    e.repeated(C, 64, 1, [&](int64_t off, Value r, IntegerAttr m) {
      VGatherOp::create(e.b, e.loc, e.add(word, off * 4),
                        e.add(slots, w * 1024), e.add(offsets, off * 4), r, u32,
                        m);
    });
    for (int64_t k = 0; k < 4; ++k) {
      Value row = e.add(s, (4 * w + k) * C * 4);
      e.scalar(BinaryKind::shr, row, word, u(8 * k), u32, C);
      e.scalar(BinaryKind::And, row, row, u(0xFF), u32, C);
    }
  }
}

/// Column tiles' scales (emitColumns, emitColumnChunks write them;
/// emitDequantizeColumns, emitDequantizeColumnChunks read them): a tile of
/// G block-rows of C columns at block-row g0 of outer index `o`, its `cols`
/// columns from `c0` (moved to its segment by `segs`). Linear: a row of
/// `cols` bytes a block-row, GM rows `rowElems` bytes apart; pairs: a row
/// of `cols` 16-bit lanes per two block-rows; swizzled: the grid's rows are
/// the columns (up to their 128 padding), its scale columns the block-rows.
static void copyColumnScales(Emitter &e, bool write, int64_t m, int64_t n,
                             int64_t block, int64_t G, int64_t C, bool pairs,
                             bool swizzle, int64_t scaleBytes,
                             const Segments &segs, Value gm,
                             Value scalesUB, Value slotsUB, Value o, Value g0,
                             Value blockRows, Value c0, Value cols,
                             Value swizzledCols) {
  OpBuilder &b = e.b;
  int64_t nb = ceilDiv(m, block), rowN = segs.rowElems();
  auto padded = [&](Value len) { return e.mul(e.div(e.add(len, 31), 32), 32); };
  // Each operand in its own statement: the IR's op order does not depend
  // on the compiler's order of evaluating arguments.
  auto copy = [&](Value offset, Value bursts, Value len, int64_t pitch,
                  Value gmGap) {
    Value ubGap = e.div(e.sub(e.idx(pitch), padded(len)), 32);
    if (write)
      CopyUbToGmOp::create(b, e.loc, gm, offset, scalesUB, bursts, len, ubGap,
                           gmGap);
    else
      CopyGmToUbOp::create(b, e.loc, scalesUB, gm, offset, bursts, len, gmGap,
                           ubGap, b.getI64IntegerAttr(0));
  };
  if (swizzle) {
    Value base = e.mul(o, swizzleBytes(n, nb));
    copySwizzledSlots(e, write, gm, base, slotsUB, c0, swizzledCols, C, g0, G,
                      nb);
  } else if (pairs) {
    Value pairRow = e.add(e.mul(o, ceilDiv(nb, 2)), e.div(g0, 2));
    Value col = segs.col(e, c0);
    Value offset = e.mul(e.add(e.mul(pairRow, rowN), col), 2);
    Value bursts = e.div(e.add(blockRows, 1), 2);
    Value len = e.mul(cols, 2);
    Value gap = e.mul(e.sub(e.idx(rowN), cols), 2);
    copy(offset, bursts, len, 2 * C, gap);
  } else {
    Value row = e.add(e.mul(o, nb), g0);
    Value col = segs.col(e, c0);
    Value offset = e.mul(e.add(e.mul(row, rowN), col), scaleBytes);
    Value gap = e.mul(e.sub(e.idx(rowN), cols), scaleBytes);
    copy(offset, blockRows, e.mul(cols, scaleBytes), C * scaleBytes, gap);
  }
}

void writeColumnScales(Emitter &e, const Plan &p, const Segments &segs,
                       Value scalesGM, Value scalesUB, Value slotsUB, Value o,
                       Value rowTile, Value c0, Value cols, Value rows) {
  Value blockRows = e.div(e.add(rows, p.block - 1), p.block);
  Value swizzled;
  if (p.swizzle)
    swizzled = e.min(e.idx(p.tileCols), e.sub(e.idx(roundUp(p.n, 128)), c0));
  Value g0 = e.mul(rowTile, p.groups);
  copyColumnScales(e, /*write=*/true, p.m, p.n, p.block, p.groups, p.tileCols,
                   p.pairs, p.swizzle, scaleElementBytes(p.f32.has_value()),
                   segs, scalesGM, scalesUB, slotsUB, o, g0, blockRows, c0,
                   cols, swizzled);
}

void packColumnScales(Emitter &e, const Plan &p, Value scalesUB, Value slotsUB,
                      Value s, Value t, Value t2, Value slotOffsets, int64_t G,
                      int64_t C) {
  MLIRContext *ctx = e.b.getContext();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  if (p.f32)
    e.unary(UnaryKind::copy, scalesUB, s, u32, G * C);
  else if (p.pairs)
    joinColumnPairs(e, scalesUB, s, t2, G, C);
  else if (p.swizzle)
    gatherColumnSlots(e, slotsUB, t2, s, t, slotOffsets, G, C);
  else
    e.cast(scalesUB, u8, s, u32, RoundMode::none, false, G * C);
}

void readColumnScales(Emitter &e, const DequantizePlan &p, const Segments &segs,
                      Value scalesGM, Value scalesUB, Value slotsUB, Value o,
                      Value m0, Value c0, Value cols) {
  Value g0 = e.div(m0, p.block);
  Value blockRows =
      e.min(e.idx(p.groups), e.sub(e.idx(ceilDiv(p.m, p.block)), g0));
  copyColumnScales(e, /*write=*/false, p.m, p.n, p.block, p.groups, p.tileCols,
                   p.pairs, p.swizzle, scaleElementBytes(p.f32), segs, scalesGM,
                   scalesUB, slotsUB, o, g0, blockRows, c0, cols, cols);
}

} // namespace mxq::vtile::lowering
