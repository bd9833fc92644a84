//===- ConvertMXQToVTile.cpp - mxq functions as vtile kernels -------------===//
//
// convert-mxq-to-vtile: see Passes.td, and docs/Rationale.md ("The
// Ascend-like target") for the recipe and why each step computes exactly
// what the reference does.
//
//===----------------------------------------------------------------------===//
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Support/Formats.h"
#include "mxq/Support/ScaleLayout.h"
#include "mxq/Conversion/IndexExpr.h"
#include "mxq/Target/Ascend/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <functional>

namespace mxq::vtile {
#define GEN_PASS_DEF_CONVERTMXQTOVTILE
#include "mxq/Target/Ascend/Passes.h.inc"
} // namespace mxq::vtile

using namespace mlir;
namespace dialect = ::mlir::mxq;

namespace mxq::vtile {
namespace {

std::string str(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}
int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// Builds the kernel body: index arithmetic, UB buffers, instructions.
struct Emitter {
  OpBuilder &b;
  Location loc;
  const Chip &chip;
  int64_t next = 0; ///< next free UB byte

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value a, Value c) { return arith::AddIOp::create(b, loc, a, c); }
  Value add(Value a, int64_t c) { return c ? add(a, idx(c)) : a; }
  Value mul(Value a, int64_t c) {
    return c == 1 ? a : arith::MulIOp::create(b, loc, a, idx(c)).getResult();
  }
  Value mul(Value a, Value c) { return arith::MulIOp::create(b, loc, a, c); }
  Value sub(Value a, Value c) { return arith::SubIOp::create(b, loc, a, c); }
  Value div(Value a, int64_t c) {
    return arith::DivUIOp::create(b, loc, a, idx(c));
  }
  Value rem(Value a, int64_t c) {
    return arith::RemUIOp::create(b, loc, a, idx(c));
  }
  Value min(Value a, Value c) { return arith::MinUIOp::create(b, loc, a, c); }

  /// A UB buffer of `bytes` (rounded up to 32) at the next free address.
  Value buffer(int64_t bytes) {
    bytes = roundUp(bytes, 32);
    Value v =
        UBBufferOp::create(b, loc, b.getIndexType(), b.getI64IntegerAttr(next),
                           b.getI64IntegerAttr(bytes));
    next += bytes;
    return v;
  }

  /// Calls `make(laneOffset, repeats, mask)` for consecutive chunks covering
  /// `lanes` lanes at `perRepeat` lanes a repeat, each chunk a multiple of
  /// `multiple` repeats (at most the chip's repeat limit), the last repeat
  /// masked where the lanes do not fill it.
  void repeated(int64_t lanes, int64_t perRepeat, int64_t multiple,
                const std::function<void(int64_t, Value, IntegerAttr)> &make) {
    int64_t chunk = std::max<int64_t>(1, chip.maxRepeat / multiple) * multiple;
    int64_t full = lanes / perRepeat, rest = lanes % perRepeat;
    for (int64_t r = 0; r < full; r += chunk)
      make(r * perRepeat, idx(std::min(chunk, full - r)), IntegerAttr());
    if (rest)
      make(full * perRepeat, idx(1), b.getI64IntegerAttr(rest));
  }

