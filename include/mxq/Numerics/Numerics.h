//===- Numerics.h - exact MX numerics as integer IR -------------*- C++ -*-===//
//
// The one IR-building library of MX numerics, shared by every target. Each
// builder emits arith ops that compute exactly what the reference computes
// (lib/Reference), bit for bit, using integer arithmetic on fp32 bit patterns
// instead of arith.truncf/extf to or from f8/f6/f4/E8M0 (which MLIR 22 does
// not lower correctly). Every builder works on scalars and on vectors alike:
// pass f32 / i32 values or vector<...xf32> / vector<...xi32> values.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_NUMERICS_NUMERICS_H
#define MXQ_NUMERICS_NUMERICS_H

#include "mxq/Support/Formats.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <utility>

namespace mxq::numerics {

/// An i32 constant (splat if `like` is a vector) shaped like `like`.
mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, mlir::Type like,
                     int64_t value);
/// An f32 constant shaped like `like`.
mlir::Value f32Const(mlir::OpBuilder &b, mlir::Location loc, mlir::Type like,
                     float value);

/// The conversion instructions a target has. The shared expansion asks for
/// one only on inputs where the instruction computes exactly what the
/// reference does (finite values, round to nearest even, saturation) and
/// handles the special values itself, so a target supplies nothing but the
/// instruction. Each hook returns a null Value where the target has no
/// instruction for the case; the integer expansion is used then.
class NativeConverts {
public:
  virtual ~NativeConverts();
  /// The codes (i32, in the low bits, shaped like `x`) of finite f32 `x` in
  /// `format`, rounded to nearest even and saturated to the largest finite
  /// magnitude, the sign kept (also on zero).
  virtual mlir::Value encodeFiniteRNE(mlir::OpBuilder &b, mlir::Location loc,
                                      mlir::Value x,
                                      ElementFormat format) const;
  /// The E8M0 byte (i32, shaped like `d`) of the smallest power of two not
  /// below the finite, positive f32 `d`.
  virtual mlir::Value e8m0RoundUp(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value d) const;
};

/// The E8M0 byte (as i32) of a block whose absolute maximum is `amax` (f32,
/// non-negative or NaN).
mlir::Value scaleByte(mlir::OpBuilder &b, mlir::Location loc, mlir::Value amax,
                      ScaleAlgorithm algorithm, InfPolicy inf,
                      ElementFormat format,
                      const NativeConverts *native = nullptr);

/// 2^(127 - s) as f32 (exact, 2^-127 is subnormal); NaN for s = 0xFF.
mlir::Value scaleMultiplier(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value s);
/// 2^(s - 127) as f32; NaN for s = 0xFF.
mlir::Value scaleValue(mlir::OpBuilder &b, mlir::Location loc, mlir::Value s);
/// ref: blockMultiplier: scaleMultiplier(s), or 0 where `underflow`
/// flushes a block of absolute maximum `amax` (f32, shaped like `s`).
mlir::Value blockMultiplier(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value amax, mlir::Value s,
                            Underflow underflow, ElementFormat format);

/// The code (as i32, in the low `bits` bits) of the f32 `x` in `format`,
/// rounded with `rounding`, saturated, NaN per the format or `nanElement`.
/// With `native`, finite values rounded to nearest even go through the
/// target's instruction.
mlir::Value encodeElement(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value x, ElementFormat format,
                          Rounding rounding, NanElement nanElement,
                          const NativeConverts *native = nullptr);

/// The same, always by the general rounding algorithm (shift, remainder,
/// round-up decision); encodeElement takes a shorter path for RNE. Exposed so
/// that tests can hold the two against each other.
mlir::Value encodeElementGeneral(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value x, ElementFormat format,
                                 Rounding rounding, NanElement nanElement);

/// The f32 value of a code (i32; bits above the format's width ignored).
/// NaN codes give the quiet NaN with the code's sign.
mlir::Value decodeElement(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value code, ElementFormat format);

/// The bf16 bit pattern (in the low 16 bits of an i32) of the f32 `x`,
/// rounded to nearest even; NaN becomes the quiet NaN with x's sign (ref:
/// toBF16Bits). LLVM 22's x86 lowering of fptrunc to bfloat flushes f32
/// subnormals to zero, so mxq never relies on it.
mlir::Value bf16BitsOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);

