//===- MXQTiling.cpp - TilingInterface of the mxq ops ---------------------===//
//
// The iteration domain of an mxq op is measured in the units its scale layout
// can split, so that every tile the upstream drivers make (scf::tileUsingSCF,
// transform.structured.tile_using_for/forall) is valid by construction:
//
//   linear          the quantization axis in blocks, other axes in elements
//   pairs           the quantization axis in pairs of blocks
//   swizzle_32_4_4  the row axis in 128-row bands, the quantization axis as
//                   one unit (a band of the swizzled grid is contiguous, a
//                   column range is not), batch axes in elements
//   two-level       the last axis in 512-element level-0 blocks
//   dual            batch axes only (both outputs are swizzled)
//   fake quant      every axis in elements
//
// A unit of 0 below means "the whole dimension is one unit".
//
//===----------------------------------------------------------------------===//
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Support/ScaleLayout.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::mxq;

namespace {

/// Units of each dimension of a quantize/dequantize domain.
SmallVector<int64_t> blockUnits(int64_t rank, int64_t axis, int64_t block,
                                ScaleLayout layout) {
  SmallVector<int64_t> units(rank, 1);
  switch (layout) {
  case ScaleLayout::linear:
    units[axis] = block;
    break;
  case ScaleLayout::pairs:
    units[axis] = 2 * block;
    break;
  case ScaleLayout::swizzle_32_4_4:
    units[axis] = 0;
    units[axis == rank - 1 ? rank - 2 : rank - 1] = ::mxq::kSwizzleTileRows;
    break;
  }
  return units;
}

OpFoldResult apply(OpBuilder &b, Location loc, AffineExpr e,
                   ArrayRef<OpFoldResult> operands) {
  return affine::makeComposedFoldedAffineApply(b, loc, e, operands);
}

/// The domain of `data` with `units`.
SmallVector<Range> domainOf(OpBuilder &b, Location loc, Value data,
                            ArrayRef<int64_t> units) {
  SmallVector<Range> domain;
  AffineExpr d0 = b.getAffineDimExpr(0);
  for (auto [d, unit] : llvm::enumerate(units)) {
    OpFoldResult size = b.getIndexAttr(1);
    if (unit != 0)
      size = apply(b, loc, d0.ceilDiv(unit),
                   {tensor::getMixedSize(b, loc, data, d)});
    domain.push_back(Range{b.getIndexAttr(0), size, b.getIndexAttr(1)});
  }
  return domain;
}

/// The element offsets and sizes of the tile (`offsets`, `sizes` in units)
/// of `data`.
void elementTile(OpBuilder &b, Location loc, Value data,
                 ArrayRef<int64_t> units, ArrayRef<OpFoldResult> offsets,
                 ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &eOff,
                 SmallVector<OpFoldResult> &eSize) {
  eOff.clear();
  eSize.clear();
  AffineExpr d0, d1, d2;
  bindDims(b.getContext(), d0, d1, d2);
  for (auto [d, unit] : llvm::enumerate(units)) {
    OpFoldResult dim = tensor::getMixedSize(b, loc, data, d);
    if (unit == 0) {
      eOff.push_back(b.getIndexAttr(0));
      eSize.push_back(dim);
      continue;
    }
    if (unit == 1) {
      eOff.push_back(offsets[d]);
      eSize.push_back(sizes[d]);
      continue;
    }
    eOff.push_back(apply(b, loc, d0 * unit, {offsets[d]}));
    AffineMap minMap =
        AffineMap::get(3, 0, {d1 * unit, d2 - d0 * unit}, b.getContext());
    eSize.push_back(affine::makeComposedFoldedAffineMin(
        b, loc, minMap, {offsets[d], sizes[d], dim}));
  }
}

Value slice(OpBuilder &b, Location loc, Value source,
            ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, source, offsets, sizes,
                                        strides);
}

