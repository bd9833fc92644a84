//===- Lowering.h - what the Ascend lowering's files share ------*- C++ -*-===//
//
// Private to lib/Target/Ascend/Lowering: the emitter of vtile
// instructions, the plans of each op family, the kernel frame, and the
// functions one file of the lowering calls in another. Files by concern:
// Kernel (frame), Numerics (the MX rules as vtile instructions),
// ScaleLayouts, Tiling and TileContract, then one file per op family;
// the pass is ../ConvertMXQToVTile.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_LIB_TARGET_ASCEND_LOWERING_LOWERING_H
#define MXQ_LIB_TARGET_ASCEND_LOWERING_LOWERING_H

#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Numerics/Recipes.h"
#include "mxq/Support/Formats.h"
#include "mxq/Support/ScaleLayout.h"
#include "mxq/Target/Ascend/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include <functional>
#include "mxq/Target/Ascend/Chip.h"
#include "mxq/Target/Ascend/VTile.h"

#include <functional>

namespace mxq::vtile::lowering {

using namespace mlir;
namespace dialect = ::mlir::mxq;

inline std::string str(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

inline int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

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
  /// dst[r] = src[r] * row (f32; `kind` div: / row) for `rows` rows of
  /// `cols` lanes (a multiple of 64): the row re-read for every row (repeat
  /// stride 0).
  void mulRows(Value dst, Value src, Value row, int64_t rows, int64_t cols,
               BinaryKind kind = BinaryKind::mul) {
    int64_t rowBlocks = cols * 4 / 32;
    for (int64_t k = 0; k < cols / 64; ++k)
      for (int64_t r0 = 0; r0 < rows; r0 += chip.maxRepeat) {
        int64_t nr = std::min<int64_t>(chip.maxRepeat, rows - r0);
        int64_t off = (r0 * cols + k * 64) * 4;
        VBinaryOp::create(b, loc, kind, add(dst, off), add(src, off),
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
  /// More scratch where the block recipe needs more than E, CONST, T, T2
  /// and MB (extraBlockSlots).
  SmallVector<Value, 2> extra = {};
};

struct BlockPolicy {
  dialect::ScaleAlgorithm algorithm;
  dialect::InfPolicy inf;
  dialect::Underflow underflow;
  ElementFormat format;
  /// Blockwise FP8: the stored fp32 scale's rule (the scale lanes then
  /// hold its bits, the multiplier lanes the element factor's).
  std::optional<F32ScaleRule> f32 = std::nullopt;
};

struct Plan;
struct Segments;

/// The frame every kernel shares: its new body (the old one stays until
/// finishKernel, so that a plan's op can be read while emitting), and the
/// loop over this core's tiles with the double-buffer prologue and drain.
struct Frame {
  Block *entry = nullptr, *old = nullptr;
  scf::ForOp loop;
  Value t, pp; ///< the tile and its buffer parity
  int64_t depth = 1;
};

/// The scratch the element codes take (emitCodes): W, n u32 lanes, and a
/// lane mask, for FP4 and for the codes by integer code (FP8 codes take
/// none: the cast's NaN rule is CTRL[50]).
/// What the UB plans count and what the kernels allocate, both from here.
struct CodeScratch {
  bool w = false, mask = false;
  /// UB bytes for `n` lanes.
  int64_t bytes(int64_t n) const {
    return (w ? roundUp(n * 4, 32) : 0) + (mask ? roundUp(n / 8, 32) : 0);
  }
};

/// What one quantize asks for, checked against what the recipe states.
struct Plan {
  dialect::QuantizeOp op;
  int64_t rows = 1, k = 0, block = 32;
  /// A non-last axis: the input seen as [outer, m, n], blocks along m.
  bool columns = false;
  int64_t outer = 1, m = 0, n = 1, groups = 0;
  /// Blocks along m too long for a tile of whole block-rows: a tile of
  /// `groups` block-rows is read in chunks of `chunkRows` rows, twice (the
  /// amax, then the codes: emitColumnChunks). 0: whole block-rows.
  int64_t chunkRows = 0;
  /// FP4 with an odd last dimension and dimensions between the axis and
  /// the last: each GM row of the flattened [outer, m, mid * n] is `mid`
  /// segments of the last dimension `n`, whose codes each end in a padding
  /// nibble; tiles lie in one segment (fp4Segments). 1 otherwise.
  int64_t mid = 1;
  /// Read at planning: the op is gone once the kernel replaces the body.
  bool productBF16 = false;
  /// fp32 block scales (blockwise FP8): the rule of the stored scale.
  std::optional<F32ScaleRule> f32;
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

/// A row x column tiling of a [rows, k] matrix.
struct Tiling {
  int64_t tileRows = 0, tileCols = 0, slices = 0, tiles = 0, cores = 0;
};

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
  /// Blocks too long for a tile of whole block-rows: `groups` block-rows
  /// read in chunks of this many rows (0: whole block-rows in the UB).
  int64_t chunkRows = 0;
};

/// What one dequantize asks for.
struct DequantizePlan {
  dialect::DequantizeOp op;
  int64_t rows = 1, k = 0, block = 32;
  Type codeType, outType;
  ElementFormat format;
  unsigned codeBits = 8, outBytes = 4;
  bool pairs = false, saturate = false;
  /// fp32 block scales (blockwise FP8): the stored value multiplies.
  bool f32 = false;
  /// The codes are decoded by integer code (FP6: the core has no cast).
  bool emulate = false;
  /// A non-last axis: the codes seen as [outer, m, n], blocks along m, tiles
  /// of `groups` block-rows of `tileCols` columns.
  bool columns = false;
  int64_t outer = 1, m = 0, n = 1, groups = 0, rowTiles = 0;
  /// Blocks too long for a tile of whole block-rows: the codes read in
  /// chunks of this many rows (0: whole block-rows).
  int64_t chunkRows = 0;
  /// FP4 segments of a GM row, as Plan::mid.
  int64_t mid = 1;
  /// swizzle_32_4_4 scales (last axis): tiles of whole 32-row groups over
  /// each [batch] matrix of `mRows` rows, columns a power of two times 4
  /// blocks (the gather offsets then need no division).
  bool swizzle = false;
  int64_t batch = 1, mRows = 0, batchTiles = 0;
  int64_t tileRows = 0, tileCols = 0, slices = 0, tiles = 0, cores = 0;
};

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

inline constexpr const char *kOneOpMessage =
    "the ascend target lowers a function that returns the codes and scales "
    "of one mxq.quantize (or mxq.two_level_quantize) of its argument, the "
    "four results of one mxq.dual_quantize of it, or the result of one "
    "mxq.dequantize, mxq.fake_quant, mxq.fake_quant_grad or "
    "mxq.convert_scale_layout of its arguments; "
    "other functions are not lowered yet";

//===----------------------------------------------------------------------===//
// Kernel.cpp
//===----------------------------------------------------------------------===//

/// Makes `func` a kernel over the GM memrefs of `values` (the op's
/// operands, then its results) on `cores` cores.
Frame beginKernel(func::FuncOp func, ArrayRef<Value> values, int64_t cores);

/// This core's run of `tiles` tiles, the flags that mark every buffer free,
/// and the loop; the builder is left in its body.
void openTileLoop(Emitter &e, Frame &f, int64_t tiles, int64_t cores,
                  bool doubleBuffer);

/// After the loop: every flag the prologue set waited for once more, the
/// return, and the old body erased.
void finishKernel(Emitter &e, Frame &f);

LogicalResult fail(func::FuncOp func, const Twine &why);

/// Whether every operand and result of `op` has a static shape; a
/// diagnostic if not.
LogicalResult checkStaticShapes(func::FuncOp func, Operation *op);

//===----------------------------------------------------------------------===//
// Numerics.cpp
//===----------------------------------------------------------------------===//

/// From the amax bits of each block (bb.am), its scale byte (bb.s, ref:
/// scaleByte) and the bits of its f32 multiplier (bb.mb, ref:
/// blockMultiplier).
void emitScaleAndMultiplier(Emitter &e, const BlockBuffers &bb,
                            const BlockPolicy &pol);

/// The NaN lanes of the f32 lanes `p` replaced by `value` (through the
/// scratch lanes `w` and the lane mask `mask`).
void replaceNaNLanes(Emitter &e, Value p, Value w, Value mask, Attribute value,
                     Type valueType, int64_t lanes);

/// Puts the f32 values `p` on the grid of `format` in `mode`, exactly: the
/// quantum 2^(max(e, emin) - mbits) from the exponent field, divide by it
/// (a power of two: exact), Truncate<float, mode> (keeps a zero's sign),
/// multiply back. Inf stays Inf. For E2M1 this is CANN's FP4 pre-rounding
/// (ascend-model.md, "Elements, FP4": the bf16 cast after it is exact and
/// the FP4 cast does not round again); the integer-code casts use it for
/// every format. `w` (n f32 lanes) is scratch.
void roundToGrid(Emitter &e, ElementFormat format, Value p, Value w,
                 RoundMode mode, int64_t n);

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
                       Value codes, int64_t n);

/// The f32 values `d` of the codes of `format` in `w` (u32 lanes), by
/// integer code, for a format the core cannot cast from (FP6 on every chip;
/// FP8 and FP4 without MX casts): the sign moved to bit 31; a normal code's
/// exponent field rebiased by 126 + emin steps above its mantissa; a
/// subnormal's value (code + 2^m) * 2^(emin - m) less 2^emin (exact). E4M3's
/// NaN codes read as +-480 there and become NaN; E5M2's exponent field 31
/// reads as 2^16 or more and becomes +-Inf or NaN. `x` (n u32 lanes) and
/// `mask` are scratch; `w` is clobbered.
void emitEmulatedDecode(Emitter &e, ElementFormat format, Value w, Value x,
                        Value mask, Value d, int64_t n);

/// The FP8 codes of the f32 values `p` by the core's saturating cast, with
/// CTRL[50] set first to `nanCode`: NaN lanes give the NaN code, or +0.
void emitFP8Cast(Emitter &e, Type codeType, bool nanCode, Value p,
                 Value codes, int64_t n);

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
               Value p, Value q, Value w, Value mask, Value codes, int64_t n);

CodeScratch codeScratch(ElementFormat format, dialect::NanElement nanElement,
                        bool emulate);

/// The f32 values `dBuf` of a dequantize's codes at `codesUB` (exact): the
/// core's casts, or integer code (FP6, and every format on a2). `qBuf`
/// (bf16 lanes, u32 when emulated), `wBuf` and `laneMask` are scratch.
void emitDecode(Emitter &e, const DequantizePlan &p, Value codesUB, Value qBuf,
                Value wBuf, Value laneMask, Value dBuf, int64_t N);

/// The scale values 2^(s - 127) as f32 bits from the widened scale bytes
/// `sBuf`: s << 23, 2^-127 for s = 0, NaN for 0xFF (ref: scaleValue).
void emitScaleValues(Emitter &e, Value sBuf, Value mbBuf, Value constBuf,
                     Value blockMask, int64_t NB, int64_t maskLanes);

/// The buffers of a dequantize column tile's scales: as read (`scalesUB`,
/// swizzled `slotsUB` by `slotOffsets`), widened (`s`, through `t`), and
/// the scale values (`values`, through `cst` and `blockMask`).
struct ColumnScaleBuffers {
  Value scalesUB, slotsUB, slotOffsets, s, t, values, cst, blockMask;
};
/// The scale values of a dequantize column tile (G block-rows of C) in
/// `bufs.values`, one u32 lane a block-row column: the fp32 scales as
/// stored, else the values of the scale bytes widened from their layout;
/// the scales' buffer released to the next DMA in (flag of `pp`) once read.
void columnScaleValues(Emitter &e, const DequantizePlan &p,
                       const ColumnScaleBuffers &bufs, int64_t G, int64_t C,
                       Value pp);

/// The scales of a column tile's blocks (u32 lanes in `s`, G block-rows of
/// C) into the layout its scale DMA writes: bytes (linear), byte pairs of
/// two block-rows (pairs: through `t2`), the swizzled burst slots
/// (`slotsUB`, through `t2` and `t`, by `slotOffsets`), or the fp32 scales'
/// lanes as they are (blockwise FP8).
void packColumnScales(Emitter &e, const Plan &p, Value scalesUB, Value slotsUB,
                      Value s, Value t, Value t2, Value slotOffsets, int64_t G,
                      int64_t C);
/// The bytes of a scale of a plan's scales (4 for fp32 scales).
inline int64_t scaleElementBytes(bool f32) { return f32 ? 4 : 1; }
/// Whether the block amax of `pol` ignores NaN (TE's encode rules).
inline bool amaxIgnoresNaN(const BlockPolicy &pol) {
  return pol.f32 && pol.f32->algorithm == ScaleAlgorithm::Encode;
}

/// The bits of |x| for `n` f32 lanes `x` into `dst` (the lanes whose
/// maximum is a block's amax bits, a NaN above +Inf); with `ignoreNaN`, a
/// NaN lane gives 0 (the amax of TE's encode conventions, fmaxf's).
void emitAbsBits(Emitter &e, Value dst, Value x, bool ignoreNaN, int64_t n);

/// The scratch slots (u32 buffers of a block's lanes, MB among them) the
/// block recipe of `pol` takes at most: what the kernels must give it among
/// E, CONST, T, T2 and MB.
int64_t blockRecipeSlots(const BlockPolicy &pol);
/// The per-block buffers a kernel with `have` of E, CONST, T, T2 and MB
/// adds for the block recipe of `pol` (what its UB plan counts too).
inline int64_t extraBlockSlots(const BlockPolicy &pol, int64_t have = 5) {
  return std::max<int64_t>(0, blockRecipeSlots(pol) - have);
}
/// The block policy of a quantize's or dual quantize's plan.
BlockPolicy blockPolicyOf(const Plan &p);
/// How a quantize's elements meet their block's factor: times, or divided
/// by the scale (blockwise FP8's decode with exact division; ref:
/// f32Scaled).
BinaryKind elementKind(const Plan &p);

/// The level-0 scales of a two-level quantize (in place), 0 below 2^-126.
void emitLevel0Scales(Emitter &e, Value l0, Value mask, Value cst,
                      int64_t lanes);
/// v = ftz(v) on f32 lanes.
void emitFlushSubnormals(Emitter &e, Value v, Value w, Value mask, int64_t n);

//===----------------------------------------------------------------------===//
// ScaleLayouts.cpp
//===----------------------------------------------------------------------===//

/// Whether a row of `perRow` scale bytes needs writeScaleRows' gather: a
/// row of u32 lanes that does not start on a 32-byte block (a repeat's
/// stride is in whole blocks), i.e. fewer than 8 blocks or not a multiple
/// of 8 (at most 64: the gathered rows are 32 or 64 lanes).
bool scaleRowsGathered(int64_t perRow);

/// The UB bytes of a row of `perRow` scales of a last-axis tile: scale
/// bytes in rows of a multiple of 32 (writeScaleRows); fp32 scales
/// (blockwise FP8, `f32`) contiguous where a row is whole 32-byte blocks,
/// else in rows of 32 or 64 lanes (a quantize gathers them there as it
/// does the bytes; a dequantize broadcasts them row by row).
int64_t scaleRowBytes(int64_t perRow, bool f32);

/// The gather offsets (u32 lanes of byte offsets) of writeScaleRows for
/// `rows` rows of `perRow` scale lanes spread to rows of `pitch` lanes (32
/// or 64): lane l reads lane (l / pitch) * perRow + min(l % pitch, perRow -
/// 1) of the packed rows (the lanes past a row's end repeat its last, which
/// the DMA out does not write). `tmp` holds rows * pitch u32 lanes.
void emitScaleRowOffsets(Emitter &e, Value offsets, Value tmp, int64_t rows,
                         int64_t perRow, int64_t pitch);

/// Scale bytes (u32 lanes in `s`, `perRow` a row) into `dst` rows of
/// `pitch` bytes: one contiguous cast when rows are whole 32-byte rows
/// (`perRow` a multiple of 32), one masked repeat per row when a row starts
/// on a 32-byte block (`perRow` a multiple of 8), else (scaleRowsGathered)
/// the rows gathered to `pitch` lanes each into `tmp` by `offsets`
/// (emitScaleRowOffsets) and cast in one go.
void writeScaleRows(Emitter &e, Value dst, Value s, int64_t rows,
                    int64_t perRow, int64_t pitch, Value offsets = {},
                    Value tmp = {});

/// writeScaleRows backwards: scale bytes in rows of `pitch` bytes (`perRow`
/// a row, a multiple of 8) widened to u32 lanes in `s`, `perRow` a row.
void readScaleRows(Emitter &e, Value s, Value src, int64_t rows, int64_t perRow,
                   int64_t pitch);

/// The gather offsets (u32 lanes, 8 a slot) of one 32-row group of packed
/// scale rows of `nbr` bytes (a multiple of 8): lane l, slot s = l / 8,
/// reads row s % 32, word s / 32: byte (s % 32) * nbr + (s / 32) * 4.
/// `tmp` holds nbr * 64 u32 lanes of scratch.
void emitSlotOffsets(Emitter &e, Value offsets, Value tmp, int64_t nbr);

/// Every 32-row group of the `rows` packed scale rows at `scales` gathered
/// into its burst slots: group g's (nbr / 4) * 32 slots from `slots` + g *
/// nbr * 256.
void gatherSlots(Emitter &e, Value slots, Value scales, Value offsets,
                 int64_t rows, int64_t nbr);

/// The slots of a tile's 32-row groups to GM (`write`) or from it: rows
/// `r0` + 32g (inside the scale matrix at byte `base`) for the groups below
/// `rows` rows, scale columns from `b0` (a multiple of 4), `nbr` a row in
/// the tile, `nbK` in the matrix. One copy a group (or per 127 words: the
/// burst limit) of 4-byte bursts 16 bytes apart in GM, each burst on its
/// own 32 bytes of UB.
void copySwizzledSlots(Emitter &e, bool write, Value gm, Value base,
                       Value slots, Value r0, Value rows, int64_t tileRows,
                       Value b0, int64_t nbr, int64_t nbK);

/// The gather offsets that put a 32-row group's burst slots back into
/// packed scale rows of `nbr` bytes (4 words times a power of two): lane l,
/// q = nbr / 4 words a row, reads slot (l % q) * 32 + l / q. `tmp` holds
/// nbr * 8 u32 lanes.
void emitSlotGatherOffsets(Emitter &e, Value offsets, Value tmp, int64_t nbr);

/// The slot offsets of a column tile's words (word-row w at lanes w * C of
/// `words`): slot s of a 32-column group reads word-row s / 32 of its
/// column s % 32 (byte offsets). `tmp` holds G * 64 u32 lanes.
void emitColumnSlotOffsets(Emitter &e, Value offsets, Value tmp, int64_t G,
                           int64_t C);

/// The gather offsets that read a column tile's words back from its slots:
/// column c reads slot (c / 32) * G * 8 + c % 32 of a word-row. `tmp` holds
/// C u32 lanes.
void emitColumnGatherOffsets(Emitter &e, Value offsets, Value tmp, int64_t G,
                             int64_t C);

/// A column quantize tile's scales to GM (emitColumns, emitColumnChunks):
/// its block-rows (from the tile's `rows`) of `cols` columns from `c0`, in
/// the plan's layout.
void writeColumnScales(Emitter &e, const Plan &p, const Segments &segs,
                       Value scalesGM, Value scalesUB, Value slotsUB, Value o,
                       Value rowTile, Value c0, Value cols, Value rows);

/// A column dequantize tile's scales from GM (emitDequantizeColumns,
/// emitDequantizeColumnChunks): the block-rows from m0 / block, `cols`
/// columns from `c0`, in the plan's layout.
void readColumnScales(Emitter &e, const DequantizePlan &p,
                      const Segments &segs, Value scalesGM, Value scalesUB,
                      Value slotsUB, Value o, Value m0, Value c0, Value cols);

/// Pairs of block-rows' lanes of `s` joined into 16-bit lanes of `dst`
/// (`tmp`: G / 2 * C u32 lanes).
void joinColumnPairs(Emitter &e, Value dst, Value s, Value tmp, int64_t G,
                     int64_t C);

/// joinColumnPairs backwards: the 16-bit lanes at `src` split into
/// block-rows of `s`.
void splitColumnPairs(Emitter &e, Value s, Value src, Value tmp, int64_t G,
                      int64_t C);

/// Four block-rows' lanes of `s` as one word a column (in `words`, word-row
/// w at lanes w * C; `tmp` C lanes), gathered into the burst slots of every
/// 32-column group by `offsets` (emitColumnSlotOffsets).
void gatherColumnSlots(Emitter &e, Value slots, Value words, Value s, Value tmp,
                       Value offsets, int64_t G, int64_t C);

/// gatherColumnSlots backwards: each word-row gathered from the slots
/// (`offsets`: emitColumnGatherOffsets) into `words`, then split into
/// block-rows of `s`.
void splitColumnSlots(Emitter &e, Value s, Value words, Value slots,
                      Value offsets, int64_t G, int64_t C);

//===----------------------------------------------------------------------===//
// Tiling.cpp
//===----------------------------------------------------------------------===//

/// The segments of a column tile's GM row (Plan::mid). The column recipe
/// flattens the dimensions after the block axis into one row and packs FP4
/// codes two a byte along it; that is the last axis' packing when the
/// dimensions between are 1 or the last dimension is even (1 segment).
/// Otherwise every row of the odd last dimension ends in a padding nibble:
/// the product of the dimensions between, each segment tiled apart.
int64_t fp4Segments(ElementFormat format, ArrayRef<int64_t> shape,
                    uint64_t axis);

/// Where a column tile of segment rows lies in its GM row (Plan::mid): the
/// segment split off the outer index, element and code-byte columns moved
/// to it. With one segment every method returns its argument (the IR of
/// the flattened row, unchanged).
struct Segments {
  Value seg;
  int64_t mid = 1, n = 1, segBytes = 1;
  /// `o` (outer * mid + segment) becomes the outer index.
  Segments(Emitter &e, Value &o, int64_t mid, int64_t n, unsigned codeBits)
      : mid(mid), n(n), segBytes(ceilDiv(n * codeBits, 8)) {
    if (mid > 1) {
      seg = e.rem(o, mid);
      o = e.div(o, mid);
    }
  }
  /// Elements and code bytes a GM row holds.
  int64_t rowElems() const { return mid * n; }
  int64_t rowBytes() const { return mid * segBytes; }
  Value col(Emitter &e, Value c) const {
    return mid > 1 ? e.add(e.mul(seg, n), c) : c;
  }
  Value byte(Emitter &e, Value c) const {
    return mid > 1 ? e.add(e.mul(seg, segBytes), c) : c;
  }
};

/// Whether the recipe goes through bf16 (FP4's cast, or the bf16 product),
/// or needs Q as the emulated encode's third buffer.
bool needsQ(const Plan &p);

/// Bytes a lane of Q takes: bf16, or u32 for the emulated encode.
int64_t qLaneBytes(const Plan &p);

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
                         int64_t maxRows, Tiling &out);

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
                      Tiling &out, bool narrow = false);

