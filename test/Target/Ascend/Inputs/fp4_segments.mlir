// FP4 along a non-last axis of a tensor whose last dimension is odd, with
// dimensions between: each row of the last dimension ends in a padding
// nibble, so the column recipe tiles each segment of it apart
// (test/Target/Ascend/fp4-segments.test).

func.func @seg_q_floor_bf16(%x: tensor<?x?x?xbf16>) -> (tensor<?x?x?xf4E2M1FN>, tensor<?x?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor
      : tensor<?x?x?xbf16> -> tensor<?x?x?xf4E2M1FN>, tensor<?x?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?x?xf4E2M1FN>, tensor<?x?x?xf8E8M0FNU>
}

func.func @seg_q_rceil_pairs_f32(%x: tensor<?x?x?xf32>) -> (tensor<?x?x?xf4E2M1FN>, tensor<?x?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = rceil layout = pairs
      : tensor<?x?x?xf32> -> tensor<?x?x?xf4E2M1FN>, tensor<?x?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?x?xf4E2M1FN>, tensor<?x?x?x2xf8E8M0FNU>
}

func.func @seg_q_long_f16(%x: tensor<?x?x?xf16>) -> (tensor<?x?x?xf4E2M1FN>, tensor<?x?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 1024 scale = even
      : tensor<?x?x?xf16> -> tensor<?x?x?xf4E2M1FN>, tensor<?x?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?x?xf4E2M1FN>, tensor<?x?x?xf8E8M0FNU>
}

func.func @seg_deq_f32(%q: tensor<?x?x?xf4E2M1FN>, %s: tensor<?x?x?xf8E8M0FNU>) -> tensor<?x?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 0 layout = linear cast = ieee
      : tensor<?x?x?xf4E2M1FN>, tensor<?x?x?xf8E8M0FNU> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

func.func @seg_deq_pairs_bf16(%q: tensor<?x?x?xf4E2M1FN>, %s: tensor<?x?x?x2xf8E8M0FNU>) -> tensor<?x?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 0 layout = pairs cast = saturate
      : tensor<?x?x?xf4E2M1FN>, tensor<?x?x?x2xf8E8M0FNU> -> tensor<?x?x?xbf16>
  return %y : tensor<?x?x?xbf16>
}

func.func @seg_deq_long_f16(%q: tensor<?x?x?xf4E2M1FN>, %s: tensor<?x?x?xf8E8M0FNU>) -> tensor<?x?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 0 block = 1024 layout = linear cast = ieee
      : tensor<?x?x?xf4E2M1FN>, tensor<?x?x?xf8E8M0FNU> -> tensor<?x?x?xf16>
  return %y : tensor<?x?x?xf16>
}