  /// dst = kind(src, scalar) over `lanes` lanes of `type`.
  void scalar(BinaryKind kind, Value dst, Value src, Attribute s, Type type,
              int64_t lanes) {
    int64_t bytes = laneBits(type) / 8, per = 256 / bytes;
    repeated(lanes, per, 1, [&](int64_t off, Value r, IntegerAttr mask) {
      VScalarOp::create(b, loc, kind, add(dst, off * bytes),
                        add(src, off * bytes), r, type, s, mask, nullptr,
                        nullptr);
    });
  }
  void binary(BinaryKind kind, Value dst, Value lhs, Value rhs, Type type,
              int64_t lanes) {
    int64_t bytes = laneBits(type) / 8, per = 256 / bytes;
    repeated(lanes, per, 1, [&](int64_t off, Value r, IntegerAttr mask) {
      VBinaryOp::create(b, loc, kind, add(dst, off * bytes),
                        add(lhs, off * bytes), add(rhs, off * bytes), r, type,
                        mask, nullptr, nullptr);
    });
  }
  void unary(UnaryKind kind, Value dst, Value src, Type type, int64_t lanes) {
    int64_t bytes = laneBits(type) / 8, per = 256 / bytes;
    repeated(lanes, per, 1, [&](int64_t off, Value r, IntegerAttr mask) {
      VUnaryOp::create(b, loc, kind, add(dst, off * bytes),
                       add(src, off * bytes), r, type, mask, nullptr, nullptr);
    });
  }
  void dup(Value dst, Attribute s, Type type, int64_t lanes) {
    int64_t bytes = laneBits(type) / 8, per = 256 / bytes;
    repeated(lanes, per, 1, [&](int64_t off, Value r, IntegerAttr mask) {
      VDupOp::create(b, loc, add(dst, off * bytes), r, type, s, mask, nullptr,
                     nullptr);
    });
  }
  /// A lane mask (one bit per lane) of `pred(src, s)`; `lanes` a multiple
  /// of 256 so that each chunk's mask starts on 32 bytes (vsel likewise).
  void cmps(CmpPredicate pred, Value dst, Value src, Attribute s, Type type,
            int64_t lanes) {
    int64_t bytes = laneBits(type) / 8, per = 256 / bytes;
    repeated(lanes, per, bytes, [&](int64_t off, Value r, IntegerAttr m) {
      VCmpsOp::create(b, loc, pred, add(dst, off / 8), add(src, off * bytes), r,
                      type, s, m, nullptr, nullptr);
    });
  }
  /// A lane mask of `pred(lhs, rhs)`, as cmps.
  void cmp(CmpPredicate pred, Value dst, Value lhs, Value rhs, Type type,
           int64_t lanes) {
    int64_t bytes = laneBits(type) / 8, per = 256 / bytes;
    repeated(lanes, per, bytes, [&](int64_t off, Value r, IntegerAttr m) {
      VCmpOp::create(b, loc, pred, add(dst, off / 8), add(lhs, off * bytes),
                     add(rhs, off * bytes), r, type, m);
    });
  }
  void sel(Value dst, Value mask, Value lhs, Value rhs, Type type,
           int64_t lanes) {
    int64_t bytes = laneBits(type) / 8, per = 256 / bytes;
    repeated(lanes, per, bytes, [&](int64_t off, Value r, IntegerAttr m) {
      VSelOp::create(b, loc, add(dst, off * bytes), add(mask, off / 8),
                     add(lhs, off * bytes), add(rhs, off * bytes), r, type, m,
                     nullptr, nullptr);
    });
  }
  void cast(Value dst, Type dstType, Value src, Type srcType, RoundMode round,
            bool sat, int64_t lanes) {
    unsigned db = laneBits(dstType), sb = laneBits(srcType);
    int64_t per = 2048 / std::max(db, sb);
    repeated(lanes, per, 1, [&](int64_t off, Value r, IntegerAttr m) {
      VCastOp::create(b, loc, add(dst, off * db / 8), add(src, off * sb / 8), r,
                      srcType, dstType, round, sat, m, nullptr, nullptr);
    });
  }
  /// dst[r] = src[r] * row (f32) for `rows` rows of `cols` lanes (a
  /// multiple of 64): the row re-read for every row (repeat stride 0).
  void mulRows(Value dst, Value src, Value row, int64_t rows, int64_t cols) {
    int64_t rowBlocks = cols * 4 / 32;
    for (int64_t k = 0; k < cols / 64; ++k)
      for (int64_t r0 = 0; r0 < rows; r0 += chip.maxRepeat) {
        int64_t nr = std::min<int64_t>(chip.maxRepeat, rows - r0);
        int64_t off = (r0 * cols + k * 64) * 4;
        VBinaryOp::create(b, loc, BinaryKind::mul, add(dst, off), add(src, off),
                          add(row, k * 256), idx(nr), b.getF32Type(),
                          IntegerAttr(), nullptr,
                          b.getDenseI64ArrayAttr({rowBlocks, rowBlocks, 0}));
      }
  }
  void flag(bool set, Pipe src, Pipe dst, Value id) {
    if (set)
      SetFlagOp::create(b, loc, src, dst, id);
    else
      WaitFlagOp::create(b, loc, src, dst, id);
  }
};

/// The per-block buffers of the scale recipe: u32 lanes, `lanes` of them
/// used, `maskLanes` (a multiple of 256) allocated.
struct BlockBuffers {
  Value am, e, s, mb, cst, t, t2, mask;
  int64_t lanes, maskLanes;
};
struct BlockPolicy {
  dialect::ScaleAlgorithm algorithm;
  dialect::InfPolicy inf;
  dialect::Underflow underflow;
  ElementFormat format;
};

/// From the amax bits of each block (bb.am), its scale byte (bb.s, ref:
/// scaleByte) and the bits of its f32 multiplier (bb.mb, ref:
/// blockMultiplier).
void emitScaleAndMultiplier(Emitter &e, const BlockBuffers &bb,
                            const BlockPolicy &pol) {
  OpBuilder &b = e.b;
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  auto u32v = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  const int64_t n = bb.lanes, emax = formatInfo(pol.format).emax;
  // The scale byte, per algorithm (ref: scaleByte), from the amax bits.
  // E: the amax's exponent field (also what the underflow policy tests).
  e.scalar(BinaryKind::shr, bb.e, bb.am, u32v(23), u32, n);
  auto clampFloor = [&](Value src) { // clamp(src - emax, 0, 254)
    e.scalar(BinaryKind::max, bb.s, src, u32v(emax), u32, n);
    e.scalar(BinaryKind::sub, bb.s, bb.s, u32v(emax), u32, n);
    e.scalar(BinaryKind::min, bb.s, bb.s, u32v(254), u32, n);
  };
  auto selectConst = [&](CmpPredicate pred, Value src, int64_t against,
                         Value dst, int64_t value) {
    e.cmps(pred, bb.mask, src, u32v(against), u32, bb.maskLanes);
    e.dup(bb.cst, u32v(value), u32, bb.maskLanes);
    e.sel(dst, bb.mask, bb.cst, dst, u32, bb.maskLanes);
  };
  switch (pol.algorithm) {
  case dialect::ScaleAlgorithm::floor:
    clampFloor(bb.e);
    break;
  case dialect::ScaleAlgorithm::ceil: // E + (mantissa != 0)
    e.scalar(BinaryKind::And, bb.t, bb.am, u32v(0x7FFFFF), u32, n);
    e.scalar(BinaryKind::min, bb.t, bb.t, u32v(1), u32, n);
    e.binary(BinaryKind::add, bb.t, bb.e, bb.t, u32, n);
    clampFloor(bb.t);
    break;
  case dialect::ScaleAlgorithm::even: { // round to the element's mantissa
    int64_t half = int64_t(1) << (22 - formatInfo(pol.format).mbits);
    e.scalar(BinaryKind::add, bb.t, bb.am, u32v(half), u32, n);
    e.scalar(BinaryKind::shr, bb.t, bb.t, u32v(23), u32, n);
    clampFloor(bb.t);
    // A carry into the Inf exponent: 0xFE when saturating, else 0xFF.
    selectConst(CmpPredicate::eq, bb.t, 255, bb.s,
                pol.inf == dialect::InfPolicy::saturate ? 254 : 255);
    break;
  }
  case dialect::ScaleAlgorithm::rceil: { // d = amax * fl32(1/max), up
    e.scalar(BinaryKind::mul, bb.mb, bb.am,
             FloatAttr::get(f32, 1.0f / formatInfo(pol.format).maxFinite), f32,
             n);
    e.scalar(BinaryKind::shr, bb.s, bb.mb, u32v(23), u32, n);
    e.scalar(BinaryKind::And, bb.t, bb.mb, u32v(0x7FFFFF), u32, n);
    // Up by one: a normal d with a mantissa, a subnormal one above 2^-127.
    e.scalar(BinaryKind::add, bb.t2, bb.t, u32v(0x3FFFFF), u32, n);
    e.scalar(BinaryKind::shr, bb.t2, bb.t2, u32v(23), u32, n);
    e.scalar(BinaryKind::min, bb.t, bb.t, u32v(1), u32, n);
    e.cmps(CmpPredicate::eq, bb.mask, bb.s, u32v(0), u32, bb.maskLanes);
    e.sel(bb.t, bb.mask, bb.t2, bb.t, u32, bb.maskLanes);
    e.binary(BinaryKind::add, bb.s, bb.s, bb.t, u32, n);
    e.scalar(BinaryKind::min, bb.s, bb.s, u32v(255), u32, n);
    break;
  }
  }
  // A block holding an infinity (and no NaN) per inf_policy; one holding a
  // NaN gets 0xFF.
  int64_t infScale = pol.inf == dialect::InfPolicy::nan ? 255
                     : pol.inf == dialect::InfPolicy::saturate
                         ? 254
                         : std::min<int64_t>(255 - emax, 254);
  selectConst(CmpPredicate::eq, bb.am, 0x7F800000, bb.s, infScale);
  selectConst(CmpPredicate::gt, bb.am, 0x7F800000, bb.s, 255);

  // The multiplier bits: (254 - s) << 23; 2^-127 for s = 254, NaN for 255,
  // 0 where the underflow policy flushes the block.
  e.scalar(BinaryKind::mul, bb.mb, bb.s, u32v(0xFFFFFFFF), u32, n);
  e.scalar(BinaryKind::add, bb.mb, bb.mb, u32v(254), u32, n);
  e.scalar(BinaryKind::shl, bb.mb, bb.mb, u32v(23), u32, n);
  selectConst(CmpPredicate::eq, bb.s, 254, bb.mb, 0x00400000);
  selectConst(CmpPredicate::eq, bb.s, 255, bb.mb, 0x7FC00000);
  if (pol.underflow == dialect::Underflow::flush_e0)
    selectConst(CmpPredicate::eq, bb.e, 0, bb.mb, 0);
  else if (pol.underflow == dialect::Underflow::flush_le_emax)
    selectConst(CmpPredicate::le, bb.e, emax, bb.mb, 0);
}

LogicalResult fail(func::FuncOp func, const Twine &why);
struct Plan;
/// The column recipe flattens the dimensions after the block axis into
/// one row of n columns, and packs FP4 codes two a byte along it; that is
/// the packing along the last axis when the dimensions between are 1 or the
/// last dimension is even (no row of it ends in a padding nibble). A
/// diagnostic otherwise.
LogicalResult checkFlatFP4(func::FuncOp func, StringRef verb,
                           ElementFormat format, ArrayRef<int64_t> shape,
                           uint64_t axis) {
  int64_t rank = int64_t(shape.size());
  if (format != ElementFormat::E2M1FN || int64_t(axis) >= rank - 2 ||
      shape.back() % 2 == 0)
    return success();
  int64_t between = 1;
  for (int64_t d = int64_t(axis) + 1; d + 1 < rank; ++d)
    between *= shape[d];
  if (between == 1)
    return success();
  return fail(func, Twine(verb) + " FP4 along axis " + Twine(axis) +
                        " of a rank-" + Twine(rank) +
                        " tensor whose last dimension is odd (" +
                        Twine(shape.back()) +
                        "); the column recipe packs codes along its "
                        "flattened rows, which differs from the last axis' "
                        "packing there");
}

LogicalResult planColumns(func::FuncOp func, const Chip &chip,
                          const TilingOptions &options, Plan &p);

/// The frame every kernel shares: its new body (the old one stays until
/// finishKernel, so that a plan's op can be read while emitting), and the
/// loop over this core's tiles with the double-buffer prologue and drain.
struct Frame {
  Block *entry = nullptr, *old = nullptr;
  scf::ForOp loop;
  Value t, pp; ///< the tile and its buffer parity
  int64_t depth = 1;
};

/// Makes `func` a kernel over the GM memrefs of `values` (the op's
/// operands, then its results) on `cores` cores.
Frame beginKernel(func::FuncOp func, ArrayRef<Value> values, int64_t cores) {
  MLIRContext *ctx = func.getContext();
  auto gm = MemorySpaceAttr::get(ctx, MemorySpace::gm);
  SmallVector<Type> args;
  for (Value v : values) {
    auto t = cast<RankedTensorType>(v.getType());
    args.push_back(MemRefType::get(t.getShape(), t.getElementType(),
                                   MemRefLayoutAttrInterface(), gm));
  }
  Frame f;
  f.old = &func.getBody().front();
  f.entry = new Block();
  for (Type t : args)
    f.entry->addArgument(t, func.getLoc());
  func.getBody().push_front(f.entry);
  func.setFunctionType(FunctionType::get(ctx, args, {}));
  func->setAttr(kKernelAttr, UnitAttr::get(ctx));
  func->setAttr(kCoresAttr, IntegerAttr::get(IntegerType::get(ctx, 64), cores));
  func->removeAttr("llvm.emit_c_interface");
  return f;
}

/// This core's run of `tiles` tiles, the flags that mark every buffer free,
/// and the loop; the builder is left in its body.
void openTileLoop(Emitter &e, Frame &f, int64_t tiles, int64_t cores,
                  bool doubleBuffer) {
  OpBuilder &b = e.b;
  f.depth = doubleBuffer ? 2 : 1;
  Value core = CoreIdOp::create(b, e.loc, b.getIndexType());
  Value t0 = e.div(e.mul(core, tiles), cores);
  Value t1 = e.div(e.mul(e.add(core, 1), tiles), cores);
  for (int64_t id = 0; id < f.depth; ++id) {
    e.flag(true, Pipe::v, Pipe::mte2, e.idx(id)); // input buffer free
    e.flag(true, Pipe::mte3, Pipe::v, e.idx(id)); // output buffers free
  }
  f.loop = scf::ForOp::create(b, e.loc, t0, t1, e.idx(1));
  b.setInsertionPointToStart(f.loop.getBody());
  f.t = f.loop.getInductionVar();
  f.pp = doubleBuffer ? e.rem(e.sub(f.t, t0), 2) : e.idx(0);
}

/// After the loop: every flag the prologue set waited for once more, the
/// return, and the old body erased.
void finishKernel(Emitter &e, Frame &f) {
  OpBuilder &b = e.b;
  b.setInsertionPointAfter(f.loop);
  for (int64_t id = 0; id < f.depth; ++id) {
    e.flag(false, Pipe::v, Pipe::mte2, e.idx(id));
    e.flag(false, Pipe::mte3, Pipe::v, e.idx(id));
  }
  func::ReturnOp::create(b, e.loc);
  f.old->dropAllDefinedValueUses();
  f.old->erase();
}

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
void writeScaleRows(Emitter &e, Value dst, Value s, int64_t rows,
                    int64_t perRow, int64_t pitch, Value offsets = {},
                    Value tmp = {}) {
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

/// The NaN lanes of the f32 lanes `p` replaced by `value` (through the
/// scratch lanes `w` and the lane mask `mask`).
void replaceNaNLanes(Emitter &e, Value p, Value w, Value mask, Attribute value,
                     Type valueType, int64_t lanes) {
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  e.scalar(BinaryKind::And, w, p, IntegerAttr::get(u32, 0x7FFFFFFF), u32,
           lanes);
  e.cmps(CmpPredicate::gt, mask, w, IntegerAttr::get(u32, 0x7F800000), u32,
         lanes);
  e.dup(w, value, valueType, lanes);
  e.sel(p, mask, w, p, valueType, lanes);
}

/// Puts the f32 values `p` on the grid of `format` in `mode`, exactly: the
/// quantum 2^(max(e, emin) - mbits) from the exponent field, divide by it
/// (a power of two: exact), Truncate<float, mode> (keeps a zero's sign),
/// multiply back. Inf stays Inf. For E2M1 this is CANN's FP4 pre-rounding
/// (ascend-model.md, "Elements, FP4": the bf16 cast after it is exact and
/// the FP4 cast does not round again); the integer-code casts use it for
/// every format. `w` (n f32 lanes) is scratch.
void roundToGrid(Emitter &e, ElementFormat format, Value p, Value w,
                 RoundMode mode, int64_t n) {
  const FormatInfo &info = formatInfo(format);
  Type f32 = e.b.getF32Type();
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](uint32_t v) { return IntegerAttr::get(u32, v); };
  e.scalar(BinaryKind::And, w, p, u(0x7F800000), u32, n);
  e.scalar(BinaryKind::max, w, w, u(uint32_t(127 + info.emin()) << 23), u32, n);
  e.scalar(BinaryKind::sub, w, w, u(info.mbits << 23), u32, n);
  e.binary(BinaryKind::div, p, p, w, f32, n);
  e.cast(p, f32, p, f32, mode, false, n);
  e.binary(BinaryKind::mul, p, p, w, f32, n);
}

/// The codes of `format` for the f32 values `p` by integer code, for a
/// format the core cannot cast to (FP6 on every chip; FP8 and FP4 on a
/// chip without MX casts, a2): the values are put on the format's grid
/// (roundToGrid, with the format's own quantum 2^(max(e, emin) -
/// mbits)) and clamped to +-max (saturation), then the code is read off the
/// f32 bits: a normal value's exponent field rebiased and its top mbits, a
/// subnormal's mantissa from v + 2^emin (exact), and the sign. NaN lanes
/// give +0 (`nanZero`), the NaN code where the format has one, else +max.
/// FP4 codes are then packed two a byte (element 2i in the low nibble),
/// the others one a byte. `w`, `x` (n u32 lanes each) and `mask` are
/// scratch; `p` is clobbered.
void emitEmulatedCodes(Emitter &e, ElementFormat format, RoundMode mode,
                       bool nanZero, Value p, Value w, Value x, Value mask,
                       Value codes, int64_t n) {
  const FormatInfo &info = formatInfo(format);
  Type f32 = e.b.getF32Type();
  MLIRContext *ctx = e.b.getContext();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u16 = IntegerType::get(ctx, 16, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  auto u = [&](uint32_t v) { return IntegerAttr::get(u32, v); };
  auto f = [&](float v) { return FloatAttr::get(f32, v); };
  int emin = info.emin(), m = int(info.mbits);
  bool nanCode = info.hasNaN && !nanZero;
  if (nanCode) {
    // x: the NaN code on NaN lanes, 0 elsewhere (ORed in with the sign);
    // NaN lanes then encode +0.
    e.scalar(BinaryKind::And, w, p, u(0x7FFFFFFF), u32, n);
    e.cmps(CmpPredicate::gt, mask, w, u(0x7F800000), u32, n);
    e.dup(x, u(info.nanCode), u32, n);
    e.dup(w, u(0), u32, n);
    e.sel(x, mask, x, w, u32, n);
    e.sel(p, mask, w, p, u32, n);
  } else {
    replaceNaNLanes(e, p, w, mask, f(nanZero ? 0.0f : info.maxFinite), f32, n);
  }
  roundToGrid(e, format, p, w, mode, n);
  e.scalar(BinaryKind::min, p, p, f(info.maxFinite), f32, n);
  e.scalar(BinaryKind::max, p, p, f(-info.maxFinite), f32, n);
  // |v| in w, the sign at the code's sign bit (and any NaN code) in p.
  e.scalar(BinaryKind::And, w, p, u(0x7FFFFFFF), u32, n);
  e.scalar(BinaryKind::And, p, p, u(0x80000000), u32, n);
  e.scalar(BinaryKind::shr, p, p, u(32 - info.bits), u32, n);
  if (nanCode)
    e.binary(BinaryKind::Or, p, p, x, u32, n);
  // Subnormal lanes (|v| < 2^emin) read v + 2^emin less one exponent step,
  // normal lanes |v|; both then lose (126 + emin) exponent steps and keep
  // their top m mantissa bits.
  uint32_t minNormal = uint32_t(127 + emin) << 23;
  e.scalar(BinaryKind::add, x, w, f(std::ldexp(1.0f, emin)), f32, n);
  e.scalar(BinaryKind::sub, x, x, u(1u << 23), u32, n);
  e.cmps(CmpPredicate::lt, mask, w, u(minNormal), u32, n);
  e.sel(x, mask, x, w, u32, n);
  e.scalar(BinaryKind::sub, x, x, u(uint32_t(126 + emin) << 23), u32, n);
  e.scalar(BinaryKind::shr, x, x, u(uint32_t(23 - m)), u32, n);
  e.binary(BinaryKind::Or, x, x, p, u32, n);
  if (format != ElementFormat::E2M1FN)
    return e.cast(codes, u8, x, u32, RoundMode::none, false, n);
  // FP4: one code a byte in w, then each 16-bit pair (lo | hi << 8) packed
  // to lo | hi << 4.
  e.cast(w, u8, x, u32, RoundMode::none, false, n);
  e.scalar(BinaryKind::shr, p, w, IntegerAttr::get(u16, 4), u16, n / 2);
  e.scalar(BinaryKind::And, p, p, IntegerAttr::get(u16, 0xF0), u16, n / 2);
  e.scalar(BinaryKind::And, w, w, IntegerAttr::get(u16, 0x0F), u16, n / 2);
  e.binary(BinaryKind::Or, p, p, w, u16, n / 2);
  e.cast(codes, u8, p, u16, RoundMode::none, false, n / 2);
}

/// The f32 values `d` of the codes of `format` in `w` (u32 lanes), by
/// integer code, for a format the core cannot cast from (FP6 on every chip;
/// FP8 and FP4 without MX casts): the sign moved to bit 31; a normal code's
/// exponent field rebiased by 126 + emin steps above its mantissa; a
/// subnormal's value (code + 2^m) * 2^(emin - m) less 2^emin (exact). E4M3's
/// NaN codes read as +-480 there and become NaN; E5M2's exponent field 31
/// reads as 2^16 or more and becomes +-Inf or NaN. `x` (n u32 lanes) and
/// `mask` are scratch; `w` is clobbered.
void emitEmulatedDecode(Emitter &e, ElementFormat format, Value w, Value x,
                        Value mask, Value d, int64_t n) {
  const FormatInfo &info = formatInfo(format);
  Type f32 = e.b.getF32Type();
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u = [&](uint32_t v) { return IntegerAttr::get(u32, v); };
  int emin = info.emin(), m = int(info.mbits);
  e.scalar(BinaryKind::shr, x, w, u(info.bits - 1), u32, n);
  e.scalar(BinaryKind::shl, x, x, u(31), u32, n);
  e.scalar(BinaryKind::And, w, w, u(info.signBit() - 1u), u32, n);
  e.cmps(CmpPredicate::lt, mask, w, u(1u << m), u32, n);
  e.scalar(BinaryKind::shl, w, w, u(uint32_t(23 - m)), u32, n);
  e.scalar(BinaryKind::add, w, w, u(uint32_t(126 + emin) << 23), u32, n);
  e.scalar(BinaryKind::add, d, w, u(1u << 23), u32, n);
  e.scalar(BinaryKind::add, d, d, FloatAttr::get(f32, -std::ldexp(1.0f, emin)),
           f32, n);
  e.sel(d, mask, d, w, u32, n);
  e.binary(BinaryKind::Or, d, d, x, u32, n);
  if (format == ElementFormat::E4M3FN) { // 0x7F, 0xFF: NaN (read as 480)
    e.scalar(BinaryKind::And, w, d, u(0x7FFFFFFF), u32, n);
    e.cmps(CmpPredicate::eq, mask, w, u(0x43F00000), u32, n);
    e.dup(x, u(0x7FC00000), u32, n);
    e.sel(d, mask, x, d, u32, n);
  } else if (format == ElementFormat::E5M2) { // exponent field 31
    e.scalar(BinaryKind::And, w, d, u(0x7FFFFFFF), u32, n);
    e.cmps(CmpPredicate::gt, mask, w, u(0x47800000), u32, n); // NaN codes
    e.dup(x, u(0x7FC00000), u32, n);
    e.sel(d, mask, x, d, u32, n);
    e.cmps(CmpPredicate::eq, mask, w, u(0x47800000), u32, n); // +-Inf
    e.scalar(BinaryKind::add, x, d, u(0x7F800000 - 0x47800000), u32, n);
    e.sel(d, mask, x, d, u32, n);
  }
}

/// The FP8 codes of the f32 values `p` by the core's saturating cast,
/// which gives +0 for a NaN (ascend-model.md §3.3: CTRL[50] is 0, as the
/// vendor's kernels leave it): that is `nan_element = zero` as it stands;
/// with `nanCode` the NaN lanes (those not equal to themselves) get the
/// format's NaN code after the cast. `mask` is scratch; `w` (n bytes) too,
/// written only after the cast, so it may be `p`.
void emitFP8Cast(Emitter &e, Type codeType, bool nanCode, Value p, Value w,
                 Value mask, Value codes, int64_t n) {
  Type f32 = e.b.getF32Type();
  Type u8 = IntegerType::get(e.b.getContext(), 8, IntegerType::Unsigned);
  if (nanCode)
    e.cmp(CmpPredicate::eq, mask, p, p, f32, n);
  e.cast(codes, codeType, p, f32, RoundMode::rint, true, n);
  if (!nanCode)
    return;
  const FormatInfo &info = formatInfo(*dialect::getElementFormat(codeType));
  e.dup(w, IntegerAttr::get(u8, info.nanCode), u8, n);
  e.sel(codes, mask, codes, w, u8, n);
}

/// The codes of the f32 products `p` (ref: quantize's encode): rounded to
/// bf16 first under `product = bf16`; NaN lanes made +0 (`nan_element =
/// zero`) or, for FP4 whose cast gives 0, the largest code (+max); then the
/// FP8 cast, or for FP4 the cast to bf16 (exact for a bf16 element's
/// product down to 2^-126; below, `floor` keeps a negative product negative
/// so that its code rounds the same: docs/Rationale.md) and the FP4 cast.
/// With `preRound` (FP4 from f16 or f32 input, whose f32 products a cast to
/// bf16 would round once before the FP4 cast rounds again), CANN's
/// pre-rounding first puts each product on the E2M1 grid in f32: e =
/// max(unbiased exponent, 0) - 1, divide by 2^e (exact), truncate to an
/// integral value in the user's mode, multiply by 2^e; the bf16 cast is then
/// exact and the FP4 cast does not round. `q` (bf16 lanes), `w` and `mask`
/// are scratch.
void emitCodes(Emitter &e, Type codeType, dialect::Rounding rounding,
               bool productBF16, bool nanZero, bool preRound, bool emulate,
               Value p, Value q, Value w, Value mask, Value codes, int64_t n) {
  Type f32 = e.b.getF32Type(), bf16 = e.b.getBF16Type();
  bool fp4 = isa<Float4E2M1FNType>(codeType);
  if (productBF16) {
    e.cast(q, bf16, p, f32, RoundMode::rint, false, n);
    e.cast(p, f32, q, bf16, RoundMode::none, false, n);
  }
  ElementFormat format = *dialect::getElementFormat(codeType);
  RoundMode mode = rounding == dialect::Rounding::away    ? RoundMode::round
                   : rounding == dialect::Rounding::floor ? RoundMode::floor
                                                          : RoundMode::rint;
  if (emulate) // `q` holds u32 lanes then
    return emitEmulatedCodes(e, format, mode, nanZero, p, w, q, mask, codes, n);
  if (!fp4)
    return emitFP8Cast(e, codeType, !nanZero, p, /*w=*/p, mask, codes, n);
  if (!nanZero) // the FP4 cast gives +0 for a NaN: the largest code instead
    replaceNaNLanes(
        e, p, w, mask,
        FloatAttr::get(f32, formatInfo(ElementFormat::E2M1FN).maxFinite), f32,
        n);
  if (preRound)
    roundToGrid(e, ElementFormat::E2M1FN, p, w, mode, n);
  RoundMode toBF16 =
      rounding == dialect::Rounding::floor ? RoundMode::floor : RoundMode::rint;
  e.cast(q, bf16, p, f32, toBF16, false, n);
  e.cast(codes, codeType, q, bf16, mode, true, n);
}

/// The scratch the element codes take (emitCodes): W, n u32 lanes (FP4,
/// and the codes by integer code), and a lane mask (those, and FP8 codes
/// whose NaN lanes get the NaN code after the cast, which take P as W).
/// What the UB plans count and what the kernels allocate, both from here.
struct CodeScratch {
  bool w = false, mask = false;
  /// UB bytes for `n` lanes.
  int64_t bytes(int64_t n) const {
    return (w ? roundUp(n * 4, 32) : 0) + (mask ? roundUp(n / 8, 32) : 0);
  }
};
CodeScratch codeScratch(ElementFormat format, dialect::NanElement nanElement,
                        bool emulate) {
  CodeScratch s;
  s.w = format == ElementFormat::E2M1FN || emulate;
  s.mask = s.w || nanElement != dialect::NanElement::zero;
  return s;
}

/// What one quantize asks for, checked against what the recipe states.
struct Plan {
  dialect::QuantizeOp op;
  int64_t rows = 1, k = 0, block = 32;
  /// A non-last axis: the input seen as [outer, m, n], blocks along m.
  bool columns = false;
  int64_t outer = 1, m = 0, n = 1, groups = 0;
  /// Read at planning: the op is gone once the kernel replaces the body.
  bool productBF16 = false;
  Type inType, codeType;
  ElementFormat format;
  unsigned inBytes = 0, codeBits = 0;
  bool pairs = false;
  /// swizzle_32_4_4 scales (last axis): the rows of each [batch] matrix of
  /// `mRows` rows are tiled up to `swizzleRows` (a multiple of 128), the
  /// padding rows as zero input (scale byte 0x00, the layout's pad).
  bool swizzle = false;
  int64_t batch = 1, mRows = 0, swizzleRows = 0, batchTiles = 0;
  /// mxq.dual_quantize (`dual` set, `op` null): the swizzled row quantize
  /// of 32-row tiles, then the same recipe on each tile transposed (its
  /// codes [C, 32] to codes1 [K, M], its scales swizzled over [K, M/32]).
  dialect::DualQuantizeOp dual;
  /// The codes are encoded by integer code (FP6: the core has no cast).
  bool emulate = false;
  int64_t tileRows = 0, tileCols = 0, slices = 0, rowTiles = 0, tiles = 0,
          cores = 0;
};

/// Whether the recipe goes through bf16 (FP4's cast, or the bf16 product),
/// or needs Q as the emulated encode's third buffer.
bool needsQ(const Plan &p) {
  return p.format == ElementFormat::E2M1FN || p.productBF16 || p.emulate;
}

/// Bytes a lane of Q takes: bf16, or u32 for the emulated encode.
int64_t qLaneBytes(const Plan &p) { return p.emulate ? 4 : 2; }

constexpr const char *kOneOpMessage =
    "the ascend target lowers a function that returns the codes and scales "
    "of one mxq.quantize (or mxq.two_level_quantize) of its argument, the "
    "four results of one mxq.dual_quantize of it, or the result of one "
    "mxq.dequantize, mxq.fake_quant, mxq.fake_quant_grad or "
    "mxq.convert_scale_layout of its arguments; "
    "other functions are not lowered yet";

LogicalResult fail(func::FuncOp func, const Twine &why) {
  return func.emitError() << "convert-mxq-to-vtile: @" << func.getSymName()
                          << ": " << why;
}

/// A row x column tiling of a [rows, k] matrix.
struct Tiling {
  int64_t tileRows = 0, tileCols = 0, slices = 0, tiles = 0, cores = 0;
};

/// Chooses the tiling of a [rows, k] matrix: columns from `options`
/// (`valid` says whether a count is allowed, `rule` names the rule) or the
/// widest allowed count from `start` down by `step` whose one-row tile fits
/// the UB; rows from `options` or as many as fit (at most `maxRows`) while
/// leaving a tile for every core. `bytes(t, c)` is a tile's UB.
LogicalResult pickTiling(func::FuncOp func, const Chip &chip,
                         const TilingOptions &options, int64_t rows, int64_t k,
                         int64_t start, int64_t step,
                         function_ref<bool(int64_t)> valid, StringRef rule,
                         function_ref<int64_t(int64_t, int64_t)> bytes,
                         int64_t maxRows, Tiling &out) {
  int64_t budget = chip.ubBytes - chip.ubReserved;
  auto fits = [&](int64_t t, int64_t c) { return bytes(t, c) <= budget; };
  if (options.tileCols) {
    if (!valid(options.tileCols))
      return fail(func,
                  "tile-cols = " + Twine(options.tileCols) + " is not " + rule);
    if (!fits(1, options.tileCols))
      return fail(func, "a tile of one row of " + Twine(options.tileCols) +
                            " columns needs " +
                            Twine(bytes(1, options.tileCols)) +
                            " bytes of UB, more than the " + Twine(budget) +
                            " chip " + Twine(chip.name) + " has");
    out.tileCols = options.tileCols;
  } else {
    int64_t c = start;
    while (c > step && (!valid(c) || !fits(1, c)))
      c -= step;
    if (!fits(1, c))
      return fail(func, "a tile of one row of " + Twine(c) +
                            " columns does not fit the " + Twine(budget) +
                            "-byte UB of chip " + Twine(chip.name));
    out.tileCols = c;
  }
  out.slices = ceilDiv(k, out.tileCols);
  int64_t most = 1;
  while (most < std::min(rows, maxRows) && fits(most + 1, out.tileCols))
    ++most;
  if (options.tileRows) {
    if (options.tileRows > most)
      return fail(func, "tile-rows = " + Twine(options.tileRows) + " with " +
                            Twine(out.tileCols) + " columns needs " +
                            Twine(bytes(options.tileRows, out.tileCols)) +
                            " bytes of UB, more than the " + Twine(budget) +
                            " chip " + Twine(chip.name) + " has");
    out.tileRows = options.tileRows;
  } else {
    int64_t perSlice = ceilDiv(chip.cores, std::max<int64_t>(1, out.slices));
    out.tileRows = std::clamp<int64_t>(rows / perSlice, 1, most);
  }
  out.tiles = ceilDiv(rows, out.tileRows) * out.slices;
  // An empty tensor: one core and no tile.
  out.cores = std::clamp<int64_t>(out.tiles, 1, chip.cores);
  return success();
}

/// pickTiling with the columns of a last-axis block recipe: a multiple of 8
/// blocks, so that a row's data fills whole 32-byte blocks of every buffer;
/// up to 64 blocks a row's scale bytes are packed by one masked cast repeat
/// onto 32-byte rows, beyond that the row holds a multiple of 32 blocks (its
/// scales are then whole 32-byte rows themselves). Whole rows by default.
/// `narrow` (the quantize kernel, whose scale rows may be gathered:
/// writeScaleRows) also takes requested columns that are a multiple of 64
/// and of the block (whole 32-byte blocks of the data buffers, FP4 codes
/// included) with fewer blocks: PyPTO's non-performance mode.
LogicalResult
pickBlockColumnTiling(func::FuncOp func, const Chip &chip,
                      const TilingOptions &options, int64_t rows, int64_t k,
                      int64_t block,
                      function_ref<int64_t(int64_t, int64_t)> bytes,
                      Tiling &out, bool narrow = false) {
  int64_t unit = 8 * block;
  auto wide = [&](int64_t c) {
    int64_t n = c / block;
    return c > 0 && c % unit == 0 && (n <= 64 || n % 32 == 0);
  };
  auto valid = [&](int64_t c) {
    return wide(c) || (narrow && c > 0 && c % 64 == 0 && c % block == 0 &&
                       c / block <= 64);
  };
  int64_t start = std::max(unit, roundUp(k, unit));
  if (!wide(start))
    start = roundUp(k, 32 * block);
  std::string rule =
      narrow ? "a multiple of 64 and of the block (" + std::to_string(block) +
                   ") of at most 64 blocks, or a multiple of 32 blocks"
             : "a multiple of 8 blocks (" + std::to_string(unit) +
                   " columns) of at most 64 blocks or a multiple of 32 "
                   "blocks";
  return pickTiling(func, chip, options, rows, k, start, unit, valid, rule,
                    bytes, chip.maxBurstCount, out);
}

/// UB bytes a tile of `t` rows x `c` columns needs.
int64_t tileBytes(const Plan &p, int64_t t, int64_t c, bool dbl,
                  CodeScratch scratch) {
  int64_t n = t * c, nb = n / p.block, depth = dbl ? 2 : 1;
  int64_t nbPitch = roundUp(c / p.block, 32);
  int64_t perBlock = roundUp(nb, 256) * 4;
  int64_t bytes = 0;
  bytes += depth * roundUp(n * p.inBytes, 32);                  // IN
  bytes += p.inBytes == 4 ? 0 : roundUp(n * 4, 32);             // X
  bytes += roundUp(n * 4, 32);                                  // P
  bytes += needsQ(p) ? roundUp(n * qLaneBytes(p), 32) : 0;      // Q
  bytes += scratch.bytes(n); // W, lane mask
  bytes += depth * roundUp(n * p.codeBits / 8, 32);             // codes
  bytes += depth * t * nbPitch;                                 // scale bytes
  if (!p.swizzle && scaleRowsGathered(c / p.block)) // their gather offsets
    bytes += t * nbPitch * 4;
  if (p.swizzle) // the gathered 32-byte burst slots, and their offsets
    bytes += depth * t * (c / p.block) * 8 + (c / p.block) * 256;
  if (p.dual) // XT, the column codes, their scales' slots and offsets
    bytes +=
        roundUp(n * 4, 32) + depth * roundUp(n, 32) + depth * c * 32 + c * 32;
  if (p.dual && p.codeBits == 4) // packed column codes, their offsets
    bytes += roundUp(n / 2, 32) + c * 32;
  if (p.codeBits == 4) // the padding nibbles' lane masks
    bytes += (p.dual ? 2 : 1) * roundUp(n / 8, 32);
  bytes += 7 * perBlock;         // AM, E, S, MB, CONST and two temporaries
  bytes += roundUp(nb, 256) / 8; // block mask
  return bytes;
}

/// UB bytes of a column tile: `g` block-rows (g * block rows) x `c`.
int64_t columnBytes(const Plan &p, int64_t g, int64_t c, bool dbl,
                    CodeScratch scratch) {
  int64_t n = g * p.block * c, nb = g * c, depth = dbl ? 2 : 1;
  int64_t bytes = 0;
  bytes += depth * roundUp(n * p.inBytes, 32);             // IN
  bytes += p.inBytes == 4 ? 0 : roundUp(n * 4, 32);        // X
  bytes += roundUp(n * 4, 32);                             // A, then P
  bytes += needsQ(p) ? roundUp(n * qLaneBytes(p), 32) : 0; // Q
  bytes += scratch.bytes(n); // W, lane mask
  bytes += depth * roundUp(n * p.codeBits / 8, 32); // codes
  bytes += depth * roundUp(nb, 32);                 // scale bytes
  bytes += 7 * roundUp(nb, 256) * 4 + roundUp(nb, 256) / 8;
  if (p.swizzle) // burst slots (a scale word each), the gather offsets
    bytes += depth * c * g * 8 + g * 64 * 4;
  return bytes;
}

/// The column tiling of an op along a non-last axis ([outer, m, n], blocks
/// of `block` along m): columns a multiple of 64 (whole 32-byte blocks of
/// every buffer, FP4 included) from `options` or the widest that fits up to
/// 2048; block-rows even for the pairs layout (a pair never straddles two
/// tiles), from `options` or as many as fit while leaving tiles for every
/// core. `fits(g, c)`: whether g block-rows of c columns fit the UB.
struct ColumnTiling {
  int64_t outer = 1, m = 0, n = 1, block = 32;
  bool pairs = false;
  /// Swizzled scales: block-rows a multiple of 4 (whole scale words); when
  /// writing them (`padColumns`), slices over the columns padded to 128
  /// (the scale grid's padding rows come from all-zero columns).
  bool swizzle = false, padColumns = false;
  int64_t groups = 0, tileRows = 0, tileCols = 0, slices = 0, rowTiles = 0,
          tiles = 0, cores = 0;
};

LogicalResult pickColumnTiling(func::FuncOp func, const Chip &chip,
                               const TilingOptions &options,
                               function_ref<bool(int64_t, int64_t)> fits,
                               ColumnTiling &t) {
  int64_t budget = chip.ubBytes - chip.ubReserved;
  int64_t step = t.swizzle ? 4 : t.pairs ? 2 : 1, nb = ceilDiv(t.m, t.block);
  if (options.tileCols) {
    if (options.tileCols % 64)
      return fail(func, "tile-cols = " + Twine(options.tileCols) +
                            " is not a multiple of 64 (a column tile's rows "
                            "fill whole 32-byte blocks)");
    t.tileCols = options.tileCols;
  } else {
    t.tileCols = std::clamp<int64_t>(roundUp(t.n, 64), 64, 2048);
    while (t.tileCols > 64 && !fits(step, t.tileCols))
      t.tileCols -= 64;
  }
  if (!fits(step, t.tileCols))
    return fail(func, "a tile of " + Twine(step * t.block) + " rows of " +
                          Twine(t.tileCols) + " columns does not fit the " +
                          Twine(budget) + "-byte UB of chip " +
                          Twine(chip.name));
  int64_t most = step;
  while (most + step <= roundUp(nb, step) &&
         (most + step) * t.block <= chip.maxBurstCount &&
         fits(most + step, t.tileCols))
    most += step;
  if (options.tileRows) {
    if (options.tileRows % (step * t.block) ||
        options.tileRows / t.block > most)
      return fail(func, "tile-rows = " + Twine(options.tileRows) +
                            " is not a multiple of " + Twine(step) +
                            " block(s) of " + Twine(t.block) +
                            " rows that fits the UB with " + Twine(t.tileCols) +
                            " columns (at most " + Twine(most * t.block) +
                            " rows)");
    t.groups = options.tileRows / t.block;
  } else {
    int64_t slices =
        ceilDiv(t.padColumns ? roundUp(t.n, 128) : t.n, t.tileCols);
    int64_t perSlice =
        ceilDiv(chip.cores, std::max<int64_t>(1, slices * t.outer));
    int64_t g = roundUp(std::max<int64_t>(1, nb / perSlice), step);
    t.groups = std::clamp<int64_t>(g, step, most);
  }
  t.tileRows = t.groups * t.block;
  t.slices = ceilDiv(t.padColumns ? roundUp(t.n, 128) : t.n, t.tileCols);
  t.rowTiles = ceilDiv(nb, t.groups);
  t.tiles = t.outer * t.rowTiles * t.slices;
  // An empty tensor: one core and no tile.
  t.cores = std::clamp<int64_t>(t.tiles, 1, chip.cores);
  return success();
}

LogicalResult planColumns(func::FuncOp func, const Chip &chip,
                          const TilingOptions &options, Plan &p) {
  auto inType = cast<RankedTensorType>(p.op.getInput().getType());
  if (failed(checkFlatFP4(func, "quantizes", p.format, inType.getShape(),
                          p.op.getAxis())))
    return failure();
  CodeScratch scratch =
      codeScratch(p.format, p.op.getNanElement(), p.emulate);
  int64_t budget = chip.ubBytes - chip.ubReserved;
  auto fits = [&](int64_t g, int64_t c) {
    return columnBytes(p, g, c, options.doubleBuffer, scratch) <= budget;
  };
  ColumnTiling t{p.outer, p.m, p.n, p.block, p.pairs, p.swizzle, p.swizzle};
  if (failed(pickColumnTiling(func, chip, options, fits, t)))
    return failure();
  p.groups = t.groups, p.tileRows = t.tileRows, p.tileCols = t.tileCols;
  p.slices = t.slices, p.rowTiles = t.rowTiles, p.tiles = t.tiles;
  p.cores = t.cores;
  return success();
}

/// PyPTO's tile contract for quant_mx (mx-semantics.md, "Constraints";
/// ascend-model.md §6), when `tile-shape` or `performance-mode` is given:
/// checks the rules and turns the tile shape into the rows and columns the
/// kernels tile by. Last axis, performance mode (the default): the last
/// dimension is 256-byte aligned and the tile's last dimension is the
/// whole of it; otherwise the last dimension is a multiple of 64. Axis -2:
/// that dimension and the tile's are positive multiples of 64 (FP4: the
/// last ones too); performance mode changes nothing there. The tile's rank
/// is the input's (at most 4); dimensions between the first and the last
/// two are whole (the kernels tile flattened rows).
LogicalResult applyTileContract(func::FuncOp func, const Plan &p,
                                ArrayRef<int64_t> shape,
                                const TilingOptions &options,
                                TilingOptions &out) {
  out = options;
  if (options.tileShape.empty() && !options.performanceMode)
    return success();
  auto rule = [&](const Twine &why) {
    return fail(func, "the PyPTO tile contract: " + why);
  };
  if (options.tileRows || options.tileCols)
    return rule("tile-shape and performance-mode exclude tile-rows and "
                "tile-cols");
  int64_t rank = int64_t(shape.size());
  int64_t axis = dialect::QuantizeOp(p.op).getAxis();
  if (axis != rank - 1 && axis != rank - 2)
    return rule("quant_mx quantizes along the last or the second-to-last "
                "axis, not axis " +
                Twine(axis) + " of a rank-" + Twine(rank) + " tensor");
  ArrayRef<int64_t> tile = options.tileShape;
  if (!tile.empty()) {
    if (int64_t(tile.size()) != rank)
      return rule("tile-shape has " + Twine(tile.size()) +
                  " dimensions, but the input has rank " + Twine(rank) +
                  " (a tile's rank is its input's)");
    if (rank > 4)
      return rule("set_vec_tile_shapes takes at most 4 dimensions, but the "
                  "input has rank " +
                  Twine(rank));
    for (auto [d, t] : llvm::enumerate(tile))
      if (t <= 0)
        return rule("tile-shape dimension " + Twine(d) + " is " + Twine(t) +
                    "; a tile dimension is positive");
  }
  auto listed = [&](ArrayRef<int64_t> dims) {
    std::string s = "[";
    llvm::raw_string_ostream os(s);
    llvm::interleaveComma(dims, os);
    return s + "]";
  };
  int64_t k = shape.back();
  if (axis == rank - 1) {
    bool performance = options.performanceMode.value_or(true);
    // Rows: the first tile dimension times the whole dimensions after it.
    int64_t rows = 1;
    if (!tile.empty()) {
      for (int64_t d = 1; d + 1 < rank; ++d)
        if (std::min(tile[d], shape[d]) != shape[d])
          return rule("tile-shape " + listed(tile) + " splits dimension " +
                      Twine(d) + " of the input " + listed(shape) +
                      "; the ascend kernels tile rows of whole inner "
                      "dimensions");
      rows = rank > 1 ? std::min(tile[0], shape[0]) : 1;
      for (int64_t d = 1; d + 1 < rank; ++d)
        rows *= shape[d];
    }
    if (performance) {
      if ((k * p.inBytes) % 256)
        return rule("performance mode needs the last dimension 256-byte "
                    "aligned, but it is " +
                    Twine(k) + " elements of " + Twine(p.inBytes) + " bytes (" +
                    Twine(k * p.inBytes) +
                    " bytes); set performance-mode=false");
      if (!tile.empty() && tile.back() != k)
        return rule("performance mode needs the tile's last dimension to "
                    "equal the view's (" +
                    Twine(k) + "), but it is " + Twine(tile.back()));
      out.tileCols = k;
    } else {
      if (k % 64)
        return rule("outside performance mode the last dimension is a "
                    "multiple of 64, but it is " +
                    Twine(k));
      if (!tile.empty())
        out.tileCols = std::min(tile.back(), k);
    }
    out.tileRows = tile.empty() ? 0 : std::min(rows, p.rows);
    return success();
  }
  // Axis -2.
  int64_t m = shape[rank - 2];
  if (m <= 0 || m % 64)
    return rule("along axis -2 that dimension is a positive multiple of 64 "
                "with no tail, but it is " +
                Twine(m));
  if (p.format == ElementFormat::E2M1FN && k % 64)
    return rule("FP4 along axis -2 needs the last dimension a multiple of 64 "
                "(32-byte packed rows), but it is " +
                Twine(k));
  if (!tile.empty()) {
    int64_t tm = tile[rank - 2], tk = tile.back();
    if (tm % 64)
      return rule("along axis -2 the tile's dimension -2 is a multiple of "
                  "64, but it is " +
                  Twine(tm));
    if (p.format == ElementFormat::E2M1FN && tk % 64)
      return rule("FP4 along axis -2 needs the tile's last dimension a "
                  "multiple of 64, but it is " +
                  Twine(tk));
    out.tileRows = std::min(tm, m);
    out.tileCols = roundUp(std::min(tk, k), 64);
  }
  return success();
}

/// Whether a tile of 32 rows of `cols` columns fits the UB (a swizzled
/// tile's least); a diagnostic if not.
LogicalResult check32Rows(func::FuncOp func, const Chip &chip, int64_t cols,
                          function_ref<int64_t(int64_t, int64_t)> bytes) {
  int64_t budget = chip.ubBytes - chip.ubReserved;
  if (bytes(32, cols) <= budget)
    return success();
  return fail(func, "a tile of 32 rows of " + Twine(cols) +
                        " columns (swizzle_32_4_4 scales move 32 rows at a "
                        "time) needs " +
                        Twine(bytes(32, cols)) +
                        " bytes of UB, more than the " + Twine(budget) +
                        " chip " + Twine(chip.name) + " has");
}

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
  p.k = in.getShape().back();
  p.block = op.getBlockSize();
  // The verifier holds block_size to multiples of 32 (CANN's rule too).
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
  BlockPolicy policy{op.getScaleAlgorithm(), op.getInfPolicy(),
                     op.getUnderflow(), p.format};
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
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  auto u32v = [&](int64_t v) { return IntegerAttr::get(u32, v); };

  const int64_t B = p.block, G = p.groups, R = G * B, C = p.tileCols;
  const int64_t N = R * C, NB = G * C, nb = ceilDiv(p.m, B);
  const int64_t maskLanes = roundUp(NB, 256), perBlock = maskLanes * 4;
  const int64_t inPitch = C * p.inBytes, codePitch = C * p.codeBits / 8;
  const int64_t codeRow = ceilDiv(p.n * p.codeBits, 8);
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
  int64_t scaleSize = roundUp(NB, 32);
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
  // scale grid's padding (scale 0x00).
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
      e.mul(e.add(e.mul(e.add(e.mul(o, p.m), m0), p.n), c0), p.inBytes), rows,
      inLen, e.mul(e.sub(e.idx(p.n), cols), p.inBytes),
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
  e.scalar(BinaryKind::And, pBuf, X, u32v(0x7FFFFFFF), u32, N);
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
  emitScaleAndMultiplier(e, blocks, policy);

  // Scale bytes: block-rows of C bytes (linear), or pairs of block-rows
  // interleaved byte by byte (s0 | s1 << 8 as 16-bit lanes).
  e.flag(false, Pipe::mte3, Pipe::v, pp);
  if (p.pairs) {
    joinColumnPairs(e, scalesUB, sBuf, t2Buf, G, C);
  } else if (p.swizzle) {
    gatherColumnSlots(e, slotsUB, t2Buf, sBuf, tBuf, slotOffsets, G, C);
  } else {
    e.cast(scalesUB, u8, sBuf, u32, RoundMode::none, false, NB);
  }

  // P: each row times its block's multiplier (the multiplier row re-read
  // for every row: repeat stride 0).
  for (int64_t j = 0; j < G; ++j)
    e.mulRows(e.add(pBuf, j * B * C * 4), e.add(X, j * B * C * 4),
              e.add(mbBuf, j * C * 4), B, C);
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
                             e.div(e.mul(c0, p.codeBits), 8)),
                       codesUB, rows, codeLen,
                       e.div(e.sub(e.idx(codePitch), padded(codeLen)), 32),
                       e.sub(e.idx(codeRow), codeLen));
  Value blockRows = e.div(e.add(rows, B - 1), B);
  if (p.swizzle) {
    // The grid's rows are the columns (up to their 128 padding), its
    // scale columns the block-rows.
    Value swizzled = e.min(e.idx(C), e.sub(e.idx(roundUp(p.n, 128)), c0));
    copySwizzledSlots(e, /*write=*/true, scalesGM,
                      e.mul(o, swizzleBytes(p.n, nb)), slotsUB, c0, swizzled, C,
                      e.mul(rowTile, G), G, nb);
  } else if (p.pairs) {
    int64_t nh = ceilDiv(nb, 2);
    Value pairs = e.div(e.add(blockRows, 1), 2);
    Value len = e.mul(cols, 2);
    CopyUbToGmOp::create(
        b, loc, scalesGM,
        e.mul(e.add(e.mul(e.add(e.mul(o, nh), e.mul(rowTile, G / 2)), p.n), c0),
              2),
        scalesUB, pairs, len, e.div(e.sub(e.idx(2 * C), padded(len)), 32),
        e.mul(e.sub(e.idx(p.n), cols), 2));
  } else {
    CopyUbToGmOp::create(
        b, loc, scalesGM,
        e.add(e.mul(e.add(e.mul(o, nb), e.mul(rowTile, G)), p.n), c0), scalesUB,
        blockRows, cols, e.div(e.sub(e.idx(C), padded(cols)), 32),
        e.sub(e.idx(p.n), cols));
  }
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
  auto algorithm = dual ? dual.getScaleAlgorithm() : op.getScaleAlgorithm();
  auto infPolicy = dual ? dual.getInfPolicy() : op.getInfPolicy();
  auto underflow = dual ? dual.getUnderflow() : op.getUnderflow();
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
  int64_t scaleSize = T * scalePitch;
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
  // amax bits per block: the unsigned maximum of |x| bits (NaN above Inf).
  e.scalar(BinaryKind::And, pBuf, X, u32v(0x7FFFFFFF), u32, N);
  {
    int64_t per = 64, multiple = std::max<int64_t>(1, B / 8);
    e.repeated(N, per, multiple, [&](int64_t off, Value r, IntegerAttr) {
      VReduceGroupOp::create(b, loc, ReduceKind::max, e.add(amBuf, off / B * 4),
                             e.add(pBuf, off * 4), r, u32, B);
    });
  }
  BlockBuffers perBlockBufs{amBuf, eBuf,  sBuf,      mbBuf, constBuf,
                            tBuf,  t2Buf, blockMask, NB,    maskLanes};
  emitScaleAndMultiplier(e, perBlockBufs,
                         {algorithm, infPolicy, underflow, p.format});

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
  e.binary(BinaryKind::mul, pBuf, X, pBuf, f32, N);
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
    emitScaleAndMultiplier(e, perBlockBufs,
                           {algorithm, infPolicy, underflow, p.format});
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
  Value scaleLenPadded = e.mul(e.div(e.add(blocks, 31), 32), 32);
  CopyUbToGmOp::create(
      b, loc, scalesGM, e.add(e.mul(r0, scaleRow), e.div(c0, B)), scalesUB,
      rows, blocks, e.div(e.sub(e.idx(scalePitch), scaleLenPadded), 32),
      e.sub(e.idx(scaleRow), blocks));
  e.flag(true, Pipe::mte3, Pipe::v, pp);

  // Drain: every flag the prologue set is waited for once more.
  finishKernel(e, f);
}

