// PyPTO's tile contract on rank 3: the tile [2, 4, 512] is 2 x 4 rows of
// whole inner dimensions (see tile-contract.mlir).
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=2,4,512})' | FileCheck %s

// CHECK-LABEL: func.func @rank3(
// CHECK-SAME: vtile.cores = 2
// CHECK: vtile.ub_buffer {bytes = 16384 : i64, offset = 0 : i64}
func.func @rank3(%x: tensor<4x4x512xbf16>) -> (tensor<4x4x512xf8E4M3FN>, tensor<4x4x16xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 2 scale = floor
      : tensor<4x4x512xbf16> -> tensor<4x4x512xf8E4M3FN>, tensor<4x4x16xf8E8M0FNU>
  return %q, %s : tensor<4x4x512xf8E4M3FN>, tensor<4x4x16xf8E8M0FNU>
}
