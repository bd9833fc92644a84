// RUN: mxq-opt %s --mxq-gpu-pipeline="chip=sm_90" | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: mxq-opt %s --mxq-gpu-pipeline="chip=sm_100a" | FileCheck %s --check-prefixes=CHECK,SM100A

// The coalesced quantize kernel, versioned on the row strides (two
// kernels): one-dimensional blocks of 256 threads, a block's lanes combining
// their amax with shuffles, the scale byte stored by the block's first lane.
// CHECK: gpu.binary @q_kernel
// SM90-SAME: #nvvm.target<chip = "sm_90", features = "+ptx78">
// SM100A-SAME: #nvvm.target<chip = "sm_100a", features = "+ptx86">
// SM90-SAME: .version 7.8\0A.target sm_90
// SM100A-SAME: .version 8.6\0A.target sm_100a
// CHECK-SAME: .visible .entry q_kernel(
// CHECK-SAME: .maxntid 256, 1, 1
// CHECK-SAME: %ctaid.x
// CHECK-SAME: %tid.x
// CHECK-SAME: ld.global
// CHECK-SAME: shfl.sync.bfly
// CHECK-SAME: st.global.b8
// CHECK: gpu.binary @q_kernel_0
// CHECK-NOT: .local
func.func @q(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
