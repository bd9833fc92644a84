// The kernels of every op family, on both chips: the native converts the
// target description allows (e4m3 on sm_90; also e2m1 and ue8m0 on sm_100a,
// integer code for them on sm_90), 128-bit global loads and stores, and no
// local memory anywhere.
// RUN: mxq-opt %s --mxq-gpu-pipeline="chip=sm_90" | %PYTHON %S/Inputs/extract_ptx.py - - | FileCheck %s --check-prefixes=CHECK,SM90 --implicit-check-not=.local --implicit-check-not=e2m1x2 --implicit-check-not=ue8m0x2
// RUN: mxq-opt %s --mxq-gpu-pipeline="chip=sm_100a" | %PYTHON %S/Inputs/extract_ptx.py - - | FileCheck %s --check-prefixes=CHECK,SM100A --implicit-check-not=.local

// SM90: .target sm_90
// SM100A: .target sm_100a

// MXFP8 quantize (the coalesced kernel): a lane loads 8 elements as 128
// bits, the block's 4 lanes combine their amax by shuffles, its 8 codes are
// stored as 64 bits, the first lane stores the scale byte.
// CHECK-LABEL: .entry q8_kernel(
// CHECK-DAG: ld.global.v4.b32
// CHECK-DAG: shfl.sync.bfly
// CHECK-DAG: cvt.rn.satfinite.e4m3x2.f32
// SM100A-DAG: cvt.rp.ue8m0x2.f32
// CHECK-DAG: st.global.v2.b32
// CHECK-DAG: st.global.b8
func.func @q8(%x: tensor<64x128xbf16>) -> (tensor<64x128xf8E4M3FN>, tensor<64x4xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x4xf8E8M0FNU>
  return %q, %s : tensor<64x128xf8E4M3FN>, tensor<64x4xf8E8M0FNU>
}

// FP4 quantize: the coalesced kernel (8 codes packed two per byte, stored
// as 32 bits where the row pitch allows; the pairs layout's padding, where
// there is one, stored by the kernel, no fill); native e2m1 pairs on sm_100a
// only.
// CHECK-LABEL: .entry q4_kernel(
// CHECK-DAG: ld.global.v4.b32
// CHECK-DAG: st.global.b32
// SM100A-DAG: cvt.rn.satfinite.e2m1x2.f32
// SM100A-DAG: cvt.rp.ue8m0x2.f32
func.func @q4(%x: tensor<64x128xbf16>) -> (tensor<64x128xf4E2M1FN>, tensor<64x2x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil inf = saturate layout = pairs : tensor<64x128xbf16> -> tensor<64x128xf4E2M1FN>, tensor<64x2x2xf8E8M0FNU>
  return %q, %s : tensor<64x128xf4E2M1FN>, tensor<64x2x2xf8E8M0FNU>
}

// Dual quantize reads its input once: a thread block per 128 x 128 tile,
// the tile in shared memory (128-bit stores), the row pass with shuffles,
// the column pass from the shared tile, the column codes staged in shared
// memory and written out as 128-bit rows of [K, M], both scale atoms as 512
// contiguous bytes.
// CHECK-LABEL: .entry dual_kernel(
// CHECK-DAG: .shared .align 16 .b8
// CHECK-DAG: ld.global.v4.b32
// CHECK-DAG: st.shared.v4.b32
// CHECK-DAG: bar.sync
// CHECK-DAG: shfl.sync.bfly
// CHECK-DAG: ld.shared.v4.b32
// CHECK-DAG: st.global.v4.b32
// CHECK-NOT: .entry dual_kernel
func.func @dual(%x: tensor<128x128xbf16>) -> (tensor<128x128xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<128x128xf8E4M3FN>, tensor<512xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<128x128xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<128x128xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<128x128xf8E4M3FN>, tensor<512xf8E8M0FNU>
}

// Two-level: a warp per 512-element block, each lane two 128-bit loads,
// the level-0 maximum over the warp (5 shuffles), each group's exponent over
// its 4 lanes (2 shuffles per half), 8 codes packed into 32 bits; native
// e2m1 on sm_100a.
// CHECK-LABEL: .entry two_kernel(
// CHECK-DAG: ld.global.v4.b32
// CHECK-DAG: shfl.sync.bfly
// CHECK-DAG: st.global.b32
// SM100A-DAG: cvt.rn.satfinite.e2m1x2.f32
// CHECK-NOT: .entry two_kernel
func.func @two(%x: tensor<64x1024xbf16>) -> (tensor<64x1024xf4E2M1FN>, tensor<64x2xf32>, tensor<64x16x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = rne : tensor<64x1024xbf16> -> tensor<64x1024xf4E2M1FN>, tensor<64x2xf32>, tensor<64x16x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<64x1024xf4E2M1FN>, tensor<64x2xf32>, tensor<64x16x2xf8E8M0FNU>
}

// Fake quant: one element per thread (coalesced 32-bit accesses), the e4m3
// rounding native on both chips.
// CHECK-LABEL: .entry fq_kernel(
// CHECK: cvt.rn.satfinite.e4m3x2.f32
func.func @fq(%x: tensor<64x128xf32>, %step: tensor<1xf32>, %zp: tensor<1xf32>) -> tensor<64x128xf32> {
  %y = mxq.fake_quant %x, %step, %zp format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 : tensor<64x128xf32>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<64x128xf32>
}

// Dequantize (the coalesced kernel): a lane reads 4 codes (32 bits) and its
// block's scale byte and writes 4 f32 values as 128 bits.
// CHECK-LABEL: .entry dq_kernel(
// CHECK-DAG: ld.global.b32
// CHECK-DAG: ld.global.b8
// CHECK-DAG: st.global.v4.b32
func.func @dq(%q: tensor<64x128xf8E4M3FN>, %s: tensor<64x4xf8E8M0FNU>) -> tensor<64x128xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear : tensor<64x128xf8E4M3FN>, tensor<64x4xf8E8M0FNU> -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// Dynamic shapes: each kernel is versioned on the row strides. The version
// for strides that are multiples of 16 bytes uses 128-bit loads (and 64-bit
// code stores).
// CHECK-LABEL: .entry dyn_kernel(
// CHECK: ld.global.v4.b32
// CHECK: st.global.v2.b32
// CHECK-LABEL: .entry dyn_kernel(
// CHECK-NOT: ld.global.v4
// CHECK: ld.global.b16
func.func @dyn(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
