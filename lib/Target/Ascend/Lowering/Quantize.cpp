//===- Quantize.cpp - quantize and dual_quantize kernels ------------------===//
//
// mxq.quantize (along any axis) and mxq.dual_quantize as vtile kernels.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::vtile::lowering {

LogicalResult plan(func::FuncOp func, const Chip &chip,
                   const TilingOptions &requested, Plan &p) {
  Block &body = func.getBody().front();
  auto op = dyn_cast<dialect::QuantizeOp>(body.front());
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!op || func.getNumArguments() != 1 ||
      op.getInput() != func.getArgument(0) || !ret ||
      ret.getNumOperands() != 2 || ret.getOperand(0) != op.getCodes() ||
      ret.getOperand(1) != op.getScales() ||
      &*std::next(body.begin()) != ret.getOperation())
    return fail(func, kOneOpMessage);
  p.op = op;
  auto in = cast<RankedTensorType>(op.getInput().getType());
  auto codes = cast<RankedTensorType>(op.getCodes().getType());
  auto scales = cast<RankedTensorType>(op.getScales().getType());
  if (!in.hasStaticShape() || !codes.hasStaticShape() ||
      !scales.hasStaticShape())
    return fail(func, "needs static shapes (mxq-run specialises a function "
                      "to its inputs' shapes before lowering it)");
  int64_t rank = in.getRank(), axis = op.getAxis();
  p.columns = axis != rank - 1;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = in.getShape()[d];
    if (d < axis)
      p.outer *= size;
    else if (d > axis)
      p.n *= size;
    if (d < rank - 1)
      p.rows *= size;
  }
  p.m = in.getShape()[axis];
  p.productBF16 = op.getProduct() == dialect::Product::bf16;
  p.f32 = dialect::getF32ScaleRule(op);
  p.k = in.getShape().back();
  p.block = op.getBlockSize();
  // The verifier holds block_size to 16 or a multiple of 32 (CANN's rule:
  // 32): a tile of 8 blocks is whole 32-byte blocks of every buffer.
  auto layout = op.getScaleLayout();
  p.swizzle = layout == dialect::ScaleLayout::swizzle_32_4_4;
  if (p.swizzle && !p.columns) {
    p.mRows = in.getShape()[rank - 2];
    p.batch = p.mRows ? p.rows / p.mRows : 0;
    p.swizzleRows = roundUp(p.mRows, 128);
  }
  p.pairs = layout == dialect::ScaleLayout::pairs;
  p.inType = in.getElementType();
  p.inBytes = p.inType.getIntOrFloatBitWidth() / 8;
  p.codeType = codes.getElementType();
  p.format = *dialect::getElementFormat(p.codeType);
  p.codeBits = p.format == ElementFormat::E2M1FN ? 4 : 8;
  // FP6 (the core has no cast) and every format on a chip without MX casts
  // (a2): the codes are encoded by integer code.
  p.emulate = p.format == ElementFormat::E2M3FN ||
              p.format == ElementFormat::E3M2FN || !chip.mxCasts;
  TilingOptions options;
  if (failed(applyTileContract(func, p, in.getShape(), requested, options)))
    return failure();
  if (p.columns)
    return planColumns(func, chip, options, p);
  CodeScratch scratch =
      codeScratch(p.format, p.op.getNanElement(), p.emulate);
  Tiling t;
  // A swizzled tile holds whole 32-row groups (its scales go out 32 rows
  // at a time): the columns are chosen for 32 rows.
  auto bytes = [&](int64_t r, int64_t c) {
    return tileBytes(p, p.swizzle ? roundUp(r, 32) : r, c, options.doubleBuffer,
                     scratch);
  };
  if (p.swizzle) {
    if (options.tileRows % 32)
      return fail(func, "tile-rows = " + Twine(options.tileRows) +
                            " is not a multiple of 32 (swizzle_32_4_4 scales "
                            "are written 32 rows at a time)");
    if (failed(check32Rows(func, chip,
                           options.tileCols ? options.tileCols : 4 * p.block,
                           bytes)))
      return failure();
  }
  if (!p.swizzle) {
    if (failed(pickBlockColumnTiling(func, chip, options, p.rows, p.k, p.block,
                                     bytes, t, /*narrow=*/true)))
      return failure();
  } else {
    // Swizzled scale rows are packed and gathered a 4-byte word at a time:
    // columns a multiple of 4 blocks (whole words, whole 32-byte rows of
    // every buffer, FP4 included).
    int64_t unit = 4 * p.block;
    if (failed(pickTiling(
            func, chip, options, p.batch * p.swizzleRows, p.k,
            std::max(unit, roundUp(p.k, unit)), unit,
            [&](int64_t c) { return c > 0 && c % unit == 0; },
            "a multiple of " + std::to_string(unit / p.block) + " blocks (" +
                std::to_string(unit) +
                " columns: swizzled scales go out in 4-byte words)",
            bytes, chip.maxBurstCount, t)))
      return failure();
  }
  p.tileRows = t.tileRows, p.tileCols = t.tileCols, p.slices = t.slices;
  p.tiles = t.tiles, p.cores = t.cores;
  p.rowTiles = ceilDiv(p.rows, p.tileRows);
  if (!p.swizzle)
    return success();
  // Swizzled scales go out 32 rows at a time: tiles of whole 32-row groups
  // over each batch's rows padded to 128.
  p.tileRows = std::max<int64_t>(32, p.tileRows / 32 * 32);
  p.batchTiles = ceilDiv(p.swizzleRows, p.tileRows);
  p.rowTiles = p.batch * p.batchTiles;
  p.tiles = p.rowTiles * p.slices;
  p.cores = std::clamp<int64_t>(p.tiles, 1, chip.cores);
  return success();
}

