//===- Lanes.cpp - what one lane of the vector unit computes --------------===//
//
// Every narrowing float cast goes through one rounding of an exact binary
// value M * 2^E (M an integer) onto a format's grid, on integers: the
// quantum 2^(max(e, emin) - mbits), the quotient and remainder by it, the
// round mode's decision from the remainder against half a quantum, then the
// code's fields. Overflow, infinities, NaN and signed zeros are decided
// around it by the published rules of each cast (Lanes.h). Nothing here
// calls the reference: see Lanes.h for why.
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/Ascend/Lanes.h"
#include "mxq/Support/Formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;

namespace mxq::vtile::lanes {

LaneType laneTypeOf(Type t) {
  if (auto i = dyn_cast<IntegerType>(t)) {
    bool u = i.isUnsigned();
    switch (i.getWidth()) {
    case 8:
      return u ? LaneType::U8 : LaneType::I8;
    case 16:
      return u ? LaneType::U16 : LaneType::I16;
    default:
      return u ? LaneType::U32 : LaneType::I32;
    }
  }
  if (t.isBF16())
    return LaneType::BF16;
  if (t.isF16())
    return LaneType::F16;
  if (t.isF32())
    return LaneType::F32;
  if (isa<Float8E4M3FNType>(t))
    return LaneType::E4M3;
  if (isa<Float8E5M2Type>(t))
    return LaneType::E5M2;
  return LaneType::E2M1;
}

bool isFloat(LaneType t) {
  return t == LaneType::BF16 || t == LaneType::F16 || t == LaneType::F32;
}
bool isCode(LaneType t) {
  return t == LaneType::E4M3 || t == LaneType::E5M2 || t == LaneType::E2M1;
}
bool isSigned(LaneType t) {
  return t == LaneType::I8 || t == LaneType::I16 || t == LaneType::I32;
}

int64_t intOf(uint32_t bits, LaneType t) {
  unsigned w = widthOf(t);
  if (isSigned(t) && (bits >> (w - 1)) & 1)
    return int64_t(bits) - (int64_t(1) << w);
  return int64_t(bits);
}

uint32_t bitsOfInt(int64_t v, LaneType t) {
  unsigned w = widthOf(t);
  return w == 32 ? uint32_t(v) : uint32_t(v) & ((1u << w) - 1);
}

namespace {

//===----------------------------------------------------------------------===//
// Binary float formats
//===----------------------------------------------------------------------===//

/// How a format spends its largest exponent field.
enum class Specials {
  IEEE, ///< all ones: infinities (mantissa 0) and NaN (bf16, f16, f32, E5M2)
  FN,   ///< only S.1111.111 is NaN, no infinity (E4M3)
  None, ///< every field finite, no NaN, no infinity (E2M1)
};

struct Format {
  unsigned ebits, mbits;
  int bias;
  Specials specials;
  unsigned bits() const { return 1 + ebits + mbits; }
  int emin() const { return 1 - bias; }
  uint32_t signBit() const { return 1u << (ebits + mbits); }
  uint32_t expOnes() const { return ((1u << ebits) - 1) << mbits; }
  /// The magnitude bits of the largest finite value.
  uint32_t maxMagnitude() const {
    uint32_t fieldOnes = (1u << ebits) - 1, mantOnes = (1u << mbits) - 1;
    switch (specials) {
    case Specials::IEEE:
      return ((fieldOnes - 1) << mbits) | mantOnes;
    case Specials::FN:
      return (fieldOnes << mbits) | (mantOnes - 1);
    case Specials::None:
      return (fieldOnes << mbits) | mantOnes;
    }
    return 0;
  }
};

Format ieee(unsigned ebits, unsigned mbits) {
  return {ebits, mbits, (1 << (ebits - 1)) - 1, Specials::IEEE};
}

/// A code format's fields from the one format table.
Format codeFormat(ElementFormat f) {
  const FormatInfo &info = formatInfo(f);
  Specials s = info.hasInf   ? Specials::IEEE
               : info.hasNaN ? Specials::FN
                             : Specials::None;
  return {info.ebits, info.mbits, info.bias, s};
}

Format formatOf(LaneType t) {
  switch (t) {
  case LaneType::BF16:
    return ieee(8, 7);
  case LaneType::F16:
    return ieee(5, 10);
  case LaneType::E4M3:
    return codeFormat(ElementFormat::E4M3FN);
  case LaneType::E5M2:
    return codeFormat(ElementFormat::E5M2);
  case LaneType::E2M1:
    return codeFormat(ElementFormat::E2M1FN);
  default:
    return ieee(8, 23);
  }
}

uint32_t f32Bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}
float f32Of(uint32_t b) {
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}

/// The value of the finite code `bits` of `f`, exactly (every format here
/// has at most 11 significant bits and 2^-24 as its least quantum, well
/// within a double).
double finiteValue(uint32_t bits, const Format &f) {
  uint32_t field = (bits >> f.mbits) & ((1u << f.ebits) - 1);
  uint32_t mant = bits & ((1u << f.mbits) - 1);
  double significand = field ? double((1u << f.mbits) | mant) : double(mant);
  int exponent = int(std::max<uint32_t>(field, 1)) - f.bias - int(f.mbits);
  double v = std::ldexp(significand, exponent);
  return (bits & f.signBit()) ? -v : v;
}

bool isNaNCode(uint32_t bits, const Format &f) {
  uint32_t mag = bits & (f.signBit() - 1);
  switch (f.specials) {
  case Specials::IEEE:
    return (mag & f.expOnes()) == f.expOnes() && (mag & ((1u << f.mbits) - 1));
  case Specials::FN:
    return mag == ((1u << (f.ebits + f.mbits)) - 1);
  case Specials::None:
    return false;
  }
  return false;
}

bool isInfCode(uint32_t bits, const Format &f) {
  return f.specials == Specials::IEEE &&
         (bits & (f.signBit() - 1)) == f.expOnes();
}

/// Whether `mode` rounds a value of this sign toward zero, where an
/// overflow gives the largest finite value (IEEE 754 §7.4).
bool towardZero(RoundMode mode, bool negative) {
  return mode == RoundMode::trunc || (mode == RoundMode::floor && !negative) ||
         (mode == RoundMode::ceil && negative);
}

/// The magnitude bits of the nonzero finite value M * 2^E (M < 2^54)
/// rounded onto the grid of `f` in `mode`, or nothing where the rounded
/// value is beyond the largest finite one.
std::optional<uint32_t> roundMagnitude(uint64_t M, int E, const Format &f,
                                       RoundMode mode, bool negative) {
  int lead = 63 - __builtin_clzll(M);
  int e = E + lead; // floor(log2(value))
  int q = std::max(e, f.emin()) - int(f.mbits);
  uint64_t n;
  bool inexact = false;
  if (q <= E) {
    n = M << (E - q); // exact; below 2^(mbits + 1)
  } else {
    int shift = q - E;
    uint64_t rem, half;
    if (shift > 60) { // the whole value is below half a quantum
      n = 0;
      rem = M;
      half = uint64_t(1) << 60;
    } else {
      n = M >> shift;
      rem = M & ((uint64_t(1) << shift) - 1);
      half = uint64_t(1) << (shift - 1);
    }
    inexact = rem != 0;
    bool up = false;
    switch (mode) {
    case RoundMode::none:
    case RoundMode::rint:
      up = rem > half || (rem == half && (n & 1));
      break;
    case RoundMode::round:
      up = rem >= half;
      break;
    case RoundMode::floor:
      up = negative && inexact;
      break;
    case RoundMode::ceil:
      up = !negative && inexact;
      break;
    case RoundMode::trunc:
      break;
    case RoundMode::odd: // truncate, then set the last bit if inexact
      n |= uint64_t(inexact);
      break;
    }
    n += uint64_t(up);
  }
  if (n >> (f.mbits + 1)) { // rounded up to the next binade: 2^(mbits+1)
    n >>= 1;
    ++q;
  }
  uint32_t mag;
  if (!(n >> f.mbits)) // a subnormal (or zero): q is emin - mbits
    mag = uint32_t(n);
  else
    mag = (uint32_t(q + int(f.mbits) + f.bias) << f.mbits) |
          uint32_t(n - (uint64_t(1) << f.mbits));
  // A field beyond the format's: certainly an overflow (and `mag` would not
  // hold it).
  if (q + int(f.mbits) + f.bias >= (1 << f.ebits) || mag > f.maxMagnitude())
    return std::nullopt;
  return mag;
}

/// The bits of the finite or infinite value `v` (a double, exact) in `f`:
/// rounded in `mode`; an overflow saturates with `sat`, else gives the
/// infinity (IEEE), NaN (FN) or the largest value (None), and the largest
/// finite value where `mode` rounds toward zero. Zeros keep their sign.
uint32_t narrow(double v, const Format &f, RoundMode mode, bool sat) {
  bool negative = std::signbit(v);
  uint32_t sign = negative ? f.signBit() : 0;
  double a = std::fabs(v);
  auto overflow = [&]() -> uint32_t {
    if (sat || f.specials == Specials::None)
      return sign | f.maxMagnitude();
    if (f.specials == Specials::FN)
      return f.signBit() - 1; // the NaN code (no sign: the chip's choice)
    return sign | f.expOnes();
  };
  if (std::isinf(a))
    return overflow();
  if (a == 0)
    return sign;
  int exp;
  double frac = std::frexp(a, &exp); // a = frac * 2^exp, frac in [0.5, 1)
  uint64_t M = uint64_t(std::ldexp(frac, 53));
  std::optional<uint32_t> mag = roundMagnitude(M, exp - 53, f, mode, negative);
  if (!mag)
    return towardZero(mode, negative) && f.specials != Specials::FN
               ? sign | f.maxMagnitude()
               : overflow();
  return sign | *mag;
}

/// The bits of a NaN of the IEEE format `f` from the f32 NaN `bits`: its
/// sign and the top of its payload, quieted (IEEE 754 §6.2.3).
uint32_t narrowNaN(uint32_t bits, const Format &f) {
  uint32_t sign = (bits >> 31) ? f.signBit() : 0;
  uint32_t payload = (bits & 0x7FFFFF) >> (23 - f.mbits);
  return sign | f.expOnes() | payload | (1u << (f.mbits - 1));
}

/// The f32 bits of a bf16 or f16 lane, exactly (a NaN keeps its payload).
uint32_t widen(uint32_t bits, const Format &f) {
  uint32_t sign = (bits & f.signBit()) ? 0x80000000u : 0;
  if (isNaNCode(bits, f) || isInfCode(bits, f))
    return sign | 0x7F800000u | ((bits & ((1u << f.mbits) - 1))
                                 << (23 - f.mbits));
  return f32Bits(float(finiteValue(bits, f)));
}

/// The f32 bits of the code `bits`: exact; a NaN code gives the quiet NaN
/// with the code's sign, an infinity code the infinity.
uint32_t decode(uint32_t bits, const Format &f) {
  uint32_t sign = (bits & f.signBit()) ? 0x80000000u : 0;
  if (isNaNCode(bits, f))
    return sign | 0x7FC00000u;
  if (isInfCode(bits, f))
    return sign | 0x7F800000u;
  return f32Bits(float(finiteValue(bits, f)));
}

double valueOf(uint32_t bits, LaneType t) {
  if (t == LaneType::F32)
    return double(f32Of(bits));
  return double(f32Of(widen(bits, formatOf(t))));
}

/// The lane bits of the exact result `v` of an arithmetic operation on a
/// bf16 or f16 lane: one rounding to nearest even (IEEE overflow).
uint32_t roundResult(double v, LaneType t) {
  if (t == LaneType::F32)
    return f32Bits(float(v));
  Format f = formatOf(t);
  if (std::isnan(v))
    return narrowNaN(f32Bits(float(v)), f);
  return narrow(v, f, RoundMode::rint, false);
}

} // namespace

