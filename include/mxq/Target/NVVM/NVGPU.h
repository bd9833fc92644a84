//===- NVGPU.h - the NVIDIA target description ------------------*- C++ -*-===//
//
// The one place that knows what an NVIDIA chip and PTX version can express.
// Every GPU lowering decision (which converts are native, which features to
// ask LLVM for) asks this description instead of testing chip names.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_NVGPU_H
#define MXQ_TARGET_NVGPU_H

#include <optional>
#include <string>

namespace mxq {

struct NVGPUTarget {
  int sm = 90;              ///< Compute capability times ten (sm_90 -> 90).
  char suffix = 0;          ///< 'a' (arch-specific), 'f' (family) or 0.
  int ptx = 80;             ///< PTX ISA version times ten (8.0 -> 80).

  /// Parses `chip` ("sm_90", "sm_100a", ...) and `ptx` (e.g. 86; 0 for the
  /// chip's minimum); on an
  /// unknown chip or a PTX version the chip cannot use, returns nothing and
  /// sets `error` to a sentence naming the problem.
  static std::optional<NVGPUTarget> parse(const std::string &chip, int ptx,
                                          std::string &error);

  std::string chip() const;
  /// The LLVM NVPTX feature string for the PTX version ("+ptx80").
  std::string features() const;
  /// The smallest PTX version the chip accepts.
  static int minimumPTX(int sm, char suffix);

  /// cvt.rn.satfinite.{e4m3,e5m2}x2.f32: sm_89 with PTX 8.1, sm_90 and later.
  bool hasNativeFP8Convert() const;
  /// cvt.rp.ue8m0x2.f32, cvt.rn.satfinite.e2m1x2.f32, e2m3x2/e3m2x2: only
  /// arch-specific or family targets of sm_100 and later.
  bool hasNativeE8M0Convert() const;
  bool hasNativeFP4Convert() const;
  /// cvt.rn.satfinite.{e2m3,e3m2}x2.f32: as E2M1.
  bool hasNativeFP6Convert() const;
};

} // namespace mxq

#endif // MXQ_TARGET_NVGPU_H