/// What one dequantize asks for.
struct DequantizePlan {
  dialect::DequantizeOp op;
  int64_t rows = 1, k = 0, block = 32;
  Type codeType, outType;
  ElementFormat format;
  unsigned codeBits = 8, outBytes = 4;
  bool pairs = false, saturate = false;
  /// The codes are decoded by integer code (FP6: the core has no cast).
  bool emulate = false;
  /// A non-last axis: the codes seen as [outer, m, n], blocks along m, tiles
  /// of `groups` block-rows of `tileCols` columns.
  bool columns = false;
  int64_t outer = 1, m = 0, n = 1, groups = 0, rowTiles = 0;
  /// swizzle_32_4_4 scales (last axis): tiles of whole 32-row groups over
  /// each [batch] matrix of `mRows` rows, columns a power of two times 4
  /// blocks (the gather offsets then need no division).
  bool swizzle = false;
  int64_t batch = 1, mRows = 0, batchTiles = 0;
  int64_t tileRows = 0, tileCols = 0, slices = 0, tiles = 0, cores = 0;
};

/// UB bytes of a column tile of a dequantize: `g` block-rows x `c` columns.
int64_t dequantizeColumnBytes(const DequantizePlan &p, int64_t g, int64_t c,
                              bool dbl) {
  int64_t n = g * p.block * c, nb = g * c, depth = dbl ? 2 : 1;
  int64_t bytes = 0;
  bytes += depth * roundUp(n * p.codeBits / 8, 32); // codes
  bytes += depth * roundUp(nb, 32);                 // scale bytes
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
  bytes += depth * t * roundUp(c / p.block, 32);    // scale bytes
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
  if (failed(checkFlatFP4(
          func, "dequantizes", p.format,
          cast<RankedTensorType>(p.op.getCodes().getType()).getShape(),
          p.op.getAxis())))
    return failure();
  int64_t budget = chip.ubBytes - chip.ubReserved;
  auto fits = [&](int64_t g, int64_t c) {
    return dequantizeColumnBytes(p, g, c, options.doubleBuffer) <= budget;
  };
  ColumnTiling t{p.outer, p.m, p.n, p.block, p.pairs, p.swizzle};
  if (failed(pickColumnTiling(func, chip, options, fits, t)))
    return failure();
  p.groups = t.groups, p.tileRows = t.tileRows, p.tileCols = t.tileCols;
  p.slices = t.slices, p.rowTiles = t.rowTiles, p.tiles = t.tiles;
  p.cores = t.cores;
  return success();
}

