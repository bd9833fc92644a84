// Functions of the four defects of issue 10 (see issue10.py).
func.func @q_bf16_axis0_block96(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 96 scale = floor : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
func.func @q_bf16_axis0_block160(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 160 scale = floor : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
func.func @q_bf16_axis0_block96_static(%x: tensor<200x4xbf16>) -> (tensor<200x4xf8E4M3FN>, tensor<3x4xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 96 scale = floor : tensor<200x4xbf16> -> tensor<200x4xf8E4M3FN>, tensor<3x4xf8E8M0FNU>
  return %q, %s : tensor<200x4xf8E4M3FN>, tensor<3x4xf8E8M0FNU>
}
func.func @dq_bf16_axis0(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 0 : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
func.func @dq_bf16_axis0_block96(%q: tensor<96x2xf8E4M3FN>, %s: tensor<1x2xf8E8M0FNU>) -> tensor<96x2xbf16> {
  %y = mxq.dequantize %q, %s axis = 0 block = 96 : tensor<96x2xf8E4M3FN>, tensor<1x2xf8E8M0FNU> -> tensor<96x2xbf16>
  return %y : tensor<96x2xbf16>
}
func.func @dq_f16_axis0_block160(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 0 block = 160 : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
func.func @even_nan(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = even : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
func.func @even_saturate(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = even inf = saturate : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
func.func @even_nan_bf16_e2m1(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = even : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}
func.func @q_fp4_1x3(%x: tensor<1x3xf32>) -> (tensor<1x3xf4E2M1FN>, tensor<1x1xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor : tensor<1x3xf32> -> tensor<1x3xf4E2M1FN>, tensor<1x1xf8E8M0FNU>
  return %q, %s : tensor<1x3xf4E2M1FN>, tensor<1x1xf8E8M0FNU>
}
func.func @dq_fp4_1x3(%q: tensor<1x3xf4E2M1FN>, %s: tensor<1x1xf8E8M0FNU>) -> tensor<1x3xf32> {
  %y = mxq.dequantize %q, %s axis = 1 : tensor<1x3xf4E2M1FN>, tensor<1x1xf8E8M0FNU> -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}
func.func @dq_fp4_dynamic(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
