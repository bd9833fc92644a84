//===- VTile.cpp - the vector-tile dialect: ops and verifiers -------------===//
#include "mxq/Target/Ascend/VTile.h"
#include "mxq/Target/Ascend/Chip.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>

using namespace mlir;
using namespace mxq::vtile;

#include "mxq/Target/Ascend/VTileDialect.cpp.inc"
#include "mxq/Target/Ascend/VTileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mxq/Target/Ascend/VTileAttrs.cpp.inc"

void VTileDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mxq/Target/Ascend/VTileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "mxq/Target/Ascend/VTileOps.cpp.inc"
      >();
}

namespace mxq::vtile {

unsigned laneBits(Type type) {
  if (auto i = dyn_cast<IntegerType>(type))
    return llvm::is_contained({8u, 16u, 32u}, i.getWidth()) ? i.getWidth() : 0;
  if (type.isBF16() || type.isF16())
    return 16;
  if (type.isF32())
    return 32;
  if (isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return 8;
  if (isa<Float4E2M1FNType>(type))
    return 4;
  return 0;
}

bool isGlobalMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  auto space = memref
                   ? dyn_cast_or_null<MemorySpaceAttr>(memref.getMemorySpace())
                   : MemorySpaceAttr();
  return space && space.getValue() == MemorySpace::gm;
}

static std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

bool checkCast(Type src, Type dst, RoundMode round, bool sat, const Chip &chip,
               std::string &why) {
  auto isInt = [](Type t) { return isa<IntegerType>(t) && laneBits(t); };
  auto isFP8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  std::string pair = typeStr(src) + " to " + typeStr(dst);
  auto needMX = [&]() {
    if (chip.mxCasts)
      return true;
    why = "chip " + chip.name + " has no cast from " + pair +
          " (no fp8/fp4 conversion instructions: MX needs integer code there)";
    return false;
  };
  auto modes = [&](std::initializer_list<RoundMode> allowed) {
    if (llvm::is_contained(allowed, round))
      return true;
    why = "the cast from " + pair + " has no round mode '" +
          stringifyRoundMode(round).str() + "'";
    return false;
  };
  auto needSat = [&]() {
    if (sat)
      return true;
    why = "the cast from " + pair + " is modelled only saturating ('sat')";
    return false;
  };
  if (isInt(src) && isInt(dst))
    return true;
  if ((src.isBF16() || src.isF16()) && dst.isF32())
    return true;
  // The vendor's Truncate<float, mode>: an integral value in the same type
  // (FP4's pre-rounding step). `none` is a copy.
  if (src.isF32() && dst.isF32())
    return modes({RoundMode::none, RoundMode::rint, RoundMode::round,
                  RoundMode::floor, RoundMode::ceil, RoundMode::trunc});
  if (src.isF32() && dst.isBF16())
    return modes({RoundMode::none, RoundMode::rint, RoundMode::round,
                  RoundMode::floor, RoundMode::ceil, RoundMode::trunc});
  if (src.isF32() && dst.isF16())
    return modes({RoundMode::none, RoundMode::rint});
  if (src.isF32() && isFP8(dst))
    return needMX() && modes({RoundMode::none, RoundMode::rint}) && needSat();
  if (src.isBF16() && isa<Float4E2M1FNType>(dst))
    return needMX() &&
           modes({RoundMode::none, RoundMode::rint, RoundMode::round,
                  RoundMode::floor}) &&
           needSat();
  if ((isFP8(src) && dst.isF32()) ||
      (isa<Float4E2M1FNType>(src) && dst.isBF16()))
    return needMX();
  why = "there is no cast from " + pair;
  return false;
}

} // namespace mxq::vtile

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