/// UB bytes a tile of `t` rows x `c` columns needs.
int64_t tileBytes(const Plan &p, int64_t t, int64_t c, bool dbl,
                  CodeScratch scratch);

/// UB bytes of a column tile: `g` block-rows (g * block rows) x `c`; with
/// `laneRows`, lane buffers of that many rows (a chunk of the block-rows).
int64_t columnBytes(const Plan &p, int64_t g, int64_t c, bool dbl,
                    CodeScratch scratch, int64_t laneRows = 0);

/// Chooses `t`'s tiling from `fits(g, c)`. With `chunkBytes(g, rc, c)`
/// (the UB of g block-rows whose lane buffers hold rc rows of c columns:
/// the kernel reads long blocks in chunks), blocks of which not even one
/// step of block-rows of 64 columns fits are tiled in chunks instead.
LogicalResult pickColumnTiling(
    func::FuncOp func, const Chip &chip, const TilingOptions &options,
    function_ref<bool(int64_t, int64_t)> fits, ColumnTiling &t,
    function_ref<int64_t(int64_t, int64_t, int64_t)> chunkBytes = nullptr);

LogicalResult planColumns(func::FuncOp func, const Chip &chip,
                          const TilingOptions &options, Plan &p);

/// Whether a tile of 32 rows of `cols` columns fits the UB (a swizzled
/// tile's least); a diagnostic if not.
LogicalResult check32Rows(func::FuncOp func, const Chip &chip, int64_t cols,
                          function_ref<int64_t(int64_t, int64_t)> bytes);

