// CANN aclnnDynamicMxQuantWithDualAxis(x, roundMode, dstType, scaleAlg = 0)
// -> (y1, mxscale1, y2, mxscale2) at the bytes of the shipped arch35 kernel
// (hicann/ops-nn quant/dynamic_mx_quant_with_dual_axis/op_kernel/arch35;
// mx-semantics.md 10.6): y1/mxscale1 along the last axis (pairs
// [m, ceil(n/64), 2]), y2/mxscale2 along axis -2 (two-row interleave
// [ceil(m/64), n, 2]), both block 32, floor scale with underflow = flush_e0,
// NaN-scale blocks coded 0x00, FP4 products in bf16 for both outputs. The
// kernel reads each tile once; mxq states the two quantizations of the one
// input, which a target may fuse.

func.func @dynamic_mx_quant_with_dual_axis_e4m3_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %y1, %s1 = mxq.quantize %x axis = 1 scale = floor nan_element = zero underflow = flush_e0 layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  %y2, %s2 = mxq.quantize %x axis = 0 scale = floor nan_element = zero underflow = flush_e0 layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %y1, %s1, %y2, %s2 : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dynamic_mx_quant_with_dual_axis_e2m1_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>) {
  %y1, %s1 = mxq.quantize %x axis = 1 scale = floor nan_element = zero underflow = flush_e0 product = bf16 layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  %y2, %s2 = mxq.quantize %x axis = 0 scale = floor nan_element = zero underflow = flush_e0 product = bf16 layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  return %y1, %s1, %y2, %s2 : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
}
