//===- Lanes.h - what one lane of the vector unit computes ------*- C++ -*-===//
//
// The functional model of one lane of an Ascend-like vector instruction:
// integer and float arithmetic, comparisons and every cast the chips have,
// written from the vector unit's published behaviour (../shared/docs/
// ascend-model.md §3.3, the CANN Cast and RoundMode pages) and from the
// IEEE 754 definitions of the formats. It is deliberately not the
// reference: it includes nothing from lib/Reference and shares no algorithm
// with it, so that a lowering run on the simulator is checked against the
// reference through an independent model of the chip. Where the published
// behaviour is silent, docs/Rationale.md ("The vector unit's lanes") says
// what is assumed. unittests/Ascend/LanesTest.cpp tests every function
// here against brute-force oracles and the published examples.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_ASCEND_LANES_H
#define MXQ_TARGET_ASCEND_LANES_H

#include "mxq/Target/Ascend/VTile.h"

#include <cstdint>

namespace mxq::vtile::lanes {

/// The lane types the vector unit computes on. Lane bits are held in the
/// low bits of a uint32_t (E2M1: the low nibble).
enum class LaneType {
  I8, U8, I16, U16, I32, U32, BF16, F16, F32, E4M3, E5M2, E2M1
};

/// The lane type of a vtile operand type (what `laneBits` accepts).
LaneType laneTypeOf(mlir::Type type);

/// The bits of a lane (inline: the simulator asks it for every lane).
inline unsigned widthOf(LaneType t) {
  switch (t) {
  case LaneType::I8:
  case LaneType::U8:
  case LaneType::E4M3:
  case LaneType::E5M2:
    return 8;
  case LaneType::I16:
  case LaneType::U16:
  case LaneType::BF16:
  case LaneType::F16:
    return 16;
  case LaneType::E2M1:
    return 4;
  default:
    return 32;
  }
}
/// bf16, f16 or f32: the types arithmetic is done in.
bool isFloat(LaneType t);
/// E4M3, E5M2 or E2M1: codes that only casts read or write.
bool isCode(LaneType t);
bool isSigned(LaneType t);

/// The integer value of lane bits (sign-extended for signed types).
int64_t intOf(uint32_t bits, LaneType t);
/// The lane bits of an integer (its low bits).
uint32_t bitsOfInt(int64_t v, LaneType t);
/// The value of a bf16, f16 or f32 lane (exact).
float floatOf(uint32_t bits, LaneType t);
/// The lane bits of a float, rounded to nearest even (bf16, f16), as the
/// result of a lane's arithmetic is.
uint32_t bitsOfFloat(float v, LaneType t);

/// A lane-wise binary operation. Float add, sub, mul and div round their
/// exact result to the lane type (to nearest even); max and min of a NaN
/// are NaN and max(-0, +0) is +0. Integer add, sub and mul wrap; shifts by
/// the width or more give 0 (or the sign, for an arithmetic right shift).
/// An integer division by zero sets `divByZero` and gives 0.
uint32_t binary(BinaryKind kind, LaneType t, uint32_t a, uint32_t b,
                bool &divByZero);
/// abs (the sign bit cleared, for floats), not, copy.
uint32_t unary(UnaryKind kind, LaneType t, uint32_t a);
/// A comparison of a lane with a value; ordered on floats (false with NaN),
/// signed on signed types.
bool compare(CmpPredicate p, LaneType t, uint32_t a, double b);

/// A cast of one lane from `from` to `to` (Cast with CastTrait{round, sat}).
/// - Integer to integer truncates or extends (by the source's signedness).
/// - A widening float cast and the decode of a code are exact.
/// - f32 to f32 rounds to an integral value in `round` (Truncate).
/// - A narrowing float cast rounds in `round` (`none` is `rint`); an
///   overflow or an infinity gives the largest finite magnitude with `sat`,
///   else the infinity, or NaN where the format has none (E4M3).
/// - f32 to E4M3 or E5M2 (rint only): a NaN gives +0 with `sat` unless
///   `satNaN` (the core's CTRL[50]) is set, the NaN code otherwise.
/// - bf16 to E2M1: always saturating; a NaN gives +0.
/// Which pairs and modes a chip has is checkCast's (VTile.h); this models
/// what a cast computes, and returns 0 for a pair no chip has.
uint32_t cast(LaneType from, LaneType to, RoundMode round, bool sat,
              uint32_t v, bool satNaN = false);

} // namespace mxq::vtile::lanes

#endif // MXQ_TARGET_ASCEND_LANES_H