//===----------------------------------------------------------------------===//
// TileContract.cpp
//===----------------------------------------------------------------------===//

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
                                TilingOptions &out);

//===----------------------------------------------------------------------===//
// Quantize.cpp
//===----------------------------------------------------------------------===//

LogicalResult plan(func::FuncOp func, const Chip &chip,
                   const TilingOptions &requested, Plan &p);

/// The plan of a dual quantize: the swizzled last-axis plan with tiles of
/// exactly 32 rows (each tile's columns are then one block each) and
/// columns a multiple of 128 (whole scale words of the row half).
LogicalResult planDual(func::FuncOp func, const Chip &chip,
                       const TilingOptions &options, Plan &p);

/// The kernel of a quantize along a non-last axis: tiles of whole blocks
/// of rows; a block's maximum is a tree of lane-wise maxima across its rows
/// (no transpose), its multiplier multiplies each of its rows.
void emitColumns(func::FuncOp func, const Chip &chip, const Plan &p,
                 const TilingOptions &options);

/// emitColumns for blocks too long for the UB (`p.chunkRows`): each tile's
/// block-rows read in chunks twice, the amax over the chunks first, then
/// the codes of each chunk (QuantizeChunks.cpp).
void emitColumnChunks(func::FuncOp func, const Chip &chip, const Plan &p,
                      const TilingOptions &options);

