//===- MXQOps.cpp - mxq operations: verifiers and shape reification -------===//
//
// Every verifier message is a sentence that says what was expected, what was
// found, and which constraint (C<n> in the op description) it enforces.
//
//===----------------------------------------------------------------------===//
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Dialect/MXQ/AttributeSpace.h"
#include "mxq/Support/ScaleLayout.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mxq;

//===----------------------------------------------------------------------===//
// Shared verification helpers
//===----------------------------------------------------------------------===//

static std::string shapeStr(ArrayRef<int64_t> shape) {
  return ::mxq::shapeToString(std::vector<int64_t>(shape.begin(), shape.end()));
}

/// Two shapes agree where both are known.
static bool compatible(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b))
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return false;
  return true;
}

static std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// A float as a person writes it (448, not 4.480000e+02).
static std::string num(float v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%g", static_cast<double>(v));
  return s;
}

static LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank,
                                StringRef operand) {
  if (axis < 0 || axis >= rank)
    return op->emitOpError() << "expects 0 <= axis < " << rank << " for the "
                             << rank << "-d " << operand << ", but axis is "
                             << axis << " (C1)";
  return success();
}

static LogicalResult verifyBlockSize(Operation *op, int64_t block) {
  const AttributeSpace &space = attributeSpace();
  if (!space.isValidBlock(block))
    return op->emitOpError()
           << "expects block_size to be " << space.smallBlock
           << " or a positive multiple of " << space.blockQuantum
           << " no larger than " << space.maxBlock << ", but it is " << block
           << " (C2)";
  return success();
}

static LogicalResult verifySameShape(Operation *op, RankedTensorType expected,
                                     RankedTensorType found, StringRef what,
                                     StringRef of, StringRef id) {
  if (!compatible(expected.getShape(), found.getShape()))
    return op->emitOpError()
           << "expects " << what << " to have the shape of " << of << ", "
           << shapeStr(expected.getShape()) << ", but found "
           << shapeStr(found.getShape()) << " (" << id << ")";
  return success();
}

/// Checks that `scales` has the shape `layout` gives for `data`.
static LogicalResult verifyScaleShape(Operation *op, ArrayRef<int64_t> data,
                                      int64_t axis, int64_t block,
                                      ScaleLayout layout,
                                      RankedTensorType scales,
                                      StringRef scalesName, StringRef shapeId,
                                      StringRef layoutId) {
  std::vector<int64_t> expected;
  std::string error;
  if (!::mxq::scaleShape(std::vector<int64_t>(data.begin(), data.end()), axis,
                         block, toSupport(layout), expected, error))
    return op->emitOpError() << error << "; the input has rank " << data.size()
                             << " and axis is " << axis << " (" << layoutId
                             << ")";
  if (!compatible(expected, scales.getShape()))
    return op->emitOpError()
           << "expects " << scalesName << " of shape " << shapeStr(expected)
           << " (scale layout " << stringifyScaleLayout(layout) << ", axis "
           << axis << ", block " << block << "), but found "
           << shapeStr(scales.getShape()) << " (" << shapeId << ")";
  return success();
}

/// An NVFP4 outer scale: rank 0 (per tensor) or the shape of `data` without
/// `axis` (per line).
static LogicalResult verifyOuterShape(Operation *op, Value outer,
                                      ArrayRef<int64_t> data, int64_t axis,
                                      StringRef dataName, StringRef id) {
  auto outerType = cast<RankedTensorType>(outer.getType());
  SmallVector<int64_t> line(data);
  line.erase(line.begin() + axis);
  if (outerType.getRank() == 0 || compatible(line, outerType.getShape()))
    return success();
  return op->emitOpError()
         << "expects the outer scale to be a rank-0 tensor or to have the "
            "shape of the "
         << dataName << " without axis " << axis << ", " << shapeStr(line)
         << ", but found " << shapeStr(outerType.getShape()) << " (" << id
         << ")";
}

