// Found by mxq-structured-fuzzer: see docs/Fuzzing.md, "What the fuzzers and sanitizers found".
func.func @f(%a0: tensor<?x?x?xf16>, %a1: tensor<?x?x?xf16>, %a2: tensor<1xf32>) -> tensor<?x?x?xf16> {
  %y = mxq.fake_quant_grad %a0, %a1, %a2 quant_min = -240.0 quant_max = 240.0 : tensor<?x?x?xf16>, tensor<1xf32>
  return %y : tensor<?x?x?xf16>
}
