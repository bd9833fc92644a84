// The NVVM pipeline with format=emulator: the sm_100a kernels move into the
// host module with their converts, special registers and accesses as calls
// of the SIMT emulator's runtime; launches become mxq_emu_launch.
// RUN: mxq-opt %s --mxq-gpu-pipeline="chip=sm_100a format=emulator" | FileCheck %s

// CHECK: module attributes {mxq.emu.sites = ["load vector<8xbf16> in q_kernel::q_kernel at emulate-gpu-kernels.mlir:{{[0-9]+}}:{{[0-9]+}}", "load bf16 in q_kernel::q_kernel
// CHECK-SAME: mxq.emu.stores = array<i1: false, false
// CHECK-NOT: gpu.module
// CHECK-NOT: gpu.launch_func
// CHECK: llvm.mlir.global internal constant @__mxq_emu_name_q_kernel_q_kernel("q_kernel::q_kernel\00")
// CHECK: llvm.func @q(
// CHECK: %[[THUNK:.*]] = llvm.mlir.addressof @__mxq_emu_thunk_q_kernel_q_kernel
// CHECK: %[[NAME:.*]] = llvm.mlir.addressof @__mxq_emu_name_q_kernel_q_kernel
// CHECK: llvm.call @mxq_emu_launch(%[[THUNK]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: llvm.func @__mxq_emu_q_kernel_q_kernel(
// CHECK: llvm.call @mxq_emu_sreg(
// CHECK: llvm.call @mxq_emu_access(
// CHECK-NEXT: llvm.load
// The block amax across the block's four lanes: two butterfly shuffles.
// CHECK: llvm.call @mxq_emu_shfl(
// CHECK: llvm.call @mxq_emu_shfl(
// CHECK: llvm.call @mxq_emu_cvt_ue8m0x2(
// CHECK: llvm.call @mxq_emu_cvt_f8x2(
// CHECK: llvm.func @__mxq_emu_thunk_q_kernel_q_kernel(%{{.*}}: !llvm.ptr)
// CHECK: llvm.call @__mxq_emu_q_kernel_q_kernel(
// CHECK-NOT: nvvm.
func.func @q(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