/// The function's one op when it is an OpT of the function's arguments, in
/// order, whose results the function returns; null otherwise.
template <typename OpT> OpT soleOp(func::FuncOp func) {
  Block &body = func.getBody().front();
  auto op = dyn_cast<OpT>(body.front());
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!op || !ret || &*std::next(body.begin()) != ret.getOperation() ||
      !llvm::equal(op->getOperands(), func.getArguments()) ||
      !llvm::equal(ret.getOperands(), op->getResults()))
    return {};
  return op;
}

/// Whether every operand and result of `op` has a static shape; a
/// diagnostic if not.
LogicalResult checkStaticShapes(func::FuncOp func, Operation *op) {
  auto isStatic = [](Value v) {
    return cast<RankedTensorType>(v.getType()).hasStaticShape();
  };
  if (llvm::all_of(op->getOperands(), isStatic) &&
      llvm::all_of(op->getResults(), isStatic))
    return success();
  return fail(func, "needs static shapes (mxq-run specialises a function "
                    "to its inputs' shapes before lowering it)");
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

/// The f32 values `dBuf` of a dequantize's codes at `codesUB` (exact): the
/// core's casts, or integer code (FP6, and every format on a2). `qBuf`
/// (bf16 lanes, u32 when emulated), `wBuf` and `laneMask` are scratch.
void emitDecode(Emitter &e, const DequantizePlan &p, Value codesUB, Value qBuf,
                Value wBuf, Value laneMask, Value dBuf, int64_t N) {
  MLIRContext *ctx = e.b.getContext();
  Type f32 = e.b.getF32Type(), bf16 = e.b.getBF16Type();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  bool fp4 = p.codeBits == 4;
  if (p.emulate && fp4) {
    // Nibbles to bytes: each packed byte (u16 lane lo | hi << 4) becomes
    // lo | hi << 8, one code a byte, then one a u32 lane.
    Type u16 = IntegerType::get(ctx, 16, IntegerType::Unsigned);
    auto u16v = [&](int64_t v) { return IntegerAttr::get(u16, v); };
    e.cast(qBuf, u16, codesUB, u8, RoundMode::none, false, N / 2);
    e.scalar(BinaryKind::And, wBuf, qBuf, u16v(0x0F), u16, N / 2);
    e.scalar(BinaryKind::And, qBuf, qBuf, u16v(0xF0), u16, N / 2);
    e.scalar(BinaryKind::shl, qBuf, qBuf, u16v(4), u16, N / 2);
    e.binary(BinaryKind::Or, qBuf, qBuf, wBuf, u16, N / 2);
    e.cast(wBuf, u32, qBuf, u8, RoundMode::none, false, N);
    emitEmulatedDecode(e, p.format, wBuf, qBuf, laneMask, dBuf, N);
  } else if (p.emulate) {
    e.cast(wBuf, u32, codesUB, u8, RoundMode::none, false, N);
    emitEmulatedDecode(e, p.format, wBuf, qBuf, laneMask, dBuf, N);
  } else if (fp4) {
    e.cast(qBuf, bf16, codesUB, p.codeType, RoundMode::none, false, N);
    e.cast(dBuf, f32, qBuf, bf16, RoundMode::none, false, N);
  } else {
    e.cast(dBuf, f32, codesUB, p.codeType, RoundMode::none, false, N);
  }
}

/// The scale values 2^(s - 127) as f32 bits from the widened scale bytes
/// `sBuf`: s << 23, 2^-127 for s = 0, NaN for 0xFF (ref: scaleValue).
void emitScaleValues(Emitter &e, Value sBuf, Value mbBuf, Value constBuf,
                     Value blockMask, int64_t NB, int64_t maskLanes) {
  Type u32 = IntegerType::get(e.b.getContext(), 32, IntegerType::Unsigned);
  auto u32v = [&](int64_t v) { return IntegerAttr::get(u32, v); };
  e.scalar(BinaryKind::shl, mbBuf, sBuf, u32v(23), u32, NB);
  auto selectConst = [&](CmpPredicate pred, Value src, int64_t against,
                         Value dst, int64_t value) {
    e.cmps(pred, blockMask, src, u32v(against), u32, maskLanes);
    e.dup(constBuf, u32v(value), u32, maskLanes);
    e.sel(dst, blockMask, constBuf, dst, u32, maskLanes);
  };
  selectConst(CmpPredicate::eq, sBuf, 0, mbBuf, 0x00400000);
  selectConst(CmpPredicate::eq, sBuf, 255, mbBuf, 0x7FC00000);
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
  int64_t scaleSize = T * scalePitch;
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
    CopyGmToUbOp::create(b, loc, scalesUB, scalesGM,
                         e.add(e.mul(r0, scaleRow), e.div(c0, B)), rows, blocks,
                         e.sub(e.idx(scaleRow), blocks),
                         e.div(e.sub(e.idx(scalePitch), padded(blocks)), 32),
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
  } else {
    readScaleRows(e, sBuf, scalesUB, T, nbr, scalePitch);
  }
  e.flag(true, Pipe::v, Pipe::mte2, pp); // codes and scales consumed

  emitScaleValues(e, sBuf, mbBuf, constBuf, blockMask, NB, maskLanes);

  if (p.outBytes == 4) // P is this tile's output buffer
    e.flag(false, Pipe::mte3, Pipe::v, pp);
  e.repeated(N, 64, std::max<int64_t>(1, B / 8),
             [&](int64_t off, Value r, IntegerAttr) {
               VBroadcastGroupOp::create(b, loc, e.add(P, off * 4),
                                         e.add(mbBuf, off / B * 4), r, u32, B);
             });
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

/// The kernel of a dequantize along a non-last axis: tiles of whole blocks
/// of rows (the codes seen as [outer, m, n]); each row is multiplied by its
/// block-row's scale values (the scale row re-read for every row: repeat
/// stride 0).
void emitDequantizeColumns(func::FuncOp func, const Chip &chip,
                           const DequantizePlan &p,
                           const TilingOptions &options) {
  MLIRContext *ctx = func.getContext();
  dialect::DequantizeOp op = p.op;
  SmallVector<Value> gmValues = {op.getCodes(), op.getScales(), op.getResult()};
  Location loc = op.getLoc();
  const bool dbl = options.doubleBuffer;

  Frame f = beginKernel(func, gmValues, p.cores);
  OpBuilder b = OpBuilder::atBlockBegin(f.entry);
  Emitter e{b, loc, chip};
  Value codesGM = f.entry->getArgument(0), scalesGM = f.entry->getArgument(1),
        outGM = f.entry->getArgument(2);
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);

  const int64_t B = p.block, G = p.groups, R = G * B, C = p.tileCols;
  const int64_t N = R * C, NB = G * C, nb = ceilDiv(p.m, B);
  const int64_t maskLanes = roundUp(NB, 256), perBlock = maskLanes * 4;
  const int64_t codePitch = C * p.codeBits / 8, outPitch = C * p.outBytes;
  const int64_t codeRow = ceilDiv(p.n * p.codeBits, 8);
  const int64_t depth = dbl ? 2 : 1;

  int64_t codeSize = roundUp(N * p.codeBits / 8, 32);
  Value codeBuf = e.buffer(depth * codeSize);
  int64_t scaleSize = roundUp(NB, 32);
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
                             e.div(e.mul(c0, p.codeBits), 8)),
                       rows, codeLen, e.sub(e.idx(codeRow), codeLen),
                       e.div(e.sub(e.idx(codePitch), padded(codeLen)), 32),
                       b.getI64IntegerAttr(0));
  Value g0 = e.div(m0, B);
  Value blockRows = e.min(e.idx(G), e.sub(e.idx(nb), g0));
  if (p.swizzle) {
    copySwizzledSlots(e, /*write=*/false, scalesGM,
                      e.mul(o, swizzleBytes(p.n, nb)), slotsUB, c0, cols, C, g0,
                      G, nb);
  } else if (p.pairs) {
    int64_t pairRows = ceilDiv(nb, 2);
    Value h0 = e.div(g0, 2), hs = e.div(e.add(blockRows, 1), 2);
    Value len = e.mul(cols, 2);
    CopyGmToUbOp::create(
        b, loc, scalesUB, scalesGM,
        e.mul(e.add(e.mul(e.add(e.mul(o, pairRows), h0), p.n), c0), 2), hs, len,
        e.mul(e.sub(e.idx(p.n), cols), 2),
        e.div(e.sub(e.idx(2 * C), padded(len)), 32), b.getI64IntegerAttr(0));
  } else {
    CopyGmToUbOp::create(b, loc, scalesUB, scalesGM,
                         e.add(e.mul(e.add(e.mul(o, nb), g0), p.n), c0),
                         blockRows, cols, e.sub(e.idx(p.n), cols),
                         e.div(e.sub(e.idx(C), padded(cols)), 32),
                         b.getI64IntegerAttr(0));
  }
  e.flag(true, Pipe::mte2, Pipe::v, pp);
  e.flag(false, Pipe::mte2, Pipe::v, pp);

  // Decode (exact); widen the scale bytes to one u32 lane a block-row
  // column (pairs: each 16-bit lane s0 | s1 << 8 split into two rows).
  emitDecode(e, p, codesUB, qBuf, wBuf, laneMask, dBuf, N);
  if (p.swizzle) {
    splitColumnSlots(e, sBuf, tBuf, slotsUB, slotOffsets, G, C);
  } else if (p.pairs) {
    splitColumnPairs(e, sBuf, scalesUB, tBuf, G, C);
  } else {
    e.cast(sBuf, u32, scalesUB, u8, RoundMode::none, false, NB);
  }
  e.flag(true, Pipe::v, Pipe::mte2, pp); // codes and scales consumed
  emitScaleValues(e, sBuf, mbBuf, constBuf, blockMask, NB, maskLanes);

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
      e.mul(e.add(e.mul(e.add(e.mul(o, p.m), m0), p.n), c0), p.outBytes), outUB,
      rows, outLen, e.div(e.sub(e.idx(outPitch), padded(outLen)), 32),
      e.mul(e.sub(e.idx(p.n), cols), p.outBytes));
  e.flag(true, Pipe::mte3, Pipe::v, pp);

  finishKernel(e, f);
}

