//===- Avx512Baseline.cpp - a hand-written MXFP8 quantize baseline --------===//
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

/// The 32 bf16 values of row r at `at` (row pitch n) as two f32 vectors.
MXQ_AVX512 inline void loadRow(const uint16_t *at, int64_t n, int64_t r,
                               __m512 &v0, __m512 &v1) {
  __m512i h = _mm512_loadu_si512(at + r * n);
  v0 = _mm512_castsi512_ps(
      _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm512_castsi512_si256(h)), 16));
  v1 = _mm512_castsi512_ps(_mm512_slli_epi32(
      _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(h, 1)), 16));
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
      __m512 v0, v1;
      loadRow(x + b * 32, k, i, v0, v1);
      block(v0, v1, codes + i * k + b * 32, scales + i * blocks + b);
    }
}

namespace {
/// The rceil scale bytes and multipliers of 16 blocks at once (their amax
/// bits in `amax`).
MXQ_AVX512 inline __m512 scalesOf(__m512i amax, __m128i &bytes) {
  __m512 d =
      _mm512_mul_ps(_mm512_castsi512_ps(amax), _mm512_set1_ps(1.0f / 448.0f));
  __m512i db = _mm512_castps_si512(d);
  __m512i e =
      _mm512_and_si512(_mm512_srli_epi32(db, 23), _mm512_set1_epi32(0xFF));
  __m512i m = _mm512_and_si512(db, _mm512_set1_epi32(0x7FFFFF));
  __mmask16 zeroE = _mm512_cmpeq_epi32_mask(e, _mm512_setzero_si512());
  __mmask16 upNormal = _mm512_cmpneq_epi32_mask(m, _mm512_setzero_si512());
  __mmask16 upSub = _mm512_cmpgt_epu32_mask(m, _mm512_set1_epi32(0x400000));
  __mmask16 up = (zeroE & upSub) | (~zeroE & upNormal);
  __m512i s = _mm512_mask_add_epi32(e, up, e, _mm512_set1_epi32(1));
  bytes = _mm512_cvtepi32_epi8(s);
  return _mm512_castsi512_ps(
      _mm512_slli_epi32(_mm512_sub_epi32(_mm512_set1_epi32(254), s), 23));
}

inline int64_t swizzled(int64_t r, int64_t c, int64_t cols) {
  int64_t tilesPerBand = (cols + 3) / 4;
  int64_t tile = (r / 128) * tilesPerBand + c / 4;
  return 512 * tile + (r % 32) * 16 + ((r % 128) / 32) * 4 + (c % 4);
}

} // namespace

MXQ_AVX512 void dualQuantizeBF16(const uint16_t *x, int64_t n, uint8_t *codes0,
                                 uint8_t *scales0, uint8_t *codes1,
                                 uint8_t *scales1) {
  const int64_t blocks = n / 32;
  const __m512i mask = _mm512_set1_epi32(0x7FFFFFFF);
  alignas(64) uint8_t t[32][32];
  for (int64_t ti = 0; ti < blocks; ++ti)
    for (int64_t tj = 0; tj < blocks; ++tj) {
      const uint16_t *at = x + ti * 32 * n + tj * 32;
      __m512i col0 = _mm512_setzero_si512(), col1 = _mm512_setzero_si512();
      // Rows: quantized as read; the column maxima on the way.
      for (int64_t r = 0; r < 32; ++r) {
        __m512 v0, v1;
        loadRow(at, n, r, v0, v1);
        int64_t row = ti * 32 + r;
        uint8_t s;
        block(v0, v1, codes0 + row * n + tj * 32, &s);
        scales0[swizzled(row, tj, blocks)] = s;
        col0 = _mm512_max_epu32(
            col0, _mm512_and_si512(_mm512_castps_si512(v0), mask));
        col1 = _mm512_max_epu32(
            col1, _mm512_and_si512(_mm512_castps_si512(v1), mask));
      }
      // Columns: 32 scales at once, then each row's codes of the columns,
      // transposed on the way out.
      __m128i bytes0, bytes1;
      __m512 r0 = scalesOf(col0, bytes0), r1 = scalesOf(col1, bytes1);
      alignas(16) uint8_t sb[32];
      _mm_store_si128(reinterpret_cast<__m128i *>(sb), bytes0);
      _mm_store_si128(reinterpret_cast<__m128i *>(sb + 16), bytes1);
      for (int64_t c = 0; c < 32; ++c)
        scales1[swizzled(tj * 32 + c, ti, blocks)] = sb[c];
      for (int64_t r = 0; r < 32; ++r) {
        __m512 v0, v1;
        loadRow(at, n, r, v0, v1);
        _mm_store_si128(reinterpret_cast<__m128i *>(&t[r][0]),
                        encode(_mm512_mul_ps(v0, r0)));
        _mm_store_si128(reinterpret_cast<__m128i *>(&t[r][16]),
                        encode(_mm512_mul_ps(v1, r1)));
      }
      for (int64_t c = 0; c < 32; ++c) {
        uint8_t *out = codes1 + (tj * 32 + c) * n + ti * 32;
        for (int64_t r = 0; r < 32; ++r)
          out[r] = t[r][c];
      }
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
void dualQuantizeBF16(const uint16_t *, int64_t, uint8_t *, uint8_t *,
                      uint8_t *, uint8_t *) {}

#endif

} // namespace mxq::bench
