// TransformerEngine NVFP4 (NVFP4BlockScaling; transformer_engine/common/
// cast/nvfp4/core_nvfp4.cuh): E2M1 codes, an E4M3 scale per 16 elements,
// the encode-scale convention (scale = encode). The outer value is the amax
// TE stores: computed from the whole tensor (NaN ignored) where the function
// takes none, given per tensor or per row (row-scaled NVFP4) otherwise.
// mxq.te.quantize_nvfp4 in Python; docs/Rationale.md, "NVFP4".

func.func @quantize_nvfp4_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>) {
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = encode
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
}

func.func @quantize_nvfp4_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>) {
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = encode
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
}

// With the stored amax (a rank-0 tensor).
func.func @quantize_nvfp4_amax_bf16(%x: tensor<?x?xbf16>, %amax: tensor<f32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>) {
  %q, %s = mxq.quantize %x outer(%amax : tensor<f32>) axis = 1 block = 16
      scale = encode
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
}

// Row-scaled: one amax per row.
func.func @quantize_nvfp4_rows_f32(%x: tensor<?x?xf32>, %amax: tensor<?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>) {
  %q, %s = mxq.quantize %x outer(%amax : tensor<?xf32>) axis = 1 block = 16
      scale = encode
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
}

// The scales as cuBLAS takes them: the 128 x 4 swizzle of 16-element blocks.
func.func @quantize_nvfp4_swizzled_bf16(%x: tensor<?x?xbf16>, %amax: tensor<f32>) -> (tensor<?x?xf4E2M1FN>, tensor<?xf8E4M3FN>) {
  %q, %s = mxq.quantize %x outer(%amax : tensor<f32>) axis = 1 block = 16
      scale = encode layout = swizzle_32_4_4
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?xf8E4M3FN>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?xf8E4M3FN>
}

// TE's dequantize (dequantize_nvfp4.cuh): code * fl32(fl32(scale * amax) *
// fl32(1/2688)), to bf16.
func.func @dequantize_nvfp4_bf16(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E4M3FN>, %amax: tensor<f32>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s outer(%amax : tensor<f32>) axis = 1 block = 16
      scale = encode
      : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