/// What one fake_quant asks for: the input seen as [rows, n] (n the last
/// dimension), its step and zero point per tensor, per row (axis 0 of a
/// matrix) or per column (the last axis).
struct FakeQuantPlan {
  /// Rows: the tile's rows have consecutive channels (row r's channel
  /// r % period, tiles that never wrap); RowRuns: each tile lies in one run
  /// of `run` rows of channel (r / run) % period (channels along an axis
  /// before the last two).
  enum class Channels { Tensor, Rows, RowRuns, Columns };
  dialect::FakeQuantOp op;
  /// The straight-through gradient instead (`op` null): grad where
  /// quant_min * step <= x <= quant_max * step, else +0.
  dialect::FakeQuantGradOp grad;
  Channels channels = Channels::Tensor;
  int64_t rows = 1, n = 0, period = 1, run = 1;
  Type inType, format;
  unsigned inBytes = 4;
  float quantMin = 0, quantMax = 0;
  /// The FP8 casts by integer code (a chip without MX casts: a2).
  bool emulate = false;
  int64_t tileRows = 0, tileCols = 0, slices = 0, tiles = 0, cores = 0;
};

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
      emitFP8Cast(e, p.format, /*nanCode=*/true, wBuf, wBuf, laneMask, codeBuf,
                  N);
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

