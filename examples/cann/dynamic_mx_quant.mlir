// CANN aclnnDynamicMxQuant(x, axis, roundMode, dstType, blocksize = 32,
//     scaleAlg) -> (y, mxscale), at the bytes of the shipped arch35 kernels
// (hicann/ops-nn quant/dynamic_mx_quant/op_kernel/arch35; mx-semantics.md
// 10.5): scaleAlg 0 is the floor scale with Inf -> 0xFF, tiny blocks flushed
// (underflow = flush_le_emax), scaleAlg 1 the RCEIL scale (FP8 only); the
// saturating casts code NaN-scale blocks 0x00 (nan_element = zero); FP4
// from bf16 multiplies in bf16 (product = bf16) and casts with roundMode.
// mxscale is [..., ceil(n/64), 2] (tail axis) or [ceil(m/64), n, 2]
// (axis -2), pad bytes 0x00. The vendor needs 32 elements along the axis;
// mxq accepts fewer (one short block, the same as zero padding).

func.func @dynamic_mx_quant_e4m3_ocp_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %s = mxq.quantize %x axis = 1 scale = floor nan_element = zero underflow = flush_le_emax layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %y, %s : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dynamic_mx_quant_e5m2_ocp_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %s = mxq.quantize %x axis = 1 scale = floor nan_element = zero underflow = flush_le_emax layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU>
  return %y, %s : tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dynamic_mx_quant_e2m1_ocp_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %s = mxq.quantize %x axis = 1 scale = floor nan_element = zero underflow = flush_le_emax product = bf16 layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  return %y, %s : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dynamic_mx_quant_e4m3_ocp_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %s = mxq.quantize %x axis = 1 scale = floor nan_element = zero underflow = flush_le_emax layout = pairs
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %y, %s : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dynamic_mx_quant_e4m3_ocp_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %s = mxq.quantize %x axis = 1 scale = floor nan_element = zero underflow = flush_le_emax layout = pairs
      : tensor<?x?xf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %y, %s : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dynamic_mx_quant_e4m3_nv_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %s = mxq.quantize %x axis = 1 scale = rceil nan_element = zero layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %y, %s : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dynamic_mx_quant_e5m2_nv_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %s = mxq.quantize %x axis = 1 scale = rceil nan_element = zero layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU>
  return %y, %s : tensor<?x?xf8E5M2>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dynamic_mx_quant_e2m1_ocp_round_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %s = mxq.quantize %x axis = 1 scale = floor rounding = away nan_element = zero underflow = flush_le_emax product = bf16 layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  return %y, %s : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dynamic_mx_quant_e2m1_ocp_floor_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %s = mxq.quantize %x axis = 1 scale = floor rounding = floor nan_element = zero underflow = flush_le_emax product = bf16 layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  return %y, %s : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dynamic_mx_quant_e4m3_ocp_axis0_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %s = mxq.quantize %x axis = 0 scale = floor nan_element = zero underflow = flush_le_emax layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %y, %s : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
}