/// The scale tile of a data tile (`offsets`, `sizes` in the units of
/// blockUnits) of `data`.
void scaleTile(OpBuilder &b, Location loc, Value data, int64_t axis,
               int64_t block, ScaleLayout layout,
               ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
               SmallVector<OpFoldResult> &sOff,
               SmallVector<OpFoldResult> &sSize) {
  int64_t rank = offsets.size();
  sOff.assign(offsets.begin(), offsets.end());
  sSize.assign(sizes.begin(), sizes.end());
  switch (layout) {
  case ScaleLayout::linear:
    return;
  case ScaleLayout::pairs:
    sOff.push_back(b.getIndexAttr(0));
    sSize.push_back(b.getIndexAttr(2));
    return;
  case ScaleLayout::swizzle_32_4_4: {
    int64_t rowDim = axis == rank - 1 ? rank - 2 : rank - 1;
    AffineExpr d0, d1;
    bindDims(b.getContext(), d0, d1);
    // Bytes of one 128-row band: 512 per 4 scale columns.
    OpFoldResult bandBytes =
        apply(b, loc,
              d0.ceilDiv(block).ceilDiv(::mxq::kSwizzleTileCols) *
                  ::mxq::kSwizzleTileBytes,
              {tensor::getMixedSize(b, loc, data, axis)});
    sOff.resize(rank - 2);
    sSize.resize(rank - 2);
    sOff.push_back(apply(b, loc, d0 * d1, {offsets[rowDim], bandBytes}));
    sSize.push_back(apply(b, loc, d0 * d1, {sizes[rowDim], bandBytes}));
    return;
  }
  }
}

/// The tile of an NVFP4 outer scale for the element tile (`eOff`, `eSize`):
/// a per-line one sliced like the data without `axis` (the slice added to
/// `slices`), a rank-0 one (or none) as it is.
Value outerTile(OpBuilder &b, Location loc, Value outer, int64_t axis,
                ArrayRef<OpFoldResult> eOff, ArrayRef<OpFoldResult> eSize,
                SmallVector<Operation *> &slices) {
  if (!outer || cast<RankedTensorType>(outer.getType()).getRank() == 0)
    return outer;
  SmallVector<OpFoldResult> oOff(eOff), oSize(eSize);
  oOff.erase(oOff.begin() + axis);
  oSize.erase(oSize.begin() + axis);
  Value tile = slice(b, loc, outer, oOff, oSize);
  slices.push_back(tile.getDefiningOp());
  return tile;
}

/// The scales type of a quantized tile of `dataType`.
RankedTensorType scalesTypeFor(RankedTensorType dataType, int64_t axis,
                               int64_t block, ScaleLayout layout, Type elt) {
  std::vector<int64_t> shape(dataType.getShape().begin(),
                             dataType.getShape().end()),
      scales;
  std::string error;
  ::mxq::scaleShape(shape, axis, block, toSupport(layout), scales, error);
  return RankedTensorType::get(scales, elt);
}

/// `type` with the dimensions that `sizes` knows statically.
RankedTensorType refine(RankedTensorType type, ArrayRef<OpFoldResult> sizes) {
  SmallVector<int64_t> shape(type.getShape());
  for (auto [d, s] : llvm::enumerate(sizes))
    if (auto c = getConstantIntValue(s); c && ShapedType::isDynamic(shape[d]))
      shape[d] = *c;
  return type.clone(shape);
}

SmallVector<utils::IteratorType> allParallel(int64_t rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}

} // namespace

//===----------------------------------------------------------------------===//
// quantize
//===----------------------------------------------------------------------===//

SmallVector<utils::IteratorType> QuantizeOp::getLoopIteratorTypes() {
  return allParallel(getInput().getType().getRank());
}

SmallVector<Range> QuantizeOp::getIterationDomain(OpBuilder &b) {
  return domainOf(b, getLoc(), getInput(),
                  blockUnits(getInput().getType().getRank(), getAxis(),
                             getBlockSize(), getScaleLayout()));
}