/// The plan of a dual quantize: the swizzled last-axis plan with tiles of
/// exactly 32 rows (each tile's columns are then one block each) and
/// columns a multiple of 128 (whole scale words of the row half).
LogicalResult planDual(func::FuncOp func, const Chip &chip,
                       const TilingOptions &options, Plan &p) {
  Block &body = func.getBody().front();
  auto op = cast<dialect::DualQuantizeOp>(body.front());
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (func.getNumArguments() != 1 || op.getInput() != func.getArgument(0) ||
      !ret || ret.getNumOperands() != 4 ||
      ret.getOperands() != ValueRange(op.getResults()) ||
      &*std::next(body.begin()) != ret.getOperation())
    return fail(func, kOneOpMessage);
  p.dual = op;
  auto in = cast<RankedTensorType>(op.getInput().getType());
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (!cast<RankedTensorType>(type).hasStaticShape())
      return fail(func, "needs static shapes (mxq-run specialises a function "
                        "to its inputs' shapes before lowering it)");
  int64_t rank = in.getRank();
  p.rows = 1;
  for (int64_t d = 0; d + 1 < rank; ++d)
    p.rows *= in.getShape()[d];
  p.k = in.getShape().back();
  p.block = 32;
  p.swizzle = true;
  p.mRows = in.getShape()[rank - 2];
  p.batch = p.mRows ? p.rows / p.mRows : 0;
  p.swizzleRows = roundUp(p.mRows, 128);
  p.inType = in.getElementType();
  p.inBytes = p.inType.getIntOrFloatBitWidth() / 8;
  p.codeType =
      cast<RankedTensorType>(op.getCodes0().getType()).getElementType();
  p.format = *dialect::getElementFormat(p.codeType);
  p.codeBits = p.format == ElementFormat::E2M1FN ? 4 : 8;
  p.emulate = p.format == ElementFormat::E2M3FN ||
              p.format == ElementFormat::E3M2FN || !chip.mxCasts;
  if (options.tileRows && options.tileRows != 32)
    return fail(func, "tile-rows = " + Twine(options.tileRows) +
                          " is not 32 (a dual tile is one block of rows: its "
                          "columns are the column blocks)");
  CodeScratch scratch = codeScratch(p.format, op.getNanElement(), p.emulate);
  auto bytes = [&](int64_t, int64_t c) {
    return tileBytes(p, 32, c, options.doubleBuffer, scratch);
  };
  if (failed(check32Rows(func, chip, options.tileCols ? options.tileCols : 128,
                         bytes)))
    return failure();
  Tiling t;
  TilingOptions cols = options;
  cols.tileRows = 0;
  int64_t unit = 128;
  if (failed(pickTiling(
          func, chip, cols, p.batch * p.swizzleRows, p.k,
          std::max<int64_t>(unit, roundUp(p.k, unit)), unit,
          [&](int64_t c) { return c > 0 && c % unit == 0; },
          "a multiple of " + std::to_string(unit) +
              " (whole 4-byte words of swizzled scales)",
          bytes, chip.maxBurstCount, t)))
    return failure();
  p.tileRows = 32, p.tileCols = t.tileCols, p.slices = t.slices;
  p.batchTiles = p.swizzleRows / 32;
  p.rowTiles = p.batch * p.batchTiles;
  p.tiles = p.rowTiles * p.slices;
  p.cores = std::clamp<int64_t>(p.tiles, 1, chip.cores);
  return success();
}

