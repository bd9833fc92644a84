// Valid functions whose tensors are one block (or less): every block loop
// has one iteration and canonicalization folds it away (issue 12: the GPU
// pipelines left their stores in host code).
func.func @quantize_1x1(%x: tensor<1x1xf32>) -> (tensor<1x1xf8E4M3FN>, tensor<1x1xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor : tensor<1x1xf32> -> tensor<1x1xf8E4M3FN>, tensor<1x1xf8E8M0FNU>
  return %q, %s : tensor<1x1xf8E4M3FN>, tensor<1x1xf8E8M0FNU>
}
func.func @quantize_1x32(%x: tensor<1x32xbf16>) -> (tensor<1x32xf4E2M1FN>, tensor<1x1xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<1x32xbf16> -> tensor<1x32xf4E2M1FN>, tensor<1x1xf8E8M0FNU>
  return %q, %s : tensor<1x32xf4E2M1FN>, tensor<1x1xf8E8M0FNU>
}
func.func @quantize_1000_block1024(%x: tensor<1000xf32>) -> (tensor<1000xf8E5M2>, tensor<1xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 1024 scale = floor : tensor<1000xf32> -> tensor<1000xf8E5M2>, tensor<1xf8E8M0FNU>
  return %q, %s : tensor<1000xf8E5M2>, tensor<1xf8E8M0FNU>
}
func.func @quantize_pairs_1x32(%x: tensor<1x32xf16>) -> (tensor<1x32xf8E4M3FN>, tensor<1x1x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor layout = pairs : tensor<1x32xf16> -> tensor<1x32xf8E4M3FN>, tensor<1x1x2xf8E8M0FNU>
  return %q, %s : tensor<1x32xf8E4M3FN>, tensor<1x1x2xf8E8M0FNU>
}
func.func @quantize_swizzle_1x32(%x: tensor<1x32xf32>) -> (tensor<1x32xf8E4M3FN>, tensor<512xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil layout = swizzle_32_4_4 : tensor<1x32xf32> -> tensor<1x32xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return %q, %s : tensor<1x32xf8E4M3FN>, tensor<512xf8E8M0FNU>
}
func.func @dequantize_1x32(%q: tensor<1x32xf8E4M3FN>, %s: tensor<1x1xf8E8M0FNU>) -> tensor<1x32xf32> {
  %y = mxq.dequantize %q, %s axis = 1 : tensor<1x32xf8E4M3FN>, tensor<1x1xf8E8M0FNU> -> tensor<1x32xf32>
  return %y : tensor<1x32xf32>
}
func.func @dual_32x32(%x: tensor<32x32xbf16>) -> (tensor<32x32xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<32x32xf8E4M3FN>, tensor<512xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<32x32xbf16> -> tensor<32x32xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<32x32xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<32x32xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<32x32xf8E4M3FN>, tensor<512xf8E8M0FNU>
}
func.func @two_level_1x2(%x: tensor<1x2xbf16>) -> (tensor<1x2xf4E2M1FN>, tensor<1x1xf32>, tensor<1x1x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x : tensor<1x2xbf16> -> tensor<1x2xf4E2M1FN>, tensor<1x1xf32>, tensor<1x1x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<1x2xf4E2M1FN>, tensor<1x1xf32>, tensor<1x1x2xf8E8M0FNU>
}
func.func @fake_quant_1x1(%x: tensor<1x1xf32>, %s: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<1x1xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 : tensor<1x1xf32>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<1x1xf32>
}