static std::optional<int64_t> constantOf(Value v) {
  APInt value;
  if (v && matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

static LogicalResult withChip(Operation *op, Chip &chip) {
  std::string error;
  if (!chipOf(op, chip, error))
    return op->emitOpError() << "cannot tell the chip: " << error;
  return success();
}

/// A UB address operand: 32-byte aligned and inside the UB, where constant.
static LogicalResult checkUBAddress(Operation *op, Value address,
                                    StringRef what, const Chip &chip) {
  std::optional<int64_t> a = constantOf(address);
  if (!a)
    return success();
  if (*a < 0 || *a >= chip.ubBytes)
    return op->emitOpError()
           << what << " UB address " << *a << " is outside the " << chip.ubBytes
           << "-byte UB of chip " << chip.name;
  if (*a % 32)
    return op->emitOpError()
           << what << " UB address " << *a << " is not 32-byte aligned";
  return success();
}

static LogicalResult checkInKernel(Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  if (!func || !func->hasAttr(kKernelAttr))
    return op->emitOpError()
           << "must be inside a func.func marked " << kKernelAttr;
  return success();
}

/// The repeat, mask and strides of a vector instruction with `operands` UB
/// operands (destination first) of `bits` bits each.
static LogicalResult checkVectorCommon(Operation *op, Value repeat,
                                       std::optional<int64_t> mask,
                                       std::optional<ArrayRef<int64_t>> blocks,
                                       std::optional<ArrayRef<int64_t>> repeats,
                                       ArrayRef<unsigned> bits,
                                       const Chip &chip) {
  if (std::optional<int64_t> r = constantOf(repeat))
    if (*r < 0 || *r > chip.maxRepeat)
      return op->emitOpError()
             << "repeats " << *r << " times, but an instruction repeats 0 to "
             << chip.maxRepeat << " times";
  unsigned widest = *llvm::max_element(bits);
  int64_t lanes = 2048 / widest;
  if (mask && (*mask < 1 || *mask > lanes))
    return op->emitOpError()
           << "has mask " << *mask << ", but a repeat of " << widest
           << "-bit lanes has 1 to " << lanes << " lanes";
  for (auto [name, strides] :
       {std::pair<StringRef, std::optional<ArrayRef<int64_t>>>{"block_strides",
                                                               blocks},
        {"repeat_strides", repeats}}) {
    if (!strides)
      continue;
    if (strides->size() != bits.size())
      return op->emitOpError()
             << name << " has " << strides->size() << " entries, but the "
             << "instruction has " << bits.size()
             << " UB operands (destination first)";
    for (int64_t s : *strides)
      if (s < 0 || s > 65535)
        return op->emitOpError()
               << name << " has " << s << ", but a stride is 0 to 65535 blocks";
    if (name == "block_strides" && strides->front() == 0)
      return op->emitOpError() << "has destination block stride 0, which "
                                  "the hardware leaves undefined";
  }
  return success();
}

static LogicalResult checkLaneType(Operation *op, Type type, StringRef what) {
  if (!laneBits(type) || laneBits(type) < 8)
    return op->emitOpError() << what << " type " << type
                             << " is not a lane type (i8/i16/i32 of any "
                                "signedness, bf16, f16, f32)";
  return success();
}

static bool isFloatLane(Type t) { return isa<FloatType>(t); }

static LogicalResult checkScalar(Operation *op, Attribute scalar, Type type) {
  if (isFloatLane(type) ? isa<FloatAttr>(scalar) || isa<IntegerAttr>(scalar)
                        : isa<IntegerAttr>(scalar))
    return success();
  return op->emitOpError() << "scalar " << scalar << " does not fit lanes of "
                           << type;
}

//===----------------------------------------------------------------------===//
// Op verifiers
//===----------------------------------------------------------------------===//

LogicalResult CoreIdOp::verify() { return checkInKernel(*this); }
LogicalResult CoreNumOp::verify() { return checkInKernel(*this); }

LogicalResult UBBufferOp::verify() {
  Chip chip;
  if (failed(withChip(*this, chip)))
    return failure();
  int64_t offset = int64_t(getOffset()), bytes = int64_t(getBytes());
  if (offset < 0 || offset % 32)
    return emitOpError() << "offset " << offset
                         << " is not a 32-byte aligned UB address";
  if (bytes <= 0)
    return emitOpError() << "has " << bytes << " bytes; a buffer needs some";
  if (offset + bytes > chip.ubBytes)
    return emitOpError() << "needs UB bytes [" << offset << ", "
                         << offset + bytes << "), but chip " << chip.name
                         << " has " << chip.ubBytes << " bytes of UB";
  auto func = (*this)->getParentOfType<func::FuncOp>();
  if (!func)
    return success();
  UBBufferOp clash;
  func.walk([&](UBBufferOp other) {
    int64_t o = int64_t(other.getOffset()), n = int64_t(other.getBytes());
    if (other != *this && o < offset + bytes && offset < o + n)
      clash = other;
  });
  if (clash)
    return emitOpError() << "UB bytes [" << offset << ", " << offset + bytes
                         << ") overlap another buffer's [" << clash.getOffset()
                         << ", " << clash.getOffset() + clash.getBytes() << ")";
  return success();
}

template <typename CopyOp> static LogicalResult verifyCopy(CopyOp op) {
  Chip chip;
  if (failed(withChip(op, chip)))
    return failure();
  if (!isGlobalMemRef(op.getGm().getType()))
    return op.emitOpError() << "GM operand must be a memref in "
                               "#vtile.space<gm>, but it is "
                            << op.getGm().getType();
  if (failed(checkUBAddress(op, op.getUb(), "the", chip)))
    return failure();
  if (auto n = constantOf(op.getBlockCount()))
    if (*n < 0 || *n > chip.maxBurstCount)
      return op.emitOpError() << "has " << *n << " bursts, but a copy has 0 "
                              << "to " << chip.maxBurstCount;
  if (auto n = constantOf(op.getBlockLen()))
    if (*n < 0 || *n > chip.maxBurstLen)
      return op.emitOpError() << "has bursts of " << *n << " bytes, but a "
                              << "burst has 0 to " << chip.maxBurstLen;
  for (Value v : {op.getSrcStride(), op.getDstStride(), op.getGmOffset()})
    if (auto n = constantOf(v); n && *n < 0)
      return op.emitOpError()
             << "has a negative stride or offset (" << *n << ")";
  return success();
}

LogicalResult CopyGmToUbOp::verify() { return verifyCopy(*this); }
LogicalResult CopyUbToGmOp::verify() { return verifyCopy(*this); }

template <typename VecOp>
static LogicalResult verifyElementwise(VecOp op, ArrayRef<Value> ubOperands,
                                       Type type) {
  Chip chip;
  if (failed(withChip(op, chip)) || failed(checkLaneType(op, type, "lane")))
    return failure();
  for (Value v : ubOperands)
    if (failed(checkUBAddress(op, v, "an operand's", chip)))
      return failure();
  SmallVector<unsigned> bits(ubOperands.size(), laneBits(type));
  return checkVectorCommon(op, op.getRepeat(), op.getMask(),
                           op.getBlockStrides(), op.getRepeatStrides(), bits,
                           chip);
}

static LogicalResult checkKind(Operation *op, BinaryKind kind, Type type) {
  bool integerOnly = kind == BinaryKind::And || kind == BinaryKind::Or ||
                     kind == BinaryKind::Xor || kind == BinaryKind::shl ||
                     kind == BinaryKind::shr;
  if (integerOnly && isFloatLane(type))
    return op->emitOpError() << "'" << stringifyBinaryKind(kind)
                             << "' takes integer lanes (a bit view of the "
                                "data), not "
                             << type;
  if (kind == BinaryKind::div && !isFloatLane(type))
    return op->emitOpError() << "'div' takes float lanes, not " << type;
  return success();
}

LogicalResult VBinaryOp::verify() {
  if (failed(checkKind(*this, getKind(), getType())))
    return failure();
  return verifyElementwise(*this, {getDst(), getLhs(), getRhs()}, getType());
}

LogicalResult VScalarOp::verify() {
  if (failed(checkKind(*this, getKind(), getType())) ||
      failed(checkScalar(*this, getScalar(), getType())))
    return failure();
  return verifyElementwise(*this, {getDst(), getSrc()}, getType());
}

LogicalResult VUnaryOp::verify() {
  if (getKind() == UnaryKind::Not && isFloatLane(getType()))
    return emitOpError() << "'not' takes integer lanes, not " << getType();
  return verifyElementwise(*this, {getDst(), getSrc()}, getType());
}

LogicalResult VDupOp::verify() {
  if (failed(checkScalar(*this, getScalar(), getType())))
    return failure();
  return verifyElementwise(*this, {getDst()}, getType());
}

LogicalResult VCmpsOp::verify() {
  if (failed(checkScalar(*this, getScalar(), getType())))
    return failure();
  if (getBlockStrides() || getRepeatStrides())
    return emitOpError() << "takes no strides (its mask is written packed)";
  return verifyElementwise(*this, {getDst(), getSrc()}, getType());
}

LogicalResult VCmpOp::verify() {
  Chip chip;
  if (failed(withChip(*this, chip)) ||
      failed(checkLaneType(*this, getType(), "lane")))
    return failure();
  for (Value v : {getDst(), getLhs(), getRhs()})
    if (failed(checkUBAddress(*this, v, "an operand's", chip)))
      return failure();
  unsigned bits = laneBits(getType());
  return checkVectorCommon(*this, getRepeat(), getMask(), std::nullopt,
                           std::nullopt, {bits, bits, bits}, chip);
}

LogicalResult VSelOp::verify() {
  if (getBlockStrides() || getRepeatStrides())
    return emitOpError() << "takes no strides";
  return verifyElementwise(*this, {getDst(), getSelMask(), getLhs(), getRhs()},
                           getType());
}

LogicalResult VCastOp::verify() {
  Chip chip;
  if (failed(withChip(*this, chip)))
    return failure();
  Type src = getSrcType(), dst = getDstType();
  if (!laneBits(src) || !laneBits(dst))
    return emitOpError() << "casts " << src << " to " << dst
                         << ", but vtile lanes are i8/i16/i32, bf16, f16, "
                            "f32, f8E4M3FN, f8E5M2 or f4E2M1FN";
  std::string why;
  if (!checkCast(src, dst, getRound(), getSat(), chip, why))
    return emitOpError() << why;
  for (Value v : {getDst(), getSrc()})
    if (failed(checkUBAddress(*this, v, "an operand's", chip)))
      return failure();
  return checkVectorCommon(*this, getRepeat(), getMask(), getBlockStrides(),
                           getRepeatStrides(), {laneBits(dst), laneBits(src)},
                           chip);
}

template <typename GroupOp> static LogicalResult verifyGroup(GroupOp op) {
  Chip chip;
  if (failed(withChip(op, chip)) ||
      failed(checkLaneType(op, op.getType(), "lane")))
    return failure();
  for (Value v : {op.getDst(), op.getSrc()})
    if (failed(checkUBAddress(op, v, "an operand's", chip)))
      return failure();
  unsigned bits = laneBits(op.getType());
  int64_t group = op.getGroup();
  if (group <= 0 || (group * bits) % 256)
    return op.emitOpError() << "has groups of " << group << " lanes of " << bits
                            << " bits, but a group is a whole "
                            << "number of 32-byte blocks";
  return checkVectorCommon(op, op.getRepeat(), std::nullopt, std::nullopt,
                           std::nullopt, {bits}, chip);
}

LogicalResult VReduceGroupOp::verify() { return verifyGroup(*this); }
LogicalResult VBroadcastGroupOp::verify() { return verifyGroup(*this); }

LogicalResult VIndexOp::verify() {
  Chip chip;
  if (failed(withChip(*this, chip)))
    return failure();
  auto i = dyn_cast<IntegerType>(getType());
  if (!i || (i.getWidth() != 16 && i.getWidth() != 32))
    return emitOpError() << "fills integer lanes of 16 or 32 bits, not "
                         << getType();
  if (failed(checkUBAddress(*this, getDst(), "the destination's", chip)))
    return failure();
  return checkVectorCommon(*this, getRepeat(), std::nullopt, std::nullopt,
                           std::nullopt, {i.getWidth()}, chip);
}

LogicalResult VGatherOp::verify() {
  Chip chip;
  if (failed(withChip(*this, chip)) ||
      failed(checkLaneType(*this, getType(), "lane")))
    return failure();
  if (laneBits(getType()) != 32)
    return emitOpError() << "gathers 32-bit lanes (the offsets are 32-bit), "
                            "not "
                         << getType();
  for (Value v : {getDst(), getSrc(), getOffsets()})
    if (failed(checkUBAddress(*this, v, "an operand's", chip)))
      return failure();
  return checkVectorCommon(*this, getRepeat(), getMask(), std::nullopt,
                           std::nullopt, {32, 32}, chip);
}

LogicalResult VTransposeOp::verify() {
  Chip chip;
  if (failed(withChip(*this, chip)))
    return failure();
  unsigned bits = laneBits(getType());
  if (bits != 16 && bits != 32)
    return emitOpError() << "transposes 16- or 32-bit lanes, not " << getType();
  int64_t side = bits == 32 ? 8 : 16;
  int64_t rows = getRows(), cols = getCols();
  if (rows <= 0 || cols <= 0 || rows % side || cols % side)
    return emitOpError() << "transposes a " << rows << " x " << cols
                         << " matrix, but a repeat moves a " << side << " x "
                         << side << " block of " << bits
                         << "-bit lanes: both sides are positive multiples of "
                         << side;
  int64_t perBlock = 256 / bits;
  if (int64_t(getSrcStride()) < cols || int64_t(getDstStride()) < rows ||
      getSrcStride() % perBlock || getDstStride() % perBlock)
    return emitOpError() << "has strides (" << getSrcStride() << ", "
                         << getDstStride()
                         << ") lanes; each is at least its matrix's row ("
                         << cols << ", " << rows << ") and a whole number of "
                         << "32-byte blocks (" << perBlock << " lanes)";
  int64_t repeats = rows * cols * bits / 2048;
  if (repeats > chip.maxRepeat)
    return emitOpError() << "moves " << rows << " x " << cols << " lanes in "
                         << repeats << " repeats, but an instruction repeats "
                         << "at most " << chip.maxRepeat << " times";
  for (Value v : {getDst(), getSrc()})
    if (failed(checkUBAddress(*this, v, "an operand's", chip)))
      return failure();
  return success();
}

static LogicalResult verifyFlag(Operation *op, Pipe src, Pipe dst, Value id) {
  if (src == Pipe::all || dst == Pipe::all)
    return op->emitOpError() << "names pipe 'all'; a flag joins two pipes";
  if (src == dst)
    return op->emitOpError() << "joins pipe '" << stringifyPipe(src)
                             << "' to itself; order one pipe with "
                                "vtile.pipe_barrier";
  if (auto n = constantOf(id)) {
    if (*n < 0 || *n > 7)
      return op->emitOpError()
             << "uses event id " << *n << ", but ids are 0 to 7";
    if (*n >= 6)
      return op->emitOpError() << "uses event id " << *n
                               << ", which the hardware reserves (6: "
                                  "reserved, 7: TPipe); kernels use 0 to 5";
  }
  return success();
}

LogicalResult SetCtrlOp::verify() {
  if (getBit() != kCtrlFP8SatNaN)
    return emitOpError() << "sets CTRL bit " << getBit()
                         << ", but the model has bit " << kCtrlFP8SatNaN
                         << " only (a saturating FP8 cast's NaN)";
  return success();
}

LogicalResult SetFlagOp::verify() {
  return verifyFlag(*this, getSrc(), getDst(), getId());
}
LogicalResult WaitFlagOp::verify() {
  return verifyFlag(*this, getSrc(), getDst(), getId());
}

#define GET_OP_CLASSES
#include "mxq/Target/Ascend/VTileOps.cpp.inc"
