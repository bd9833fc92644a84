// Found by mxq-structured-fuzzer: see docs/Fuzzing.md, "What the fuzzers and sanitizers found".
func.func @f(%a0: tensor<3x64x1xf16>, %a1: tensor<3x64x1xf16>, %a2: tensor<?xf32>) -> tensor<3x64x1xf16> {
  %y = mxq.fake_quant_grad %a0, %a1, %a2 quant_min = -240.0 quant_max = 240.0 axis = 0 : tensor<3x64x1xf16>, tensor<?xf32>
  return %y : tensor<3x64x1xf16>
}
