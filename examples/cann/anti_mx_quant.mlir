// CANN aclnnAntiMxQuant(x, mxscale, axis = -1, dstType) -> y: the
// dequantization of DynamicMxQuant's outputs (codes, pair-layout scales
// [..., ceil(n/64), 2], tail axis only), at the bytes of the shipped arch35
// kernel (hicann/ops-nn quant/anti_mx_quant/op_kernel/arch35; mx-semantics.md
// 10.7): FP8 codes go through an fp32 product and a saturating cast (NaN to
// +0, overflow and Inf to the largest finite value: cast = saturate); FP4 to
// bf16 keeps the bf16 product (NaN and Inf kept: cast = ieee); FP4 to f16
// saturates.

func.func @anti_mx_quant_e4m3_bf16(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @anti_mx_quant_e4m3_f16(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

func.func @anti_mx_quant_e2m1_bf16(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = ieee
      : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @anti_mx_quant_e2m1_f16(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = pairs cast = saturate
      : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
