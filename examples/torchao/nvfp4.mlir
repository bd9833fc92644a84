// torchao NVFP4 (torchao/prototype/mx_formats/nvfp4_tensor.py,
// nvfp4_quantize): E2M1 codes, an E4M3 scale per 16 elements, the
// decode-scale convention (scale = decode). Without a per_tensor_scale the
// scaling is single-level (P = 1, the same bytes); with one, P is the
// rank-0 `outer` operand. mxq.torchao.nvfp4_quantize in Python;
// docs/Rationale.md, "NVFP4".

func.func @nvfp4_quantize_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>) {
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = decode
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
}

func.func @nvfp4_quantize_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>) {
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = decode
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
}

// Two-level: per_tensor_scale = amax / (448 * 6).
func.func @nvfp4_quantize_per_tensor_bf16(%x: tensor<?x?xbf16>, %p: tensor<f32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>) {
  %q, %s = mxq.quantize %x outer(%p : tensor<f32>) axis = 1 block = 16
      scale = decode
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
}

// torchao's NVFP4Tensor.to_dtype(float32): code * fl32(P * scale).
func.func @nvfp4_dequantize_per_tensor_f32(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E4M3FN>, %p: tensor<f32>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s outer(%p : tensor<f32>) axis = 1 block = 16
      scale = decode
      : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