/// The rules shared by every op that computes E8M0 scales and codes.
static LogicalResult verifyPolicies(Operation *op, ScaleAlgorithm algorithm,
                                    InfPolicy inf, Rounding rounding,
                                    Underflow underflow, Type codeType,
                                    StringRef infId, StringRef roundingId,
                                    StringRef underflowId) {
  if (inf == InfPolicy::exponent && algorithm != ScaleAlgorithm::floor)
    return op->emitOpError()
           << "expects scale_algorithm floor with inf_policy exponent (an "
              "infinity follows the floor exponent path), but scale_algorithm "
              "is "
           << stringifyScaleAlgorithm(algorithm) << " (" << infId << ")";
  auto format = getElementFormat(codeType);
  if (rounding != Rounding::rne && format != ::mxq::ElementFormat::E2M1FN)
    return op->emitOpError()
           << "expects f4E2M1FN codes with rounding "
           << stringifyRounding(rounding)
           << " (only the CANN FP4 casts offer it), but the codes are "
           << typeStr(codeType) << " (" << roundingId << ")";
  if (underflow != Underflow::keep && algorithm != ScaleAlgorithm::floor)
    return op->emitOpError()
           << "expects scale_algorithm floor with underflow "
           << stringifyUnderflow(underflow)
           << " (the rule is about the floor scale's clamped exponent), but "
              "scale_algorithm is "
           << stringifyScaleAlgorithm(algorithm) << " (" << underflowId << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Shared reification helpers
//===----------------------------------------------------------------------===//

static OpFoldResult ceilDivBy(OpBuilder &b, Location loc, OpFoldResult v,
                              int64_t d) {
  if (auto c = getConstantIntValue(v))
    return b.getIndexAttr(::mxq::ceilDiv(*c, d));
  Value divisor = arith::ConstantIndexOp::create(b, loc, d);
  return arith::CeilDivSIOp::create(b, loc, cast<Value>(v), divisor)
      .getResult();
}

static OpFoldResult mulOf(OpBuilder &b, Location loc, OpFoldResult x,
                          OpFoldResult y) {
  auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(*cx * *cy);
  auto val = [&](OpFoldResult v) -> Value {
    if (auto c = getConstantIntValue(v))
      return arith::ConstantIndexOp::create(b, loc, *c);
    return cast<Value>(v);
  };
  return arith::MulIOp::create(b, loc, val(x), val(y)).getResult();
}

/// The sizes of the scales of `input` (mirrors ::mxq::scaleShape).
static SmallVector<OpFoldResult> reifyScaleSizes(OpBuilder &b, Location loc,
                                                 Value input, int64_t axis,
                                                 int64_t block,
                                                 ScaleLayout layout) {
  SmallVector<OpFoldResult> dims = tensor::getMixedSizes(b, loc, input);
  int64_t rank = dims.size();
  switch (layout) {
  case ScaleLayout::linear:
    dims[axis] = ceilDivBy(b, loc, dims[axis], block);
    return dims;
  case ScaleLayout::pairs:
    dims[axis] = ceilDivBy(b, loc, ceilDivBy(b, loc, dims[axis], block), 2);
    dims.push_back(b.getIndexAttr(2));
    return dims;
  case ScaleLayout::swizzle_32_4_4: {
    int64_t rowDim = axis == rank - 1 ? rank - 2 : rank - 1;
    OpFoldResult bands =
        ceilDivBy(b, loc, dims[rowDim], ::mxq::kSwizzleTileRows);
    OpFoldResult tiles = ceilDivBy(
        b, loc, ceilDivBy(b, loc, dims[axis], block), ::mxq::kSwizzleTileCols);
    OpFoldResult bytes =
        mulOf(b, loc, b.getIndexAttr(::mxq::kSwizzleTileBytes),
              mulOf(b, loc, bands, tiles));
    SmallVector<OpFoldResult> result(dims.begin(), dims.end() - 2);
    result.push_back(bytes);
    return result;
  }
  }
  llvm_unreachable("unknown scale layout");
}

//===----------------------------------------------------------------------===//
// QuantizeOp
//===----------------------------------------------------------------------===//

LogicalResult QuantizeOp::verify() {
  auto inputType = getInput().getType();
  int64_t axis = getAxis();
  if (failed(verifyAxis(*this, axis, inputType.getRank(), "input")) ||
      failed(verifyBlockSize(*this, getBlockSize())) ||
      failed(verifySameShape(*this, inputType, getCodes().getType(),
                             "the codes", "the input", "C3")) ||
      failed(verifyScaleShape(*this, inputType.getShape(), axis,
                              getBlockSize(), getScaleLayout(),
                              getScales().getType(), "the scales", "C4",
                              "C5")))
    return failure();
  if (failed(verifyPolicies(*this, getScaleAlgorithm(), getInfPolicy(),
                            getRounding(), getUnderflow(),
                            getCodes().getType().getElementType(), "C6", "C7",
                            "C8")))
    return failure();
  // NVFP4 (E4M3 scales) and blockwise FP8 (f32 scales): scales stored as
  // values, by their conventions.
  Type scaleElt = getScales().getType().getElementType();
  bool e4m3Scales = isa<Float8E4M3FNType>(scaleElt);
  bool f32Scales = scaleElt.isF32();
  bool convention = ::mxq::isE4M3Scale(toSupport(getScaleAlgorithm()));
  bool nvfp4 = convention && e4m3Scales;
  if (f32Scales) {
    if (!convention)
      return emitOpError()
             << "expects scale_algorithm encode or decode with f32 scales "
                "(blockwise FP8), but it is "
             << stringifyScaleAlgorithm(getScaleAlgorithm()) << " (C11)";
    Type codeElt = getCodes().getType().getElementType();
    if (!isa<Float8E4M3FNType, Float8E5M2Type>(codeElt))
      return emitOpError() << "expects FP8 codes (f8E4M3FN, f8E5M2) with f32 "
                              "scales, but the codes are "
                           << typeStr(codeElt) << " (C11)";
    if (getScaleLayout() != ScaleLayout::linear)
      return emitOpError() << "expects the linear layout with f32 scales, "
                              "but it is "
                           << stringifyScaleLayout(getScaleLayout())
                           << " (C11)";
  } else if (e4m3Scales != convention) {
    return emitOpError()
           << "expects f8E4M3FN or f32 scales with scale_algorithm encode or "
              "decode and f8E8M0FNU scales with the others, but the scales "
              "are "
           << typeStr(scaleElt) << " and scale_algorithm is "
           << stringifyScaleAlgorithm(getScaleAlgorithm()) << " (C9)";
  }
  if (!f32Scales) {
    StringRef given = getAmaxFloor()  ? "amax_floor"
                      : getPow2()     ? "pow2"
                      : getDivision() != Division::exact ? "division"
                                                          : "";
    if (!given.empty())
      return emitOpError() << "expects " << given
                           << " only with f32 scales (blockwise FP8), but the "
                              "scales are "
                           << typeStr(scaleElt) << " (C11)";
  } else {
    if (getDivision() == Division::reciprocal &&
        getScaleAlgorithm() != ScaleAlgorithm::decode)
      return emitOpError() << "expects division = reciprocal only with "
                              "scale_algorithm decode (encode divides "
                              "exactly, as TransformerEngine does) (C11)";
    if (FloatAttr floor = getAmaxFloorAttr()) {
      APFloat f = floor.getValue();
      if (!f.isFinite() || f.isNegative())
        return emitOpError() << "expects amax_floor finite and >= 0, but it "
                                "is "
                             << f.convertToFloat() << " (C11)";
    }
  }
  if (convention && (nvfp4 || f32Scales)) {
    Type codeElt = getCodes().getType().getElementType();
    if (nvfp4 && !isa<Float4E2M1FNType>(codeElt))
      return emitOpError() << "expects f4E2M1FN codes with E4M3 scales "
                              "(NVFP4), but the codes are "
                           << typeStr(codeElt) << " (C9)";
    if (nvfp4 && getBlockSize() != ::mxq::kNVFP4Block)
      return emitOpError() << "expects block_size " << ::mxq::kNVFP4Block
                           << " with E4M3 scales (NVFP4), but it is "
                           << getBlockSize() << " (C9)";
    auto nonDefault = [&]() -> StringRef {
      if (getInfPolicy() != InfPolicy::nan)
        return "inf_policy";
      if (getRounding() != Rounding::rne)
        return "rounding";
      if (getUnderflow() != Underflow::keep)
        return "underflow";
      if (getProduct() != Product::f32)
        return "product";
      return "";
    }();
    if (!nonDefault.empty())
      return emitOpError()
             << "expects the default " << nonDefault << " with scale_algorithm "
             << stringifyScaleAlgorithm(getScaleAlgorithm())
             << " (the conventions of stored scales state that step "
                "themselves) ("
             << (nvfp4 ? "C9" : "C11") << ")";
  }
  if (Value outer = getOuter()) {
    if (!nvfp4)
      return emitOpError() << "expects no outer scale with scale_algorithm "
                           << stringifyScaleAlgorithm(getScaleAlgorithm())
                           << " and " << typeStr(scaleElt)
                           << " scales (only NVFP4's encode and decode take "
                              "one) (C10)";
    if (failed(verifyOuterShape(*this, outer, inputType.getShape(), axis,
                                "input", "C10")))
      return failure();
  }
  return success();
}

LogicalResult
QuantizeOp::reifyResultShapes(OpBuilder &b,
                              ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(tensor::getMixedSizes(b, getLoc(), getInput()));
  shapes.push_back(reifyScaleSizes(b, getLoc(), getInput(), getAxis(),
                                   getBlockSize(), getScaleLayout()));
  return success();
}

//===----------------------------------------------------------------------===//
// DequantizeOp
//===----------------------------------------------------------------------===//

LogicalResult DequantizeOp::verify() {
  auto codesType = getCodes().getType();
  int64_t axis = getAxis();
  if (failed(verifyAxis(*this, axis, codesType.getRank(), "codes")) ||
      failed(verifyBlockSize(*this, getBlockSize())) ||
      failed(verifySameShape(*this, codesType, getResult().getType(),
                             "the result", "the codes", "C3")))
    return failure();
  if (failed(verifyScaleShape(*this, codesType.getShape(), axis,
                              getBlockSize(), getScaleLayout(),
                              getScales().getType(), "the scales", "C4",
                              "C5")))
    return failure();
  // NVFP4: E4M3 scales and the convention that made them.
  Type scaleElt = getScales().getType().getElementType();
  bool e4m3Scales = isa<Float8E4M3FNType>(scaleElt);
  std::optional<ScaleAlgorithm> rule = getScaleAlgorithm();
  bool nvfp4 = rule && ::mxq::isE4M3Scale(toSupport(*rule));
  if (scaleElt.isF32()) {
    // Blockwise FP8: the stored fp32 scale multiplies.
    Type codeElt = codesType.getElementType();
    if (rule)
      return emitOpError() << "expects no scale word with f32 scales (the "
                              "stored value multiplies), but it is "
                           << stringifyScaleAlgorithm(*rule) << " (C6)";
    if (!isa<Float8E4M3FNType, Float8E5M2Type>(codeElt) ||
        getScaleLayout() != ScaleLayout::linear)
      return emitOpError() << "expects FP8 codes and the linear layout with "
                              "f32 scales, but the codes are "
                           << typeStr(codeElt) << " and the layout "
                           << stringifyScaleLayout(getScaleLayout()) << " (C8)";
    if (getOuter())
      return emitOpError() << "expects no outer scale with f32 scales (C7)";
    return success();
  }
  if (e4m3Scales != nvfp4 || (rule && !nvfp4))
    return emitOpError()
           << "expects f8E4M3FN scales with scale encode or decode and "
              "f8E8M0FNU scales with no scale word, but the scales are "
           << typeStr(scaleElt) << " and the scale word is "
           << (rule ? stringifyScaleAlgorithm(*rule) : StringRef("absent"))
           << " (C6)";
  if (nvfp4) {
    Type codeElt = codesType.getElementType();
    if (!isa<Float4E2M1FNType>(codeElt) ||
        getBlockSize() != ::mxq::kNVFP4Block)
      return emitOpError() << "expects f4E2M1FN codes in blocks of "
                           << ::mxq::kNVFP4Block
                           << " with E4M3 scales (NVFP4), but the codes are "
                           << typeStr(codeElt) << " in blocks of "
                           << getBlockSize() << " (C6)";
  }
  Value outer = getOuter();
  if (outer && !nvfp4)
    return emitOpError() << "expects no outer scale without scale encode or "
                            "decode (C7)";
  if (!outer && rule == ScaleAlgorithm::encode)
    return emitOpError() << "expects the outer scale (the amax "
                            "TransformerEngine stores) with scale encode (C7)";
  if (outer)
    return verifyOuterShape(*this, outer, codesType.getShape(), axis, "codes",
                            "C7");
  return success();
}

LogicalResult
DequantizeOp::reifyResultShapes(OpBuilder &b,
                                ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(tensor::getMixedSizes(b, getLoc(), getCodes()));
  return success();
}

//===----------------------------------------------------------------------===//
// ConvertScaleLayoutOp
//===----------------------------------------------------------------------===//

LogicalResult ConvertScaleLayoutOp::verify() {
  auto codesType = getCodes().getType();
  int64_t axis = getAxis();
  if (failed(verifyAxis(*this, axis, codesType.getRank(), "codes")) ||
      failed(verifyBlockSize(*this, getBlockSize())) ||
      failed(verifyScaleShape(*this, codesType.getShape(), axis,
                              getBlockSize(), getFrom(),
                              getScales().getType(), "the scales", "C3",
                              "C5")))
    return failure();
  if (failed(verifyScaleShape(*this, codesType.getShape(), axis,
                              getBlockSize(), getTo(), getResult().getType(),
                              "the result", "C4", "C5")))
    return failure();
  Type from = getScales().getType().getElementType(),
       to = getResult().getType().getElementType();
  if (from != to)
    return emitOpError() << "expects the result to hold the scales' type, "
                         << typeStr(from) << ", but it holds " << typeStr(to)
                         << " (C6)";
  return success();
}

LogicalResult
ConvertScaleLayoutOp::reifyResultShapes(OpBuilder &b,
                                        ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(reifyScaleSizes(b, getLoc(), getCodes(), getAxis(),
                                   getBlockSize(), getTo()));
  return success();
}

//===----------------------------------------------------------------------===//
// DualQuantizeOp
//===----------------------------------------------------------------------===//

LogicalResult DualQuantizeOp::verify() {
  auto inputType = getInput().getType();
  int64_t rank = inputType.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError() << "expects an input of rank 2 ([M, K]) or 3 ([B, M, "
                            "K]), but the input has rank "
                         << rank << " (C1)";
  auto codes0 = getCodes0().getType(), codes1 = getCodes1().getType();
  SmallVector<int64_t> transposed(inputType.getShape());
  std::swap(transposed[rank - 1], transposed[rank - 2]);
  if (failed(verifySameShape(*this, inputType, codes0, "codes0", "the input",
                             "C2")))
    return failure();
  if (!compatible(transposed, codes1.getShape()))
    return emitOpError() << "expects codes1 to have the transposed shape of "
                            "the input, "
                         << shapeStr(transposed) << ", but found "
                         << shapeStr(codes1.getShape()) << " (C2)";
  if (codes0.getElementType() != codes1.getElementType())
    return emitOpError() << "expects codes0 and codes1 of one element type, "
                            "but found "
                         << typeStr(codes0.getElementType()) << " and "
                         << typeStr(codes1.getElementType()) << " (C2)";
  if (failed(verifyScaleShape(*this, inputType.getShape(), rank - 1, 32,
                              ScaleLayout::swizzle_32_4_4,
                              getScales0().getType(), "scales0", "C3", "C3")) ||
      failed(verifyScaleShape(*this, inputType.getShape(), rank - 2, 32,
                              ScaleLayout::swizzle_32_4_4,
                              getScales1().getType(), "scales1", "C3", "C3")))
    return failure();
  if (::mxq::isE4M3Scale(toSupport(getScaleAlgorithm())))
    return emitOpError() << "expects an E8M0 scale_algorithm (floor, rceil, "
                            "ceil, even), but it is "
                         << stringifyScaleAlgorithm(getScaleAlgorithm())
                         << " (NVFP4 is mxq.quantize's) (C8)";
  return verifyPolicies(*this, getScaleAlgorithm(), getInfPolicy(),
                        getRounding(), getUnderflow(),
                        codes0.getElementType(), "C4", "C5", "C7");
}

LogicalResult
DualQuantizeOp::reifyResultShapes(OpBuilder &b,
                                  ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  Value input = getInput();
  int64_t rank = getInput().getType().getRank();
  SmallVector<OpFoldResult> dims = tensor::getMixedSizes(b, loc, input);
  SmallVector<OpFoldResult> transposed = dims;
  std::swap(transposed[rank - 1], transposed[rank - 2]);
  shapes.push_back(dims);
  shapes.push_back(reifyScaleSizes(b, loc, input, rank - 1, 32,
                                   ScaleLayout::swizzle_32_4_4));
  shapes.push_back(transposed);
  shapes.push_back(reifyScaleSizes(b, loc, input, rank - 2, 32,
                                   ScaleLayout::swizzle_32_4_4));
  return success();
}

//===----------------------------------------------------------------------===//
// TwoLevelQuantizeOp
//===----------------------------------------------------------------------===//

using ::mxq::kTwoLevelBlock0;
using ::mxq::kTwoLevelBlock1;

LogicalResult TwoLevelQuantizeOp::verify() {
  auto inputType = getInput().getType();
  int64_t rank = inputType.getRank();
  if (rank < 1)
    return emitOpError() << "expects an input of rank 1 or more, but the input "
                            "is 0-d (C1)";
  int64_t n = inputType.getDimSize(rank - 1);
  if (!ShapedType::isDynamic(n) && n % 2 != 0)
    return emitOpError() << "expects an even last dimension (FP4 codes are "
                            "stored two per byte), but it is "
                         << n << " (C1)";
  if (Value smooth = getSmooth()) {
    auto smoothType = cast<RankedTensorType>(smooth.getType());
    if (smoothType.getElementType() != inputType.getElementType())
      return emitOpError() << "expects smooth to have the element type of the "
                              "input, "
                           << typeStr(inputType.getElementType())
                           << ", but found "
                           << typeStr(smoothType.getElementType()) << " (C2)";
    if (!compatible(smoothType.getShape(), {n}))
      return emitOpError() << "expects smooth of shape " << shapeStr({n})
                           << " (the last dimension of the input), but found "
                           << shapeStr(smoothType.getShape()) << " (C2)";
  }
  if (failed(verifySameShape(*this, inputType, getY().getType(), "y",
                             "the input", "C3")))
    return failure();
  SmallVector<int64_t> level0(inputType.getShape());
  level0.back() = ShapedType::isDynamic(n) ? n : ::mxq::ceilDiv(n, kTwoLevelBlock0);
  if (!compatible(level0, getLevel0Scales().getType().getShape()))
    return emitOpError() << "expects level0_scales of shape "
                         << shapeStr(level0)
                         << " (one fp32 scale per 512 elements), but found "
                         << shapeStr(getLevel0Scales().getType().getShape())
                         << " (C4)";
  return verifyScaleShape(*this, inputType.getShape(), rank - 1, kTwoLevelBlock1,
                          ScaleLayout::pairs, getLevel1Scales().getType(),
                          "level1_scales", "C5", "C5");
}

LogicalResult
TwoLevelQuantizeOp::reifyResultShapes(OpBuilder &b,
                                      ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  Value input = getInput();
  SmallVector<OpFoldResult> dims = tensor::getMixedSizes(b, loc, input);
  SmallVector<OpFoldResult> level0 = dims;
  level0.back() = ceilDivBy(b, loc, level0.back(), kTwoLevelBlock0);
  shapes.push_back(dims);
  shapes.push_back(level0);
  shapes.push_back(reifyScaleSizes(b, loc, input, dims.size() - 1,
                                   kTwoLevelBlock1, ScaleLayout::pairs));
  return success();
}

//===----------------------------------------------------------------------===//
// FakeQuantOp, FakeQuantGradOp
//===----------------------------------------------------------------------===//

/// (C2) - (C4) of fake_quant, shared with its gradient.
static LogicalResult verifyFakeQuantParams(Operation *op,
                                           RankedTensorType inputType,
                                           ArrayRef<Value> params,
                                           float quantMin, float quantMax,
                                           float formatMax,
                                           std::optional<int64_t> axis) {
  if (!std::isfinite(quantMin) || !std::isfinite(quantMax) ||
      !(quantMin < quantMax))
    return op->emitOpError() << "expects finite quant_min < quant_max, but "
                                "found quant_min = "
                             << num(quantMin) << " and quant_max = "
                             << num(quantMax)
                             << " (C2)";
  if (quantMin < -formatMax || quantMax > formatMax)
    return op->emitOpError()
           << "expects quant_min and quant_max within the finite range of the "
              "format, [-"
           << num(formatMax) << ", " << num(formatMax) << "], but found ["
           << num(quantMin) << ", " << num(quantMax) << "] (C2)";
  int64_t expected = 1;
  if (axis) {
    if (*axis < 0 || *axis >= inputType.getRank())
      return op->emitOpError()
             << "expects 0 <= axis < " << inputType.getRank() << " for the "
             << inputType.getRank() << "-d input, but axis is " << *axis
             << " (C4)";
    expected = inputType.getDimSize(*axis);
  }
  for (Value p : params) {
    int64_t size = cast<RankedTensorType>(p.getType()).getDimSize(0);
    if (!axis && !ShapedType::isDynamic(size) && size != 1)
      return op->emitOpError()
             << "expects per-tensor parameters of shape [1] without axis, but "
                "found a parameter of shape "
             << shapeStr({size}) << " (C3)";
    if (axis && !ShapedType::isDynamic(size) &&
        !ShapedType::isDynamic(expected) && size != expected)
      return op->emitOpError()
             << "expects per-channel parameters of shape "
             << shapeStr({expected}) << " (the size of axis " << *axis
             << "), but found a parameter of shape " << shapeStr({size})
             << " (C4)";
  }
  return success();
}

LogicalResult FakeQuantOp::verify() {
  Type format = getFormat();
  auto f = getElementFormat(format);
  if (!f || (*f != ::mxq::ElementFormat::E4M3FN &&
             *f != ::mxq::ElementFormat::E5M2))
    return emitOpError() << "expects format f8E4M3FN or f8E5M2, but found "
                         << typeStr(format) << " (C1)";
  return verifyFakeQuantParams(
      *this, getInput().getType(), {getStepSize(), getZeroPoint()},
      getQuantMin().convertToFloat(), getQuantMax().convertToFloat(),
      ::mxq::formatInfo(*f).maxFinite, getAxis());
}

LogicalResult
FakeQuantOp::reifyResultShapes(OpBuilder &b,
                               ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(tensor::getMixedSizes(b, getLoc(), getInput()));
  return success();
}

LogicalResult FakeQuantGradOp::verify() {
  return verifyFakeQuantParams(
      *this, getInput().getType(), {getStepSize()},
      getQuantMin().convertToFloat(), getQuantMax().convertToFloat(),
      std::numeric_limits<float>::max(), getAxis());
}

LogicalResult
FakeQuantGradOp::reifyResultShapes(OpBuilder &b,
                                   ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(tensor::getMixedSizes(b, getLoc(), getInput()));
  return success();
}

//===----------------------------------------------------------------------===//
// Stray attribute words
//===----------------------------------------------------------------------===//

// The custom<...Words>() directive sits just before attr-dict in every op's
// format. The optional `word = value` groups before it each take their own
// word; a bare word still left here is unknown or out of order, and gets
// a sentence that names it and the op's order, instead of the format's
// "expected ':'".
static ParseResult parseStrayWord(OpAsmParser &parser, StringRef op,
                                  ArrayRef<StringRef> order) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (failed(parser.parseOptionalKeyword(&word)))
    return success();
  std::string list = llvm::join(order, ", ");
  if (llvm::is_contained(order, word))
    return parser.emitError(loc)
           << "'" << word << "' is out of place: mxq." << op
           << " writes its attributes in the order " << list;
  return parser.emitError(loc)
         << "'" << word << "' is not an attribute of mxq." << op
         << "; its attributes are, in order: " << list;
}

