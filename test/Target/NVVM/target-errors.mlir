// RUN: not mxq-opt %s --mxq-gpu-pipeline="chip=sm_100a ptx=80" 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not mxq-opt %s --mxq-gpu-pipeline="chip=sm_77" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mxq-opt %s --mxq-gpu-pipeline="chip=sm_90x" 2>&1 | FileCheck %s --check-prefix=SUFFIX
// RUN: not mxq-opt %s --mxq-gpu-pipeline="chip=gfx942" 2>&1 | FileCheck %s --check-prefix=VENDOR
// RUN: not mxq-opt %s --mxq-gpu-pipeline="chip=sm_80a" 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not mxq-opt %s --convert-mxq-to-loops-nvvm="chip=sm_100a ptx=80" 2>&1 | FileCheck %s --check-prefix=NVVM
// NVVM: convert-mxq-to-loops-nvvm: the chip 'sm_100a' needs PTX 8.6 or later, but PTX 8.0 was asked for
// The checking pass on its own: an error for a chip that cannot be, the
// module unchanged for one that can.
// RUN: not mxq-opt %s --mxq-check-nvgpu-target="chip=sm_100a ptx=80" 2>&1 | FileCheck %s --check-prefix=CHECKPASS
// CHECKPASS: error: mxq-gpu-pipeline: the chip 'sm_100a' needs PTX 8.6 or later, but PTX 8.0 was asked for
// RUN: mxq-opt %s --mxq-check-nvgpu-target="chip=sm_100a ptx=86" | FileCheck %s --check-prefix=OK
// OK: mxq.quantize %{{.*}} axis = 1 scale = rceil

// A chip or PTX version that cannot express the request is an error from
// the target description, before any lowering.
// PTX: error: mxq-gpu-pipeline: the chip 'sm_100a' needs PTX 8.6 or later, but PTX 8.0 was asked for
// CHIP: error: mxq-gpu-pipeline: the chip 'sm_77' is not a target NVPTX knows
// SUFFIX: error: mxq-gpu-pipeline: the chip 'sm_90x' has an unknown suffix; expected none, 'a' (arch-specific) or 'f' (family)
// VENDOR: error: mxq-gpu-pipeline: the chip 'gfx942' is not an NVIDIA compute capability like sm_90 or sm_100a
// ARCH: error: mxq-gpu-pipeline: the chip 'sm_80a' is not a target NVPTX knows
func.func @q(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
