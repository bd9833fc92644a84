// DeepGEMM's FP8 casts (deep_gemm/utils/math.py, per_token_cast_to_fp8):
// an fp32 scale per gran_k = 128 elements, sf = max(amax, 1e-4) *
// fl32(1/448) (PyTorch's CUDA division by a scalar multiplies by its
// reciprocal), codes E4M3 of x * fl32(1/sf) (division = reciprocal);
// use_ue8m0 rounds sf up to a power of two on its bits (ceil_to_ue8m0,
// pow2). mxq.deepgemm.per_token_cast_to_fp8 in Python; docs/Rationale.md,
// "Blockwise FP8".

func.func @per_token_cast_to_fp8_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode
      amax_floor = 1.0e-04 division = reciprocal
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

// use_ue8m0 = True (the SM100 recipe; its packed int32 form is these
// scales' exponent bytes, four to a word).
func.func @per_token_cast_to_fp8_ue8m0_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode
      amax_floor = 1.0e-04 pow2 division = reciprocal
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

func.func @per_token_cast_to_fp8_ue8m0_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode
      amax_floor = 1.0e-04 pow2 division = reciprocal
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

// per_channel_cast_to_fp8: blocks of 128 down the columns.
func.func @per_channel_cast_to_fp8_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 0 block = 128 scale = decode
      amax_floor = 1.0e-04 division = reciprocal
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}