float floatOf(uint32_t bits, LaneType t) { return float(valueOf(bits, t)); }

uint32_t bitsOfFloat(float v, LaneType t) { return roundResult(v, t); }

uint32_t binary(BinaryKind kind, LaneType t, uint32_t a, uint32_t b,
                bool &divByZero) {
  if (isFloat(t)) {
    // f32 lanes compute in f32 (one IEEE rounding); bf16 and f16 lanes
    // compute exactly in double (their sums and products fit) and round
    // once to the lane type.
    bool single = t == LaneType::F32;
    double x = valueOf(a, t), y = valueOf(b, t), r = 0;
    float fx = float(x), fy = float(y);
    switch (kind) {
    case BinaryKind::add:
      r = single ? double(fx + fy) : x + y;
      break;
    case BinaryKind::sub:
      r = single ? double(fx - fy) : x - y;
      break;
    case BinaryKind::mul:
      r = single ? double(fx * fy) : x * y;
      break;
    case BinaryKind::div:
      r = single ? double(fx / fy) : x / y;
      break;
    case BinaryKind::max:
    case BinaryKind::min: {
      if (std::isnan(x) || std::isnan(y))
        return roundResult(std::numeric_limits<double>::quiet_NaN(), t);
      bool max = kind == BinaryKind::max;
      if (x == y) // max(-0, +0) = +0, min(-0, +0) = -0
        return (std::signbit(x) == max) ? b : a;
      return (x < y) == max ? b : a;
    }
    default:
      return 0; // bit operations are not float operations
    }
    return roundResult(r, t);
  }
  int64_t x = intOf(a, t), y = intOf(b, t);
  uint64_t ux = a, uy = b;
  unsigned w = widthOf(t);
  int64_t r = 0;
  // Add, sub and mul wrap modulo 2^64 (bitsOfInt keeps the lane's low
  // bits): two u32 lanes' product can pass INT64_MAX.
  switch (kind) {
  case BinaryKind::add:
    r = int64_t(uint64_t(x) + uint64_t(y));
    break;
  case BinaryKind::sub:
    r = int64_t(uint64_t(x) - uint64_t(y));
    break;
  case BinaryKind::mul:
    r = int64_t(uint64_t(x) * uint64_t(y));
    break;
  case BinaryKind::div:
    if (y == 0) {
      divByZero = true;
      return 0;
    }
    r = isSigned(t) ? x / y : int64_t(ux / uy);
    break;
  case BinaryKind::max:
    r = isSigned(t) ? std::max(x, y) : int64_t(std::max(ux, uy));
    break;
  case BinaryKind::min:
    r = isSigned(t) ? std::min(x, y) : int64_t(std::min(ux, uy));
    break;
  case BinaryKind::And:
    r = x & y;
    break;
  case BinaryKind::Or:
    r = x | y;
    break;
  case BinaryKind::Xor:
    r = x ^ y;
    break;
  case BinaryKind::shl:
    r = uy >= w ? 0 : int64_t(ux << uy);
    break;
  case BinaryKind::shr:
    r = isSigned(t) ? (uy >= w ? (x < 0 ? -1 : 0) : x >> uy)
                    : (uy >= w ? 0 : int64_t(ux >> uy));
    break;
  }
  return bitsOfInt(r, t);
}