/// The column half of a dual tile to GM: its codes (a row of `rows` bytes
/// for each of its `cols` columns) to codes1 [K, M] at (c0, r0); its
/// scales (one byte a slot, the tile's column j in slot j) to the swizzled
/// [K, ceil(M/32)] grid, scale column r0 / 32, one copy of 32 one-byte
/// bursts 16 bytes apart per 32 columns, up to the grid's rows padded to
/// 128 (those scales are 0: zero input).
void writeDualColumns(Emitter &e, const Plan &p, Value codes1GM,
                      Value scales1GM, Value codes1UB, Value slots1UB,
                      Value batchIdx, Value r0, Value c0, Value rows,
                      Value cols);

/// Rewrites the function of plan `p` into the kernel.
void emitKernel(func::FuncOp func, const Chip &chip, const Plan &p,
                const TilingOptions &options);

//===----------------------------------------------------------------------===//
// Dequantize.cpp
//===----------------------------------------------------------------------===//

/// UB bytes of a column tile of a dequantize: `g` block-rows x `c` columns;
/// with `laneRows`, lane buffers of that many rows (a chunk of them).
int64_t dequantizeColumnBytes(const DequantizePlan &p, int64_t g, int64_t c,
                              bool dbl, int64_t laneRows = 0);

int64_t dequantizeBytes(const DequantizePlan &p, int64_t t, int64_t c,
                        bool dbl);

