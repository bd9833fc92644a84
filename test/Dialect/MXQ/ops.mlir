// RUN: mxq-opt %s --verify-roundtrip | FileCheck %s --enable-var-scope
// RUN: mxq-opt %s --mlir-print-op-generic | mxq-opt | FileCheck %s --enable-var-scope

// CHECK-LABEL: func @torch_quantize_tensor
// CHECK: mxq.quantize %{{.*}} axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
func.func @torch_quantize_tensor(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil inf = nan rounding = rne layout = linear
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

// CHECK-LABEL: func @pypto_ocp_fp4_axis_m
// CHECK: mxq.quantize %{{.*}} axis = 0 scale = floor inf = exponent layout = pairs : tensor<128x96xf16> -> tensor<128x96xf4E2M1FN>, tensor<2x96x2xf8E8M0FNU>
func.func @pypto_ocp_fp4_axis_m(%x: tensor<128x96xf16>) -> (tensor<128x96xf4E2M1FN>, tensor<2x96x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor inf = exponent layout = pairs
      : tensor<128x96xf16> -> tensor<128x96xf4E2M1FN>, tensor<2x96x2xf8E8M0FNU>
  return %q, %s : tensor<128x96xf4E2M1FN>, tensor<2x96x2xf8E8M0FNU>
}

// CHECK-LABEL: func @cann_fp4_block_64
// CHECK: mxq.quantize %{{.*}} axis = 2 block = 64 scale = floor rounding = floor nan_element = zero layout = pairs
func.func @cann_fp4_block_64(%x: tensor<2x3x200xbf16>) -> (tensor<2x3x200xf4E2M1FN>, tensor<2x3x2x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 2 block = 64 scale = floor rounding = floor nan_element = zero layout = pairs
      : tensor<2x3x200xbf16> -> tensor<2x3x200xf4E2M1FN>, tensor<2x3x2x2xf8E8M0FNU>
  return %q, %s : tensor<2x3x200xf4E2M1FN>, tensor<2x3x2x2xf8E8M0FNU>
}

// 129 rows, 160 columns: 2 x 2 tiles of 512 bytes, per batch.
// CHECK-LABEL: func @swizzled_batched
// CHECK: mxq.quantize %{{.*}} axis = 2 scale = rceil inf = saturate layout = swizzle_32_4_4 : tensor<3x129x160xf32> -> tensor<3x129x160xf8E5M2>, tensor<3x2048xf8E8M0FNU>
func.func @swizzled_batched(%x: tensor<3x129x160xf32>) -> (tensor<3x129x160xf8E5M2>, tensor<3x2048xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 2 scale = rceil inf = saturate layout = swizzle_32_4_4
      : tensor<3x129x160xf32> -> tensor<3x129x160xf8E5M2>, tensor<3x2048xf8E8M0FNU>
  return %q, %s : tensor<3x129x160xf8E5M2>, tensor<3x2048xf8E8M0FNU>
}

// CHECK-LABEL: func @dequantize
// CHECK: mxq.dequantize %{{.*}}, %{{.*}} axis = 1 layout = swizzle_32_4_4 : tensor<?x?xf6E3M2FN>, tensor<?xf8E8M0FNU> -> tensor<?x?xbf16>
func.func @dequantize(%q: tensor<?x?xf6E3M2FN>, %s: tensor<?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = swizzle_32_4_4
      : tensor<?x?xf6E3M2FN>, tensor<?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

// CHECK-LABEL: func @dual
// CHECK: mxq.dual_quantize %{{.*}} scale = rceil : tensor<2x256x512xbf16> -> tensor<2x256x512xf8E4M3FN>, tensor<2x4096xf8E8M0FNU>, tensor<2x512x256xf8E4M3FN>, tensor<2x4096xf8E8M0FNU>
func.func @dual(%x: tensor<2x256x512xbf16>) -> (tensor<2x256x512xf8E4M3FN>, tensor<2x4096xf8E8M0FNU>, tensor<2x512x256xf8E4M3FN>, tensor<2x4096xf8E8M0FNU>) {
  %q0, %s0, %q1, %s1 = mxq.dual_quantize %x scale = rceil
      : tensor<2x256x512xbf16> -> tensor<2x256x512xf8E4M3FN>, tensor<2x4096xf8E8M0FNU>, tensor<2x512x256xf8E4M3FN>, tensor<2x4096xf8E8M0FNU>
  return %q0, %s0, %q1, %s1 : tensor<2x256x512xf8E4M3FN>, tensor<2x4096xf8E8M0FNU>, tensor<2x512x256xf8E4M3FN>, tensor<2x4096xf8E8M0FNU>
}

// CHECK-LABEL: func @two_level
// CHECK: mxq.two_level_quantize %{{.*}} rounding = floor : tensor<4x1000xbf16> -> tensor<4x1000xf4E2M1FN>, tensor<4x2xf32>, tensor<4x16x2xf8E8M0FNU>
// CHECK: mxq.two_level_quantize %{{.*}} smooth %{{.*}} nan_element = zero : tensor<?x?xf16>, tensor<?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
func.func @two_level(%x: tensor<4x1000xbf16>, %d: tensor<?x?xf16>, %sm: tensor<?xf16>) -> (tensor<4x1000xf4E2M1FN>, tensor<?x?xf32>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = floor
      : tensor<4x1000xbf16> -> tensor<4x1000xf4E2M1FN>, tensor<4x2xf32>, tensor<4x16x2xf8E8M0FNU>
  %y2, %m0, %m1 = mxq.two_level_quantize %d smooth %sm nan_element = zero
      : tensor<?x?xf16>, tensor<?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %m0 : tensor<4x1000xf4E2M1FN>, tensor<?x?xf32>
}

// CHECK-LABEL: func @fake_quant
// CHECK: mxq.fake_quant %{{.*}}, %{{.*}}, %{{.*}} format = f8E4M3FN quant_min = -4.480000e+02 quant_max = 4.480000e+02 : tensor<?x?xf32>, tensor<1xf32>, tensor<1xf32>
// CHECK: mxq.fake_quant %{{.*}}, %{{.*}}, %{{.*}} format = f8E5M2 quant_min = -5.734400e+04 quant_max = 5.734400e+04 axis = 0 : tensor<8x?xf16>, tensor<8xf32>, tensor<8xf32>
// CHECK: mxq.fake_quant_grad %{{.*}}, %{{.*}}, %{{.*}} quant_min = -4.480000e+02 quant_max = 4.480000e+02 : tensor<?x?xf32>, tensor<1xf32>
func.func @fake_quant(%x: tensor<?x?xf32>, %s: tensor<1xf32>, %z: tensor<1xf32>,
                      %h: tensor<8x?xf16>, %cs: tensor<8xf32>, %cz: tensor<8xf32>,
                      %g: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<8x?xf16>, tensor<?x?xf32>) {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0
      : tensor<?x?xf32>, tensor<1xf32>, tensor<1xf32>
  %c = mxq.fake_quant %h, %cs, %cz format = f8E5M2 quant_min = -57344.0 quant_max = 57344.0 axis = 0
      : tensor<8x?xf16>, tensor<8xf32>, tensor<8xf32>
  %gx = mxq.fake_quant_grad %g, %x, %s quant_min = -448.0 quant_max = 448.0
      : tensor<?x?xf32>, tensor<1xf32>
  return %y, %c, %gx : tensor<?x?xf32>, tensor<8x?xf16>, tensor<?x?xf32>
}

// CHECK-LABEL: func @convert_scale_layout
// CHECK: mxq.convert_scale_layout %{{.*}}, %{{.*}} axis = 1 from = linear to = swizzle_32_4_4 : tensor<129x5xf8E8M0FNU>, tensor<129x160xf8E4M3FN> -> tensor<2048xf8E8M0FNU>
// CHECK: mxq.convert_scale_layout %{{.*}}, %{{.*}} axis = 0 block = 64 from = pairs to = linear : tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf4E2M1FN> -> tensor<?x?xf8E8M0FNU>
func.func @convert_scale_layout(%s: tensor<129x5xf8E8M0FNU>, %q: tensor<129x160xf8E4M3FN>,
                                %p: tensor<?x?x2xf8E8M0FNU>, %c: tensor<?x?xf4E2M1FN>) -> (tensor<2048xf8E8M0FNU>, tensor<?x?xf8E8M0FNU>) {
  %a = mxq.convert_scale_layout %s, %q axis = 1 from = linear to = swizzle_32_4_4
      : tensor<129x5xf8E8M0FNU>, tensor<129x160xf8E4M3FN> -> tensor<2048xf8E8M0FNU>
  %b = mxq.convert_scale_layout %p, %c axis = 0 block = 64 from = pairs to = linear
      : tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf4E2M1FN> -> tensor<?x?xf8E8M0FNU>
  return %a, %b : tensor<2048xf8E8M0FNU>, tensor<?x?xf8E8M0FNU>
}

// CHECK-LABEL: func @te_nvfp4
// CHECK: mxq.quantize %{{.*}} outer(%{{.*}} : tensor<f32>) axis = 1 block = 16 scale = encode : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
func.func @te_nvfp4(%x: tensor<?x?xbf16>, %amax: tensor<f32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>) {
  %q, %s = mxq.quantize %x outer(%amax : tensor<f32>) axis = 1 block = 16 scale = encode
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
}

// CHECK-LABEL: func @torchao_nvfp4_single_level
// CHECK: mxq.quantize %{{.*}} axis = 1 block = 16 scale = decode layout = swizzle_32_4_4 : tensor<256x64xf32> -> tensor<256x64xf4E2M1FN>, tensor<1024xf8E4M3FN>
func.func @torchao_nvfp4_single_level(%x: tensor<256x64xf32>) -> (tensor<256x64xf4E2M1FN>, tensor<1024xf8E4M3FN>) {
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = decode layout = swizzle_32_4_4
      : tensor<256x64xf32> -> tensor<256x64xf4E2M1FN>, tensor<1024xf8E4M3FN>
  return %q, %s : tensor<256x64xf4E2M1FN>, tensor<1024xf8E4M3FN>
}

// CHECK-LABEL: func @mx_per_16
// CHECK: mxq.quantize %{{.*}} axis = 1 block = 16 scale = floor : tensor<8x48xf32> -> tensor<8x48xf4E2M1FN>, tensor<8x3xf8E8M0FNU>
func.func @mx_per_16(%x: tensor<8x48xf32>) -> (tensor<8x48xf4E2M1FN>, tensor<8x3xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = floor
      : tensor<8x48xf32> -> tensor<8x48xf4E2M1FN>, tensor<8x3xf8E8M0FNU>
  return %q, %s : tensor<8x48xf4E2M1FN>, tensor<8x3xf8E8M0FNU>
}

// CHECK-LABEL: func @te_nvfp4_dequantize
// CHECK: mxq.dequantize %{{.*}}, %{{.*}} outer(%{{.*}} : tensor<?xf32>) axis = 1 block = 16 scale = encode : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN> -> tensor<?x?xbf16>
func.func @te_nvfp4_dequantize(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E4M3FN>, %a: tensor<?xf32>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s outer(%a : tensor<?xf32>) axis = 1 block = 16 scale = encode
      : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