FailureOr<TilingResult>
QuantizeOp::getTiledImplementation(OpBuilder &b, ArrayRef<OpFoldResult> offsets,
                                   ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  SmallVector<int64_t> units = blockUnits(
      getInput().getType().getRank(), getAxis(), getBlockSize(),
      getScaleLayout());
  SmallVector<OpFoldResult> eOff, eSize;
  elementTile(b, loc, getInput(), units, offsets, sizes, eOff, eSize);
  Value in = slice(b, loc, getInput(), eOff, eSize);
  auto inType = cast<RankedTensorType>(in.getType());
  Type codesType = inType.clone(getCodes().getType().getElementType());
  // The scales tile has the sizes its insertion will use (static where the
  // tile sizes are), which refines the shape the slice alone would give.
  SmallVector<OpFoldResult> sOff, sSize;
  scaleTile(b, loc, getInput(), getAxis(), getBlockSize(), getScaleLayout(),
            offsets, sizes, sOff, sSize);
  Type scalesType = refine(
      scalesTypeFor(inType, getAxis(), getBlockSize(), getScaleLayout(),
                    getScales().getType().getElementType()),
      sSize);
  // A per-line outer scale is sliced like the input without the axis; a
  // rank-0 one is the whole tensor's.
  SmallVector<Operation *> slices{in.getDefiningOp()};
  Value outer = outerTile(b, loc, getOuter(), getAxis(), eOff, eSize, slices);
  auto tiled = QuantizeOp::create(
      b, loc, codesType, scalesType, in, outer, getAxis(), getBlockSize(),
      getScaleAlgorithm(), getInfPolicy(), getRounding(), getNanElement(),
      getScaleLayout(), getUnderflow(), getProduct(), getAmaxFloorAttr(),
      getPow2(), getDivision());
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()),
                      slices};
}

LogicalResult QuantizeOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  SmallVector<int64_t> units = blockUnits(
      getInput().getType().getRank(), getAxis(), getBlockSize(),
      getScaleLayout());
  if (resultNumber == 0) {
    elementTile(b, getLoc(), getInput(), units, offsets, sizes, resultOffsets,
                resultSizes);
    return success();
  }
  scaleTile(b, getLoc(), getInput(), getAxis(), getBlockSize(),
            getScaleLayout(), offsets, sizes, resultOffsets, resultSizes);
  return success();
}

//===----------------------------------------------------------------------===//
// dequantize
//===----------------------------------------------------------------------===//

SmallVector<utils::IteratorType> DequantizeOp::getLoopIteratorTypes() {
  return allParallel(getCodes().getType().getRank());
}

SmallVector<Range> DequantizeOp::getIterationDomain(OpBuilder &b) {
  return domainOf(b, getLoc(), getCodes(),
                  blockUnits(getCodes().getType().getRank(), getAxis(),
                             getBlockSize(), getScaleLayout()));
}

FailureOr<TilingResult>
DequantizeOp::getTiledImplementation(OpBuilder &b,
                                     ArrayRef<OpFoldResult> offsets,
                                     ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  SmallVector<int64_t> units = blockUnits(
      getCodes().getType().getRank(), getAxis(), getBlockSize(),
      getScaleLayout());
  SmallVector<OpFoldResult> eOff, eSize, sOff, sSize;
  elementTile(b, loc, getCodes(), units, offsets, sizes, eOff, eSize);
  scaleTile(b, loc, getCodes(), getAxis(), getBlockSize(), getScaleLayout(),
            offsets, sizes, sOff, sSize);
  Value codes = slice(b, loc, getCodes(), eOff, eSize);
  Value scales = slice(b, loc, getScales(), sOff, sSize);
  Type resultType = cast<RankedTensorType>(codes.getType())
                        .clone(getResult().getType().getElementType());
  SmallVector<Operation *> slices{codes.getDefiningOp(),
                                  scales.getDefiningOp()};
  Value outer = outerTile(b, loc, getOuter(), getAxis(), eOff, eSize, slices);
  auto tiled = DequantizeOp::create(b, loc, resultType, codes, scales, outer,
                                    getAxis(), getBlockSize(),
                                    getScaleAlgorithmAttr(), getScaleLayout(),
                                    getCast());
  return TilingResult{{tiled}, {tiled.getResult()}, slices};
}