/// What one two_level_quantize asks for (CANN DynamicDualLevelMxQuant):
/// the input seen as [rows, k].
struct TwoLevelPlan {
  dialect::TwoLevelQuantizeOp op;
  int64_t rows = 1, k = 0;
  Type inType;
  bool ftz = false, nanZero = false;
  /// The FP4 cast by integer code (a chip without MX casts: a2).
  bool emulate = false;
  dialect::Rounding rounding = dialect::Rounding::rne;
  /// x = x * smooth in the input type first (a [k] vector of it).
  bool smooth = false;
  int64_t tileRows = 0, tileCols = 0, slices = 0, tiles = 0, cores = 0;
};

constexpr int64_t kBlock0 = kTwoLevelBlock0, kBlock1 = kTwoLevelBlock1;

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
  bytes += 5 * roundUp(nb1, 256) * 4 + roundUp(nb1, 256) / 8;
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
  e.scalar(BinaryKind::mul, L0, L0,
           FloatAttr::get(f32,
                          1.0f / formatInfo(ElementFormat::E2M1FN).maxFinite),
           f32, l0Lanes);
  e.cmps(CmpPredicate::lt, L0m, L0, u32v(0x00800000), u32, l0Lanes);
  e.dup(L0c, u32v(0), u32, l0Lanes);
  e.sel(L0, L0m, L0c, L0, u32, l0Lanes);
  for (int64_t r = 0; r < T; ++r)
    VBroadcastGroupOp::create(b, loc, e.add(LB, r * C * 4),
                              e.add(L0, r * pitch0), e.idx(C / 64), u32,
                              kBlock0);
  // temp = x == 0 ? x : bf16(ftz(ftz(x) / level0)).
  auto flushSubnormals = [&](Value v) { // v = ftz(v), through W and LM
    e.scalar(BinaryKind::And, W, v, u32v(0x7FFFFFFF), u32, N);
    e.cmps(CmpPredicate::lt, LM, W, u32v(0x00800000), u32, N);
    e.scalar(BinaryKind::And, W, v, u32v(0x80000000), u32, N);
    e.sel(v, LM, W, v, u32, N);
  };
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
  e.scalar(BinaryKind::shr, eBuf, amBuf, u32v(23), u32, NB);
  e.scalar(BinaryKind::max, sBuf, eBuf, u32v(2), u32, NB);
  e.scalar(BinaryKind::sub, sBuf, sBuf, u32v(2), u32, NB);
  auto selectConst = [&](CmpPredicate pred, Value src, int64_t against,
                         Value dst, int64_t value) {
    e.cmps(pred, blockMask, src, u32v(against), u32, maskLanes);
    e.dup(constBuf, u32v(value), u32, maskLanes);
    e.sel(dst, blockMask, constBuf, dst, u32, maskLanes);
  };
  selectConst(CmpPredicate::eq, eBuf, 255, sBuf, 255);
  e.scalar(BinaryKind::mul, mbBuf, sBuf, u32v(0xFFFFFFFF), u32, NB);
  e.scalar(BinaryKind::add, mbBuf, mbBuf, u32v(254), u32, NB);
  e.scalar(BinaryKind::shl, mbBuf, mbBuf, u32v(23), u32, NB);
  selectConst(CmpPredicate::eq, sBuf, 255, mbBuf, 0x7FC00000);
  selectConst(CmpPredicate::eq, eBuf, 0, mbBuf, 0);

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

