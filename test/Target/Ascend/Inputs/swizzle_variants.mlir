// Last-axis quantize with swizzle_32_4_4 scales (PyTorch's SWIZZLE_32_4_4,
// cuBLAS's 1D block-scaling layout): every input type, FP8 and FP4 (cast),
// FP6 (integer code), every scale algorithm, block sizes 32 and 64, rank 3
// (one swizzled grid per batch). For test/Target/Ascend/cookbook.test.

func.func @swz_rceil_f32_e4m3(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil layout = swizzle_32_4_4
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}

func.func @swz_rceil_bf16_e4m3(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil inf = nan layout = swizzle_32_4_4
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}

func.func @swz_floor_f16_e5m2(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor layout = swizzle_32_4_4
      : tensor<?x?xf16> -> tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?xf8E8M0FNU>
}

func.func @swz_floor_bf16_e2m1(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor layout = swizzle_32_4_4
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
}

func.func @swz_even_f32_e2m3(%x: tensor<?x?xf32>) -> (tensor<?x?xf6E2M3FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = even layout = swizzle_32_4_4
      : tensor<?x?xf32> -> tensor<?x?xf6E2M3FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf6E2M3FN>, tensor<?xf8E8M0FNU>
}

func.func @swz_ceil_block64_bf16_e4m3(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 block = 64 scale = ceil layout = swizzle_32_4_4
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}

func.func @swz_rank3_bf16_e4m3(%x: tensor<3x?x?xbf16>) -> (tensor<3x?x?xf8E4M3FN>, tensor<3x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 2 scale = rceil layout = swizzle_32_4_4
      : tensor<3x?x?xbf16> -> tensor<3x?x?xf8E4M3FN>, tensor<3x?xf8E8M0FNU>
  return %q, %s : tensor<3x?x?xf8E4M3FN>, tensor<3x?xf8E8M0FNU>
}

// Along axis -2 (PyTorch's dim=(1,0) with the codes untransposed): the
// scale grid's rows are the columns, its scale columns the block-rows.
func.func @swz_axis0_rceil_bf16_e4m3(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = rceil layout = swizzle_32_4_4
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}

func.func @swz_axis0_floor_f32_e2m1(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor layout = swizzle_32_4_4
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
}

func.func @swz_axis1_rank3_f16_e3m2(%x: tensor<2x?x?xf16>) -> (tensor<2x?x?xf6E3M2FN>, tensor<2x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = even layout = swizzle_32_4_4
      : tensor<2x?x?xf16> -> tensor<2x?x?xf6E3M2FN>, tensor<2x?xf8E8M0FNU>
  return %q, %s : tensor<2x?x?xf6E3M2FN>, tensor<2x?xf8E8M0FNU>
}
