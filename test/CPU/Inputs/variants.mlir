// Attribute combinations beyond the cookbook, for the differential test.
func.func @ceil_e5m2_axis0_block64(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 64 scale = ceil inf = saturate : tensor<?x?xbf16> -> tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>
}
func.func @even_e2m3_swizzle_rank3(%x: tensor<2x?x?xf16>) -> (tensor<2x?x?xf6E2M3FN>, tensor<2x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 2 scale = even nan_element = zero layout = swizzle_32_4_4 : tensor<2x?x?xf16> -> tensor<2x?x?xf6E2M3FN>, tensor<2x?xf8E8M0FNU>
  return %q, %s : tensor<2x?x?xf6E2M3FN>, tensor<2x?xf8E8M0FNU>
}
func.func @floor_e2m1_away_swizzle_axis1(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor rounding = away layout = swizzle_32_4_4 : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
}
func.func @rceil_e2m1_floor_rounding(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil rounding = floor : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}
func.func @dequantize_swizzle_bf16(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = swizzle_32_4_4 : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
func.func @dequantize_pairs_axis0_f16(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 0 layout = pairs : tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
func.func @dequantize_fp4_pairs_bf16(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
func.func @fake_e5m2_bf16_axis1(%x: tensor<?x?xbf16>, %s: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?x?xbf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E5M2 quant_min = -1000.0 quant_max = 57344.0 axis = 1 : tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<?x?xbf16>
}
func.func @fake_e4m3_f16(%x: tensor<?x?xf16>, %s: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<?x?xf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -2.0 quant_max = 100.0 : tensor<?x?xf16>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<?x?xf16>
}
func.func @grad_f16_axis1(%g: tensor<?x?xf16>, %x: tensor<?x?xf16>, %s: tensor<?xf32>) -> tensor<?x?xf16> {
  %y = mxq.fake_quant_grad %g, %x, %s quant_min = -448.0 quant_max = 448.0 axis = 1 : tensor<?x?xf16>, tensor<?xf32>
  return %y : tensor<?x?xf16>
}
func.func @dual_e2m1_rank3(%x: tensor<2x?x?xf32>) -> (tensor<2x?x?xf4E2M1FN>, tensor<2x?xf8E8M0FNU>, tensor<2x?x?xf4E2M1FN>, tensor<2x?xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = floor inf = exponent : tensor<2x?x?xf32> -> tensor<2x?x?xf4E2M1FN>, tensor<2x?xf8E8M0FNU>, tensor<2x?x?xf4E2M1FN>, tensor<2x?xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<2x?x?xf4E2M1FN>, tensor<2x?xf8E8M0FNU>, tensor<2x?x?xf4E2M1FN>, tensor<2x?xf8E8M0FNU>
}
func.func @roundtrip_e3m2(%x: tensor<?x?xf32>) -> (tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xf32> -> tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>
  %y = mxq.dequantize %q, %s axis = 1 : tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %q, %s, %y : tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?xf32>
}
// Last-axis groups of four whole blocks write their four scales as one
// vector in every layout (Quantize.cpp); run on wide rows (grouped.test).
func.func @grouped_e4m3_swizzle(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil layout = swizzle_32_4_4 : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}
func.func @grouped_e4m3_swizzle_rank3(%x: tensor<2x?x?xbf16>) -> (tensor<2x?x?xf8E4M3FN>, tensor<2x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 2 scale = floor layout = swizzle_32_4_4 : tensor<2x?x?xbf16> -> tensor<2x?x?xf8E4M3FN>, tensor<2x?xf8E8M0FNU>
  return %q, %s : tensor<2x?x?xf8E4M3FN>, tensor<2x?xf8E8M0FNU>
}
func.func @grouped_e2m1_pairs(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil inf = saturate layout = pairs : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
}
func.func @grouped_e5m2_pairs_rank3(%x: tensor<2x?x?xf16>) -> (tensor<2x?x?xf8E5M2>, tensor<2x?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 2 scale = ceil layout = pairs : tensor<2x?x?xf16> -> tensor<2x?x?xf8E5M2>, tensor<2x?x?x2xf8E8M0FNU>
  return %q, %s : tensor<2x?x?xf8E5M2>, tensor<2x?x?x2xf8E8M0FNU>
}
