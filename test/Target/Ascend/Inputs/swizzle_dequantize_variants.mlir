// Last-axis dequantize of swizzle_32_4_4 scales: FP8, FP6 and FP4 codes,
// f32, bf16 and f16 results, blocks of 32 and 64, rank 3. For
// test/Target/Ascend/cookbook.test.

func.func @swz_deq_e4m3_f32(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = swizzle_32_4_4
      : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @swz_deq_e5m2_bf16(%q: tensor<?x?xf8E5M2>, %s: tensor<?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = swizzle_32_4_4
      : tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @swz_deq_e2m1_f16(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = swizzle_32_4_4
      : tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @swz_deq_e3m2_block64_f32(%q: tensor<?x?xf6E3M2FN>, %s: tensor<?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 block = 64 layout = swizzle_32_4_4
      : tensor<?x?xf6E3M2FN>, tensor<?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @swz_deq_rank3_e4m3_bf16(%q: tensor<2x?x?xf8E4M3FN>, %s: tensor<2x?xf8E8M0FNU>) -> tensor<2x?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 2 layout = swizzle_32_4_4
      : tensor<2x?x?xf8E4M3FN>, tensor<2x?xf8E8M0FNU> -> tensor<2x?x?xbf16>
  return %y : tensor<2x?x?xbf16>
}

// Along axis -2: the grid's rows are the columns, a word four block-rows'
// bytes of one column.
func.func @swz_deq_axis0_e4m3_f32(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 0 layout = swizzle_32_4_4
      : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @swz_deq_axis0_e2m1_bf16(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 0 layout = swizzle_32_4_4
      : tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @swz_deq_axis1_rank3_e2m3_f16(%q: tensor<2x?x?xf6E2M3FN>, %s: tensor<2x?xf8E8M0FNU>) -> tensor<2x?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = swizzle_32_4_4
      : tensor<2x?x?xf6E2M3FN>, tensor<2x?xf8E8M0FNU> -> tensor<2x?x?xf16>
  return %y : tensor<2x?x?xf16>
}
