func.func @rows_empty(%x: tensor<0x64xf32>) -> (tensor<0x64xf8E4M3FN>, tensor<0x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor : tensor<0x64xf32> -> tensor<0x64xf8E4M3FN>, tensor<0x2xf8E8M0FNU>
  return %q, %s : tensor<0x64xf8E4M3FN>, tensor<0x2xf8E8M0FNU>
}
func.func @cols_empty(%x: tensor<4x0xf32>) -> (tensor<4x0xf8E4M3FN>, tensor<4x0xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor : tensor<4x0xf32> -> tensor<4x0xf8E4M3FN>, tensor<4x0xf8E8M0FNU>
  return %q, %s : tensor<4x0xf8E4M3FN>, tensor<4x0xf8E8M0FNU>
}
