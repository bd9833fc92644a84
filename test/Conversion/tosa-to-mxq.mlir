// RUN: mxq-opt %s -split-input-file --convert-tosa-to-mxq | FileCheck %s

// TOSA 1.1's MXFP casts become mxq ops with the specification's rule.

// CHECK-LABEL: func @cast_to_fp4
// CHECK: mxq.quantize %{{.*}} axis = 1 scale = tosa : tensor<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>
// CHECK-NOT: tosa.
func.func @cast_to_fp4(%x: tensor<4x64xf32>) -> (tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<4x64xf32>) -> (tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>
}

// -----

// CHECK-LABEL: func @round_trip_dynamic_bf16
// CHECK: %[[Y:.*]] = mxq.dequantize %{{.*}}, %{{.*}} axis = 2 : tensor<2x?x64xf8E5M2>, tensor<2x?x2xf8E8M0FNU> -> tensor<2x?x64xbf16>
// CHECK: mxq.quantize %[[Y]] axis = 2 scale = tosa : tensor<2x?x64xbf16> -> tensor<2x?x64xf6E2M3FN>, tensor<2x?x2xf8E8M0FNU>
func.func @round_trip_dynamic_bf16(%q: tensor<2x?x64xf8E5M2>, %s: tensor<2x?x2xf8E8M0FNU>) -> (tensor<2x?x64xf6E2M3FN>, tensor<2x?x2xf8E8M0FNU>) {
  %0 = tosa.cast_from_block_scaled %q, %s {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<2x?x64xf8E5M2>, tensor<2x?x2xf8E8M0FNU>) -> tensor<2x?x64xbf16>
  %1:2 = tosa.cast_to_block_scaled %0 {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<2x?x64xbf16>) -> (tensor<2x?x64xf6E2M3FN>, tensor<2x?x2xf8E8M0FNU>)
  return %1#0, %1#1 : tensor<2x?x64xf6E2M3FN>, tensor<2x?x2xf8E8M0FNU>
}
