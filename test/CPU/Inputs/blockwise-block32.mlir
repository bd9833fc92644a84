// fp32 block scales on blocks of 32 along the last axis: the shape the
// NVIDIA target's coalesced kernels take (the libraries' 128 goes through
// the generic lowering), so that both paths are checked on every target.

func.func @quantize_decode_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 32 scale = decode
      : tensor<?x?xf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

func.func @quantize_encode_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf32>) {
  %q, %s = mxq.quantize %x axis = 1 block = 32 scale = encode pow2
      : tensor<?x?xbf16> -> tensor<?x?xf8E5M2>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?x?xf32>
}

func.func @dequantize_bf16(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf32>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 block = 32
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf32> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @dequantize_e5m2_f32(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 block = 32
      : tensor<?x?xf8E5M2>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
