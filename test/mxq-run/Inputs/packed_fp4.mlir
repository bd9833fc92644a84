// FP4 along the last axis (whole blocks are one packed vector store) and
// along the first (two columns share each byte), then back.
func.func @rows(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor inf = nan layout = linear
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}
func.func @cols(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = rceil inf = saturate layout = linear
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}
func.func @static_rows(%x: tensor<3x33xf32>) -> (tensor<3x33xf4E2M1FN>, tensor<3x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor inf = nan layout = linear
      : tensor<3x33xf32> -> tensor<3x33xf4E2M1FN>, tensor<3x2xf8E8M0FNU>
  return %q, %s : tensor<3x33xf4E2M1FN>, tensor<3x2xf8E8M0FNU>
}
func.func @back(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
