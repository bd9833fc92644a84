// DeepSeek-V3's block-wise FP8 activations (inference/kernel.py, act_quant):
// an fp32 scale per 128 elements along the last axis, s = max(amax, 1e-4) /
// 448 by a true division, codes E4M3 of x / s; scale_fmt = "ue8m0" rounds s
// up to a power of two (pow2). mxq.deepseek.act_quant in Python;
// docs/Rationale.md, "Blockwise FP8".

func.func @act_quant_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode
      amax_floor = 1.0e-04
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

func.func @act_quant_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode
      amax_floor = 1.0e-04
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

// scale_fmt = "ue8m0".
func.func @act_quant_ue8m0_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode
      amax_floor = 1.0e-04 pow2
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

// DeepSeek-V3's first act_quant, without the amax floor (a zero block
// divides 0 by 0: NaN codes).
func.func @act_quant_nofloor_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

// The multiply of weight_dequant (x * s in fp32), per 128 along a row, to
// bf16.
func.func @dequant_bf16(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf32>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 block = 128
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf32> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
