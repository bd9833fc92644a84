// Static inputs whose results are typed dynamic: valid IR that every
// pipeline compiles (issue 12).
func.func @quantize(%x: tensor<4x64xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor : tensor<4x64xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
func.func @quantize_pairs_axis0(%x: tensor<4x64xf32>) -> (tensor<?x64xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor layout = pairs : tensor<4x64xf32> -> tensor<?x64xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x64xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
}
func.func @dequantize(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 : tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
func.func @dual(%x: tensor<4x64xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<4x64xf16> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}
func.func @two_level(%x: tensor<4x64xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %a, %b = mxq.two_level_quantize %x : tensor<4x64xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %a, %b : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}