// (The directive takes a ref of the op's first operand only because ODS
// wants an argument; it is not used.)
#define MXQ_WORDS(Name, op, ...)                                               \
  template <typename T>                                                        \
  static ParseResult parse##Name##Words(OpAsmParser &parser, const T &) {      \
    return parseStrayWord(parser, op, {__VA_ARGS__});                          \
  }                                                                            \
  template <typename T>                                                        \
  static void print##Name##Words(OpAsmPrinter &, Operation *, const T &) {}
MXQ_WORDS(Quantize, "quantize", "axis", "block", "scale", "inf", "rounding",
          "nan_element", "underflow", "product", "layout")
MXQ_WORDS(Dequantize, "dequantize", "axis", "block", "scale", "layout",
          "cast")
MXQ_WORDS(ConvertScaleLayout, "convert_scale_layout", "axis", "block", "from",
          "to")
MXQ_WORDS(DualQuantize, "dual_quantize", "scale", "inf", "rounding",
          "nan_element", "underflow")
MXQ_WORDS(TwoLevelQuantize, "two_level_quantize", "smooth", "rounding",
          "nan_element", "div_denormals")
MXQ_WORDS(FakeQuant, "fake_quant", "format", "quant_min", "quant_max", "axis")
MXQ_WORDS(FakeQuantGrad, "fake_quant_grad", "quant_min", "quant_max", "axis")
#undef MXQ_WORDS

#define GET_OP_CLASSES
#include "mxq/Dialect/MXQ/MXQOps.cpp.inc"
