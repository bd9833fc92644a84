// Static inputs with results typed dynamic compile for the GPU (issue 12).
// RUN: mxq-opt %S/../../Regressions/Inputs/dynamic_results.mlir --mxq-gpu-pipeline="chip=sm_90" | FileCheck %s
// CHECK-DAG: llvm.func @quantize(
// CHECK-DAG: llvm.func @quantize_pairs_axis0(
// CHECK-DAG: llvm.func @dequantize(
// CHECK-DAG: llvm.func @dual(
// CHECK-DAG: llvm.func @two_level(
// CHECK-DAG: gpu.binary
