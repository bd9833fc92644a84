// convert-mxq-to-vtile: the kernel of a last-axis quantize. The flags
// follow the double-buffer protocol (free buffers marked in the prologue,
// MTE2 -> V on load, V -> MTE2 once the input is consumed, MTE3 -> V before
// the outputs are rewritten, V -> MTE3 before they go out, drained at the
// end), and the recipe is the exact integer scale of docs/Rationale.md.
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline)' -split-input-file | FileCheck %s
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{chip=950dt double-buffer=false})' -split-input-file | FileCheck %s --check-prefix=SINGLE
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-rows=1 tile-cols=512})' -split-input-file | FileCheck %s --check-prefix=TILE

// CHECK: module attributes {vtile.chip = "950pr"}
// CHECK-LABEL: func.func @quant_mx_fp8_bf16(
// CHECK-SAME: %[[X:.*]]: memref<64x4096xbf16, #vtile.space<gm>>, %[[Q:.*]]: memref<64x4096xf8E4M3FN, #vtile.space<gm>>, %[[S:.*]]: memref<64x64x2xf8E8M0FNU, #vtile.space<gm>>)
// CHECK-SAME: attributes {vtile.cores = 56 : i64, vtile.kernel}
// CHECK: vtile.core_id
// CHECK: vtile.set_flag[<v>, <mte2>, %c0]
// CHECK: vtile.set_flag[<mte3>, <v>, %c0]
// CHECK: vtile.set_flag[<v>, <mte2>, %c1]
// CHECK: vtile.set_flag[<mte3>, <v>, %c1]
// CHECK: scf.for
// CHECK:   %[[P:.*]] = arith.remui
// CHECK:   vtile.wait_flag[<v>, <mte2>, %[[P]]]
// CHECK:   vtile.copy_gm_to_ub %[[X]][{{.*}}] to {{.*}} {pad_value = 0 : i64}
// CHECK:   vtile.set_flag[<mte2>, <v>, %[[P]]]
// CHECK:   vtile.wait_flag[<mte2>, <v>, %[[P]]]
// CHECK:   vtile.vcast {{.*}} <none> : bf16 to f32
// CHECK:   vtile.set_flag[<v>, <mte2>, %[[P]]]
// CHECK:   vtile.vscalar <and> {{.*}}, 2147483647 : ui32
// CHECK:   vtile.vreduce_group <max> {{.*}} {group = 32 : i64} : ui32
// The block recipe (mxq/Numerics/Recipes.h, scaleByte with floor): the
// exponent field (the amax bits have no sign: no mask), clamp(e - emax, 0,
// 254) as min(max(e, emax) - emax, 254) (the vtile domain's rewrite of the
// recipe's select), then Inf and NaN, both 0xFF with inf = nan: one select
// (the domain's rewrite of the recipe's two).
// CHECK:   vtile.vscalar <shr> {{.*}}, 23 : ui32
// CHECK-NEXT: vtile.vscalar <max> {{.*}}, 8 : ui32
// CHECK-NEXT: vtile.vscalar <sub> {{.*}}, 8 : ui32
// CHECK-NEXT: vtile.vscalar <min> {{.*}}, 254 : ui32
// CHECK-NEXT: vtile.vdup {{.*}}, 255 : ui32
// CHECK-NEXT: vtile.vcmps <ge> {{.*}}, 2139095040 : ui32
// CHECK-NEXT: vtile.vsel
// scaleMultiplierBits: (254 - s) << 23, 2^-127 for 254, NaN for 255.
// CHECK:   vtile.vscalar <mul> {{.*}}, 4294967295 : ui32
// CHECK:   vtile.vscalar <add> {{.*}}, 254 : ui32
// CHECK:   vtile.vscalar <shl> {{.*}}, 23 : ui32
// CHECK:   vtile.vcmps <eq> {{.*}}, 254 : ui32
// CHECK:   vtile.vsel
// CHECK:   vtile.vcmps <eq> {{.*}}, 255 : ui32
// CHECK:   vtile.vsel
// CHECK:   vtile.wait_flag[<mte3>, <v>, %[[P]]]
// CHECK:   vtile.vcast {{.*}} <none> : ui32 to ui8
// CHECK:   vtile.vbrc_group {{.*}} {group = 32 : i64} : ui32
// CHECK:   vtile.vbinary <mul> {{.*}} : f32
// nan_element = max: CTRL[50] set, so that the saturating cast keeps NaN.
// CHECK:   vtile.set_ctrl[50] = true
// CHECK:   vtile.vcast {{.*}} <rint> {sat} : f32 to f8E4M3FN
// CHECK:   vtile.set_flag[<v>, <mte3>, %[[P]]]
// CHECK:   vtile.wait_flag[<v>, <mte3>, %[[P]]]
// CHECK:   vtile.copy_ub_to_gm {{.*}} to %[[Q]]
// CHECK:   vtile.copy_ub_to_gm {{.*}} to %[[S]]
// CHECK:   vtile.set_flag[<mte3>, <v>, %[[P]]]
// CHECK: }
// CHECK: vtile.wait_flag[<v>, <mte2>, %c0]
// CHECK: vtile.wait_flag[<mte3>, <v>, %c0]
// CHECK: vtile.wait_flag[<v>, <mte2>, %c1]
// CHECK: vtile.wait_flag[<mte3>, <v>, %c1]

