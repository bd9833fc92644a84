//===- FakeQuant.cpp - fake_quant and fake_quant_grad kernels -------------===//
//
// mxq.fake_quant and mxq.fake_quant_grad as vtile kernels.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::vtile::lowering {

int64_t fakeQuantBytes(const FakeQuantPlan &p, int64_t t, int64_t c, bool dbl) {
  int64_t n = t * c, depth = dbl ? 2 : 1;
  int64_t bytes = 0;
  bytes += depth * roundUp(n * p.inBytes, 32);          // IN
  bytes += depth * 2 * roundUp(std::max(t, c) * 4, 32); // step, zero point
  bytes += p.inBytes == 4 ? 0 : roundUp(n * 4, 32);     // X
  bytes += 2 * roundUp(n * 4, 32);                      // S, Z
  bytes += (p.inBytes == 4 ? depth : 1) * roundUp(n * 4, 32);       // P
  bytes += p.inBytes == 4 ? 0 : depth * roundUp(n * p.inBytes, 32); // OUT
  bytes += roundUp(n, 32) + roundUp(n * 4, 32) + roundUp(n / 8, 32);
  bytes += p.emulate ? 2 * roundUp(n * 4, 32) : 0; // the emulation's scratch
  if (p.grad) // the gradient tile, a second lane mask
    bytes += depth * roundUp(n * p.inBytes, 32) + roundUp(n / 8, 32);
  return bytes;
}

LogicalResult planFakeQuant(func::FuncOp func, const Chip &chip,
                            const TilingOptions &options, FakeQuantPlan &p) {
  Block &body = func.getBody().front();
  Operation *first = &body.front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!isa<dialect::FakeQuantOp, dialect::FakeQuantGradOp>(first) ||
      first->getOperands() != func.getArguments() || !ret ||
      ret.getOperands() != first->getResults() ||
      &*std::next(body.begin()) != ret.getOperation())
    return fail(func, kOneOpMessage);
  p.op = dyn_cast<dialect::FakeQuantOp>(first);
  p.grad = dyn_cast<dialect::FakeQuantGradOp>(first);
  Value input = p.op ? p.op.getInput() : p.grad.getInput();
  Value stepSize = p.op ? p.op.getStepSize() : p.grad.getStepSize();
  auto in = cast<RankedTensorType>(input.getType());
  if (!in.hasStaticShape() ||
      !cast<RankedTensorType>(stepSize.getType()).hasStaticShape())
    return fail(func, "needs static shapes (mxq-run specialises a function "
                      "to its inputs' shapes before lowering it)");
  int64_t rank = in.getRank();
  if (p.op) {
    p.format = p.op.getFormat();
    if (!isa<Float8E4M3FNType, Float8E5M2Type>(p.format))
      return fail(func, "fake-quantizes to " + Twine(str(p.format)) +
                            "; the Ascend vector core casts f32 to FP8 only");
    p.emulate = !chip.mxCasts;
  }
  std::optional<uint64_t> channelAxis =
      p.op ? p.op.getAxis() : p.grad.getAxis();
  for (int64_t d = 0; d + 1 < rank; ++d)
    p.rows *= in.getShape()[d];
  if (auto axis = channelAxis) {
    if (int64_t(*axis) == rank - 1) {
      p.channels = FakeQuantPlan::Channels::Columns;
    } else {
      // Channels along a row axis: row r's channel is (r / run) % period.
      p.period = in.getShape()[*axis];
      for (int64_t d = int64_t(*axis) + 1; d + 1 < rank; ++d)
        p.run *= in.getShape()[d];
      p.channels = p.run == 1 ? FakeQuantPlan::Channels::Rows
                              : FakeQuantPlan::Channels::RowRuns;
    }
  }
  p.n = rank ? in.getShape().back() : 1;
  p.inType = in.getElementType();
  p.inBytes = p.inType.getIntOrFloatBitWidth() / 8;
  p.quantMin =
      (p.op ? p.op.getQuantMin() : p.grad.getQuantMin()).convertToFloat();
  p.quantMax =
      (p.op ? p.op.getQuantMax() : p.grad.getQuantMax()).convertToFloat();
  // Columns: a multiple of 64 (whole 32-byte blocks of every buffer).
  Tiling t;
  if (failed(pickTiling(
          func, chip, options, p.rows, p.n,
          std::clamp<int64_t>(roundUp(p.n, 64), 64, 4096), 64,
          [](int64_t c) { return c > 0 && c % 64 == 0; }, "a multiple of 64",
          [&](int64_t r, int64_t c) {
            return fakeQuantBytes(p, r, c, options.doubleBuffer);
          },
          chip.maxBurstCount, t)))
    return failure();
  // Channels along a row axis: a tile's rows divide the run of one channel
  // (RowRuns), or the period (Rows, unless the rows are one period: no
  // tile wraps), so that a tile reads one channel or consecutive ones.
  using Channels = FakeQuantPlan::Channels;
  int64_t unit = p.channels == Channels::RowRuns                      ? p.run
                 : p.channels == Channels::Rows && p.period != p.rows ? p.period
                                                                      : 0;
  if (unit > 0 && unit % t.tileRows) {
    if (options.tileRows)
      return fail(func, "tile-rows = " + Twine(options.tileRows) +
                            " does not divide " + Twine(unit) +
                            " (a tile's rows lie in one run of a channel's "
                            "rows, or in one period of the channels)");
    while (unit % t.tileRows)
      --t.tileRows;
    t.tiles = ceilDiv(p.rows, t.tileRows) * t.slices;
    t.cores = std::clamp<int64_t>(t.tiles, 1, chip.cores);
  }
  p.tileRows = t.tileRows, p.tileCols = t.tileCols, p.slices = t.slices;
  p.tiles = t.tiles, p.cores = t.cores;
  return success();
}

