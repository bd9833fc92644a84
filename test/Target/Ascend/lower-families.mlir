// convert-mxq-to-vtile: the kernels of the other families. Two-level FP4
// (CANN DynamicDualLevelMxQuant): the level-0 maximum over 512 lanes that
// ignores Inf and NaN, times fl32(1/6), flushed below 2^-126, the true
// divide, the bf16 round trip, then the level-1 E8M0 recipe and the FP4
// cast. fake_quant per column: each channel's step and zero point copied
// to every row (repeat stride 0), x / step + zero clamped, through the FP8
// code and back, NaN made canonical, rounded to bf16. Its gradient: the
// fp32 bounds quant_min * step and quant_max * step, two ordered vector
// compares (vcmp: a NaN x fails both) and two selects of grad against 0.
// Two-level with a smooth scale: x * smooth as an exact f32 product
// rounded once to the input type (rint), before the level-0 maximum.
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline)' -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @two_level(
// CHECK: scf.for
// CHECK:   vtile.copy_gm_to_ub
// CHECK:   vtile.vcast {{.*}} <none> : bf16 to f32
// CHECK:   vtile.vcmps <ge> {{.*}}, 2139095040 : ui32
// CHECK:   vtile.vsel
// CHECK:   vtile.vreduce_group <max> {{.*}} {group = 512 : i64} : ui32
// CHECK:   vtile.vscalar <mul> {{.*}}, 0.166666672 : f32
// CHECK:   vtile.vcmps <lt> {{.*}}, 8388608 : ui32
// CHECK:   vtile.vbrc_group {{.*}} {group = 512 : i64} : ui32
// CHECK:   vtile.vbinary <div> {{.*}} : f32
// CHECK:   vtile.vcast {{.*}} <rint> : f32 to bf16
// CHECK:   vtile.vreduce_group <max> {{.*}} {group = 32 : i64} : ui32
// CHECK:   vtile.vbrc_group {{.*}} {group = 32 : i64} : ui32
// CHECK:   vtile.vcast {{.*}} <rint> {sat} : bf16 to f4E2M1FN
// CHECK:   vtile.copy_ub_to_gm {{.*}} : memref<16x1024xf4E2M1FN, #vtile.space<gm>>
// CHECK:   vtile.copy_ub_to_gm {{.*}} : memref<16x2xf32, #vtile.space<gm>>
// CHECK:   vtile.copy_ub_to_gm {{.*}} : memref<16x16x2xf8E8M0FNU, #vtile.space<gm>>

// CHECK-LABEL: func.func @fake_quant(
// CHECK: scf.for
// CHECK:   vtile.copy_gm_to_ub %{{.*}} : memref<64x256xbf16, #vtile.space<gm>>
// CHECK:   vtile.copy_gm_to_ub %{{.*}} : memref<256xf32, #vtile.space<gm>>
// CHECK:   vtile.copy_gm_to_ub %{{.*}} : memref<256xf32, #vtile.space<gm>>
// CHECK:   vtile.vcast {{.*}} <none> : bf16 to f32
// CHECK:   vtile.vunary <copy> {{.*}} {repeat_strides = array<i64: 32, 0>} : ui32
// CHECK:   vtile.vbinary <div>
// CHECK:   vtile.vbinary <add>
// CHECK:   vtile.vscalar <max> {{.*}}, -4.480000e+02 : f32
// CHECK:   vtile.vscalar <min> {{.*}}, 4.480000e+02 : f32
// CHECK:   vtile.vcast {{.*}} <rint> {sat} : f32 to f8E4M3FN
// CHECK:   vtile.vcast {{.*}} <none> : f8E4M3FN to f32
// CHECK:   vtile.vbinary <sub>
// CHECK:   vtile.vbinary <mul>
// CHECK:   vtile.vcmps <gt> {{.*}}, 2139095040 : ui32
// CHECK:   vtile.vcast {{.*}} <rint> : f32 to bf16
// CHECK:   vtile.copy_ub_to_gm