// SINGLE: module attributes {vtile.chip = "950dt"}
// SINGLE: vtile.cores = 64 : i64
// SINGLE: vtile.set_flag[<v>, <mte2>, %c0]
// SINGLE-NOT: vtile.set_flag[<v>, <mte2>, %c1]
// SINGLE: scf.for
// SINGLE: vtile.wait_flag[<v>, <mte2>, %c0]

// TILE: vtile.cores = 56 : i64
// TILE: vtile.vreduce_group <max> {{.*}} repeat %c8 {group = 32 : i64}
// TILE: vtile.vcast {{.*}} {block_strides = array<i64: 1, 1>, mask = 16 : i64, repeat_strides = array<i64: 1, 2>} : ui32 to ui8
func.func @quant_mx_fp8_bf16(%x: tensor<64x4096xbf16>) -> (tensor<64x4096xf8E4M3FN>, tensor<64x64x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor layout = pairs
      : tensor<64x4096xbf16> -> tensor<64x4096xf8E4M3FN>, tensor<64x64x2xf8E8M0FNU>
  return %q, %s : tensor<64x4096xf8E4M3FN>, tensor<64x64x2xf8E8M0FNU>
}

// -----

// f32 input is its own f32 view: no cast, and the input buffer is free only
// after the multiply. A ragged last slice (100 columns) is zeroed first
// (here the only slice, so the test of it folds away), and its rows land
// 256 floats apart: 400 bytes, then a gap of 19 blocks.
// CHECK-LABEL: func.func @fp8_f32_ragged(
// CHECK-SAME: vtile.cores = 3 : i64
// CHECK: scf.for
// CHECK:   vtile.wait_flag[<v>, <mte2>, %[[P:.*]]]
// CHECK:   vtile.vdup {{.*}}, 0 : ui32
// CHECK:   vtile.set_flag[<v>, <mte2>, %c2]
// CHECK:   vtile.wait_flag[<v>, <mte2>, %c2]
// CHECK:   vtile.copy_gm_to_ub {{.*}} bursts %{{.*}} x %c400 strides(%c0, %c19)
// CHECK-NOT: vtile.vcast {{.*}} to f32
// CHECK:   vtile.vbinary <mul> {{.*}} : f32
// CHECK:   vtile.set_flag[<v>, <mte2>, %[[P]]]
// CHECK:   vtile.vcast {{.*}} <rint> {sat} : f32 to f8E5M2
func.func @fp8_f32_ragged(%x: tensor<3x100xf32>) -> (tensor<3x100xf8E5M2>, tensor<3x4xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor
      : tensor<3x100xf32> -> tensor<3x100xf8E5M2>, tensor<3x4xf8E8M0FNU>
  return %q, %s : tensor<3x100xf8E5M2>, tensor<3x4xf8E8M0FNU>
}

// -----