uint32_t unary(UnaryKind kind, LaneType t, uint32_t a) {
  switch (kind) {
  case UnaryKind::abs:
    return isFloat(t) ? a & ~(1u << (widthOf(t) - 1))
                      : bitsOfInt(std::abs(intOf(a, t)), t);
  case UnaryKind::Not:
    return bitsOfInt(~int64_t(a), t);
  case UnaryKind::copy:
    return a;
  }
  return a;
}

bool compare(CmpPredicate p, LaneType t, uint32_t a, double b) {
  if (isFloat(t)) {
    float x = floatOf(a, t), y = float(b);
    switch (p) {
    case CmpPredicate::eq:
      return x == y;
    case CmpPredicate::ne: // ordered: a NaN compares false
      return !std::isnan(x) && !std::isnan(y) && x != y;
    case CmpPredicate::lt:
      return x < y;
    case CmpPredicate::le:
      return x <= y;
    case CmpPredicate::gt:
      return x > y;
    case CmpPredicate::ge:
      return x >= y;
    }
    return false;
  }
  int64_t x = intOf(a, t), y = int64_t(b);
  switch (p) {
  case CmpPredicate::eq:
    return x == y;
  case CmpPredicate::ne:
    return x != y;
  case CmpPredicate::lt:
    return x < y;
  case CmpPredicate::le:
    return x <= y;
  case CmpPredicate::gt:
    return x > y;
  case CmpPredicate::ge:
    return x >= y;
  }
  return false;
}