// CHECK-LABEL: func.func @fake_quant_grad(
// CHECK-SAME: %[[G:[a-z0-9]+]]: memref<64x256xf32, #vtile.space<gm>>, %[[X:[a-z0-9]+]]: memref<64x256xf32, #vtile.space<gm>>, %[[S:[a-z0-9]+]]: memref<1xf32, #vtile.space<gm>>, %[[R:[a-z0-9]+]]: memref<64x256xf32, #vtile.space<gm>>)
// CHECK: scf.for
// CHECK:   vtile.copy_gm_to_ub %[[X]][{{.*}}] to %[[XUB:[^ ]+]]
// CHECK:   vtile.copy_gm_to_ub %[[G]][{{.*}}] to %[[GUB:[^ ]+]]
// CHECK:   vtile.copy_gm_to_ub %[[S]]
// CHECK:   vtile.vscalar <mul> %[[B:[^,]+]], %{{.*}}, -4.480000e+02 : f32
// CHECK:   vtile.vcmp <ge> %[[M1:[^,]+]], %[[XUB]], %[[B]] repeat %{{.*}} : f32
// CHECK:   vtile.vscalar <mul> %[[B]], %{{.*}}, 4.480000e+02 : f32
// CHECK:   vtile.vcmp <le> %[[M2:[^,]+]], %[[XUB]], %[[B]] repeat %{{.*}} : f32
// CHECK:   vtile.vdup %[[B]], 0 : ui32
// CHECK:   vtile.vsel %[[OUT:[^,]+]], %[[M1]], %[[GUB]], %[[B]] repeat %{{.*}} : f32
// CHECK:   vtile.vsel %[[OUT]], %[[M2]], %[[OUT]], %[[B]] repeat %{{.*}} : f32
// CHECK:   vtile.copy_ub_to_gm %[[OUT]] to %[[R]]

func.func @two_level(%x: tensor<16x1024xbf16>) -> (tensor<16x1024xf4E2M1FN>, tensor<16x2xf32>, tensor<16x16x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x : tensor<16x1024xbf16> -> tensor<16x1024xf4E2M1FN>, tensor<16x2xf32>, tensor<16x16x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<16x1024xf4E2M1FN>, tensor<16x2xf32>, tensor<16x16x2xf8E8M0FNU>
}

// -----

func.func @fake_quant(%x: tensor<64x256xbf16>, %s: tensor<256xf32>, %z: tensor<256xf32>) -> tensor<64x256xbf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 axis = 1
      : tensor<64x256xbf16>, tensor<256xf32>, tensor<256xf32>
  return %y : tensor<64x256xbf16>
}

// -----

func.func @fake_quant_grad(%g: tensor<64x256xf32>, %x: tensor<64x256xf32>, %s: tensor<1xf32>) -> tensor<64x256xf32> {
  %y = mxq.fake_quant_grad %g, %x, %s quant_min = -448.0 quant_max = 448.0
      : tensor<64x256xf32>, tensor<1xf32>
  return %y : tensor<64x256xf32>
}

// -----

// CHECK-LABEL: func.func @two_level_smooth(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<16x1024xf16, #vtile.space<gm>>, %[[M:[a-z0-9]+]]: memref<1024xf16, #vtile.space<gm>>
// CHECK: scf.for
// CHECK:   vtile.copy_gm_to_ub %[[X]]
// CHECK:   vtile.copy_gm_to_ub %[[M]][{{.*}}] to %[[MUB:[^ ]+]]
// CHECK:   vtile.vcast %[[XF:[^,]+]], %[[IN:[^ ]+]] repeat %c16 <none> : f16 to f32
// CHECK:   vtile.vcast %[[MF:[^,]+]], %[[MUB]] repeat %c16 <none> : f16 to f32
// CHECK:   vtile.vbinary <mul> %[[XF]], %[[XF]], %[[MF]] repeat %c16 : f32
// CHECK:   vtile.vcast %[[IN]], %[[XF]] repeat %c16 <rint> : f32 to f16
// CHECK:   vtile.vcast %[[XF]], %[[IN]] repeat %c16 <none> : f16 to f32
// CHECK:   vtile.vreduce_group <max> {{.*}} {group = 512 : i64} : ui32
func.func @two_level_smooth(%x: tensor<16x1024xf16>, %m: tensor<1024xf16>) -> (tensor<16x1024xf4E2M1FN>, tensor<16x2xf32>, tensor<16x16x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x smooth %m : tensor<16x1024xf16>, tensor<1024xf16> -> tensor<16x1024xf4E2M1FN>, tensor<16x2xf32>, tensor<16x16x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<16x1024xf4E2M1FN>, tensor<16x2xf32>, tensor<16x16x2xf8E8M0FNU>
}
