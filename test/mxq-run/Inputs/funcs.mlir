func.func @quantize_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
func.func @static_4x32(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  return %x : tensor<4x32xf32>
}
func.func @not_mxq(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = arith.addf %x, %x : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
func.func @fake_per_channel(%x: tensor<?x?xf32>, %s: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?x?xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 axis = 0 : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<?x?xf32>
}
func.func @dequantize(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
func.func @two_level(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %a, %b = mxq.two_level_quantize %x : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %a, %b : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}
func.func @fp4_roundtrip(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>, tensor<?x?xbf16>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor inf = exponent layout = pairs : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %q, %s, %y : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>, tensor<?x?xbf16>
}