/// The column tiling of a dequantize along a non-last axis: columns a
/// multiple of 64 (whole 32-byte blocks of every buffer, FP4 included),
/// block-rows even for the pairs layout, as many as the UB holds while
/// leaving tiles for every core.
LogicalResult planDequantizeColumns(func::FuncOp func, const Chip &chip,
                                    const TilingOptions &options,
                                    DequantizePlan &p, int64_t rank);

LogicalResult planDequantize(func::FuncOp func, const Chip &chip,
                             const TilingOptions &options, DequantizePlan &p);

/// The products `P` made results: NaN the canonical quiet NaN, or +0 where
/// the result cast saturates (then +-Inf the largest finite f32), and the
/// cast to a 16-bit result type into `outUB` after waiting for its buffer.
void emitResultTail(Emitter &e, const DequantizePlan &p, Value P, Value wBuf,
                    Value laneMask, Value outUB, Value pp, int64_t N);

void emitDequantize(func::FuncOp func, const Chip &chip,
                    const DequantizePlan &p, const TilingOptions &options);

/// The kernel of a dequantize along a non-last axis: tiles of whole blocks
/// of rows (the codes seen as [outer, m, n]); each row is multiplied by its
/// block-row's scale values (the scale row re-read for every row: repeat
/// stride 0).
void emitDequantizeColumns(func::FuncOp func, const Chip &chip,
                           const DequantizePlan &p,
                           const TilingOptions &options);