LogicalResult DequantizeOp::getResultTilePosition(
    OpBuilder &b, unsigned, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  elementTile(b, getLoc(), getCodes(),
              blockUnits(getCodes().getType().getRank(), getAxis(),
                         getBlockSize(), getScaleLayout()),
              offsets, sizes, resultOffsets, resultSizes);
  return success();
}

//===----------------------------------------------------------------------===//
// dual_quantize: batch axes only
//===----------------------------------------------------------------------===//

static SmallVector<int64_t> dualUnits(int64_t rank) {
  SmallVector<int64_t> units(rank, 1);
  units[rank - 1] = units[rank - 2] = 0;
  return units;
}

SmallVector<utils::IteratorType> DualQuantizeOp::getLoopIteratorTypes() {
  return allParallel(getInput().getType().getRank());
}

SmallVector<Range> DualQuantizeOp::getIterationDomain(OpBuilder &b) {
  return domainOf(b, getLoc(), getInput(),
                  dualUnits(getInput().getType().getRank()));
}

FailureOr<TilingResult>
DualQuantizeOp::getTiledImplementation(OpBuilder &b,
                                       ArrayRef<OpFoldResult> offsets,
                                       ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  int64_t rank = getInput().getType().getRank();
  SmallVector<OpFoldResult> eOff, eSize;
  elementTile(b, loc, getInput(), dualUnits(rank), offsets, sizes, eOff,
              eSize);
  Value in = slice(b, loc, getInput(), eOff, eSize);
  auto inType = cast<RankedTensorType>(in.getType());
  Type codeElt = getCodes0().getType().getElementType();
  Type scaleElt = getScales0().getType().getElementType();
  SmallVector<int64_t> tShape(inType.getShape());
  std::swap(tShape[rank - 1], tShape[rank - 2]);
  auto tiled = DualQuantizeOp::create(
      b, loc, inType.clone(codeElt),
      scalesTypeFor(inType, rank - 1, 32, ScaleLayout::swizzle_32_4_4,
                    scaleElt),
      RankedTensorType::get(tShape, codeElt),
      scalesTypeFor(inType, rank - 2, 32, ScaleLayout::swizzle_32_4_4,
                    scaleElt),
      in, getScaleAlgorithm(), getInfPolicy(), getRounding(),
      getNanElement(), getUnderflow());
  return TilingResult{{tiled},
                      SmallVector<Value>(tiled->getResults()),
                      {in.getDefiningOp()}};
}

LogicalResult DualQuantizeOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  int64_t rank = getInput().getType().getRank();
  Value result = getOperation()->getResult(resultNumber);
  auto type = cast<RankedTensorType>(result.getType());
  resultOffsets.assign(offsets.begin(), offsets.begin() + rank - 2);
  resultSizes.assign(sizes.begin(), sizes.begin() + rank - 2);
  // The unsplit axes: everything. Their sizes come from the input.
  SmallVector<OpFoldResult> full;
  if (resultNumber == 0 || resultNumber == 2) {
    OpFoldResult m = tensor::getMixedSize(b, getLoc(), getInput(), rank - 2);
    OpFoldResult k = tensor::getMixedSize(b, getLoc(), getInput(), rank - 1);
    full = resultNumber == 0 ? SmallVector<OpFoldResult>{m, k}
                             : SmallVector<OpFoldResult>{k, m};
  } else {
    ReifiedRankedShapedTypeDims dims;
    if (failed(reifyResultShapes(b, dims)))
      return failure();
    full.push_back(dims[resultNumber].back());
  }
  for (OpFoldResult f : full) {
    resultOffsets.push_back(b.getIndexAttr(0));
    resultSizes.push_back(f);
  }
  (void)type;
  return success();
}

//===----------------------------------------------------------------------===//
// two_level_quantize: the last axis in level-0 blocks
//===----------------------------------------------------------------------===//

static SmallVector<int64_t> twoLevelUnits(int64_t rank) {
  SmallVector<int64_t> units(rank, 1);
  units[rank - 1] = ::mxq::kTwoLevelBlock0;
  return units;
}

