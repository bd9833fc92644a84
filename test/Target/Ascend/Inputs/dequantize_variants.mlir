// Last-axis dequantize of every element format the Ascend vector core
// casts, to every result type, with both result casts and both scale
// layouts, for test/Target/Ascend/cookbook.test.

func.func @deq_f8E4M3FN_f32_ieee_linear(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f8E4M3FN_f32_ieee_pairs(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = ieee
      : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f8E4M3FN_f32_saturate_linear(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = saturate
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f8E4M3FN_f32_saturate_pairs(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f8E4M3FN_bf16_ieee_linear(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f8E4M3FN_bf16_ieee_pairs(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = ieee
      : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f8E4M3FN_bf16_saturate_linear(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = saturate
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f8E4M3FN_bf16_saturate_pairs(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f8E4M3FN_f16_ieee_linear(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f8E4M3FN_f16_ieee_pairs(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = ieee
      : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f8E4M3FN_f16_saturate_linear(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = saturate
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f8E4M3FN_f16_saturate_pairs(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f8E5M2_f32_ieee_linear(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f8E5M2_f32_ieee_pairs(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = ieee
      : tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f8E5M2_f32_saturate_linear(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = saturate
      : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f8E5M2_f32_saturate_pairs(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f8E5M2_bf16_ieee_linear(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f8E5M2_bf16_ieee_pairs(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = ieee
      : tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f8E5M2_bf16_saturate_linear(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = saturate
      : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f8E5M2_bf16_saturate_pairs(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f8E5M2_f16_ieee_linear(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f8E5M2_f16_ieee_pairs(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = ieee
      : tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f8E5M2_f16_saturate_linear(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = saturate
      : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f8E5M2_f16_saturate_pairs(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f4E2M1FN_f32_ieee_linear(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f4E2M1FN_f32_ieee_pairs(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = ieee
      : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f4E2M1FN_f32_saturate_linear(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = saturate
      : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f4E2M1FN_f32_saturate_pairs(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f4E2M1FN_bf16_ieee_linear(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f4E2M1FN_bf16_ieee_pairs(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = ieee
      : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f4E2M1FN_bf16_saturate_linear(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = saturate
      : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f4E2M1FN_bf16_saturate_pairs(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f4E2M1FN_f16_ieee_linear(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f4E2M1FN_f16_ieee_pairs(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = ieee
      : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f4E2M1FN_f16_saturate_linear(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = saturate
      : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f4E2M1FN_f16_saturate_pairs(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

// FP6: no cast on the core; decoded by integer code.

func.func @deq_f6E2M3FN_f32_ieee_linear(%q: tensor<?x?xf6E2M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f6E2M3FN_bf16_saturate_pairs(%q: tensor<?x?xf6E2M3FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf6E2M3FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f6E2M3FN_f16_ieee_linear(%q: tensor<?x?xf6E2M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @deq_f6E3M2FN_f32_ieee_linear(%q: tensor<?x?xf6E3M2FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @deq_f6E3M2FN_bf16_saturate_pairs(%q: tensor<?x?xf6E3M2FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf6E3M2FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @deq_f6E3M2FN_f16_ieee_linear(%q: tensor<?x?xf6E3M2FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear cast = ieee
      : tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