/// emitDequantizeColumns for blocks too long for the UB (`p.chunkRows`):
/// each tile's scales read once, its codes in chunks (DequantizeChunks.cpp).
void emitDequantizeColumnChunks(func::FuncOp func, const Chip &chip,
                                const DequantizePlan &p,
                                const TilingOptions &options);

//===----------------------------------------------------------------------===//
// FakeQuant.cpp
//===----------------------------------------------------------------------===//

int64_t fakeQuantBytes(const FakeQuantPlan &p, int64_t t, int64_t c, bool dbl);

LogicalResult planFakeQuant(func::FuncOp func, const Chip &chip,
                            const TilingOptions &options, FakeQuantPlan &p);

/// fake_quant (ref: fakeQuant): t = x / step + zero, clamped to [quant_min,
/// quant_max] (NaN kept), through the FP8 code and back, (q - zero) * step,
/// NaN canonical, rounded to the input type.
void emitFakeQuant(func::FuncOp func, const Chip &chip, const FakeQuantPlan &p,
                   const TilingOptions &options);

//===----------------------------------------------------------------------===//
// TwoLevelQuantize.cpp
//===----------------------------------------------------------------------===//

int64_t twoLevelBytes(int64_t t, int64_t c, bool dbl, bool smooth);

LogicalResult planTwoLevel(func::FuncOp func, const Chip &chip,
                           const TilingOptions &options, TwoLevelPlan &p);

