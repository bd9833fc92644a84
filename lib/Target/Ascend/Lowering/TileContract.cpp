//===- TileContract.cpp - the PyPTO tile contract of quant_mx -------------===//
//
// PyPTO quant_mx's tile shape and performance mode, checked and applied
// to a quantize's plan.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::vtile::lowering {

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

} // namespace mxq::vtile::lowering
