//===- ScaleLayout.h - where each block scale lives -------------*- C++ -*-===//
//
// The shape and offset rules of every scale layout, in one place: the
// verifiers, the reference and the layout-materialisation lowering use these.
// Plain C++ (no MLIR) so that the reference can use it.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_SUPPORT_SCALELAYOUT_H
#define MXQ_SUPPORT_SCALELAYOUT_H

#include "mxq/Support/Formats.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace mxq {

/// A dimension whose size is unknown (same value as MLIR's
/// ShapedType::kDynamic).
constexpr int64_t kDynamicDim = std::numeric_limits<int64_t>::min();

/// ceil(a / b) for a >= 0, b > 0, without overflowing near INT64_MAX.
inline int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/// "[4, ?, 2]": how diagnostics spell a shape (kDynamicDim is "?").
inline std::string shapeToString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    s += i ? ", " : "";
    s += shape[i] == kDynamicDim ? "?" : std::to_string(shape[i]);
  }
  return s + "]";
}

/// Swizzle tiles: 128 rows x 4 scale columns, 512 bytes, stored (32, 4, 4).
constexpr int64_t kSwizzleTileRows = 128;
constexpr int64_t kSwizzleTileCols = 4;
constexpr int64_t kSwizzleTileBytes = 512;
/// Inside a tile, rows r and r + 1 of one 32-row stripe are this many bytes
/// apart (the (32, 4, 4) storage's outer stride).
constexpr int64_t kSwizzleStripeRows = 32;
constexpr int64_t kSwizzleRowBytes = 16;

/// Bytes of one swizzled scale grid of R rows and C scale columns.
inline int64_t swizzleBytes(int64_t rows, int64_t cols) {
  return kSwizzleTileBytes * ceilDiv(rows, kSwizzleTileRows) *
         ceilDiv(cols, kSwizzleTileCols);
}

/// The offset rules of the layouts, written once over any integer domain
/// `I` with +, * and, by positive constants, / and %: int64_t where the
/// reference and the verifiers evaluate them, IR index values where the
/// lowerings emit them (mxq/Conversion/IndexExpr.h). Nothing else spells
/// out where a scale lives.

/// Offset of the scale S[r, c] in a swizzled grid whose bands are
/// `tilesPerBand` tiles wide (ceil(C / 4) for C scale columns; cuBLAS "1D
/// block scaling factors layout").
template <typename I> I swizzleOffsetOf(I r, I c, I tilesPerBand) {
  I tile = (r / kSwizzleTileRows) * tilesPerBand + c / kSwizzleTileCols;
  return (tile * kSwizzleTileBytes +
          (r % kSwizzleStripeRows) * kSwizzleRowBytes) +
         (((r % kSwizzleTileRows) / kSwizzleStripeRows) * kSwizzleTileCols +
          c % kSwizzleTileCols);
}

/// Offset of the scale S[r, c] in a swizzled grid with C scale columns.
inline int64_t swizzleOffset(int64_t r, int64_t c, int64_t cols) {
  return swizzleOffsetOf<int64_t>(r, c, ceilDiv(cols, kSwizzleTileCols));
}

/// Where the scale of block b of a line lies in the pairs layout (Ascend
/// `[..., ceil(n/64), 2]` along the last axis, `[..., m/64, n, 2]` along
/// another): its pair along the axis and its slot in the pair.
template <typename I> struct PairSlot {
  I pair, slot;
};
template <typename I> PairSlot<I> pairSlotOf(I b) { return {b / 2, b % 2}; }

/// Offset of the scale of block b in the pairs layout of a [outer, blocks,
/// inner] grid, at (o, b, i).
template <typename I>
I pairsOffsetOf(I o, I b, I i, I pairsPerLine, I inner) {
  PairSlot<I> p = pairSlotOf(b);
  return ((o * pairsPerLine + p.pair) * inner + i) * 2 + p.slot;
}

/// Computes the shape of the scales that `layout` gives for an input of
/// `shape` quantized in blocks of `block` along `axis`. Unknown dimensions are
/// kDynamicDim and make the dimensions derived from them unknown. Returns
/// false and sets `error` (a sentence) when the layout cannot hold the input.
inline bool scaleShape(const std::vector<int64_t> &shape, int64_t axis,
                       int64_t block, ScaleLayout layout,
                       std::vector<int64_t> &result, std::string &error) {
  int64_t rank = static_cast<int64_t>(shape.size());
  auto cdiv = [](int64_t a, int64_t b) {
    return a == kDynamicDim ? kDynamicDim : ceilDiv(a, b);
  };
  result.clear();
  switch (layout) {
  case ScaleLayout::Linear:
    result = shape;
    result[axis] = cdiv(shape[axis], block);
    return true;
  case ScaleLayout::Pairs:
    result = shape;
    result[axis] = cdiv(cdiv(shape[axis], block), 2);
    result.push_back(2);
    return true;
  case ScaleLayout::Swizzle32x4x4: {
    if (rank < 2 || axis < rank - 2) {
      error = "scale layout swizzle_32_4_4 lays out the last two axes, so it "
              "needs an input of rank 2 or more quantized along one of them";
      return false;
    }
    int64_t rowDim = axis == rank - 1 ? rank - 2 : rank - 1;
    result.assign(shape.begin(), shape.end() - 2);
    int64_t rows = shape[rowDim], len = shape[axis];
    if (rows == kDynamicDim || len == kDynamicDim) {
      result.push_back(kDynamicDim);
      return true;
    }
    int64_t bytes;
    if (__builtin_mul_overflow(kSwizzleTileBytes, ceilDiv(rows, kSwizzleTileRows),
                               &bytes) ||
        __builtin_mul_overflow(bytes, ceilDiv(ceilDiv(len, block),
                                              kSwizzleTileCols),
                               &bytes)) {
      error = "the swizzled scales of a " + std::to_string(rows) + " x " +
              std::to_string(len) + " grid would number more than a 64-bit "
              "size can count";
      return false;
    }
    result.push_back(bytes);
    return true;
  }
  }
  error = "unknown scale layout";
  return false;
}

} // namespace mxq

#endif // MXQ_SUPPORT_SCALELAYOUT_H
