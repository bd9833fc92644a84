//===- NVGPU.cpp - the NVIDIA target description --------------------------===//
#include "mxq/Target/NVVM/NVGPU.h"

#include <cctype>

namespace mxq {

int NVGPUTarget::minimumPTX(int sm, char suffix) {
  // The first PTX version that knows each target (PTX ISA release notes).
  if (sm >= 120)
    return suffix == 'f' ? 88 : 87;
  if (sm >= 110)
    return 90;
  if (sm >= 103)
    return 88;
  if (sm >= 100)
    return suffix == 'f' ? 88 : 86;
  if (sm >= 90)
    return suffix == 'a' ? 80 : 78;
  if (sm >= 89)
    return 78;
  if (sm >= 80)
    return 70;
  return 60;
}

std::optional<NVGPUTarget> NVGPUTarget::parse(const std::string &chip,
                                              int ptx, std::string &error) {
  NVGPUTarget t;
  size_t i = 3;
  if (chip.rfind("sm_", 0) != 0 || chip.size() < 5 ||
      !std::isdigit(static_cast<unsigned char>(chip[i]))) {
    error = "the chip '" + chip + "' is not an NVIDIA compute capability "
            "like sm_90 or sm_100a";
    return std::nullopt;
  }
  t.sm = 0;
  while (i < chip.size() && std::isdigit(static_cast<unsigned char>(chip[i])))
    t.sm = t.sm * 10 + (chip[i++] - '0');
  if (i < chip.size()) {
    t.suffix = chip[i++];
    if ((t.suffix != 'a' && t.suffix != 'f') || i != chip.size()) {
      error = "the chip '" + chip + "' has an unknown suffix; expected none, "
              "'a' (arch-specific) or 'f' (family)";
      return std::nullopt;
    }
  }
  static const int known[] = {50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86,
                              87, 89, 90, 100, 101, 103, 110, 120, 121};
  bool isKnown = false;
  for (int k : known)
    isKnown |= k == t.sm;
  if (!isKnown || (t.suffix && t.sm < 90)) {
    error = "the chip '" + chip + "' is not a target NVPTX knows";
    return std::nullopt;
  }
  int minimum = minimumPTX(t.sm, t.suffix);
  if (ptx == 0)
    ptx = minimum;
  t.ptx = ptx;
  if (ptx < minimum) {
    error = "the chip '" + chip + "' needs PTX " + std::to_string(minimum / 10) +
            "." + std::to_string(minimum % 10) + " or later, but PTX " +
            std::to_string(ptx / 10) + "." + std::to_string(ptx % 10) +
            " was asked for";
    return std::nullopt;
  }
  return t;
}

std::string NVGPUTarget::chip() const {
  std::string c = "sm_" + std::to_string(sm);
  if (suffix)
    c += suffix;
  return c;
}

std::string NVGPUTarget::features() const {
  return "+ptx" + std::to_string(ptx);
}

bool NVGPUTarget::hasNativeFP8Convert() const {
  return sm >= 90 || (sm == 89 && ptx >= 81);
}

bool NVGPUTarget::hasNativeE8M0Convert() const {
  return sm >= 100 && suffix != 0;
}

bool NVGPUTarget::hasNativeFP6Convert() const {
  return sm >= 100 && suffix != 0;
}

bool NVGPUTarget::hasNativeFP4Convert() const {
  return sm >= 100 && suffix != 0;
}

} // namespace mxq