/// The kernel of a quantize along a non-last axis: tiles of whole blocks
/// of rows; a block's maximum is a tree of lane-wise maxima across its rows
/// (no transpose), its multiplier multiplies each of its rows.
void emitColumns(func::FuncOp func, const Chip &chip, const Plan &p,
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

  const int64_t B = p.block, G = p.groups, R = G * B, C = p.tileCols;
  const int64_t N = R * C, NB = G * C;
  const int64_t maskLanes = roundUp(NB, 256), perBlock = maskLanes * 4;
  const int64_t inPitch = C * p.inBytes, codePitch = C * p.codeBits / 8;
  const int64_t depth = dbl ? 2 : 1;

  Value inBuf = e.buffer(depth * roundUp(N * p.inBytes, 32));
  int64_t inSize = roundUp(N * p.inBytes, 32);
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
  // Swizzled: a word of 4 block-rows' bytes per column (in t2Buf, word-row
  // w at w * C lanes), gathered into the burst slots of 32-column groups
  // (slot s of a group: word-row s / 32 of its column s % 32: lane offset
  // (s / 32) * C + s % 32), as the last-axis writer's slots.
  int64_t slotSize = C * G * 8, groupLanes = G * 64;
  Value slotBuf = p.swizzle ? e.buffer(depth * slotSize) : Value();
  Value slotOffsets = p.swizzle ? e.buffer(groupLanes * 4) : Value();
  if (p.swizzle)
    emitColumnSlotOffsets(e, slotOffsets, pBuf, G, C);

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
  Value m0 = e.mul(rowTile, R), c0 = e.mul(slice, C);
  Value rows = e.min(e.idx(R), e.sub(e.idx(p.m), m0));
  // Swizzled slices run up to the columns padded to 128: past the input
  // a tile has no columns (all zero input: the grid's padding rows).
  Value cols =
      p.swizzle ? e.min(e.idx(C), arith::MaxSIOp::create(
                                      b, loc, e.sub(e.idx(p.n), c0), e.idx(0)))
                : e.min(e.idx(C), e.sub(e.idx(p.n), c0));
  auto padded = [&](Value len) { return e.mul(e.div(e.add(len, 31), 32), 32); };

  // DMA in; the last row tile is zeroed first when the rows do not fill it
  // (a short block's missing rows, a pair's missing block: all zero).
  e.flag(false, Pipe::v, Pipe::mte2, pp);
  // Swizzled, a ragged last slice too: its missing columns are rows of the
  // scale grid's padding (scale 0x00). (FP4 rows of an odd length need no
  // zeroing: their padding nibble's lane shares a 32-byte block with the
  // last element, which the DMA in pads with zeros: code 0.)
  bool raggedCols = p.swizzle && roundUp(p.n, 128) > p.n;
  if (p.m % R || raggedCols) {
    Value isLast;
    if (p.m % R)
      isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rowTile,
                                     e.idx(p.rowTiles - 1));
    if (raggedCols) {
      Value narrow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           cols, e.idx(C));
      isLast = isLast ? arith::OrIOp::create(b, loc, isLast, narrow) : narrow;
    }
    auto zeroing = scf::IfOp::create(b, loc, isLast, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&zeroing.getThenRegion().front());
    e.dup(in, IntegerAttr::get(u32, 0), u32, N * p.inBytes / 4);
    e.flag(true, Pipe::v, Pipe::mte2, e.idx(2));
    e.flag(false, Pipe::v, Pipe::mte2, e.idx(2));
  }
  Value inLen = e.mul(cols, p.inBytes);
  CopyGmToUbOp::create(
      b, loc, in, x,
      e.mul(e.add(e.mul(e.add(e.mul(o, p.m), m0), rowN), segs.col(e, c0)),
            p.inBytes),
      rows, inLen, e.mul(e.sub(e.idx(rowN), cols), p.inBytes),
      e.div(e.sub(e.idx(inPitch), padded(inLen)), 32), b.getI64IntegerAttr(0));
  e.flag(true, Pipe::mte2, Pipe::v, pp);
  e.flag(false, Pipe::mte2, Pipe::v, pp);

  Value X = in;
  if (p.inBytes != 4) {
    X = xBuf;
    e.cast(X, f32, in, p.inType, RoundMode::none, false, N);
    e.flag(true, Pipe::v, Pipe::mte2, pp);
  }
  // |x| bits, then per block the lane-wise maximum over its rows: halving
  // (the upper rows into the lower), then its row copied out.
  emitAbsBits(e, pBuf, X, amaxIgnoresNaN(policy), N);
  for (int64_t j = 0; j < G; ++j) {
    Value base = e.add(pBuf, j * B * C * 4);
    for (int64_t len = B; len > 1; len -= len / 2) {
      int64_t h = len / 2;
      e.binary(BinaryKind::max, base, base, e.add(base, (len - h) * C * 4), u32,
               h * C);
    }
    VUnaryOp::create(b, loc, UnaryKind::copy, e.add(amBuf, j * C * 4), base,
                     e.idx(C / 64), u32, IntegerAttr(), nullptr, nullptr);
  }
  BlockBuffers blocks{amBuf, eBuf,  sBuf,      mbBuf, constBuf,
                      tBuf,  t2Buf, blockMask, NB,    maskLanes};
  for (int64_t i = 0; i < extraBlockSlots(policy); ++i)
    blocks.extra.push_back(e.buffer(perBlock));
  emitScaleAndMultiplier(e, blocks, policy);

  // Scales: block-rows of C (linear), or pairs of block-rows interleaved
  // byte by byte (s0 | s1 << 8 as 16-bit lanes), or swizzled slots.
  e.flag(false, Pipe::mte3, Pipe::v, pp);
  packColumnScales(e, p, scalesUB, slotsUB, sBuf, tBuf, t2Buf, slotOffsets, G,
                   C);

  // P: each row times its block's multiplier (the multiplier row re-read
  // for every row: repeat stride 0); divided by the scale under blockwise
  // FP8's decode with exact division.
  for (int64_t j = 0; j < G; ++j)
    e.mulRows(e.add(pBuf, j * B * C * 4), e.add(X, j * B * C * 4),
              e.add(mbBuf, j * C * 4), B, C, elementKind(p));
  if (p.inBytes == 4)
    e.flag(true, Pipe::v, Pipe::mte2, pp);
  emitCodes(e, p.codeType, rounding, productBF16, nanZero,
            /*preRound=*/fp4 && !productBF16 && !p.inType.isBF16(), p.emulate,
            pBuf, qBuf, wBuf, laneMask, codesUB, N);

  // DMA out: the codes row by row, the scales block-row (or pair) by
  // block-row.
  e.flag(true, Pipe::v, Pipe::mte3, pp);
  e.flag(false, Pipe::v, Pipe::mte3, pp);
  Value codeLen = e.div(e.add(e.mul(cols, p.codeBits), 7), 8);
  CopyUbToGmOp::create(b, loc, codesGM,
                       e.add(e.mul(e.add(e.mul(o, p.m), m0), codeRow),
                             segs.byte(e, e.div(e.mul(c0, p.codeBits), 8))),
                       codesUB, rows, codeLen,
                       e.div(e.sub(e.idx(codePitch), padded(codeLen)), 32),
                       e.sub(e.idx(codeRow), codeLen));
  writeColumnScales(e, p, segs, scalesGM, scalesUB, slotsUB, o, rowTile, c0,
                    cols, rows);
  e.flag(true, Pipe::mte3, Pipe::v, pp);

  finishKernel(e, f);
}

