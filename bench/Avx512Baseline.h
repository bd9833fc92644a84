//===- Avx512Baseline.h - a hand-written MXFP8 baseline ---------*- C++ -*-===//
//
// The hand-vectorized AVX-512 kernels mxq-bench compares mxq's compiled
// kernels with (issue 16): MXFP8 (E4M3) quantize along rows in blocks of 32,
// the integer amax, `rceil` scales (amax * fl32(1/448) rounded up to a power
// of two, PyTorch's MXFP_E8M0_RU), the product and RNE on the fp32 bits.
// Written the way a kernel author would write them for one core; never a
// code path of mxq. Finite inputs only (the bench's data); the bench checks
// that their bytes equal mxq's before it times them.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_BENCH_AVX512BASELINE_H
#define MXQ_BENCH_AVX512BASELINE_H

#include <cstdint>
#include <string>

namespace mxq::bench {

/// Whether this build and this CPU run the baseline; otherwise why not.
bool avx512Available(std::string &why);

/// Quantizes the n x k row-major `x` (k a multiple of 32): `codes` n * k
/// E4M3 bytes, `scales` n * (k / 32) E8M0 bytes (linear layout).
void quantizeF32(const float *x, int64_t n, int64_t k, uint8_t *codes,
                 uint8_t *scales);
/// The same for bf16 input (uint16_t bit patterns).
void quantizeBF16(const uint16_t *x, int64_t n, int64_t k, uint8_t *codes,
                  uint8_t *scales);

/// MXFP8 dual quantize of the n x n row-major bf16 `x` (n a multiple of
/// 128), as mxq.dual_quantize with rceil scales in SWIZZLE_32_4_4: `codes0`
/// n * n row-wise codes, `scales0` the swizzled row scales, `codes1` the
/// column-wise codes transposed ([column][row]), `scales1` the swizzled
/// column scales (n * n / 32 bytes each). One 32 x 32 tile at a time: the
/// rows quantized as they are read, the column maxima gathered on the way,
/// then the columns quantized and their codes transposed (scalar).
void dualQuantizeBF16(const uint16_t *x, int64_t n, uint8_t *codes0,
                      uint8_t *scales0, uint8_t *codes1, uint8_t *scales1);

} // namespace mxq::bench

#endif // MXQ_BENCH_AVX512BASELINE_H
