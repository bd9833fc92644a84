//===- TwoLevelQuantize.cpp - two_level_quantize kernels ------------------===//
//
// mxq.two_level_quantize (CANN DynamicDualLevelMxQuant) as a vtile kernel.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::vtile::lowering {

/// Level 1 is a quantize's block rule with scale = floor (OCP, FP4's emax),
/// inf = nan and underflow = flush_e0 (ref: twoLevelQuantize, level 1).
static BlockPolicy twoLevelBlockPolicy() {
  return {dialect::ScaleAlgorithm::floor, dialect::InfPolicy::nan,
          dialect::Underflow::flush_e0, ElementFormat::E2M1FN};
}

int64_t twoLevelBytes(int64_t t, int64_t c, bool dbl, bool smooth) {
  int64_t n = t * c, nb1 = n / kBlock1, depth = dbl ? 2 : 1;
  int64_t pitch0 = roundUp(ceilDiv(c, kBlock0) * 4, 32);
  int64_t bytes = 0;
  bytes += depth * roundUp(n * 2, 32);                // IN (bf16)
  bytes += 5 * roundUp(n * 4, 32);                    // X, A, W, P, LB
  bytes += roundUp(n * 2, 32) + roundUp(n / 8, 32);   // Q, lane mask
  bytes += depth * roundUp(n / 2, 32);                // codes
  bytes += depth * t * pitch0;                        // level-0 out
  bytes += roundUp(t * pitch0 / 4, 256) * 4 * 2 + 64; // L0, its mask
  bytes += depth * t * roundUp(c / kBlock1, 32);      // level-1 out
  // AM, E, S, MB, CONST and what the block recipe needs beyond E, CONST
  // and MB.
  bytes += (5 + extraBlockSlots(twoLevelBlockPolicy(), 3)) * roundUp(nb1, 256) *
               4 +
           roundUp(nb1, 256) / 8;
  if (smooth) // the tile's smooth slice, and as f32
    bytes += depth * roundUp(c * 2, 32) + roundUp(c * 4, 32);
  return bytes;
}

LogicalResult planTwoLevel(func::FuncOp func, const Chip &chip,
                           const TilingOptions &options, TwoLevelPlan &p) {
  Block &body = func.getBody().front();
  auto op = dyn_cast<dialect::TwoLevelQuantizeOp>(body.front());
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!op || op.getInput() != func.getArgument(0) || !ret ||
      ret.getNumOperands() != 3 || ret.getOperand(0) != op.getY() ||
      ret.getOperand(1) != op.getLevel0Scales() ||
      ret.getOperand(2) != op.getLevel1Scales() ||
      &*std::next(body.begin()) != ret.getOperation())
    return fail(func, kOneOpMessage);
  p.smooth = bool(op.getSmooth());
  if (p.smooth && op.getSmooth() != func.getArgument(1))
    return fail(func, kOneOpMessage);
  p.op = op;
  auto in = cast<RankedTensorType>(op.getInput().getType());
  if (!in.hasStaticShape())
    return fail(func, "needs static shapes (mxq-run specialises a function "
                      "to its inputs' shapes before lowering it)");
  p.inType = in.getElementType();
  p.emulate = !chip.mxCasts;
  for (int64_t d : in.getShape().drop_back())
    p.rows *= d;
  p.k = in.getShape().back();
  p.ftz = op.getDivDenormals() == dialect::DivDenormals::ftz;
  p.nanZero = op.getNanElement() == dialect::NanElement::zero;
  p.rounding = op.getRounding();
  // Columns: whole level-0 blocks, and level-1 scale rows as the
  // quantize's (at most 64 blocks, or a multiple of 32).
  auto valid = [&](int64_t c) {
    int64_t n = c / kBlock1;
    return c > 0 && c % kBlock0 == 0 && (n <= 64 || n % 32 == 0);
  };
  int64_t start = std::max(kBlock0, roundUp(p.k, kBlock0));
  if (!valid(start))
    start = roundUp(p.k, 1024);
  Tiling t;
  if (failed(pickTiling(
          func, chip, options, p.rows, p.k, start, kBlock0, valid,
          "a multiple of 512 of at most 2048 or a multiple of 1024",
          [&](int64_t r, int64_t c) {
            return twoLevelBytes(r, c, options.doubleBuffer, p.smooth);
          },
          chip.maxRepeat, t)))
    return failure();
  p.tileRows = t.tileRows, p.tileCols = t.tileCols, p.slices = t.slices;
  p.tiles = t.tiles, p.cores = t.cores;
  return success();
}