/// two_level_quantize (ref: twoLevelQuantize).
void emitTwoLevel(func::FuncOp func, const Chip &chip, const TwoLevelPlan &p,
                  const TilingOptions &options);

//===----------------------------------------------------------------------===//
// ConvertScaleLayout.cpp
//===----------------------------------------------------------------------===//

/// UB bytes a column convert tile of `g` block-rows x `c` columns takes.
int64_t convertColumnBytes(const ConvertPlan &p, int64_t g, int64_t c,
                           bool dbl);

/// UB bytes a convert tile of `t` rows of `c` blocks takes.
int64_t convertBytes(const ConvertPlan &p, int64_t t, int64_t c, bool dbl);

LogicalResult planConvert(func::FuncOp func, const Chip &chip,
                          const TilingOptions &options, ConvertPlan &p);

/// convert_scale_layout along a non-last axis: a tile of G block-rows x C
/// columns read in the source layout onto u32 lanes (block-row j's columns
/// at lanes j * C) as emitDequantizeColumns reads them, and written as
/// emitColumns writes them; the staging buffers zeroed as emitConvert's.
void emitConvertColumns(func::FuncOp func, const Chip &chip,
                        const ConvertPlan &p, const TilingOptions &options);

void emitConvert(func::FuncOp func, const Chip &chip, const ConvertPlan &p,
                 const TilingOptions &options);

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

inline constexpr int64_t kBlock0 = kTwoLevelBlock0, kBlock1 = kTwoLevelBlock1;

} // namespace mxq::vtile::lowering

#endif // MXQ_LIB_TARGET_ASCEND_LOWERING_LOWERING_H