/// The f32 value of bf16 `x` (scalar or vector; exact: its bits are the
/// upper half of the f32's). Integer IR, because LLVM 22's x86 backend
/// carries scalar bfloat in f32 registers and rounds back with a truncation
/// that flushes subnormals.
mlir::Value bf16ToF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);

/// |x| as i32 bits (f32 scalar or vector): they order like |x| as floats,
/// and every NaN pattern is above +Inf.
mlir::Value absBits(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);

/// The absolute maximum of the f32 vector `x` (ref: the block amax of every
/// quantizing op): NaN-propagating (a NaN block gives a NaN amax), exact, as
/// an unsigned integer maximum of absBits (cheap where a float maximum has to
/// be emulated). A 1-D `x` reduces to an f32; otherwise the dimensions
/// `reduced` marks are reduced (vector.multi_reduction) and the result is
/// an f32 vector of the others.
/// With `ignoreNaN`, NaN lanes count as 0 (TE's fmaxf amax, NVFP4 encode).
mlir::Value blockAmax(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      llvm::ArrayRef<bool> reduced = {},
                      bool ignoreNaN = false);

/// ref: nvfp4EncodeScale: TE's global encode scale S_enc of the amax
/// `amax` (f32 scalar or vector).
mlir::Value nvfp4EncodeScale(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value amax);
/// ref: nvfp4Block: the E4M3 byte (i32) and the element factor (f32) of
/// blocks of absolute maximum `amax` (f32 scalar or vector) under the outer
/// value `outer` (S_enc for Encode, P for Decode; a scalar is broadcast).
std::pair<mlir::Value, mlir::Value>
nvfp4Block(mlir::OpBuilder &b, mlir::Location loc, mlir::Value amax,
           mlir::Value outer, ScaleAlgorithm algorithm,
           const NativeConverts *native = nullptr);
/// ref: dequantizeNVFP4's block scale: the f32 value of the E4M3 `byte`
/// (i32) under the line's outer value (the amax A for Encode: fl32(fl32(s *
/// A) * fl32(1/2688)); P for Decode: fl32(P * s)).
mlir::Value nvfp4ScaleValue(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value byte, mlir::Value outer,
                            ScaleAlgorithm algorithm);
/// ref: nvfp4Scaled: x times (Encode) or divided by (Decode) `factor`.
mlir::Value nvfp4Scaled(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                        mlir::Value factor, ScaleAlgorithm algorithm);

/// What a stored fp32 block scale (blockwise FP8) asks of each block.
using ::mxq::F32ScaleRule;
/// ref: f32BlockScale: the stored scale's bits (i32) and the element factor
/// (f32) of blocks of absolute maximum `amax` (f32 scalar or vector).
std::pair<mlir::Value, mlir::Value> f32BlockScale(mlir::OpBuilder &b,
                                                  mlir::Location loc,
                                                  mlir::Value amax,
                                                  const F32ScaleRule &rule);
/// ref: f32Scaled: x divided by `factor` where f32ScaleDivides (decode,
/// exact division, no pow2), else times it (the same f32 under pow2).
mlir::Value f32Scaled(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value factor, const F32ScaleRule &rule);

/// A subnormal f32 `x` becomes zero of its sign; anything else stays (what
/// a flush-to-zero instruction does to an operand or a result).
mlir::Value flushSubnormal(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value x);

/// min(max(x, lo), hi) with NaN kept (torch.clamp, fake_quant's clip): f32
/// `x` (scalar or vector) and f32 constants `lo` <= `hi`.
mlir::Value clampKeepingNaN(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value x, float lo, float hi);

/// Replaces NaN by the canonical quiet NaN 0x7FC00000.
mlir::Value canonicalizeNaN(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value x);

/// FP4 code `k` (an index) of `bytes` (vector<n x i8>) holding codes packed
/// two per byte, element 2i in the low nibble of byte i (mxq's memory form
/// of f4E2M1FN, the same as a little-endian vector bitcast of the bytes to
/// i4): an i8 with the code in its low 4 bits.
mlir::Value packedFP4Code(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value bytes, mlir::Value k);

} // namespace mxq::numerics

#endif // MXQ_NUMERICS_NUMERICS_H
