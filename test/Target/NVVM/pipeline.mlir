// RUN: mxq-opt %s --mxq-gpu-pipeline="chip=sm_90" | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: mxq-opt %s --mxq-gpu-pipeline="chip=sm_100a" | FileCheck %s --check-prefixes=CHECK,SM100A

// One kernel per block loop nest: blocks of 128 threads, each thread one row
// segment of whole MX blocks, the scale bytes stored by the thread that
// computed them; integer E8M0 and element numerics (the shared library).
// The scale padding fill is a kernel of its own, then the quantize kernel.
// CHECK: gpu.binary @q_kernel
// CHECK: gpu.binary @q_kernel_0
// SM90-SAME: #nvvm.target<chip = "sm_90", features = "+ptx78">
// SM100A-SAME: #nvvm.target<chip = "sm_100a", features = "+ptx86">
// SM90-SAME: .version 7.8\0A.target sm_90
// SM100A-SAME: .version 8.6\0A.target sm_100a
// CHECK-SAME: .visible .entry q_kernel(
// CHECK-SAME: %ctaid.x
// CHECK-SAME: %tid.y
// CHECK-SAME: ld.global
// CHECK-SAME: st.global.b8
// CHECK-NOT: .local
func.func @q(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