/// two_level_quantize (ref: twoLevelQuantize).
void emitTwoLevel(func::FuncOp func, const Chip &chip, const TwoLevelPlan &p,
                  const TilingOptions &options) {
  MLIRContext *ctx = func.getContext();
  dialect::TwoLevelQuantizeOp op = p.op;
  SmallVector<Value> gmValues = {op.getInput()};
  if (p.smooth)
    gmValues.push_back(op.getSmooth());
  gmValues.append({op.getY(), op.getLevel0Scales(), op.getLevel1Scales()});
  Location loc = op.getLoc();
  const bool dbl = options.doubleBuffer;

  Frame f = beginKernel(func, gmValues, p.cores);
  OpBuilder b = OpBuilder::atBlockBegin(f.entry);
  Emitter e{b, loc, chip};
  unsigned out = p.smooth ? 2 : 1; // the first result's argument
  Value x = f.entry->getArgument(0),
        smoothGM = p.smooth ? f.entry->getArgument(1) : Value(),
        codesGM = f.entry->getArgument(out),
        level0GM = f.entry->getArgument(out + 1),
        level1GM = f.entry->getArgument(out + 2);
  Type f32 = b.getF32Type(), bf16 = b.getBF16Type();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type fp4 = Float4E2M1FNType::get(ctx);
  auto u32v = [&](int64_t v) { return IntegerAttr::get(u32, v); };

  const int64_t T = p.tileRows, C = p.tileCols, N = T * C;
  const int64_t nbr = C / kBlock1, NB = N / kBlock1;
  const int64_t nb0r = C / kBlock0, pitch0 = roundUp(nb0r * 4, 32);
  const int64_t l0Lanes = roundUp(T * pitch0 / 4, 256);
  const int64_t nbK = ceilDiv(p.k, kBlock1), l0Row = ceilDiv(p.k, kBlock0);
  const int64_t scaleRow = 2 * ceilDiv(nbK, 2), codeRow = ceilDiv(p.k, 2);
  const int64_t inPitch = C * 2, codePitch = C / 2;
  const int64_t scalePitch = roundUp(nbr, 32);
  const int64_t maskLanes = roundUp(NB, 256), perBlock = maskLanes * 4;
  const int64_t depth = dbl ? 2 : 1;

  int64_t inSize = roundUp(N * 2, 32);
  Value inBuf = e.buffer(depth * inSize);
  Value X = e.buffer(N * 4), A = e.buffer(N * 4), W = e.buffer(N * 4),
        P = e.buffer(N * 4), LB = e.buffer(N * 4), Q = e.buffer(N * 2),
        LM = e.buffer(N / 8);
  int64_t codeSize = roundUp(N / 2, 32);
  Value codeBuf = e.buffer(depth * codeSize);
  int64_t l0Size = T * pitch0;
  Value l0Out = e.buffer(depth * l0Size);
  Value L0 = e.buffer(l0Lanes * 4), L0c = e.buffer(l0Lanes * 4),
        L0m = e.buffer(l0Lanes / 8 + 32);
  int64_t scaleSize = T * scalePitch;
  Value scaleBuf = e.buffer(depth * scaleSize);
  Value amBuf = e.buffer(perBlock), eBuf = e.buffer(perBlock),
        sBuf = e.buffer(perBlock), mbBuf = e.buffer(perBlock),
        constBuf = e.buffer(perBlock), blockMask = e.buffer(maskLanes / 8);
  SmallVector<Value, 2> blockExtra;
  for (int64_t i = 0; i < extraBlockSlots(twoLevelBlockPolicy(), 3); ++i)
    blockExtra.push_back(e.buffer(perBlock));
  int64_t smoothSize = roundUp(C * 2, 32);
  Value smoothBuf = p.smooth ? e.buffer(depth * smoothSize) : Value();
  Value SF = p.smooth ? e.buffer(C * 4) : Value();

  openTileLoop(e, f, p.tiles, p.cores, dbl);
  Value t = f.t, pp = f.pp;
  Value in = e.add(inBuf, e.mul(pp, inSize));
  Value smoothUB = p.smooth ? e.add(smoothBuf, e.mul(pp, smoothSize)) : Value();
  Value codesUB = e.add(codeBuf, e.mul(pp, codeSize));
  Value l0UB = e.add(l0Out, e.mul(pp, l0Size));
  Value scalesUB = e.add(scaleBuf, e.mul(pp, scaleSize));
  Value slice = e.rem(t, p.slices), rowTile = e.div(t, p.slices);
  Value r0 = e.mul(rowTile, T), c0 = e.mul(slice, C);
  Value rows = e.min(e.idx(T), e.sub(e.idx(p.rows), r0));
  Value cols = e.min(e.idx(C), e.sub(e.idx(p.k), c0));
  auto padded = [&](Value len) { return e.mul(e.div(e.add(len, 31), 32), 32); };

  e.flag(false, Pipe::v, Pipe::mte2, pp);
  int64_t lastCols = p.k - (p.slices - 1) * C;
  if (p.k && roundUp(lastCols * 2, 32) < inPitch) {
    Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         slice, e.idx(p.slices - 1));
    auto zeroing = scf::IfOp::create(b, loc, isLast, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&zeroing.getThenRegion().front());
    e.dup(in, IntegerAttr::get(u32, 0), u32, N / 2);
    if (p.smooth) // the smooth past the last column: 0, never Inf or NaN
      e.dup(smoothUB, IntegerAttr::get(u32, 0), u32, C / 2);
    e.flag(true, Pipe::v, Pipe::mte2, e.idx(2));
    e.flag(false, Pipe::v, Pipe::mte2, e.idx(2));
  }
  Value inLen = e.mul(cols, 2);
  CopyGmToUbOp::create(b, loc, in, x, e.mul(e.add(e.mul(r0, p.k), c0), 2), rows,
                       inLen, e.mul(e.sub(e.idx(p.k), cols), 2),
                       e.div(e.sub(e.idx(inPitch), padded(inLen)), 32),
                       b.getI64IntegerAttr(0));
  if (p.smooth)
    CopyGmToUbOp::create(b, loc, smoothUB, smoothGM, e.mul(c0, 2), e.idx(1),
                         inLen, e.idx(0), e.idx(0), b.getI64IntegerAttr(0));
  e.flag(true, Pipe::mte2, Pipe::v, pp);
  e.flag(false, Pipe::mte2, Pipe::v, pp);
  e.cast(X, f32, in, p.inType, RoundMode::none, false, N);
  if (p.smooth) {
    // x * smooth in the input type: the f32 product of two 16-bit values is
    // exact, so one rounding to the input type (rint) is the input type's
    // own multiply. The smooth row is re-read for every row (stride 0), or
    // with few rows multiplies each row.
    e.cast(SF, f32, smoothUB, p.inType, RoundMode::none, false, C);
    if (T <= C / 64) { // few rows: a row at a time, contiguous repeats
      for (int64_t r = 0; r < T; ++r)
        e.binary(BinaryKind::mul, e.add(X, r * C * 4), e.add(X, r * C * 4), SF,
                 f32, C);
    } else {
      e.mulRows(X, X, SF, T, C);
    }
    e.cast(in, p.inType, X, f32, RoundMode::rint, false, N);
    e.cast(X, f32, in, p.inType, RoundMode::none, false, N);
  }
  e.flag(true, Pipe::v, Pipe::mte2, pp);

  // Level 0: per 512 the maximum of the finite |x| (Inf and NaN count 0),
  // times fl32(1/6); below 2^-126 it is 0.
  e.scalar(BinaryKind::And, A, X, u32v(0x7FFFFFFF), u32, N);
  e.cmps(CmpPredicate::ge, LM, A, u32v(0x7F800000), u32, N);
  e.dup(W, u32v(0), u32, N);
  e.sel(W, LM, W, A, u32, N);
  for (int64_t r = 0; r < T; ++r)
    VReduceGroupOp::create(b, loc, ReduceKind::max, e.add(L0, r * pitch0),
                           e.add(W, r * C * 4), e.idx(C / 64), u32, kBlock0);
  emitLevel0Scales(e, L0, L0m, L0c, l0Lanes);
  for (int64_t r = 0; r < T; ++r)
    VBroadcastGroupOp::create(b, loc, e.add(LB, r * C * 4),
                              e.add(L0, r * pitch0), e.idx(C / 64), u32,
                              kBlock0);
  // temp = x == 0 ? x : bf16(ftz(ftz(x) / level0)).
  auto flushSubnormals = [&](Value v) { emitFlushSubnormals(e, v, W, LM, N); };
  e.unary(UnaryKind::copy, P, X, u32, N);
  if (p.ftz)
    flushSubnormals(P);
  e.binary(BinaryKind::div, P, P, LB, f32, N);
  if (p.ftz)
    flushSubnormals(P);
  // temp is rounded to the input's type (bf16 or f16).
  e.cast(Q, p.inType, P, f32, RoundMode::rint, false, N);
  e.cast(P, f32, Q, p.inType, RoundMode::none, false, N);
  e.cmps(CmpPredicate::eq, LM, A, u32v(0), u32, N);
  e.sel(P, LM, X, P, u32, N);

  // Level 1: the OCP floor (emax 2) of the groups' largest exponent field
  // (Inf and NaN have 0xFF): 0xFF gives the NaN scale, 0 multiplies by 0.
  e.scalar(BinaryKind::And, W, P, u32v(0x7FFFFFFF), u32, N);
  e.repeated(N, 64, std::max<int64_t>(1, kBlock1 / 8),
             [&](int64_t off, Value r, IntegerAttr) {
               VReduceGroupOp::create(b, loc, ReduceKind::max,
                                      e.add(amBuf, off / kBlock1 * 4),
                                      e.add(W, off * 4), r, u32, kBlock1);
             });
  // The same rule as a quantize's with scale = floor (OCP, FP4's emax),
  // inf = nan and underflow = flush_e0 (ref: twoLevelQuantize, level 1).
  emitScaleAndMultiplier(
      e,
      BlockBuffers{amBuf, eBuf, sBuf, mbBuf, constBuf, Value(), Value(),
                   blockMask, NB, maskLanes, blockExtra},
      twoLevelBlockPolicy());

  // Outputs of this buffer: free once their DMA out is done.
  e.flag(false, Pipe::mte3, Pipe::v, pp);
  e.unary(UnaryKind::copy, l0UB, L0, u32, T * pitch0 / 4);
  writeScaleRows(e, scalesUB, sBuf, T, nbr, scalePitch);
  e.repeated(N, 64, std::max<int64_t>(1, kBlock1 / 8),
             [&](int64_t off, Value r, IntegerAttr) {
               VBroadcastGroupOp::create(b, loc, e.add(W, off * 4),
                                         e.add(mbBuf, off / kBlock1 * 4), r,
                                         u32, kBlock1);
             });
  e.binary(BinaryKind::mul, P, P, W, f32, N);
  RoundMode mode = p.rounding == dialect::Rounding::away    ? RoundMode::round
                   : p.rounding == dialect::Rounding::floor ? RoundMode::floor
                                                            : RoundMode::rint;
  if (p.emulate) {
    // No FP4 cast (a2): the bf16 product for bf16 input, then the codes by
    // integer code (A, |x|, is free by now).
    if (p.inType.isBF16()) {
      e.cast(Q, bf16, P, f32, RoundMode::rint, false, N);
      e.cast(P, f32, Q, bf16, RoundMode::none, false, N);
    }
    emitEmulatedCodes(e, ElementFormat::E2M1FN, mode, p.nanZero, P, W, A, LM,
                      codesUB, N);
  } else {
    if (!p.nanZero) // NaN: the largest code (the cast would give 0)
      replaceNaNLanes(
          e, P, W, LM,
          FloatAttr::get(f32, formatInfo(ElementFormat::E2M1FN).maxFinite),
          f32, N);
    // bf16 input: the product is rounded to bf16, then cast. f16 input: the
    // f32 product is pre-rounded on the E2M1 grid, so that neither cast
    // rounds again.
    if (!p.inType.isBF16())
      roundToGrid(e, ElementFormat::E2M1FN, P, W, mode, N);
    e.cast(Q, bf16, P, f32, RoundMode::rint, false, N);
    e.cast(codesUB, fp4, Q, bf16, mode, true, N);
  }

  e.flag(true, Pipe::v, Pipe::mte3, pp);
  e.flag(false, Pipe::v, Pipe::mte3, pp);
  Value codeLen = e.div(e.add(cols, 1), 2);
  CopyUbToGmOp::create(b, loc, codesGM, e.add(e.mul(r0, codeRow), e.div(c0, 2)),
                       codesUB, rows, codeLen,
                       e.div(e.sub(e.idx(codePitch), padded(codeLen)), 32),
                       e.sub(e.idx(codeRow), codeLen));
  Value l0Len = e.mul(e.div(e.add(cols, kBlock0 - 1), kBlock0), 4);
  CopyUbToGmOp::create(
      b, loc, level0GM, e.mul(e.add(e.mul(r0, l0Row), e.div(c0, kBlock0)), 4),
      l0UB, rows, l0Len, e.div(e.sub(e.idx(pitch0), padded(l0Len)), 32),
      e.sub(e.idx(l0Row * 4), l0Len));
  Value blocks = e.div(e.add(cols, kBlock1 - 1), kBlock1);
  blocks = e.mul(e.div(e.add(blocks, 1), 2), 2);
  CopyUbToGmOp::create(b, loc, level1GM,
                       e.add(e.mul(r0, scaleRow), e.div(c0, kBlock1)), scalesUB,
                       rows, blocks,
                       e.div(e.sub(e.idx(scalePitch), padded(blocks)), 32),
                       e.sub(e.idx(scaleRow), blocks));
  e.flag(true, Pipe::mte3, Pipe::v, pp);

  finishKernel(e, f);
}

} // namespace mxq::vtile::lowering