std::optional<bool> parseBoolOption(StringRef text) {
  if (text == "true" || text == "1")
    return true;
  if (text == "false" || text == "0")
    return false;
  return std::nullopt;
}

struct ConvertMXQToVTilePass
    : impl::ConvertMXQToVTileBase<ConvertMXQToVTilePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Chip parsed;
    std::string error;
    if (!parseChip(chip, parsed, error)) {
      module.emitError() << "convert-mxq-to-vtile: " << error;
      return signalPassFailure();
    }
    TilingOptions options{tileRows, tileCols, doubleBuffer};
    options.tileShape.assign(tileShape.begin(), tileShape.end());
    if (!performanceMode.empty()) {
      std::optional<bool> mode = parseBoolOption(performanceMode);
      if (!mode) {
        module.emitError() << "convert-mxq-to-vtile: performance-mode is "
                              "true or false, not '"
                           << performanceMode << "'";
        return signalPassFailure();
      }
      options.performanceMode = *mode;
    }
    if (tileRows < 0 || tileCols < 0) {
      module.emitError() << "convert-mxq-to-vtile: tile sizes cannot be "
                            "negative";
      return signalPassFailure();
    }
    module->setAttr(kChipAttr, StringAttr::get(module.getContext(), chip));
    SmallVector<func::FuncOp> funcs;
    module.walk([&](func::FuncOp f) {
      bool hasMXQ = false;
      f.walk([&](Operation *op) {
        hasMXQ |= isa<dialect::MXQDialect>(op->getDialect());
      });
      if (hasMXQ)
        funcs.push_back(f);
    });
    for (func::FuncOp f : funcs)
      if (failed(lowerFunctionToVTile(f, parsed, options)))
        return signalPassFailure();
  }
};