/// The column half of a dual tile to GM: its codes (a row of `rows` bytes
/// for each of its `cols` columns) to codes1 [K, M] at (c0, r0); its
/// scales (one byte a slot, the tile's column j in slot j) to the swizzled
/// [K, ceil(M/32)] grid, scale column r0 / 32, one copy of 32 one-byte
/// bursts 16 bytes apart per 32 columns, up to the grid's rows padded to
/// 128 (those scales are 0: zero input).
void writeDualColumns(Emitter &e, const Plan &p, Value codes1GM,
                      Value scales1GM, Value codes1UB, Value slots1UB,
                      Value batchIdx, Value r0, Value c0, Value rows,
                      Value cols) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  const int64_t M = p.mRows, K = p.k, C = p.tileCols;
  // A codes1 row: M codes, ceil(M / 2) bytes for FP4 (r0 is even).
  const int64_t rowBytes = ceilDiv(M * p.codeBits, 8);
  Value len = e.div(e.add(e.mul(rows, p.codeBits), 7), 8);
  CopyUbToGmOp::create(b, loc, codes1GM,
                       e.add(e.mul(e.add(e.mul(batchIdx, K), c0), rowBytes),
                             e.div(e.mul(r0, p.codeBits), 8)),
                       codes1UB, cols, len, e.idx(0),
                       e.sub(e.idx(rowBytes), len));
  const int64_t W = ceilDiv(ceilDiv(M, 32), 4);
  Value base =
      e.add(e.mul(batchIdx, swizzleBytes(K, ceilDiv(M, 32))),
            e.add(e.mul(e.div(r0, 128), 512), e.rem(e.div(r0, 32), 4)));
  for (int64_t g = 0; g < C / 32; ++g) {
    Value c = e.add(c0, g * 32);
    Value here = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c,
                                       e.idx(roundUp(K, 128)));
    auto branch = scf::IfOp::create(b, loc, here, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    Value at = e.add(base, e.add(e.mul(e.mul(e.div(c, 128), W), 512),
                                 e.mul(e.div(e.rem(c, 128), 32), 4)));
    CopyUbToGmOp::create(b, loc, scales1GM, at, e.add(slots1UB, g * 1024),
                         e.idx(32), e.idx(1), e.idx(0), e.idx(15));
  }
}

