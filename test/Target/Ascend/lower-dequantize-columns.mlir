// The lowered IR of a dequantize along a non-last axis (the numerics are
// cookbook.test's, against the reference).
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline)' | FileCheck %s

// Dequantize along axis 0 with pair scales: one burst of 128 byte pairs
// for the tile's two block-rows, split into two rows of u32 lanes (low and
// high byte), then each row of decoded codes times its block-row's scale
// values (the scale row re-read by every row: repeat stride 0).
// CHECK-LABEL: func.func @dequant_columns(
// CHECK:   vtile.copy_gm_to_ub %arg1{{.*}} bursts %c1 x %c256
// CHECK:   vtile.vcast {{.*}} <none> : f8E4M3FN to f32
// CHECK:   vtile.vcast {{.*}} <none> : ui16 to ui32
// CHECK:   vtile.vscalar <and> {{.*}}, 255 : ui32
// CHECK:   vtile.vscalar <shr> {{.*}}, 8 : ui32
// CHECK:   vtile.vbinary <mul> {{.*}} {repeat_strides = array<i64: 16, 16, 0>} : f32
func.func @dequant_columns(%q: tensor<64x128xf8E4M3FN>, %s: tensor<1x128x2xf8E8M0FNU>) -> tensor<64x128xf32> {
  %y = mxq.dequantize %q, %s axis = 0 layout = pairs : tensor<64x128xf8E4M3FN>, tensor<1x128x2xf8E8M0FNU> -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}
