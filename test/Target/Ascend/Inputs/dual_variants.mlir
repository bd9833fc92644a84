// mxq.dual_quantize beyond PyTorch's E4M3 rceil: E5M2, FP4 and FP6 (integer
// code), every scale algorithm, inf policy, nan_element and
// underflow policy, rank 3 (one swizzled grid per batch). For
// test/Target/Ascend/cookbook.test.

func.func @dual_floor_e5m2_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = floor inf = saturate underflow = flush_e0
      : tensor<?x?xbf16> -> tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>
}

func.func @dual_even_e2m3_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf6E2M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf6E2M3FN>, tensor<?xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = even nan_element = zero
      : tensor<?x?xf32> -> tensor<?x?xf6E2M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf6E2M3FN>, tensor<?xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<?x?xf6E2M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf6E2M3FN>, tensor<?xf8E8M0FNU>
}

func.func @dual_ceil_e4m3_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = ceil
      : tensor<?x?xf16> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}

func.func @dual_rceil_rank3_bf16(%x: tensor<2x?x?xbf16>) -> (tensor<2x?x?xf8E4M3FN>, tensor<2x?xf8E8M0FNU>, tensor<2x?x?xf8E4M3FN>, tensor<2x?xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil
      : tensor<2x?x?xbf16> -> tensor<2x?x?xf8E4M3FN>, tensor<2x?xf8E8M0FNU>, tensor<2x?x?xf8E4M3FN>, tensor<2x?xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<2x?x?xf8E4M3FN>, tensor<2x?xf8E8M0FNU>, tensor<2x?x?xf8E4M3FN>, tensor<2x?xf8E8M0FNU>
}

func.func @dual_floor_e2m1_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = floor
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
}

func.func @dual_rceil_e2m1_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil rounding = away
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
}
