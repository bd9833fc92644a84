//===- Tiling.cpp - UB plans and tilings ----------------------------------===//
//
// How many rows and columns a tile takes: the UB each family's tile needs
// (counted from the same scratch rules its kernel allocates by) and the
// tilings of last-axis and column recipes.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::vtile::lowering {

int64_t fp4Segments(ElementFormat format, ArrayRef<int64_t> shape,
                    uint64_t axis) {
  int64_t rank = int64_t(shape.size());
  if (format != ElementFormat::E2M1FN || int64_t(axis) >= rank - 2 ||
      shape.back() % 2 == 0)
    return 1;
  int64_t between = 1;
  for (int64_t d = int64_t(axis) + 1; d + 1 < rank; ++d)
    between *= shape[d];
  return std::max<int64_t>(between, 1);
}

/// Whether the recipe goes through bf16 (FP4's cast, or the bf16 product),
/// or needs Q as the emulated encode's third buffer.
bool needsQ(const Plan &p) {
  return p.format == ElementFormat::E2M1FN || p.productBF16 || p.emulate;
}

/// Bytes a lane of Q takes: bf16, or u32 for the emulated encode.
int64_t qLaneBytes(const Plan &p) { return p.emulate ? 4 : 2; }

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
                      Tiling &out, bool narrow) {
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
  bytes += depth * t * scaleRowBytes(c / p.block, p.f32.has_value());           // scales
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
  // AM, E, S, MB, CONST, two temporaries, and what the block recipe needs
  // beyond them.
  bytes += (7 + extraBlockSlots(blockPolicyOf(p))) * perBlock;
  bytes += roundUp(nb, 256) / 8; // block mask
  return bytes;
}

/// UB bytes of a column tile: `g` block-rows (g * block rows) x `c`; with
/// `laneRows`, lane buffers of that many rows (a chunk of the block-rows).
int64_t columnBytes(const Plan &p, int64_t g, int64_t c, bool dbl,
                    CodeScratch scratch, int64_t laneRows) {
  int64_t n = (laneRows ? laneRows : g * p.block) * c, nb = g * c;
  int64_t depth = dbl ? 2 : 1;
  int64_t bytes = 0;
  bytes += depth * roundUp(n * p.inBytes, 32);             // IN
  bytes += p.inBytes == 4 ? 0 : roundUp(n * 4, 32);        // X
  bytes += roundUp(n * 4, 32);                             // A, then P
  bytes += needsQ(p) ? roundUp(n * qLaneBytes(p), 32) : 0; // Q
  bytes += scratch.bytes(n); // W, lane mask
  bytes += depth * roundUp(n * p.codeBits / 8, 32); // codes
  bytes += depth * roundUp(nb * scaleElementBytes(p.f32.has_value()), 32);
  bytes += (7 + extraBlockSlots(blockPolicyOf(p))) * roundUp(nb, 256) * 4 +
           roundUp(nb, 256) / 8;
  if (p.swizzle) // burst slots (a scale word each), the gather offsets
    bytes += depth * c * g * 8 + g * 64 * 4;
  return bytes;
}

/// The chunked column tiling (ColumnTiling::chunkRows): tiles of `step`
/// block-rows (whole scale bytes, pairs or words of every layout) and
/// `tileCols` columns (requested, or up to 256, fewer where 8 rows of them
/// do not fit), read in chunks of the most
/// rows (a multiple of 8, so that a chunk's lanes fill whole lane masks)
/// whose buffers fit the UB with the tile's block buffers.
static LogicalResult
pickColumnChunks(func::FuncOp func, const Chip &chip,
                 const TilingOptions &options, int64_t step,
                 function_ref<int64_t(int64_t, int64_t, int64_t)> chunkBytes,
                 ColumnTiling &t) {
  int64_t budget = chip.ubBytes - chip.ubReserved;
  int64_t C = options.tileCols ? options.tileCols
                               : std::clamp<int64_t>(roundUp(t.n, 64), 64, 256);
  auto bytes = [&](int64_t rc) { return chunkBytes(step, rc, C); };
  // Fewer columns where not even 8 rows of them fit (a small UB).
  while (!options.tileCols && C > 64 && bytes(8) > budget)
    C -= 64;
  int64_t rc = std::min<int64_t>(t.block, chip.maxBurstCount) / 8 * 8;
  while (rc > 8 && bytes(rc) > budget)
    rc -= 8;
  if (rc < 8 || bytes(rc) > budget)
    return fail(func, "a chunk of 8 rows of " + Twine(C) +
                          " columns (blocks of " + Twine(t.block) +
                          " along a non-last axis are read in chunks) needs " +
                          Twine(bytes(8)) + " bytes of UB, more than the " +
                          Twine(budget) + " chip " + Twine(chip.name) + " has");
  t.chunkRows = rc;
  t.groups = step, t.tileRows = step * t.block, t.tileCols = C;
  t.slices = ceilDiv(t.padColumns ? roundUp(t.n, 128) : t.n, C);
  t.rowTiles = ceilDiv(ceilDiv(t.m, t.block), step);
  t.tiles = t.outer * t.rowTiles * t.slices;
  // An empty tensor: one core and no tile.
  t.cores = std::clamp<int64_t>(t.tiles, 1, chip.cores);
  return success();
}

LogicalResult
pickColumnTiling(func::FuncOp func, const Chip &chip,
                 const TilingOptions &options,
                 function_ref<bool(int64_t, int64_t)> fits, ColumnTiling &t,
                 function_ref<int64_t(int64_t, int64_t, int64_t)> chunkBytes) {
  int64_t budget = chip.ubBytes - chip.ubReserved;
  int64_t step = t.swizzle ? 4 : t.pairs ? 2 : 1, nb = ceilDiv(t.m, t.block);
  // Blocks too long for a tile of whole block-rows (1024 rows of 64 f32
  // columns are 256 KiB of input alone) are read in chunks, where the
  // kernel can and the rows were not asked for.
  if (chunkBytes && !options.tileRows && options.tileCols % 64 == 0 &&
      !fits(step, options.tileCols ? options.tileCols : 64))
    return pickColumnChunks(func, chip, options, step, chunkBytes, t);
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
  p.mid = fp4Segments(p.format, inType.getShape(), p.op.getAxis());
  // swizzle_32_4_4 lays out the last two axes only (the verifier's C5),
  // so a swizzled grid never has segments.
  assert((p.mid == 1 || !p.swizzle) && "segments of a swizzled grid");
  p.n /= p.mid;
  CodeScratch scratch =
      codeScratch(p.format, p.op.getNanElement(), p.emulate);
  int64_t budget = chip.ubBytes - chip.ubReserved;
  auto fits = [&](int64_t g, int64_t c) {
    return columnBytes(p, g, c, options.doubleBuffer, scratch) <= budget;
  };
  ColumnTiling t{p.outer * p.mid, p.m,       p.n,      p.block,
                 p.pairs,         p.swizzle, p.swizzle};
  auto chunkBytes = [&](int64_t g, int64_t rc, int64_t c) {
    return columnBytes(p, g, c, options.doubleBuffer, scratch, rc);
  };
  if (failed(pickColumnTiling(func, chip, options, fits, t, chunkBytes)))
    return failure();
  p.chunkRows = t.chunkRows;
  p.groups = t.groups, p.tileRows = t.tileRows, p.tileCols = t.tileCols;
  p.slices = t.slices, p.rowTiles = t.rowTiles, p.tiles = t.tiles;
  p.cores = t.cores;
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

} // namespace mxq::vtile::lowering
