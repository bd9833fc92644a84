// MX blocks of 16 (the verifier's C2: 16 or a multiple of 32) on the
// Ascend-like target: a last-axis tile is a multiple of 8 blocks (128
// columns), a column tile's scale row one byte a column
// (test/Target/Ascend/block16.test).

func.func @b16_floor_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = floor
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @b16_rceil_pairs_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = rceil layout = pairs
      : tensor<?x?xf32> -> tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU>
}

func.func @b16_fp4_swizzle_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = even rounding = away layout = swizzle_32_4_4
      : tensor<?x?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
}

func.func @b16_fp6_ceil(%x: tensor<?x?xbf16>) -> (tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = ceil nan_element = zero
      : tensor<?x?xbf16> -> tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>
}

func.func @b16_col_fp4_pairs(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 16 scale = floor layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @b16_deq_bf16(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 block = 16 layout = linear cast = saturate
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @b16_deq_fp4_swizzle(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 block = 16 layout = swizzle_32_4_4 cast = ieee
      : tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @b16_deq_col_pairs(%q: tensor<?x?xf6E2M3FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 0 block = 16 layout = pairs cast = ieee
      : tensor<?x?xf6E2M3FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
