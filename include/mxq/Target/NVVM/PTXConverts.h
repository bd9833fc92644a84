//===- PTXConverts.h - software models of PTX's narrow converts -*- C++ -*-===//
//
// Exact models, written from the PTX ISA (section "cvt"), of the conversion
// instructions mxq's NVIDIA kernels use, so that the SIMT emulator runs the
// chip-specific kernels rather than a substitute:
//
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32       d16, a, b
//   cvt.rn.satfinite{.relu}.{e2m3x2,e3m2x2}.f32       d16, a, b
//   cvt.rn.satfinite{.relu}.e2m1x2.f32                d8,  a, b
//   cvt.{rz,rp}{.satfinite}.ue8m0x2.f32               d16, a, b
//
// Operand order as in the ISA: `a` lands in the upper half of `d`, `b` in
// the lower half. Each 8-bit half of an FP6 result holds the 6-bit code in
// its low bits. Finite inputs round as the instruction says (to nearest
// even, or toward zero / +infinity for ue8m0) through the subnormals of
// the format, and .satfinite clamps to the largest finite value. Special
// inputs follow the ISA's text where it has one (NaN -> the format's
// canonical NaN, 0x7F; +-Inf -> +-max finite under .satfinite) and the
// choices in docs/Rationale.md where it has none (FP6/FP4 have no NaN: a NaN
// input gives +max finite). mxq's numerics never depend on the special
// cases: they pick the codes of Inf and NaN with integer selects.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_NVVM_PTXCONVERTS_H
#define MXQ_TARGET_NVVM_PTXCONVERTS_H

#include <cstdint>

namespace mxq::ptx {

enum class NarrowFormat { E4M3, E5M2, E2M3, E3M2, E2M1 };

/// The code of `x` in `format` (cvt.rn.satfinite{.relu}): low bits of the
/// result, sign in the format's top bit.
uint8_t convertRNSatFinite(float x, NarrowFormat format, bool relu);

/// The ue8m0 byte of `x` rounded toward zero (`roundUp` false, .rz) or
/// toward +infinity (.rp), with or without .satfinite.
uint8_t convertUE8M0(float x, bool roundUp, bool satfinite);

} // namespace mxq::ptx

extern "C" {
/// cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 (format 0: e4m3, 1: e5m2).
uint16_t mxq_emu_cvt_f8x2(float a, float b, int32_t format, int32_t relu);
/// cvt.rn.satfinite{.relu}.{e2m3x2,e3m2x2}.f32 (format 2: e2m3, 3: e3m2).
uint16_t mxq_emu_cvt_f6x2(float a, float b, int32_t format, int32_t relu);
/// cvt.rn.satfinite{.relu}.e2m1x2.f32.
uint8_t mxq_emu_cvt_f4x2(float a, float b, int32_t relu);
/// cvt.{rz,rp}{.satfinite}.ue8m0x2.f32.
uint16_t mxq_emu_cvt_ue8m0x2(float a, float b, int32_t roundUp,
                             int32_t satfinite);
}

#endif // MXQ_TARGET_NVVM_PTXCONVERTS_H