uint32_t cast(LaneType from, LaneType to, RoundMode round, bool sat,
              uint32_t v, bool satNaN) {
  bool intFrom = !isFloat(from) && !isCode(from);
  bool intTo = !isFloat(to) && !isCode(to);
  if (intFrom && intTo)
    return bitsOfInt(intOf(v, from), to);
  if (intFrom || intTo)
    return 0; // no chip converts between integers and floats
  if (isCode(from)) // decodes: exact
    return to == LaneType::F32 ? decode(v, formatOf(from))
                               : roundResult(f32Of(decode(v, formatOf(from))),
                                             to);
  uint32_t bits = from == LaneType::F32 ? v : widen(v, formatOf(from));
  float x = f32Of(bits);
  if (to == LaneType::F32) {
    if (from != LaneType::F32)
      return bits;
    // Truncate<float, mode>: IEEE roundToIntegral, which keeps the sign of
    // a zero and leaves infinities and NaN as they are.
    switch (round) {
    case RoundMode::rint:
      return f32Bits(std::nearbyint(x));
    case RoundMode::round:
      return f32Bits(std::round(x));
    case RoundMode::floor:
      return f32Bits(std::floor(x));
    case RoundMode::ceil:
      return f32Bits(std::ceil(x));
    case RoundMode::trunc:
      return f32Bits(std::trunc(x));
    default:
      return v;
    }
  }
  Format f = formatOf(to);
  if (std::isnan(x)) {
    if (to == LaneType::BF16 || to == LaneType::F16)
      return narrowNaN(bits, f);
    if (to == LaneType::E2M1 || (sat && !satNaN))
      return 0; // FP4 has no NaN; a saturating FP8 cast gives +0
    return f.signBit() - 1; // the NaN code 0x7F (no sign: assumed)
  }
  return narrow(double(x), f, round, sat || to == LaneType::E2M1);
}

} // namespace mxq::vtile::lanes