/// Rewrites the function of plan `p` into the kernel.
void emitKernel(func::FuncOp func, const Chip &chip, const Plan &p,
                const TilingOptions &options) {
  if (p.columns && p.chunkRows)
    return emitColumnChunks(func, chip, p, options);
  if (p.columns)
    return emitColumns(func, chip, p, options);
  MLIRContext *ctx = func.getContext();
  dialect::QuantizeOp op = p.op;
  dialect::DualQuantizeOp dual = p.dual;
  SmallVector<Value> gmValues =
      dual ? SmallVector<Value>{dual.getInput(), dual.getCodes0(),
                                dual.getScales0(), dual.getCodes1(),
                                dual.getScales1()}
           : SmallVector<Value>{op.getInput(), op.getCodes(), op.getScales()};
  const bool dbl = options.doubleBuffer;
  const bool fp4 = p.format == ElementFormat::E2M1FN;
  // Every attribute is read now: the op goes with the old body.
  const bool nanZero = (dual ? dual.getNanElement() : op.getNanElement()) ==
                       dialect::NanElement::zero;
  const CodeScratch scratch = codeScratch(
      p.format, dual ? dual.getNanElement() : op.getNanElement(), p.emulate);
  const BlockPolicy policy = blockPolicyOf(p);
  // Blockwise FP8: 4-byte scales; decode with exact division divides the
  // elements by the block's scale (ref: f32Scaled).
  const int64_t scaleBytes = scaleElementBytes(p.f32.has_value());
  auto rounding = dual ? dual.getRounding() : op.getRounding();
  bool productBF16 = p.productBF16;

  Location loc = dual ? dual.getLoc() : op.getLoc();
  // A fresh body.
  Frame f = beginKernel(func, gmValues, p.cores);
  OpBuilder b = OpBuilder::atBlockBegin(f.entry);
  Emitter e{b, loc, chip};
  Value x = f.entry->getArgument(0), codesGM = f.entry->getArgument(1),
        scalesGM = f.entry->getArgument(2);

  Type f32 = b.getF32Type();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  auto u32v = [&](int64_t v) { return IntegerAttr::get(u32, v); };

  const int64_t T = p.tileRows, C = p.tileCols, N = T * C, B = p.block;
  const int64_t nbr = C / B, NB = N / B;
  const int64_t nbK = ceilDiv(p.k, B);
  const int64_t scaleRow = p.pairs ? 2 * ceilDiv(nbK, 2) : nbK;
  const int64_t codeRow = ceilDiv(p.k * p.codeBits, 8);
  const int64_t inPitch = C * p.inBytes, codePitch = C * p.codeBits / 8;
  const int64_t scalePitch = roundUp(nbr, 32);
  const int64_t maskLanes = roundUp(NB, 256);
  const int64_t perBlock = maskLanes * 4;

  // UB buffers (tileBytes counts the same).
  const int64_t depth = dbl ? 2 : 1;
  Value inBuf = e.buffer(depth * roundUp(N * p.inBytes, 32));
  int64_t inSize = roundUp(N * p.inBytes, 32);
  Value xBuf = p.inBytes == 4 ? Value() : e.buffer(N * 4);
  Value pBuf = e.buffer(N * 4);
  Value qBuf = needsQ(p) ? e.buffer(N * qLaneBytes(p)) : Value();
  Value wBuf = scratch.w ? e.buffer(N * 4) : Value();
  Value laneMask = scratch.mask ? e.buffer(N / 8) : Value();
  int64_t codeSize = roundUp(N * p.codeBits / 8, 32);
  Value codeBuf = e.buffer(depth * codeSize);
  int64_t scaleSize = T * scaleRowBytes(nbr, p.f32.has_value());
  Value scaleBuf = e.buffer(depth * scaleSize);
  // Swizzled scales: per 32-row group, each row's scale words gathered
  // into 32-byte burst slots (emitSlotOffsets, gatherSlots,
  // copySwizzledSlots).
  int64_t slotSize = T * nbr * 8;
  Value slotBuf = p.swizzle ? e.buffer(depth * slotSize) : Value();
  Value slotOffsets = p.swizzle ? e.buffer(nbr * 256) : Value();
  Value amBuf = e.buffer(perBlock), eBuf = e.buffer(perBlock),
        sBuf = e.buffer(perBlock), mbBuf = e.buffer(perBlock),
        constBuf = e.buffer(perBlock), tBuf = e.buffer(perBlock),
        t2Buf = e.buffer(perBlock);
  Value blockMask = e.buffer(maskLanes / 8);
  SmallVector<Value, 2> blockExtra;
  for (int64_t i = 0;
       i < extraBlockSlots(policy); ++i)
    blockExtra.push_back(e.buffer(perBlock));
  if (p.swizzle)
    emitSlotOffsets(e, slotOffsets, pBuf, nbr);
  // Rows of fewer than 8 blocks (or not a multiple of 8): scale rows
  // gathered to 32-byte rows (writeScaleRows), pBuf their scratch.
  const bool gatherScaleRows = !p.swizzle && scaleRowsGathered(nbr);
  Value scaleRowOffsets =
      gatherScaleRows ? e.buffer(T * scalePitch * 4) : Value();
  if (gatherScaleRows)
    emitScaleRowOffsets(e, scaleRowOffsets, pBuf, T, nbr, scalePitch);
  // FP4 with an odd last dimension: the last byte of a row holds one code
  // and a padding nibble, which the reference leaves 0. The padding
  // element's block may hold a NaN or Inf (its multiplier is then NaN and
  // the padding lane encodes as +6), so the padding lanes of the products
  // are set to 0 in the last slice: a lane mask of the real columns, made
  // once for one row and copied to every row (rows of whole 32-byte
  // blocks: 256 columns or more), or applied row by row.
  const int64_t lastCols = p.k - (p.slices - 1) * C;
  const bool padNibble = fp4 && p.k % 2 && lastCols < C;
  const bool maskRows = C % 256 == 0;
  Value padMask = padNibble ? e.buffer(maskRows ? N / 8 : C / 8) : Value();
  if (padNibble) {
    e.repeated(C, 64, 1, [&](int64_t off, Value r, IntegerAttr) {
      VIndexOp::create(b, loc, e.add(pBuf, off * 4), r, u32, uint64_t(off));
    });
    e.cmps(CmpPredicate::lt, padMask, pBuf, u32v(lastCols), u32, C);
    int64_t rowBytes = C / 8;
    for (int64_t k = 0; maskRows && k * 256 < rowBytes; ++k)
      for (int64_t r0 = 1; r0 < T; r0 += chip.maxRepeat) {
        int64_t nr = std::min<int64_t>(chip.maxRepeat, T - r0);
        int64_t lanes = std::min<int64_t>(64, (rowBytes - k * 256) / 4);
        VUnaryOp::create(
            b, loc, UnaryKind::copy, e.add(padMask, r0 * rowBytes + k * 256),
            e.add(padMask, k * 256), e.idx(nr), u32, b.getI64IntegerAttr(lanes),
            nullptr, b.getDenseI64ArrayAttr({rowBytes / 32, 0}));
      }
  }
  // The same for the dual's column half when M is odd: the tile short of
  // rows has its padding row's lanes (lane % 32 >= M % 32 of each column)
  // set to 0.
  const bool padNibble1 = p.dual && fp4 && p.mRows % 2;
  Value padMask1 = padNibble1 ? e.buffer(N / 8) : Value();
  if (padNibble1) {
    e.repeated(N, 64, 1, [&](int64_t off, Value r, IntegerAttr) {
      VIndexOp::create(b, loc, e.add(pBuf, off * 4), r, u32, uint64_t(off));
    });
    e.scalar(BinaryKind::And, pBuf, pBuf, u32v(31), u32, N);
    e.cmps(CmpPredicate::lt, padMask1, pBuf, u32v(p.mRows % 32), u32, N);
  }
  // Dual: the tile transposed (XT, [C, 32]), its codes (a 32-byte row per
  // column of the tile), and the burst slots of its scales: one scale byte
  // a slot, gathered from the scale lanes (offsets 4 * (lane / 8)).
  Value xtBuf, codes1Buf, slots1Buf, slot1Offsets, packed1, code1Offsets;
  int64_t codes1Size = N, slots1Size = C * 32;
  if (p.dual && fp4) {
    // FP4: a column's 32 codes are 16 packed bytes; a gather spreads them
    // to 32-byte rows (lane l: row l / 8, word l % 4 of its 16 bytes).
    packed1 = e.buffer(N / 2);
    code1Offsets = e.buffer(C * 32);
    auto u = [&](int64_t v) { return IntegerAttr::get(u32, v); };
    e.repeated(C * 8, 64, 1, [&](int64_t off, Value r, IntegerAttr) {
      VIndexOp::create(b, loc, e.add(code1Offsets, off * 4), r, u32,
                       uint64_t(off));
    });
    e.scalar(BinaryKind::And, pBuf, code1Offsets, u(3), u32, C * 8);
    e.scalar(BinaryKind::shl, pBuf, pBuf, u(2), u32, C * 8);
    e.scalar(BinaryKind::shr, code1Offsets, code1Offsets, u(3), u32, C * 8);
    e.scalar(BinaryKind::shl, code1Offsets, code1Offsets, u(4), u32, C * 8);
    e.binary(BinaryKind::add, code1Offsets, code1Offsets, pBuf, u32, C * 8);
  }
  if (p.dual) {
    xtBuf = e.buffer(N * 4);
    codes1Buf = e.buffer(depth * codes1Size);
    slots1Buf = e.buffer(depth * slots1Size);
    slot1Offsets = e.buffer(C * 32);
    auto u = [&](int64_t v) { return IntegerAttr::get(u32, v); };
    e.repeated(C * 8, 64, 1, [&](int64_t off, Value r, IntegerAttr) {
      VIndexOp::create(b, loc, e.add(slot1Offsets, off * 4), r, u32,
                       uint64_t(off));
    });
    e.scalar(BinaryKind::shr, slot1Offsets, slot1Offsets, u(3), u32, C * 8);
    e.scalar(BinaryKind::shl, slot1Offsets, slot1Offsets, u(2), u32, C * 8);
  }

  // This core's tiles.
  openTileLoop(e, f, p.tiles, p.cores, dbl);
  Value t = f.t, pp = f.pp;
  Value in = e.add(inBuf, e.mul(pp, inSize));
  Value codesUB = e.add(codeBuf, e.mul(pp, codeSize));
  Value scalesUB = e.add(scaleBuf, e.mul(pp, scaleSize));
  Value slice = e.rem(t, p.slices), rowTile = e.div(t, p.slices);
  Value r0 = e.mul(rowTile, T), c0 = e.mul(slice, C);
  Value rows = e.min(e.idx(T), e.sub(e.idx(p.rows), r0));
  Value cols = e.min(e.idx(C), e.sub(e.idx(p.k), c0));
  // Swizzled: the tile's rows inside its batch (r0 there), the flat row of
  // its first one (gmRow), and the rows that exist (rows, maybe 0: padding).
  Value gmRow = r0, batchIdx, zeroRows;
  if (p.swizzle) {
    batchIdx = e.div(rowTile, p.batchTiles);
    r0 = e.mul(e.rem(rowTile, p.batchTiles), T);
    Value left =
        arith::MaxSIOp::create(b, loc, e.sub(e.idx(p.mRows), r0), e.idx(0));
    rows = e.min(e.idx(T), left);
    gmRow = e.add(e.mul(batchIdx, p.mRows), r0);
    zeroRows = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rows,
                                     e.idx(T));
  }

  // DMA in (a ragged last slice zeroed first, so its padding blocks hold 0;
  // likewise a swizzled tile short of rows, so its padding rows do).
  e.flag(false, Pipe::v, Pipe::mte2, pp);
  bool raggedCols = roundUp(lastCols * p.inBytes, 32) < inPitch;
  if (raggedCols || p.swizzle) {
    Value isLast;
    if (raggedCols)
      isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slice,
                                     e.idx(p.slices - 1));
    if (p.swizzle)
      isLast =
          isLast ? arith::OrIOp::create(b, loc, isLast, zeroRows) : zeroRows;
    auto zeroing = scf::IfOp::create(b, loc, isLast, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&zeroing.getThenRegion().front());
    e.dup(in, IntegerAttr::get(u32, 0), u32, N * p.inBytes / 4);
    e.flag(true, Pipe::v, Pipe::mte2, e.idx(2));
    e.flag(false, Pipe::v, Pipe::mte2, e.idx(2));
  }
  Value inLen = e.mul(cols, p.inBytes);
  Value inLenPadded = e.mul(e.div(e.add(inLen, 31), 32), 32);
  CopyGmToUbOp::create(
      b, loc, in, x, e.mul(e.add(e.mul(gmRow, p.k), c0), p.inBytes), rows,
      inLen, e.mul(e.sub(e.idx(p.k), cols), p.inBytes),
      e.div(e.sub(e.idx(inPitch), inLenPadded), 32), b.getI64IntegerAttr(0));
  e.flag(true, Pipe::mte2, Pipe::v, pp);
  e.flag(false, Pipe::mte2, Pipe::v, pp);

  // X: the elements as f32 (exact).
  Value X = in;
  if (p.inBytes != 4) {
    X = xBuf;
    e.cast(X, f32, in, p.inType, RoundMode::none, false, N);
    e.flag(true, Pipe::v, Pipe::mte2, pp); // IN consumed
  }
  // amax bits per block: the unsigned maximum of |x| bits (NaN above Inf;
  // ignored by TE's encode rule).
  emitAbsBits(e, pBuf, X, p.f32 && p.f32->algorithm == ScaleAlgorithm::Encode,
              N);
  {
    int64_t per = 64, multiple = std::max<int64_t>(1, B / 8);
    e.repeated(N, per, multiple, [&](int64_t off, Value r, IntegerAttr) {
      VReduceGroupOp::create(b, loc, ReduceKind::max, e.add(amBuf, off / B * 4),
                             e.add(pBuf, off * 4), r, u32, B);
    });
  }
  BlockBuffers perBlockBufs{amBuf, eBuf,  sBuf,      mbBuf, constBuf,
                            tBuf,  t2Buf, blockMask, NB,    maskLanes,
                            blockExtra};
  emitScaleAndMultiplier(e, perBlockBufs, policy);

  // The outputs of this buffer are free once their last DMA out is done.
  e.flag(false, Pipe::mte3, Pipe::v, pp);
  // Scale bytes: rows of a multiple of 32 are contiguous, one cast;
  // shorter rows take one masked repeat each, each row on 32 bytes.
  // Swizzled: packed rows, gathered into burst slots.
  Value slotsUB;
  if (p.swizzle) {
    e.cast(scalesUB, IntegerType::get(ctx, 8, IntegerType::Unsigned), sBuf, u32,
           RoundMode::none, false, NB);
    slotsUB = e.add(slotBuf, e.mul(pp, slotSize));
    gatherSlots(e, slotsUB, scalesUB, slotOffsets, T, nbr);
  } else if (p.f32) {
    // fp32 scales: the lanes themselves, rows gathered to 32-byte rows
    // where they do not start on one.
    if (gatherScaleRows)
      e.repeated(T * scalePitch, 64, 1,
                 [&](int64_t off, Value r, IntegerAttr m) {
                   VGatherOp::create(b, loc, e.add(scalesUB, off * 4), sBuf,
                                     e.add(scaleRowOffsets, off * 4), r, u32,
                                     m);
                 });
    else
      e.unary(UnaryKind::copy, scalesUB, sBuf, u32, NB);
  } else {
    writeScaleRows(e, scalesUB, sBuf, T, nbr, scalePitch, scaleRowOffsets,
                   pBuf);
  }

  // The scaled elements P = x * multiplier, in f32.
  e.repeated(N, 64, std::max<int64_t>(1, B / 8),
             [&](int64_t off, Value r, IntegerAttr) {
               VBroadcastGroupOp::create(b, loc, e.add(pBuf, off * 4),
                                         e.add(mbBuf, off / B * 4), r, u32, B);
             });
  e.binary(elementKind(p), pBuf, X, pBuf, f32, N);
  if (padNibble) {
    Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         slice, e.idx(p.slices - 1));
    auto branch = scf::IfOp::create(b, loc, isLast, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    e.dup(wBuf, u32v(0), u32, N);
    if (maskRows)
      e.sel(pBuf, padMask, pBuf, wBuf, f32, N);
    else
      for (int64_t r = 0; r < T; ++r)
        e.sel(e.add(pBuf, r * C * 4), padMask, e.add(pBuf, r * C * 4), wBuf,
              f32, C);
  }
  if (p.inBytes == 4 && !p.dual)
    e.flag(true, Pipe::v, Pipe::mte2, pp); // IN (= X) consumed
  emitCodes(e, p.codeType, rounding, productBF16, nanZero,
            /*preRound=*/fp4 && !productBF16 && !p.inType.isBF16(), p.emulate,
            pBuf, qBuf, wBuf, laneMask, codesUB, N);

  // Dual: the same recipe on the tile transposed, each of its C rows one
  // block of 32 (the tile's column), with the same per-block buffers (C
  // blocks either way).
  Value codes1UB, slots1UB;
  if (p.dual) {
    for (int64_t c = 0; c < C; c += 256) {
      int64_t w = std::min<int64_t>(256, C - c);
      VTransposeOp::create(b, loc, e.add(xtBuf, c * T * 4), e.add(X, c * 4),
                           f32, T, w, C, T);
    }
    if (p.inBytes == 4)
      e.flag(true, Pipe::v, Pipe::mte2, pp); // IN (= X) consumed
    e.scalar(BinaryKind::And, pBuf, xtBuf, u32v(0x7FFFFFFF), u32, N);
    e.repeated(N, 64, 4, [&](int64_t off, Value r, IntegerAttr) {
      VReduceGroupOp::create(b, loc, ReduceKind::max,
                             e.add(amBuf, off / 32 * 4), e.add(pBuf, off * 4),
                             r, u32, 32);
    });
    emitScaleAndMultiplier(e, perBlockBufs, policy);
    slots1UB = e.add(slots1Buf, e.mul(pp, slots1Size));
    e.repeated(C * 8, 64, 1, [&](int64_t off, Value r, IntegerAttr mask) {
      VGatherOp::create(b, loc, e.add(slots1UB, off * 4), sBuf,
                        e.add(slot1Offsets, off * 4), r, u32, mask);
    });
    e.repeated(N, 64, 4, [&](int64_t off, Value r, IntegerAttr) {
      VBroadcastGroupOp::create(b, loc, e.add(pBuf, off * 4),
                                e.add(mbBuf, off / 32 * 4), r, u32, 32);
    });
    e.binary(BinaryKind::mul, pBuf, xtBuf, pBuf, f32, N);
    if (padNibble1) {
      Value shortTile = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              rows, e.idx(T));
      auto branch = scf::IfOp::create(b, loc, shortTile, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&branch.getThenRegion().front());
      e.dup(wBuf, u32v(0), u32, N);
      e.sel(pBuf, padMask1, pBuf, wBuf, f32, N);
    }
    codes1UB = e.add(codes1Buf, e.mul(pp, codes1Size));
    emitCodes(e, p.codeType, rounding, productBF16, nanZero,
              /*preRound=*/fp4 && !productBF16 && !p.inType.isBF16(), p.emulate,
              pBuf, qBuf, wBuf, laneMask, fp4 ? packed1 : codes1UB, N);
    if (fp4)
      e.repeated(C * 8, 64, 1, [&](int64_t off, Value r, IntegerAttr m) {
        VGatherOp::create(b, loc, e.add(codes1UB, off * 4), packed1,
                          e.add(code1Offsets, off * 4), r, u32, m);
      });
  }

  // DMA out.
  e.flag(true, Pipe::v, Pipe::mte3, pp);
  e.flag(false, Pipe::v, Pipe::mte3, pp);
  Value codeLen = e.div(e.add(e.mul(cols, p.codeBits), 7), 8);
  Value codeLenPadded = e.mul(e.div(e.add(codeLen, 31), 32), 32);
  CopyUbToGmOp::create(
      b, loc, codesGM,
      e.add(e.mul(gmRow, codeRow), e.div(e.mul(c0, p.codeBits), 8)), codesUB,
      rows, codeLen, e.div(e.sub(e.idx(codePitch), codeLenPadded), 32),
      e.sub(e.idx(codeRow), codeLen));
  if (p.swizzle) {
    Value base = e.mul(batchIdx, swizzleBytes(p.mRows, nbK));
    Value swizzled = e.min(e.idx(T), e.sub(e.idx(p.swizzleRows), r0));
    copySwizzledSlots(e, /*write=*/true, scalesGM, base, slotsUB, r0, swizzled,
                      T, e.div(c0, B), nbr, nbK);
    if (p.dual)
      writeDualColumns(e, p, f.entry->getArgument(3), f.entry->getArgument(4),
                       codes1UB, slots1UB, batchIdx, r0, c0, rows, cols);
    e.flag(true, Pipe::mte3, Pipe::v, pp);
    return finishKernel(e, f);
  }
  Value blocks = e.div(e.add(cols, B - 1), B);
  if (p.pairs) // an odd count takes the next (all-zero) block's byte 0
    blocks = e.mul(e.div(e.add(blocks, 1), 2), 2);
  Value scaleLen = e.mul(blocks, scaleBytes);
  Value scaleLenPadded = e.mul(e.div(e.add(scaleLen, 31), 32), 32);
  CopyUbToGmOp::create(
      b, loc, scalesGM,
      e.mul(e.add(e.mul(r0, scaleRow), e.div(c0, B)), scaleBytes), scalesUB,
      rows, scaleLen,
      e.div(e.sub(e.idx(scaleRowBytes(nbr, p.f32.has_value())), scaleLenPadded), 32),
      e.mul(e.sub(e.idx(scaleRow), blocks), scaleBytes));
  e.flag(true, Pipe::mte3, Pipe::v, pp);

  // Drain: every flag the prologue set is waited for once more.
  finishKernel(e, f);
}

BinaryKind elementKind(const Plan &p) {
  return p.f32 && f32ScaleDivides(*p.f32) ? BinaryKind::div : BinaryKind::mul;
}

BlockPolicy blockPolicyOf(const Plan &p) {
  if (dialect::DualQuantizeOp dual = p.dual)
    return {dual.getScaleAlgorithm(), dual.getInfPolicy(),
            dual.getUnderflow(), p.format};
  dialect::QuantizeOp op = p.op;
  return {op.getScaleAlgorithm(), op.getInfPolicy(), op.getUnderflow(),
          p.format, p.f32};
}

} // namespace mxq::vtile::lowering
