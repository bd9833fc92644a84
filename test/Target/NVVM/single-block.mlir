// Tensors of one block compile for the GPU on both chips (issue 12: the
// folded one-iteration block loops left their stores in host code); their
// code is a one-thread kernel. test/CPU/cookbook-single-block.test checks
// the bytes.
// RUN: mxq-opt %S/../../Regressions/Inputs/single_block.mlir --mxq-gpu-pipeline="chip=sm_90" | FileCheck %s
// RUN: mxq-opt %S/../../Regressions/Inputs/single_block.mlir --mxq-gpu-pipeline="chip=sm_100a" | FileCheck %s
// CHECK-LABEL: llvm.func @quantize_1x1(
// CHECK: gpu.launch_func
// CHECK-LABEL: llvm.func @quantize_1x32(
// CHECK: gpu.launch_func
// CHECK-LABEL: llvm.func @quantize_1000_block1024(
// CHECK: gpu.launch_func
// CHECK-LABEL: llvm.func @quantize_pairs_1x32(
// CHECK: gpu.launch_func
// CHECK-LABEL: llvm.func @quantize_swizzle_1x32(
// CHECK: gpu.launch_func
// CHECK-LABEL: llvm.func @dequantize_1x32(
// CHECK: gpu.launch_func
// CHECK-LABEL: llvm.func @dual_32x32(
// CHECK: gpu.launch_func
// CHECK-LABEL: llvm.func @two_level_1x2(
// CHECK: gpu.launch_func
// CHECK-LABEL: llvm.func @fake_quant_1x1(
// CHECK: gpu.launch_func
// CHECK: gpu.binary