//===----------------------------------------------------------------------===//
// convert_scale_layout
//
// Scales of a last-axis block grid (R rows of nbK blocks) move between
// `linear`, `pairs` and `swizzle_32_4_4`: each tile of rows is read in the
// source layout onto one u32 lane a block (rows of nbr lanes, the lanes past
// the row's blocks 0) and written in the destination layout, the padding of
// either layout 0 (the reference's kScalePad) whatever the source's padding
// held. Staging buffers are zeroed before the DMA in that fills them only
// partly, so rows and blocks it does not write read as 0.
//===----------------------------------------------------------------------===//

/// What one convert_scale_layout asks for.
struct ConvertPlan {
  dialect::ConvertScaleLayoutOp op;
  bool fromSwizzle = false, toSwizzle = false;
  /// Bytes a row of the linear or pairs source and destination take.
  int64_t fromRow = 0, toRow = 0;
  int64_t rows = 1, nbK = 0;
  /// Either layout swizzled: [batch] matrices of mRows rows, tiled up to
  /// `spanRows` (the destination's 128-row bands, or the source's 32-row
  /// groups).
  int64_t batch = 1, mRows = 0, spanRows = 0, batchTiles = 0;
  /// A tile: tileRows rows x nbr blocks, `slices` of them a row.
  int64_t nbr = 8, tileRows = 0, slices = 1, rowTiles = 0, tiles = 0, cores = 1;
  /// Along a non-last axis ([outer, m, n], blocks along m): tiles of whole
  /// block-rows x columns (pickColumnTiling's), the layouts the column
  /// quantize writes and the column dequantize reads.
  bool columns = false, fromPairs = false, toPairs = false;
  ColumnTiling cols;
};

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

} // namespace

LogicalResult lowerFunctionToVTile(func::FuncOp func, const Chip &chip,
                                   const TilingOptions &options) {
  MLIRContext *ctx = func.getContext();
  ctx->getOrLoadDialect<VTileDialect>();
  ctx->getOrLoadDialect<arith::ArithDialect>();
  ctx->getOrLoadDialect<scf::SCFDialect>();
  if ((!options.tileShape.empty() || options.performanceMode) &&
      !isa<dialect::QuantizeOp>(func.getBody().front().front()))
    return fail(func, "tile-shape and performance-mode are the PyPTO tile "
                      "contract of quant_mx (mxq.quantize); this function's "
                      "op takes tile-rows and tile-cols");
  if (isa<dialect::DualQuantizeOp>(func.getBody().front().front())) {
    Plan p;
    if (failed(planDual(func, chip, options, p)))
      return failure();
    emitKernel(func, chip, p, options);
    return success();
  }
  if (isa<dialect::TwoLevelQuantizeOp>(func.getBody().front().front())) {
    TwoLevelPlan p;
    if (failed(planTwoLevel(func, chip, options, p)))
      return failure();
    emitTwoLevel(func, chip, p, options);
    return success();
  }
  if (isa<dialect::FakeQuantOp, dialect::FakeQuantGradOp>(
          func.getBody().front().front())) {
    FakeQuantPlan p;
    if (failed(planFakeQuant(func, chip, options, p)))
      return failure();
    emitFakeQuant(func, chip, p, options);
    return success();
  }
  if (isa<dialect::ConvertScaleLayoutOp>(func.getBody().front().front())) {
    ConvertPlan p;
    if (failed(planConvert(func, chip, options, p)))
      return failure();
    if (p.columns)
      emitConvertColumns(func, chip, p, options);
    else
      emitConvert(func, chip, p, options);
    return success();
  }
  if (isa<dialect::DequantizeOp>(func.getBody().front().front())) {
    DequantizePlan p;
    if (failed(planDequantize(func, chip, options, p)))
      return failure();
    if (p.columns)
      emitDequantizeColumns(func, chip, p, options);
    else
      emitDequantize(func, chip, p, options);
    return success();
  }
  Plan p;
  if (failed(plan(func, chip, options, p)))
    return failure();
  emitKernel(func, chip, p, options);
  return success();
}

} // namespace mxq::vtile
