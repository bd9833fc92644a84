//===- Avx512Baseline.cpp - hand-written MXFP8 quantize, a measuring stick ===//
//
// See Avx512Baseline.h. Compiled for any x86-64 compiler through function
// target attributes, and run only where the CPU has AVX-512 F and BW.
//
//===----------------------------------------------------------------------===//
#include "Avx512Baseline.h"

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MXQ_BASELINE_X86 1
// GCC 12's AVX-512 headers start vectors from _mm512_undefined_*, which
// -Wmaybe-uninitialized reports at every use (a known false positive).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#endif

namespace mxq::bench {

#ifdef MXQ_BASELINE_X86

bool avx512Available(std::string &why) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
    return true;
  why = "this CPU has no AVX-512 F and BW";
  return false;
}

namespace {

#define MXQ_AVX512 __attribute__((target("avx512f,avx512bw")))

/// E4M3 codes of 16 fp32 values |y| <= 448 (RNE; subnormals by a
/// round-to-nearest-even conversion of |y| * 2^9).
MXQ_AVX512 inline __m128i encode(__m512 y) {
  const __m512i bits = _mm512_castps_si512(y);
  const __m512i abs = _mm512_and_si512(bits, _mm512_set1_epi32(0x7FFFFFFF));
  const __m512i sign =
      _mm512_and_si512(_mm512_srli_epi32(bits, 24), _mm512_set1_epi32(0x80));
  // Normal: round the mantissa to 3 bits on the bits, rebias 127 -> 7.
  const __m512i lsb =
      _mm512_and_si512(_mm512_srli_epi32(abs, 20), _mm512_set1_epi32(1));
  const __m512i rounded =
      _mm512_add_epi32(_mm512_add_epi32(abs, _mm512_set1_epi32(0x7FFFF)), lsb);
  const __m512i normal = _mm512_sub_epi32(_mm512_srli_epi32(rounded, 20),
                                          _mm512_set1_epi32(120 << 3));
  // Subnormal (|y| < 2^-6): steps of 2^-9.
  const __m512i sub = _mm512_cvtps_epi32(
      _mm512_mul_ps(_mm512_castsi512_ps(abs), _mm512_set1_ps(512.0f)));
  const __mmask16 small =
      _mm512_cmplt_epu32_mask(abs, _mm512_set1_epi32(0x3C800000));
  __m512i code = _mm512_mask_blend_epi32(small, normal, sub);
  code = _mm512_min_epu32(code, _mm512_set1_epi32(0x7E));
  return _mm512_cvtepi32_epi8(_mm512_or_si512(code, sign));
}

/// The rceil scale byte of a block of amax bits, and its multiplier.
inline uint8_t scaleOf(uint32_t amaxBits, float &multiplier) {
  float amax;
  std::memcpy(&amax, &amaxBits, 4);
  float d = amax * (1.0f / 448.0f);
  uint32_t db;
  std::memcpy(&db, &d, 4);
  uint32_t e = (db >> 23) & 0xFF, m = db & 0x7FFFFF;
  uint32_t s = e + (e == 0 ? m > 0x400000 : m != 0);
  uint32_t rb = (254 - s) << 23; // 2^(127 - s), s <= 253 for finite data
  std::memcpy(&multiplier, &rb, 4);
  return uint8_t(s);
}

/// One block of 32 values in two vectors.
MXQ_AVX512 inline void block(__m512 v0, __m512 v1, uint8_t *codes,
                             uint8_t *scale) {
  const __m512i mask = _mm512_set1_epi32(0x7FFFFFFF);
  __m512i a = _mm512_max_epu32(_mm512_and_si512(_mm512_castps_si512(v0), mask),
                               _mm512_and_si512(_mm512_castps_si512(v1), mask));
  float r;
  *scale = scaleOf(uint32_t(_mm512_reduce_max_epu32(a)), r);
  const __m512 rv = _mm512_set1_ps(r);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(codes),
                   encode(_mm512_mul_ps(v0, rv)));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(codes + 16),
                   encode(_mm512_mul_ps(v1, rv)));
}

} // namespace

MXQ_AVX512 void quantizeF32(const float *x, int64_t n, int64_t k,
                            uint8_t *codes, uint8_t *scales) {
  int64_t blocks = k / 32;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t b = 0; b < blocks; ++b) {
      const float *p = x + i * k + b * 32;
      block(_mm512_loadu_ps(p), _mm512_loadu_ps(p + 16), codes + i * k + b * 32,
            scales + i * blocks + b);
    }
}

MXQ_AVX512 void quantizeBF16(const uint16_t *x, int64_t n, int64_t k,
                             uint8_t *codes, uint8_t *scales) {
  int64_t blocks = k / 32;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t b = 0; b < blocks; ++b) {
      __m512i h = _mm512_loadu_si512(x + i * k + b * 32);
      __m512i lo = _mm512_slli_epi32(
          _mm512_cvtepu16_epi32(_mm512_castsi512_si256(h)), 16);
      __m512i hi = _mm512_slli_epi32(
          _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(h, 1)), 16);
      block(_mm512_castsi512_ps(lo), _mm512_castsi512_ps(hi),
            codes + i * k + b * 32, scales + i * blocks + b);
    }
}

#else

bool avx512Available(std::string &why) {
  why = "the baseline is x86-64 AVX-512 code, and this is not an x86-64 "
        "build";
  return false;
}
void quantizeF32(const float *, int64_t, int64_t, uint8_t *, uint8_t *) {}
void quantizeBF16(const uint16_t *, int64_t, int64_t, uint8_t *, uint8_t *) {}

#endif

} // namespace mxq::bench
