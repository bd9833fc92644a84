// CANN aclnnDynamicDualLevelMxQuant(x, smoothScaleOptional, roundMode,
//     level0BlockSize = 512, level1BlockSize = 32)
// -> (y FP4 (m, n), level0Scale fp32 (m, ceil(n/512)),
//     level1Scale e8m0 (m, ceil(n/64), 2)).
//
// At the bytes of the shipped arch35 kernel (hicann/ops-nn
// quant/dynamic_dual_level_mx_quant/op_kernel/arch35, mx-semantics.md 10.1
// and 10.4): the saturating bf16->FP4 cast codes the elements of a NaN group
// 0x0 (nan_element = zero), and the level-0 division flushes subnormal
// dividends and quotients (div_denormals = ftz). Level 1 multiplies a group
// whose exponent field is 0 by 0 (flush_e0), the op's own rule.

func.func @dual_level_mx_quant_rint_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = rne nan_element = zero div_denormals = ftz
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dual_level_mx_quant_rint_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = rne nan_element = zero div_denormals = ftz
      : tensor<?x?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dual_level_mx_quant_round_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = away nan_element = zero div_denormals = ftz
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dual_level_mx_quant_round_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = away nan_element = zero div_denormals = ftz
      : tensor<?x?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dual_level_mx_quant_floor_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = floor nan_element = zero div_denormals = ftz
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dual_level_mx_quant_floor_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = floor nan_element = zero div_denormals = ftz
      : tensor<?x?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @dual_level_mx_quant_smooth_rint_bf16(%x: tensor<?x?xbf16>, %smooth: tensor<?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x smooth %smooth rounding = rne nan_element = zero div_denormals = ftz
      : tensor<?x?xbf16>, tensor<?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}