// FP4: the product goes to bf16 (floor keeps tiny negatives negative) and
// through the bf16 -> e2m1 cast with the op's rounding; NaN lanes become
// the largest code first (the cast would give 0).
// CHECK-LABEL: func.func @fp4_floor(
// CHECK:   vtile.vbinary <mul> {{.*}} : f32
// CHECK:   vtile.vcmps <gt> {{.*}}, 2139095040 : ui32
// CHECK:   vtile.vdup {{.*}}, 6.000000e+00 : f32
// CHECK:   vtile.vsel {{.*}} : f32
// CHECK:   vtile.vcast {{.*}} <floor> : f32 to bf16
// CHECK:   vtile.vcast {{.*}} <floor> {sat} : bf16 to f4E2M1FN
func.func @fp4_floor(%x: tensor<16x256xbf16>) -> (tensor<16x256xf4E2M1FN>, tensor<16x8xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor rounding = floor
      : tensor<16x256xbf16> -> tensor<16x256xf4E2M1FN>, tensor<16x8xf8E8M0FNU>
  return %q, %s : tensor<16x256xf4E2M1FN>, tensor<16x8xf8E8M0FNU>
}

// -----

// FP4 from f32 (and f16): CANN's pre-rounding puts the f32 product on the
// E2M1 grid first (2^e from the exponent field, divide, Truncate<float> in
// the op's mode, multiply), so the bf16 and e2m1 casts after it are exact.
// CHECK-LABEL: func.func @fp4_away_f32(
// CHECK:   vtile.vscalar <and> {{.*}}, 2139095040 : ui32
// CHECK:   vtile.vscalar <max> {{.*}}, 1065353216 : ui32
// CHECK:   vtile.vscalar <sub> {{.*}}, 8388608 : ui32
// CHECK:   vtile.vbinary <div> {{.*}} : f32
// CHECK:   vtile.vcast {{.*}} <round> : f32 to f32
// CHECK:   vtile.vbinary <mul> {{.*}} : f32
// CHECK:   vtile.vcast {{.*}} <rint> : f32 to bf16
// CHECK:   vtile.vcast {{.*}} <round> {sat} : bf16 to f4E2M1FN
func.func @fp4_away_f32(%x: tensor<16x256xf32>) -> (tensor<16x256xf4E2M1FN>, tensor<16x8xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor rounding = away
      : tensor<16x256xf32> -> tensor<16x256xf4E2M1FN>, tensor<16x8xf8E8M0FNU>
  return %q, %s : tensor<16x256xf4E2M1FN>, tensor<16x8xf8E8M0FNU>
}

// -----

// FP6 (no cast on the core): the codes by integer code. The grid's quantum
// from the exponent field, Truncate<float>, the clamp to +-7.5, the sign to
// bit 5, the subnormal path through v + 2^0 and the normal path's rebias,
// then one byte a code.
// CHECK-LABEL: func.func @fp6(
// CHECK:   vtile.vscalar <max> {{.*}}, 1065353216 : ui32
// CHECK:   vtile.vscalar <sub> {{.*}}, 25165824 : ui32
// CHECK:   vtile.vcast {{.*}} <rint> : f32 to f32
// CHECK:   vtile.vscalar <min> {{.*}}, 7.500000e+00 : f32
// CHECK:   vtile.vscalar <max> {{.*}}, -7.500000e+00 : f32
// CHECK:   vtile.vscalar <shr> {{.*}}, 26 : ui32
// CHECK:   vtile.vscalar <add> {{.*}}, 1.000000e+00 : f32
// CHECK:   vtile.vsel
// CHECK:   vtile.vscalar <shr> {{.*}}, 20 : ui32
// CHECK:   vtile.vbinary <or>
// CHECK:   vtile.vcast {{.*}} <none> : ui32 to ui8
func.func @fp6(%x: tensor<16x256xbf16>) -> (tensor<16x256xf6E2M3FN>, tensor<16x8xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor
      : tensor<16x256xbf16> -> tensor<16x256xf6E2M3FN>, tensor<16x8xf8E8M0FNU>
  return %q, %s : tensor<16x256xf6E2M3FN>, tensor<16x8xf8E8M0FNU>
}
