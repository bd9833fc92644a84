// Blocks along a non-last axis too long for a tile of whole block-rows in
// the UB (1024 rows of 64 f32 columns are 256 KiB): the quantize reads
// each tile in chunks twice (amax, then codes), the dequantize its codes
// in chunks (test/Target/Ascend/long-blocks.test).

func.func @long_q_1024_f32_floor(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 1024 scale = floor
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @long_q_1024_bf16_rceil_pairs(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 1024 scale = rceil layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @long_q_256_f32_fp4(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 256 scale = floor
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}

func.func @long_q_512_bf16_fp6_pairs(%x: tensor<?x?xbf16>) -> (tensor<?x?xf6E2M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 512 scale = ceil nan_element = zero layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf6E2M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf6E2M3FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @long_q_768_f16_e5m2_swizzle(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 768 scale = floor underflow = flush_e0 layout = swizzle_32_4_4
      : tensor<?x?xf16> -> tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>
}

func.func @long_q_rank3_axis1(%x: tensor<2x?x?xbf16>) -> (tensor<2x?x?xf8E4M3FN>, tensor<2x?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 block = 1024 scale = rceil inf = saturate
      : tensor<2x?x?xbf16> -> tensor<2x?x?xf8E4M3FN>, tensor<2x?x?xf8E8M0FNU>
  return %q, %s : tensor<2x?x?xf8E4M3FN>, tensor<2x?x?xf8E8M0FNU>
}

func.func @long_deq_1024_f32(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 0 block = 1024 layout = linear cast = ieee
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @long_deq_256_fp4_bf16_pairs(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 0 block = 256 layout = pairs cast = saturate
      : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @long_deq_512_fp6_f16(%q: tensor<?x?xf6E3M2FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 0 block = 512 layout = linear cast = ieee
      : tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
