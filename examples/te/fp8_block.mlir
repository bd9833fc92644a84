// TransformerEngine's block-wise FP8 (Float8BlockScaling;
// common/recipe/recipe_common.cuh, compute_scale_from_amax): an fp32
// scale_inv per 1 x 128 elements. The encode scale e = 448 / amax (amax
// raised to eps, NaN ignored; 1 for a zero or infinite amax; the input
// type's largest value where the quotient is infinite), with pow2 its
// mantissa cleared; codes of x * e, saturating; scale_inv = 1 / e stored.
// mxq.te.quantize_fp8_block in Python; docs/Rationale.md, "Blockwise FP8".

// TE's default recipe (power-of-two scales, eps 0).
func.func @quantize_fp8_block_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = encode pow2
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

func.func @quantize_fp8_block_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = encode pow2
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

// Scales that are not powers of two, with an eps.
func.func @quantize_fp8_block_eps_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = encode
      amax_floor = 1.0e-06
      : tensor<?x?xf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

// Gradients in E5M2.
func.func @quantize_fp8_block_e5m2_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = encode pow2
      : tensor<?x?xbf16> -> tensor<?x?xf8E5M2>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?x?xf32>
}

// The column-wise data's blocks: 128 x 1 (down the columns).
func.func @quantize_fp8_block_columns_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 0 block = 128 scale = encode pow2
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

// code * scale_inv, to bf16.
func.func @dequantize_fp8_block_bf16(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf32>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 block = 128
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf32> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
