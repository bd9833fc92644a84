// Dequantize along a non-last axis (blocks down the columns) for
// test/Target/Ascend/cookbook.test: FP8, FP6 (integer code) and FP4 (axis -2
// only: its codes pack along the last axis), both scale layouts, rank 2 and
// rank 3.

func.func @deq_cols_f8E4M3FN_f32_linear(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 0 layout = linear cast = ieee
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_cols_f8E5M2_bf16_pairs(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 0 layout = pairs cast = saturate
      : tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_cols_f4E2M1FN_f16_pairs(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 0 layout = pairs cast = ieee
      : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_cols_f6E3M2FN_f32_linear(%q: tensor<?x?xf6E3M2FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 0 layout = linear cast = saturate
      : tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_cols_rank3_f8E4M3FN_f32(%q: tensor<?x?x?xf8E4M3FN>, %s: tensor<?x?x?xf8E8M0FNU>) -> tensor<?x?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf8E8M0FNU> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// FP4 along axis 0 of a rank-3 tensor (even last dimension), 40 rows.
func.func @deq_cols_rank3_fp4_axis0_bf16(%q: tensor<40x?x?xf4E2M1FN>, %s: tensor<2x?x?xf8E8M0FNU>) -> tensor<40x?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 0 layout = linear cast = ieee
      : tensor<40x?x?xf4E2M1FN>, tensor<2x?x?xf8E8M0FNU> -> tensor<40x?x?xbf16>
  return %y : tensor<40x?x?xbf16>
}