/// fake_quant (ref: fakeQuant): t = x / step + zero, clamped to [quant_min,
/// quant_max] (NaN kept), through the FP8 code and back, (q - zero) * step,
/// NaN canonical, rounded to the input type.
void emitFakeQuant(func::FuncOp func, const Chip &chip, const FakeQuantPlan &p,
                   const TilingOptions &options) {
  MLIRContext *ctx = func.getContext();
  dialect::FakeQuantOp op = p.op;
  dialect::FakeQuantGradOp grad = p.grad;
  SmallVector<Value> gmValues =
      grad ? SmallVector<Value>{grad.getGrad(), grad.getInput(),
                                grad.getStepSize(), grad.getResult()}
           : SmallVector<Value>{op.getInput(), op.getStepSize(),
                                op.getZeroPoint(), op.getResult()};
  Location loc = grad ? grad.getLoc() : op.getLoc();
  const bool dbl = options.doubleBuffer;
  using Channels = FakeQuantPlan::Channels;

  Frame f = beginKernel(func, gmValues, p.cores);
  OpBuilder b = OpBuilder::atBlockBegin(f.entry);
  Emitter e{b, loc, chip};
  // fake_quant (x, step, zero point, result); its gradient (grad, x, step,
  // result).
  Value gradGM = grad ? f.entry->getArgument(0) : Value();
  Value x = f.entry->getArgument(grad ? 1 : 0),
        stepGM = f.entry->getArgument(grad ? 2 : 1),
        zeroGM = grad ? Value() : f.entry->getArgument(2),
        outGM = f.entry->getArgument(3);
  Type f32 = b.getF32Type();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  auto u32v = [&](int64_t v) { return IntegerAttr::get(u32, v); };

  const int64_t T = p.tileRows, C = p.tileCols, N = T * C;
  const int64_t inPitch = C * p.inBytes, outPitch = inPitch;
  const int64_t depth = dbl ? 2 : 1;
  const int64_t paramSize = roundUp(std::max(T, C) * 4, 32);

  int64_t inSize = roundUp(N * p.inBytes, 32);
  Value inBuf = e.buffer(depth * inSize);
  Value stepBuf = e.buffer(depth * paramSize),
        zeroBuf = e.buffer(depth * paramSize);
  Value xBuf = p.inBytes == 4 ? Value() : e.buffer(N * 4);
  Value sBuf = e.buffer(N * 4), zBuf = e.buffer(N * 4);
  int64_t pSize = roundUp(N * 4, 32);
  Value pBuf = e.buffer((p.inBytes == 4 ? depth : 1) * pSize);
  int64_t outSize = roundUp(N * p.inBytes, 32);
  Value outBuf = p.inBytes == 4 ? Value() : e.buffer(depth * outSize);
  Value codeBuf = e.buffer(N), wBuf = e.buffer(N * 4),
        laneMask = e.buffer(N / 8);
  Value e1 = p.emulate ? e.buffer(N * 4) : Value(),
        e2 = p.emulate ? e.buffer(N * 4) : Value();
  Value gradBuf = grad ? e.buffer(depth * inSize) : Value();
  Value laneMask2 = grad ? e.buffer(N / 8) : Value();

  openTileLoop(e, f, p.tiles, p.cores, dbl);
  Value t = f.t, pp = f.pp, zero = e.idx(0), one = e.idx(1);
  Value in = e.add(inBuf, e.mul(pp, inSize));
  Value gradUB = grad ? e.add(gradBuf, e.mul(pp, inSize)) : Value();
  Value step = e.add(stepBuf, e.mul(pp, paramSize));
  Value zp = e.add(zeroBuf, e.mul(pp, paramSize));
  Value P = p.inBytes == 4 ? e.add(pBuf, e.mul(pp, pSize)) : pBuf;
  Value outUB = p.inBytes == 4 ? P : e.add(outBuf, e.mul(pp, outSize));
  Value slice = e.rem(t, p.slices), rowTile = e.div(t, p.slices);
  Value r0 = e.mul(rowTile, T), c0 = e.mul(slice, C);
  Value rows = e.min(e.idx(T), e.sub(e.idx(p.rows), r0));
  Value cols = e.min(e.idx(C), e.sub(e.idx(p.n), c0));
  auto padded = [&](Value len) { return e.mul(e.div(e.add(len, 31), 32), 32); };

  // DMA in: the tile and its channels' step and zero point.
  e.flag(false, Pipe::v, Pipe::mte2, pp);
  Value inLen = e.mul(cols, p.inBytes);
  for (auto [ub, gmArg] : {std::pair<Value, Value>{in, x}, {gradUB, gradGM}})
    if (ub)
      CopyGmToUbOp::create(b, loc, ub, gmArg,
                           e.mul(e.add(e.mul(r0, p.n), c0), p.inBytes), rows,
                           inLen, e.mul(e.sub(e.idx(p.n), cols), p.inBytes),
                           e.div(e.sub(e.idx(inPitch), padded(inLen)), 32),
                           b.getI64IntegerAttr(0));
  Value paramOff = zero, paramLen = e.idx(4);
  if (p.channels == Channels::Rows) {
    paramOff = e.mul(
        p.period == p.rows ? r0 : e.rem(r0, std::max<int64_t>(p.period, 1)), 4);
    paramLen = e.mul(rows, 4);
  } else if (p.channels == Channels::RowRuns) {
    paramOff = e.mul(e.rem(e.div(r0, std::max<int64_t>(p.run, 1)),
                           std::max<int64_t>(p.period, 1)),
                     4);
  } else if (p.channels == Channels::Columns) {
    paramOff = e.mul(c0, 4);
    paramLen = e.mul(cols, 4);
  }
  for (auto [ub, gmArg] : {std::pair<Value, Value>{step, stepGM}, {zp, zeroGM}})
    if (gmArg)
      CopyGmToUbOp::create(b, loc, ub, gmArg, paramOff, one, paramLen, zero,
                           zero, IntegerAttr());
  e.flag(true, Pipe::mte2, Pipe::v, pp);
  e.flag(false, Pipe::mte2, Pipe::v, pp);

  // The elements as f32, the step and zero point of every lane.
  Value X = in;
  if (p.inBytes != 4) {
    X = xBuf;
    e.cast(X, f32, in, p.inType, RoundMode::none, false, N);
  }
  for (auto [full, param] : {std::pair<Value, Value>{sBuf, step}, {zBuf, zp}}) {
    if (grad && full == zBuf)
      continue;
    if (p.channels == Channels::Columns) {
      // Each row a copy of the channel row (re-read: repeat stride 0).
      int64_t rowBlocks = C * 4 / 32;
      for (int64_t k = 0; k < C / 64; ++k)
        for (int64_t row0 = 0; row0 < T; row0 += chip.maxRepeat) {
          int64_t nr = std::min<int64_t>(chip.maxRepeat, T - row0);
          VUnaryOp::create(b, loc, UnaryKind::copy,
                           e.add(full, (row0 * C + k * 64) * 4),
                           e.add(param, k * 256), e.idx(nr), u32, IntegerAttr(),
                           nullptr, b.getDenseI64ArrayAttr({rowBlocks, 0}));
        }
    } else {
      int64_t group = p.channels == Channels::Rows ? C : N;
      e.repeated(N, 64, std::max<int64_t>(1, group / 8),
                 [&](int64_t off, Value r, IntegerAttr) {
                   VBroadcastGroupOp::create(b, loc, e.add(full, off * 4),
                                             e.add(param, off / group * 4), r,
                                             u32, group);
                 });
    }
  }
  if (grad) {
    // The gradient where quant_min * step <= x <= quant_max * step (fp32
    // bounds, ordered compares: a NaN x fails both), else +0.
    auto compare = [&](CmpPredicate pred, Value mask, Value lhs, Value rhs) {
      e.repeated(N, 64, 4, [&](int64_t off, Value r, IntegerAttr m) {
        VCmpOp::create(b, loc, pred, e.add(mask, off / 8), e.add(lhs, off * 4),
                       e.add(rhs, off * 4), r, f32, m);
      });
    };
    e.scalar(BinaryKind::mul, wBuf, sBuf, FloatAttr::get(f32, p.quantMin), f32,
             N);
    compare(CmpPredicate::ge, laneMask, X, wBuf);
    e.scalar(BinaryKind::mul, wBuf, sBuf, FloatAttr::get(f32, p.quantMax), f32,
             N);
    compare(CmpPredicate::le, laneMask2, X, wBuf);
    e.dup(wBuf, u32v(0), u32, N * p.inBytes / 4);
    e.flag(false, Pipe::mte3, Pipe::v, pp);
    e.sel(outUB, laneMask, gradUB, wBuf, p.inType, N);
    e.sel(outUB, laneMask2, outUB, wBuf, p.inType, N);
    e.flag(true, Pipe::v, Pipe::mte2, pp); // the inputs consumed
  } else {
    // t = x / step + zero, clamped (NaN stays NaN).
    e.binary(BinaryKind::div, wBuf, X, sBuf, f32, N);
    e.flag(true, Pipe::v, Pipe::mte2, pp); // input and parameters consumed
    e.binary(BinaryKind::add, wBuf, wBuf, zBuf, f32, N);
    e.scalar(BinaryKind::max, wBuf, wBuf, FloatAttr::get(f32, p.quantMin), f32,
             N);
    e.scalar(BinaryKind::min, wBuf, wBuf, FloatAttr::get(f32, p.quantMax), f32,
             N);
    // Through the code and back, then (q - zero) * step.
    ElementFormat format = *dialect::getElementFormat(p.format);
    if (p.emulate)
      emitEmulatedCodes(e, format, RoundMode::rint, /*nanZero=*/false, wBuf, e1,
                        e2, laneMask, codeBuf, N);
    else // a NaN lane keeps the NaN code, which decodes to NaN
      emitFP8Cast(e, p.format, /*nanCode=*/true, wBuf, codeBuf, N);
    if (p.inBytes == 4)
      e.flag(false, Pipe::mte3, Pipe::v, pp); // P is this tile's output
    if (p.emulate) {
      e.cast(e1, u32, codeBuf, IntegerType::get(ctx, 8, IntegerType::Unsigned),
             RoundMode::none, false, N);
      emitEmulatedDecode(e, format, e1, e2, laneMask, P, N);
    } else {
      e.cast(P, f32, codeBuf, p.format, RoundMode::none, false, N);
    }
    e.binary(BinaryKind::sub, P, P, zBuf, f32, N);
    e.binary(BinaryKind::mul, P, P, sBuf, f32, N);
    replaceNaNLanes(e, P, wBuf, laneMask, u32v(0x7FC00000), u32, N);
    if (p.inBytes != 4) {
      e.flag(false, Pipe::mte3, Pipe::v, pp);
      e.cast(outUB, p.inType, P, f32, RoundMode::rint, false, N);
    }
  }

  e.flag(true, Pipe::v, Pipe::mte3, pp);
  e.flag(false, Pipe::v, Pipe::mte3, pp);
  Value outLen = e.mul(cols, p.inBytes);
  CopyUbToGmOp::create(
      b, loc, outGM, e.mul(e.add(e.mul(r0, p.n), c0), p.inBytes), outUB, rows,
      outLen, e.div(e.sub(e.idx(outPitch), padded(outLen)), 32),
      e.mul(e.sub(e.idx(p.n), cols), p.inBytes));
  e.flag(true, Pipe::mte3, Pipe::v, pp);

  finishKernel(e, f);
}

} // namespace mxq::vtile::lowering
