//===- NVVMConverts.h - native NVIDIA converts for the numerics -*- C++ -*-===//
//
// What the NVIDIA target adds to the shared numerics: its conversion
// instructions (nvvm.convert.f32x2.to.{f8x2,f6x2,f4x2}), offered only where
// the target description says the chip has them.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_NVVMCONVERTS_H
#define MXQ_TARGET_NVVMCONVERTS_H

#include "mxq/Numerics/Numerics.h"
#include "mxq/Target/NVVM/NVGPU.h"

#include <memory>

namespace mxq {

/// The native converts of `target` as NVVM ops: E4M3/E5M2 from sm_89/PTX 8.1
/// and sm_90, E8M0 (round up), E2M1 and E2M3/E3M2 on arch-specific or family
/// sm_100+ targets. Pairs are packed in the instruction's operand order (the
/// first operand lands in the upper byte or nibble) and unpacked again, so
/// callers see one code per element, in element order.
std::unique_ptr<numerics::NativeConverts>
makeNVVMConverts(const NVGPUTarget &target);

} // namespace mxq

#endif // MXQ_TARGET_NVVMCONVERTS_H
