// RUN: mxq-opt %s --convert-mxq-to-loops-nvvm="chip=sm_90 coalesced=false" | FileCheck %s --check-prefix=SM90
// RUN: mxq-opt %s --convert-mxq-to-loops-nvvm="chip=sm_100a coalesced=false" | FileCheck %s --check-prefix=SM100
// RUN: mxq-opt %s --convert-mxq-to-loops | FileCheck %s --check-prefix=SHARED
// RUN: mxq-opt %s --convert-mxq-to-loops-nvvm="chip=sm_100a" | FileCheck %s --check-prefix=COAL

// The target's own kernels (coalesced, the default): a launch of 256-thread
// blocks, a block's lanes combining their amax with butterfly shuffles (8
// lanes of 4 f32 elements: offsets 1, 2, 4), the same native converts.
// COAL-LABEL: func.func @e4m3
// COAL: gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// COAL: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : i32
// COAL: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : i32
// COAL: gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32 : i32
// COAL: nvvm.convert.f32x2.to.f8x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rp>} : i16(f8E8M0FNU)
// COAL: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E4M3FN)
// Dual quantize reads each 128 x 128 tile once into shared memory: the
// row pass (shuffles), a barrier, the column pass from the shared tile.
// COAL-LABEL: func.func @dual
// COAL: gpu.launch {{.*}} workgroup(%{{.*}} : memref<33792xi8, #gpu.address_space<workgroup>>)
// COAL: gpu.barrier
// COAL: gpu.shuffle  xor
// COAL: gpu.barrier
// COAL-NOT: linalg.transpose

// The shared expansion with the chip's native converts where the target
// description says they exist and are exact. Pairs go in operand order
// (element 2i+1 first, so element 2i lands in the low half).
// sm_90: e4m3 codes through cvt.rn.satfinite.e4m3x2; scales and FP4 stay
// integer code.
// SM90-LABEL: func.func @e4m3
// (The pass does not fold: lanes 0 and 1 of the group's product, whether
// taken from the 4 x 32 tile or from its flat 128-lane form.)
// SM90: %[[A:.*]] = vector.extract %{{.*}}[{{(0, )?}}0] : f32 from vector<{{4x32|128}}xf32>
// SM90-NEXT: %[[B:.*]] = vector.extract %{{.*}}[{{(0, )?}}1] : f32 from vector<{{4x32|128}}xf32>
// SM90-NEXT: nvvm.convert.f32x2.to.f8x2 %[[B]], %[[A]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
// SM90-NOT: f8E8M0FNU)
// SM90-LABEL: func.func @e2m1
// SM90-NOT: nvvm.convert
// SM90: return
// sm_100a: also the RCEIL scale byte (cvt.rp.ue8m0x2) and FP4 codes.
// SM100-LABEL: func.func @e4m3
// SM100: nvvm.convert.f32x2.to.f8x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rp>} : i16(f8E8M0FNU)
// SM100: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E4M3FN)
// SM100-LABEL: func.func @e2m1
// SM100: nvvm.convert.f32x2.to.f4x2 {{.*}} : i8(f4E2M1FN)
// Without the coalesced kernels, dual quantize is two quantizes and a
// transpose on a GPU (no fused tile).
// SM90-LABEL: func.func @dual
// SM90-NOT: vector<32x32x
// SM90: linalg.transpose
// The shared pass itself names no target.
// SHARED-NOT: nvvm.
// SHARED-LABEL: func.func @dual
// SHARED: vector<32x32x
func.func @e4m3(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
func.func @e2m1(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}
func.func @dual(%x: tensor<64x64xbf16>) -> (tensor<64x64xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<64x64xf8E4M3FN>, tensor<512xf8E8M0FNU>) {
  %q0, %s0, %q1, %s1 = mxq.dual_quantize %x scale = rceil : tensor<64x64xbf16> -> tensor<64x64xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<64x64xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return %q0, %s0, %q1, %s1 : tensor<64x64xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<64x64xf8E4M3FN>, tensor<512xf8E8M0FNU>
}
