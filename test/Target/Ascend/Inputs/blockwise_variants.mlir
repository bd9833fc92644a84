// Blockwise FP8 (fp32 block scales) along the last axis beyond the
// cookbook: both conventions (TE's encode, DeepSeek's and DeepGEMM's
// decode) with every stored-scale word, blocks of 32 to 256, every input
// type, FP8 codes of both formats, ranks 2 and 3; and the dequantize of
// fp32 scales to every result type. Run by blockwise.test.

func.func @encode_pow2_bf16_b128(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = encode pow2
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

func.func @encode_floor_f16_e5m2_b64(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 64 scale = encode
      amax_floor = 1.0e-06
      : tensor<?x?xf16> -> tensor<?x?xf8E5M2>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?x?xf32>
}

func.func @encode_f32_b32_nanzero(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 32 scale = encode
      nan_element = zero
      : tensor<?x?xf32> -> tensor<?x?xf8E5M2>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?x?xf32>
}

func.func @decode_exact_floor_bf16_b128(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode
      amax_floor = 1.0e-04
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

func.func @decode_reciprocal_f32_b256(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 256 scale = decode
      division = reciprocal
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

func.func @decode_pow2_reciprocal_f16_e5m2_b32(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 32 scale = decode
      amax_floor = 1.0e-04 pow2 division = reciprocal
      : tensor<?x?xf16> -> tensor<?x?xf8E5M2>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?x?xf32>
}

func.func @decode_pow2_rank3_bf16_b128(%x: tensor<?x?x?xbf16>) -> (tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 2 block = 128 scale = decode pow2
      : tensor<?x?x?xbf16> -> tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf32>
  return %q, %s : tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf32>
}

func.func @encode_rank3_f32_b64(%x: tensor<?x?x?xf32>) -> (tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 2 block = 64 scale = encode
      amax_floor = 1.0e-12
      : tensor<?x?x?xf32> -> tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf32>
  return %q, %s : tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf32>
}

func.func @dequant_e4m3_f32_b128(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 block = 128
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @dequant_e5m2_f16_b32(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf32>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 block = 32
      : tensor<?x?xf8E5M2>, tensor<?x?xf32> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @dequant_e4m3_bf16_b64_rank3(%q: tensor<?x?x?xf8E4M3FN>, %s: tensor<?x?x?xf32>) -> tensor<?x?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 2 block = 64
      : tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf32> -> tensor<?x?x?xbf16>
  return %y : tensor<?x?x?xbf16>
}

// Along a non-last axis (TE's columnwise blocks, DeepGEMM's
// per_channel_cast_to_fp8): the column kernels.
func.func @encode_pow2_axis0_bf16_b128(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 0 block = 128 scale = encode pow2
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

func.func @decode_exact_axis0_f32_b32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 0 block = 32 scale = decode
      amax_floor = 1.0e-04
      : tensor<?x?xf32> -> tensor<?x?xf8E5M2>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?x?xf32>
}

func.func @decode_reciprocal_axis1_rank3_f16_b64(%x: tensor<?x?x?xf16>) -> (tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 64 scale = decode
      pow2 division = reciprocal
      : tensor<?x?x?xf16> -> tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf32>
  return %q, %s : tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf32>
}

func.func @decode_axis0_long_bf16_b1024(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 0 block = 1024 scale = decode
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

func.func @dequant_axis0_e4m3_bf16_b128(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf32>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 0 block = 128
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf32> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @dequant_axis0_long_e5m2_f32_b1024(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 0 block = 1024
      : tensor<?x?xf8E5M2>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
