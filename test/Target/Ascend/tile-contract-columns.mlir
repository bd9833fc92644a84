// PyPTO's tile contract along axis -2 (its DN layout) and on rank 3: see
// tile-contract.mlir. Performance mode changes nothing along axis -2.
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=64,256})' -split-input-file | FileCheck %s
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=64,256 performance-mode=false})' -split-input-file | FileCheck %s

// The tile [64, 256]: 64 rows (two blocks) of 256 columns, two row tiles of
// two column slices over 4 cores.
// CHECK-LABEL: func.func @fp8_columns(
// CHECK-SAME: vtile.cores = 4
// CHECK: vtile.ub_buffer {bytes = 65536 : i64, offset = 0 : i64}
// CHECK: vtile.vcast {{.*}} <rint> {sat} : f32 to f8E4M3FN
func.func @fp8_columns(%x: tensor<128x512xbf16>) -> (tensor<128x512xf8E4M3FN>, tensor<2x512x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor layout = pairs
      : tensor<128x512xbf16> -> tensor<128x512xf8E4M3FN>, tensor<2x512x2xf8E8M0FNU>
  return %q, %s : tensor<128x512xf8E4M3FN>, tensor<2x512x2xf8E8M0FNU>
}

// -----

// FP4 on 128 columns: the tile's 256 columns are clamped to the view's 128
// (two row tiles over 2 cores).
// CHECK-LABEL: func.func @fp4_columns(
// CHECK-SAME: vtile.cores = 2
// CHECK: vtile.ub_buffer {bytes = 32768 : i64, offset = 0 : i64}
// CHECK: vtile.vcast {{.*}} {sat} : bf16 to f4E2M1FN
func.func @fp4_columns(%x: tensor<128x128xbf16>) -> (tensor<128x128xf4E2M1FN>, tensor<2x128x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = rceil inf = saturate layout = pairs
      : tensor<128x128xbf16> -> tensor<128x128xf4E2M1FN>, tensor<2x128x2xf8E8M0FNU>
  return %q, %s : tensor<128x128xf4E2M1FN>, tensor<2x128x2xf8E8M0FNU>
}