SmallVector<utils::IteratorType> TwoLevelQuantizeOp::getLoopIteratorTypes() {
  return allParallel(getInput().getType().getRank());
}

SmallVector<Range> TwoLevelQuantizeOp::getIterationDomain(OpBuilder &b) {
  return domainOf(b, getLoc(), getInput(),
                  twoLevelUnits(getInput().getType().getRank()));
}

/// Level-1 pairs per level-0 block.
static constexpr int64_t kPairsPerLevel0 =
    ::mxq::kTwoLevelBlock0 / (2 * ::mxq::kTwoLevelBlock1);

FailureOr<TilingResult>
TwoLevelQuantizeOp::getTiledImplementation(OpBuilder &b,
                                           ArrayRef<OpFoldResult> offsets,
                                           ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  int64_t rank = getInput().getType().getRank();
  SmallVector<OpFoldResult> eOff, eSize;
  elementTile(b, loc, getInput(), twoLevelUnits(rank), offsets, sizes, eOff,
              eSize);
  Value in = slice(b, loc, getInput(), eOff, eSize);
  SmallVector<Operation *> slices{in.getDefiningOp()};
  Value smooth;
  if (getSmooth()) {
    smooth = slice(b, loc, getSmooth(), {eOff.back()}, {eSize.back()});
    slices.push_back(smooth.getDefiningOp());
  }
  auto inType = cast<RankedTensorType>(in.getType());
  SmallVector<int64_t> l0(inType.getShape());
  l0.back() = ShapedType::isDynamic(l0.back())
                  ? l0.back()
                  : ::mxq::ceilDiv(l0.back(), ::mxq::kTwoLevelBlock0);
  SmallVector<OpFoldResult> pOff, l0Size, l1Size;
  (void)getResultTilePosition(b, 1, offsets, sizes, pOff, l0Size);
  (void)getResultTilePosition(b, 2, offsets, sizes, pOff, l1Size);
  auto tiled = TwoLevelQuantizeOp::create(
      b, loc, inType.clone(getY().getType().getElementType()),
      refine(RankedTensorType::get(l0, b.getF32Type()), l0Size),
      refine(scalesTypeFor(inType, rank - 1, ::mxq::kTwoLevelBlock1,
                           ScaleLayout::pairs,
                           getLevel1Scales().getType().getElementType()),
             l1Size),
      in, smooth, getRounding(), getNanElement(), getDivDenormals());
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()), slices};
}

LogicalResult TwoLevelQuantizeOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  int64_t rank = getInput().getType().getRank();
  if (resultNumber == 0) {
    elementTile(b, getLoc(), getInput(), twoLevelUnits(rank), offsets, sizes,
                resultOffsets, resultSizes);
    return success();
  }
  resultOffsets.assign(offsets.begin(), offsets.end());
  resultSizes.assign(sizes.begin(), sizes.end());
  if (resultNumber == 1)
    return success();
  // level-1 pairs: 8 per level-0 block; the last tile has what is left.
  AffineExpr d0, d1, d2;
  bindDims(b.getContext(), d0, d1, d2);
  OpFoldResult n = tensor::getMixedSize(b, getLoc(), getInput(), rank - 1);
  resultOffsets.back() =
      apply(b, getLoc(), d0 * kPairsPerLevel0, {offsets.back()});
  AffineMap minMap = AffineMap::get(
      3, 0,
      {d1 * kPairsPerLevel0,
       d2.ceilDiv(2 * ::mxq::kTwoLevelBlock1) - d0 * kPairsPerLevel0},
      b.getContext());
  resultSizes.back() = affine::makeComposedFoldedAffineMin(
      b, getLoc(), minMap, {offsets.back(), sizes.back(), n});
  resultOffsets.push_back(b.getIndexAttr(0));
  resultSizes.push_back(b.getIndexAttr(2));
  return success();
}

//===----------------------------------------------------------------------===//
// fake_quant, fake_quant_grad: element-wise
//===----------------------------------------------------------------------===//

