func.func @f(%x: tensor<4x64xf32>) -> (tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor layuot = linear : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return %q, %s : tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
}