/// The parameter tile: per-tensor parameters whole, per-channel ones along
/// `axis`.
static Value paramTile(OpBuilder &b, Location loc, Value param,
                       std::optional<int64_t> axis,
                       ArrayRef<OpFoldResult> offsets,
                       ArrayRef<OpFoldResult> sizes) {
  if (!axis)
    return param;
  return slice(b, loc, param, {offsets[*axis]}, {sizes[*axis]});
}

/// The domain of an element-wise op: every element of `input`.
static SmallVector<Range> elementDomain(OpBuilder &b, Location loc,
                                        Value input) {
  int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
  return domainOf(b, loc, input, SmallVector<int64_t>(rank, 1));
}

/// The result tile of an element-wise op is the iteration tile.
static LogicalResult sameTile(ArrayRef<OpFoldResult> offsets,
                              ArrayRef<OpFoldResult> sizes,
                              SmallVector<OpFoldResult> &resultOffsets,
                              SmallVector<OpFoldResult> &resultSizes) {
  resultOffsets.assign(offsets.begin(), offsets.end());
  resultSizes.assign(sizes.begin(), sizes.end());
  return success();
}

/// The slices a tiled op reads: `data` slices and the per-channel parameter
/// slices (per-tensor parameters are used whole).
static SmallVector<Operation *> sliceOps(ArrayRef<Value> data,
                                         ArrayRef<Value> params) {
  SmallVector<Operation *> ops;
  for (Value v : data)
    ops.push_back(v.getDefiningOp());
  for (Value v : params)
    if (Operation *def = v.getDefiningOp())
      if (isa<tensor::ExtractSliceOp>(def))
        ops.push_back(def);
  return ops;
}

SmallVector<utils::IteratorType> FakeQuantOp::getLoopIteratorTypes() {
  return allParallel(getInput().getType().getRank());
}

SmallVector<Range> FakeQuantOp::getIterationDomain(OpBuilder &b) {
  return elementDomain(b, getLoc(), getInput());
}

FailureOr<TilingResult>
FakeQuantOp::getTiledImplementation(OpBuilder &b,
                                    ArrayRef<OpFoldResult> offsets,
                                    ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  Value in = slice(b, loc, getInput(), offsets, sizes);
  Value step = paramTile(b, loc, getStepSize(), getAxis(), offsets, sizes);
  Value zp = paramTile(b, loc, getZeroPoint(), getAxis(), offsets, sizes);
  auto tiled = FakeQuantOp::create(b, loc, in.getType(), in, step, zp,
                                   getFormatAttr(), getQuantMinAttr(),
                                   getQuantMaxAttr(), getAxisAttr());
  return TilingResult{{tiled}, {tiled.getResult()}, sliceOps({in}, {step, zp})};
}

LogicalResult FakeQuantOp::getResultTilePosition(
    OpBuilder &, unsigned, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  return sameTile(offsets, sizes, resultOffsets, resultSizes);
}

SmallVector<utils::IteratorType> FakeQuantGradOp::getLoopIteratorTypes() {
  return allParallel(getInput().getType().getRank());
}

SmallVector<Range> FakeQuantGradOp::getIterationDomain(OpBuilder &b) {
  return elementDomain(b, getLoc(), getInput());
}

FailureOr<TilingResult>
FakeQuantGradOp::getTiledImplementation(OpBuilder &b,
                                        ArrayRef<OpFoldResult> offsets,
                                        ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  Value grad = slice(b, loc, getGrad(), offsets, sizes);
  Value in = slice(b, loc, getInput(), offsets, sizes);
  Value step = paramTile(b, loc, getStepSize(), getAxis(), offsets, sizes);
  auto tiled = FakeQuantGradOp::create(b, loc, in.getType(), grad, in, step,
                                       getQuantMinAttr(), getQuantMaxAttr(),
                                       getAxisAttr());
  return TilingResult{
      {tiled}, {tiled.getResult()}, sliceOps({grad, in}, {step})};
}

LogicalResult FakeQuantGradOp::getResultTilePosition(
    OpBuilder &, unsigned, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  return sameTile(offsets, sizes, resultOffsets, resultSizes);
}
