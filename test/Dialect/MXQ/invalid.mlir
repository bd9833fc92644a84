// RUN: mxq-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// quantize
//===----------------------------------------------------------------------===//

func.func @axis_too_large(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expects 0 <= axis < 2 for the 2-d input, but axis is 2 (C1)}}
  %q, %s = mxq.quantize %x axis = 2 scale = rceil : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @axis_negative(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expects 0 <= axis < 2 for the 2-d input, but axis is -1 (C1)}}
  %q, %s = mxq.quantize %x axis = -1 scale = rceil : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @block_not_multiple_of_32(%x: tensor<4x96xf32>) {
  // expected-error @+1 {{expects block_size to be 16 or a positive multiple of 32 no larger than 1024, but it is 48 (C2)}}
  %q, %s = mxq.quantize %x axis = 1 block = 48 scale = rceil : tensor<4x96xf32> -> tensor<4x96xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @block_too_large(%x: tensor<4x4096xf32>) {
  // expected-error @+1 {{expects block_size to be 16 or a positive multiple of 32 no larger than 1024, but it is 2048 (C2)}}
  %q, %s = mxq.quantize %x axis = 1 block = 2048 scale = rceil : tensor<4x4096xf32> -> tensor<4x4096xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @codes_shape(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expects the codes to have the shape of the input, [4, 64], but found [4, 32] (C3)}}
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<4x64xf32> -> tensor<4x32xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @linear_scales_shape(%x: tensor<4x65xf32>) {
  // expected-error @+1 {{expects the scales of shape [4, 3] (scale layout linear, axis 1, block 32), but found [4, 2] (C4)}}
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<4x65xf32> -> tensor<4x65xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @pairs_scales_shape(%x: tensor<4x96xf32>) {
  // expected-error @+1 {{expects the scales of shape [4, 2, 2] (scale layout pairs, axis 1, block 32), but found [4, 3] (C4)}}
  %q, %s = mxq.quantize %x axis = 1 scale = rceil layout = pairs : tensor<4x96xf32> -> tensor<4x96xf8E4M3FN>, tensor<4x3xf8E8M0FNU>
  return
}

// -----

func.func @swizzle_scales_shape(%x: tensor<129x160xf32>) {
  // expected-error @+1 {{expects the scales of shape [2048] (scale layout swizzle_32_4_4, axis 1, block 32), but found [1024] (C4)}}
  %q, %s = mxq.quantize %x axis = 1 scale = rceil layout = swizzle_32_4_4 : tensor<129x160xf32> -> tensor<129x160xf8E4M3FN>, tensor<1024xf8E8M0FNU>
  return
}

// -----

func.func @swizzle_rank_1(%x: tensor<64xf32>) {
  // expected-error @+1 {{scale layout swizzle_32_4_4 lays out the last two axes, so it needs an input of rank 2 or more quantized along one of them; the input has rank 1 and axis is 0 (C5)}}
  %q, %s = mxq.quantize %x axis = 0 scale = rceil layout = swizzle_32_4_4 : tensor<64xf32> -> tensor<64xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return
}

// -----

func.func @swizzle_batch_axis(%x: tensor<64x4x4xf32>) {
  // expected-error @+1 {{the input has rank 3 and axis is 0 (C5)}}
  %q, %s = mxq.quantize %x axis = 0 scale = rceil layout = swizzle_32_4_4 : tensor<64x4x4xf32> -> tensor<64x4x4xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return
}

// -----

func.func @exponent_needs_floor(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expects scale_algorithm floor with inf_policy exponent (an infinity follows the floor exponent path), but scale_algorithm is rceil (C6)}}
  %q, %s = mxq.quantize %x axis = 1 scale = rceil inf = exponent : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @rounding_needs_fp4(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expects f4E2M1FN codes with rounding away (only the CANN FP4 casts offer it), but the codes are f8E4M3FN (C7)}}
  %q, %s = mxq.quantize %x axis = 1 scale = floor rounding = away : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @underflow_needs_floor(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expects scale_algorithm floor with underflow flush_le_emax (the rule is about the floor scale's clamped exponent), but scale_algorithm is rceil (C8)}}
  %q, %s = mxq.quantize %x axis = 1 scale = rceil underflow = flush_le_emax : tensor<4x64xf32> -> tensor<4x64xf8E5M2>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @underflow_unknown_word(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'flush' is not a word for underflow; expected one of keep, flush_e0, flush_le_emax}}
  %q, %s = mxq.quantize %x axis = 1 scale = floor underflow = flush : tensor<4x64xf32> -> tensor<4x64xf8E5M2>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @integer_input(%x: tensor<4x64xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values}}
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<4x64xi32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @code_type_not_mx(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{result #0 must be ranked tensor of}}
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<4x64xf32> -> tensor<4x64xf16>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @scale_type_not_e8m0(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{result #1 must be ranked tensor of f8E8M0FNU type or f8E4M3FN type or 32-bit float values}}
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xi8>
  return
}

// -----

func.func @unknown_algorithm(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'nearest' is not a word for scale; expected one of floor, rceil, ceil, even}}
  %q, %s = mxq.quantize %x axis = 1 scale = nearest : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @enum_not_a_word(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expected a word for rounding (one of rne, away, floor)}}
  %q, %s = mxq.quantize %x axis = 1 scale = floor rounding = 3 : tensor<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @generic_form_words(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'sideways' is not a word for layout; expected one of linear, swizzle_32_4_4, pairs}}
  %q:2 = "mxq.quantize"(%x) <{axis = 1 : i64, scale_algorithm = #mxq<scale_algorithm floor>, scale_layout = #mxq<scale_layout sideways>}> : (tensor<4x64xf32>) -> (tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>)
  return
}

//===----------------------------------------------------------------------===//
// dequantize
//===----------------------------------------------------------------------===//

// -----

func.func @dequantize_axis(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf8E8M0FNU>) {
  // expected-error @+1 {{expects 0 <= axis < 2 for the 2-d codes, but axis is 5 (C1)}}
  %y = mxq.dequantize %q, %s axis = 5 : tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xf32>
  return
}

// -----

func.func @dequantize_block(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf8E8M0FNU>) {
  // expected-error @+1 {{expects block_size to be 16 or a positive multiple of 32 no larger than 1024, but it is 0 (C2)}}
  %y = mxq.dequantize %q, %s axis = 1 block = 0 : tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xf32>
  return
}

// -----

func.func @dequantize_result_shape(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf8E8M0FNU>) {
  // expected-error @+1 {{expects the result to have the shape of the codes, [4, 64], but found [4, 63] (C3)}}
  %y = mxq.dequantize %q, %s axis = 1 : tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x63xf32>
  return
}

// -----

func.func @dequantize_scales_shape(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x3xf8E8M0FNU>) {
  // expected-error @+1 {{expects the scales of shape [4, 2] (scale layout linear, axis 1, block 32), but found [4, 3] (C4)}}
  %y = mxq.dequantize %q, %s axis = 1 : tensor<4x64xf8E4M3FN>, tensor<4x3xf8E8M0FNU> -> tensor<4x64xf32>
  return
}

// -----

func.func @dequantize_swizzle_rank(%q: tensor<64xf8E4M3FN>, %s: tensor<512xf8E8M0FNU>) {
  // expected-error @+1 {{needs an input of rank 2 or more quantized along one of them; the input has rank 1 and axis is 0 (C5)}}
  %y = mxq.dequantize %q, %s axis = 0 layout = swizzle_32_4_4 : tensor<64xf8E4M3FN>, tensor<512xf8E8M0FNU> -> tensor<64xf32>
  return
}

// -----

func.func @dequantize_result_type(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf8E8M0FNU>) {
  // expected-error @+1 {{result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values}}
  %y = mxq.dequantize %q, %s axis = 1 : tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xf64>
  return
}

//===----------------------------------------------------------------------===//
// dual_quantize
//===----------------------------------------------------------------------===//

// -----

func.func @dual_rank(%x: tensor<64xf32>) {
  // expected-error @+1 {{expects an input of rank 2 ([M, K]) or 3 ([B, M, K]), but the input has rank 1 (C1)}}
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<64xf32> -> tensor<64xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<64xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return
}

// -----

func.func @dual_codes0(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{expects codes0 to have the shape of the input, [64, 32], but found [32, 64] (C2)}}
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<64x32xf32> -> tensor<32x64xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<32x64xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return
}

// -----

func.func @dual_codes1(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{expects codes1 to have the transposed shape of the input, [32, 64], but found [64, 32] (C2)}}
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<64x32xf32> -> tensor<64x32xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<64x32xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return
}

// -----

func.func @dual_code_types(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{expects codes0 and codes1 of one element type, but found f8E4M3FN and f8E5M2 (C2)}}
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<64x32xf32> -> tensor<64x32xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<32x64xf8E5M2>, tensor<512xf8E8M0FNU>
  return
}

// -----

func.func @dual_scales0(%x: tensor<256x32xf32>) {
  // expected-error @+1 {{expects scales0 of shape [1024] (scale layout swizzle_32_4_4, axis 1, block 32), but found [512] (C3)}}
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<256x32xf32> -> tensor<256x32xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<32x256xf8E4M3FN>, tensor<1024xf8E8M0FNU>
  return
}

// -----

func.func @dual_scales1(%x: tensor<2x256x32xf32>) {
  // expected-error @+1 {{expects scales1 of shape [2, 1024] (scale layout swizzle_32_4_4, axis 1, block 32), but found [2, 512] (C3)}}
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<2x256x32xf32> -> tensor<2x256x32xf8E4M3FN>, tensor<2x1024xf8E8M0FNU>, tensor<2x32x256xf8E4M3FN>, tensor<2x512xf8E8M0FNU>
  return
}

// -----

func.func @dual_policy(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{but scale_algorithm is ceil (C4)}}
  %a, %b, %c, %d = mxq.dual_quantize %x scale = ceil inf = exponent : tensor<64x32xf32> -> tensor<64x32xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<32x64xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return
}

// -----

func.func @dual_rounding(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{with rounding floor (only the CANN FP4 casts offer it), but the codes are f8E4M3FN (C5)}}
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil rounding = floor : tensor<64x32xf32> -> tensor<64x32xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<32x64xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return
}

// -----

func.func @dual_underflow(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{but scale_algorithm is even (C7)}}
  %a, %b, %c, %d = mxq.dual_quantize %x scale = even underflow = flush_e0 : tensor<64x32xf32> -> tensor<64x32xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<32x64xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return
}

//===----------------------------------------------------------------------===//
// two_level_quantize
//===----------------------------------------------------------------------===//

// -----

func.func @two_level_odd(%x: tensor<4x63xbf16>) {
  // expected-error @+1 {{expects an even last dimension (FP4 codes are stored two per byte), but it is 63 (C1)}}
  %y, %a, %b = mxq.two_level_quantize %x : tensor<4x63xbf16> -> tensor<4x63xf4E2M1FN>, tensor<4x1xf32>, tensor<4x1x2xf8E8M0FNU>
  return
}

// -----

func.func @two_level_rank0(%x: tensor<bf16>) {
  // expected-error @+1 {{expects an input of rank 1 or more, but the input is 0-d (C1)}}
  %y, %a, %b = mxq.two_level_quantize %x : tensor<bf16> -> tensor<f4E2M1FN>, tensor<f32>, tensor<2xf8E8M0FNU>
  return
}

// -----

func.func @two_level_f32(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 16-bit float or bfloat16 type values}}
  %y, %a, %b = mxq.two_level_quantize %x : tensor<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<4x1xf32>, tensor<4x1x2xf8E8M0FNU>
  return
}

// -----

func.func @two_level_smooth_type(%x: tensor<4x64xbf16>, %s: tensor<64xf16>) {
  // expected-error @+1 {{expects smooth to have the element type of the input, bf16, but found f16 (C2)}}
  %y, %a, %b = mxq.two_level_quantize %x smooth %s : tensor<4x64xbf16>, tensor<64xf16> -> tensor<4x64xf4E2M1FN>, tensor<4x1xf32>, tensor<4x1x2xf8E8M0FNU>
  return
}

// -----

func.func @two_level_smooth_shape(%x: tensor<4x64xbf16>, %s: tensor<32xbf16>) {
  // expected-error @+1 {{expects smooth of shape [64] (the last dimension of the input), but found [32] (C2)}}
  %y, %a, %b = mxq.two_level_quantize %x smooth %s : tensor<4x64xbf16>, tensor<32xbf16> -> tensor<4x64xf4E2M1FN>, tensor<4x1xf32>, tensor<4x1x2xf8E8M0FNU>
  return
}

// -----

func.func @two_level_y(%x: tensor<4x64xbf16>) {
  // expected-error @+1 {{expects y to have the shape of the input, [4, 64], but found [4, 32] (C3)}}
  %y, %a, %b = mxq.two_level_quantize %x : tensor<4x64xbf16> -> tensor<4x32xf4E2M1FN>, tensor<4x1xf32>, tensor<4x1x2xf8E8M0FNU>
  return
}

// -----

func.func @two_level_level0(%x: tensor<4x1024xbf16>) {
  // expected-error @+1 {{expects level0_scales of shape [4, 2] (one fp32 scale per 512 elements), but found [4, 1] (C4)}}
  %y, %a, %b = mxq.two_level_quantize %x : tensor<4x1024xbf16> -> tensor<4x1024xf4E2M1FN>, tensor<4x1xf32>, tensor<4x16x2xf8E8M0FNU>
  return
}

// -----

func.func @two_level_level1(%x: tensor<4x96xbf16>) {
  // expected-error @+1 {{expects level1_scales of shape [4, 2, 2] (scale layout pairs, axis 1, block 32), but found [4, 3, 2] (C5)}}
  %y, %a, %b = mxq.two_level_quantize %x : tensor<4x96xbf16> -> tensor<4x96xf4E2M1FN>, tensor<4x1xf32>, tensor<4x3x2xf8E8M0FNU>
  return
}

//===----------------------------------------------------------------------===//
// fake_quant, fake_quant_grad
//===----------------------------------------------------------------------===//

// -----

func.func @fake_quant_format(%x: tensor<4xf32>, %s: tensor<1xf32>) {
  // expected-error @+1 {{expects format f8E4M3FN or f8E5M2, but found f4E2M1FN (C1)}}
  %y = mxq.fake_quant %x, %s, %s format = f4E2M1FN quant_min = -6.0 quant_max = 6.0 : tensor<4xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @fake_quant_min_max(%x: tensor<4xf32>, %s: tensor<1xf32>) {
  // expected-error @+1 {{expects finite quant_min < quant_max, but found quant_min = 4 and quant_max = -4 (C2)}}
  %y = mxq.fake_quant %x, %s, %s format = f8E4M3FN quant_min = 4.0 quant_max = -4.0 : tensor<4xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @fake_quant_range(%x: tensor<4xf32>, %s: tensor<1xf32>) {
  // expected-error @+1 {{expects quant_min and quant_max within the finite range of the format, [-448, 448], but found [-448, 500] (C2)}}
  %y = mxq.fake_quant %x, %s, %s format = f8E4M3FN quant_min = -448.0 quant_max = 500.0 : tensor<4xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @fake_quant_per_tensor_shape(%x: tensor<4xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{expects per-tensor parameters of shape [1] without axis, but found a parameter of shape [2] (C3)}}
  %y = mxq.fake_quant %x, %s, %s format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 : tensor<4xf32>, tensor<2xf32>, tensor<2xf32>
  return
}

// -----

func.func @fake_quant_axis(%x: tensor<4x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{expects 0 <= axis < 2 for the 2-d input, but axis is 2 (C4)}}
  %y = mxq.fake_quant %x, %s, %s format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 axis = 2 : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @fake_quant_channels(%x: tensor<4x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{expects per-channel parameters of shape [8] (the size of axis 1), but found a parameter of shape [4] (C4)}}
  %y = mxq.fake_quant %x, %s, %s format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 axis = 1 : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @fake_quant_param_rank(%x: tensor<4x8xf32>, %s: tensor<1x1xf32>) {
  // expected-error @+1 {{operand #1 must be 1D tensor of 32-bit float values}}
  %y = mxq.fake_quant %x, %s, %s format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 : tensor<4x8xf32>, tensor<1x1xf32>, tensor<1x1xf32>
  return
}

// -----

func.func @fake_quant_grad_bounds(%g: tensor<4xf32>, %s: tensor<1xf32>) {
  // expected-error @+1 {{expects finite quant_min < quant_max, but found quant_min = 1 and quant_max = 1 (C2)}}
  %y = mxq.fake_quant_grad %g, %g, %s quant_min = 1.0 quant_max = 1.0 : tensor<4xf32>, tensor<1xf32>
  return
}

// -----

func.func @fake_quant_grad_channels(%g: tensor<4x8xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{expects per-channel parameters of shape [4] (the size of axis 0), but found a parameter of shape [3] (C4)}}
  %y = mxq.fake_quant_grad %g, %g, %s quant_min = -448.0 quant_max = 448.0 axis = 0 : tensor<4x8xf32>, tensor<3xf32>
  return
}

// -----

func.func @fake_quant_grad_per_tensor(%g: tensor<4x8xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{expects per-tensor parameters of shape [1] without axis, but found a parameter of shape [3] (C3)}}
  %y = mxq.fake_quant_grad %g, %g, %s quant_min = -448.0 quant_max = 448.0 : tensor<4x8xf32>, tensor<3xf32>
  return
}

//===----------------------------------------------------------------------===//
// convert_scale_layout
//===----------------------------------------------------------------------===//

// -----

func.func @convert_axis(%s: tensor<4x2xf8E8M0FNU>, %q: tensor<4x64xf8E4M3FN>) {
  // expected-error @+1 {{expects 0 <= axis < 2 for the 2-d codes, but axis is 2 (C1)}}
  %r = mxq.convert_scale_layout %s, %q axis = 2 from = linear to = pairs : tensor<4x2xf8E8M0FNU>, tensor<4x64xf8E4M3FN> -> tensor<4x1x2xf8E8M0FNU>
  return
}

// -----

func.func @convert_block(%s: tensor<4x2xf8E8M0FNU>, %q: tensor<4x64xf8E4M3FN>) {
  // expected-error @+1 {{expects block_size to be 16 or a positive multiple of 32 no larger than 1024, but it is 48 (C2)}}
  %r = mxq.convert_scale_layout %s, %q axis = 1 block = 48 from = linear to = pairs : tensor<4x2xf8E8M0FNU>, tensor<4x64xf8E4M3FN> -> tensor<4x1x2xf8E8M0FNU>
  return
}

// -----

func.func @convert_source_shape(%s: tensor<4x3xf8E8M0FNU>, %q: tensor<4x64xf8E4M3FN>) {
  // expected-error @+1 {{expects the scales of shape [4, 2] (scale layout linear, axis 1, block 32), but found [4, 3] (C3)}}
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = linear to = pairs : tensor<4x3xf8E8M0FNU>, tensor<4x64xf8E4M3FN> -> tensor<4x1x2xf8E8M0FNU>
  return
}

// -----

func.func @convert_result_shape(%s: tensor<4x2xf8E8M0FNU>, %q: tensor<4x64xf8E4M3FN>) {
  // expected-error @+1 {{expects the result of shape [4, 1, 2] (scale layout pairs, axis 1, block 32), but found [4, 2, 2] (C4)}}
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = linear to = pairs : tensor<4x2xf8E8M0FNU>, tensor<4x64xf8E4M3FN> -> tensor<4x2x2xf8E8M0FNU>
  return
}

// -----

func.func @convert_swizzle_rank(%s: tensor<2xf8E8M0FNU>, %q: tensor<64xf8E4M3FN>) {
  // expected-error @+1 {{needs an input of rank 2 or more quantized along one of them; the input has rank 1 and axis is 0 (C5)}}
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = linear to = swizzle_32_4_4 : tensor<2xf8E8M0FNU>, tensor<64xf8E4M3FN> -> tensor<512xf8E8M0FNU>
  return
}

//===----------------------------------------------------------------------===//
// NVFP4: E4M3 scales (quantize C9, C10; dual_quantize C8; convert C6)
//===----------------------------------------------------------------------===//

// -----

func.func @e4m3_scales_with_e8m0_rule(%x: tensor<4x32xf32>) {
  // expected-error @+1 {{expects f8E4M3FN or f32 scales with scale_algorithm encode or decode and f8E8M0FNU scales with the others, but the scales are f8E4M3FN and scale_algorithm is rceil (C9)}}
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = rceil : tensor<4x32xf32> -> tensor<4x32xf4E2M1FN>, tensor<4x2xf8E4M3FN>
  return
}

// -----

func.func @nvfp4_rule_with_e8m0_scales(%x: tensor<4x32xf32>) {
  // expected-error @+1 {{expects f8E4M3FN or f32 scales with scale_algorithm encode or decode and f8E8M0FNU scales with the others, but the scales are f8E8M0FNU and scale_algorithm is encode (C9)}}
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = encode : tensor<4x32xf32> -> tensor<4x32xf4E2M1FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @nvfp4_fp8_codes(%x: tensor<4x32xf32>) {
  // expected-error @+1 {{expects f4E2M1FN codes with E4M3 scales (NVFP4), but the codes are f8E4M3FN (C9)}}
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = decode : tensor<4x32xf32> -> tensor<4x32xf8E4M3FN>, tensor<4x2xf8E4M3FN>
  return
}

// -----

func.func @nvfp4_block_32(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expects block_size 16 with E4M3 scales (NVFP4), but it is 32 (C9)}}
  %q, %s = mxq.quantize %x axis = 1 scale = encode : tensor<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<4x2xf8E4M3FN>
  return
}

// -----

func.func @nvfp4_rounding(%x: tensor<4x32xf32>) {
  // expected-error @+1 {{expects the default rounding with scale_algorithm decode (the conventions of stored scales state that step themselves) (C9)}}
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = decode rounding = away : tensor<4x32xf32> -> tensor<4x32xf4E2M1FN>, tensor<4x2xf8E4M3FN>
  return
}

// -----

func.func @nvfp4_inf(%x: tensor<4x32xf32>) {
  // expected-error @+1 {{expects the default inf_policy with scale_algorithm encode (the conventions of stored scales state that step themselves) (C9)}}
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = encode inf = saturate : tensor<4x32xf32> -> tensor<4x32xf4E2M1FN>, tensor<4x2xf8E4M3FN>
  return
}

// -----

func.func @outer_on_mx(%x: tensor<4x64xf32>, %o: tensor<f32>) {
  // expected-error @+1 {{expects no outer scale with scale_algorithm rceil and f8E8M0FNU scales (only NVFP4's encode and decode take one) (C10)}}
  %q, %s = mxq.quantize %x outer(%o : tensor<f32>) axis = 1 scale = rceil : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @outer_shape(%x: tensor<4x32xf32>, %o: tensor<32xf32>) {
  // expected-error @+1 {{expects the outer scale to be a rank-0 tensor or to have the shape of the input without axis 1, [4], but found [32] (C10)}}
  %q, %s = mxq.quantize %x outer(%o : tensor<32xf32>) axis = 1 block = 16 scale = encode : tensor<4x32xf32> -> tensor<4x32xf4E2M1FN>, tensor<4x2xf8E4M3FN>
  return
}

// -----

func.func @outer_not_f32(%x: tensor<4x32xf32>, %o: tensor<bf16>) {
  // expected-error @+1 {{operand #1 must be ranked tensor of 32-bit float values}}
  %q, %s = mxq.quantize %x outer(%o : tensor<bf16>) axis = 1 block = 16 scale = encode : tensor<4x32xf32> -> tensor<4x32xf4E2M1FN>, tensor<4x2xf8E4M3FN>
  return
}

// -----

func.func @dual_nvfp4(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{expects an E8M0 scale_algorithm (floor, rceil, ceil, even), but it is decode (NVFP4 is mxq.quantize's) (C8)}}
  %q0, %s0, %q1, %s1 = mxq.dual_quantize %x scale = decode : tensor<128x128xbf16> -> tensor<128x128xf4E2M1FN>, tensor<512xf8E8M0FNU>, tensor<128x128xf4E2M1FN>, tensor<512xf8E8M0FNU>
  return
}

// -----

func.func @convert_changes_type(%s: tensor<4x4xf8E4M3FN>, %q: tensor<4x64xf4E2M1FN>) {
  // expected-error @+1 {{expects the result to hold the scales' type, f8E4M3FN, but it holds f8E8M0FNU (C6)}}
  %r = mxq.convert_scale_layout %s, %q axis = 1 block = 16 from = linear to = pairs : tensor<4x4xf8E4M3FN>, tensor<4x64xf4E2M1FN> -> tensor<4x2x2xf8E8M0FNU>
  return
}

// -----

func.func @dequantize_e4m3_without_word(%q: tensor<4x32xf4E2M1FN>, %s: tensor<4x2xf8E4M3FN>) {
  // expected-error @+1 {{expects f8E4M3FN scales with scale encode or decode and f8E8M0FNU scales with no scale word, but the scales are f8E4M3FN and the scale word is absent (C6)}}
  %y = mxq.dequantize %q, %s axis = 1 block = 16 : tensor<4x32xf4E2M1FN>, tensor<4x2xf8E4M3FN> -> tensor<4x32xf32>
  return
}

// -----

func.func @dequantize_e8m0_with_word(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf8E8M0FNU>) {
  // expected-error @+1 {{expects f8E4M3FN scales with scale encode or decode and f8E8M0FNU scales with no scale word, but the scales are f8E8M0FNU and the scale word is rceil (C6)}}
  %y = mxq.dequantize %q, %s axis = 1 scale = rceil : tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xf32>
  return
}

// -----

func.func @dequantize_nvfp4_fp8(%q: tensor<4x32xf8E4M3FN>, %s: tensor<4x2xf8E4M3FN>) {
  // expected-error @+1 {{expects f4E2M1FN codes in blocks of 16 with E4M3 scales (NVFP4), but the codes are f8E4M3FN in blocks of 16 (C6)}}
  %y = mxq.dequantize %q, %s axis = 1 block = 16 scale = decode : tensor<4x32xf8E4M3FN>, tensor<4x2xf8E4M3FN> -> tensor<4x32xf32>
  return
}

// -----

func.func @dequantize_encode_needs_amax(%q: tensor<4x32xf4E2M1FN>, %s: tensor<4x2xf8E4M3FN>) {
  // expected-error @+1 {{expects the outer scale (the amax TransformerEngine stores) with scale encode (C7)}}
  %y = mxq.dequantize %q, %s axis = 1 block = 16 scale = encode : tensor<4x32xf4E2M1FN>, tensor<4x2xf8E4M3FN> -> tensor<4x32xf32>
  return
}

// -----

func.func @dequantize_outer_on_mx(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf8E8M0FNU>, %o: tensor<f32>) {
  // expected-error @+1 {{expects no outer scale without scale encode or decode (C7)}}
  %y = mxq.dequantize %q, %s outer(%o : tensor<f32>) axis = 1 : tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xf32>
  return
}

// -----

func.func @dequantize_outer_shape(%q: tensor<4x32xf4E2M1FN>, %s: tensor<4x2xf8E4M3FN>, %o: tensor<3xf32>) {
  // expected-error @+1 {{expects the outer scale to be a rank-0 tensor or to have the shape of the codes without axis 1, [4], but found [3] (C7)}}
  %y = mxq.dequantize %q, %s outer(%o : tensor<3xf32>) axis = 1 block = 16 scale = encode : tensor<4x32xf4E2M1FN>, tensor<4x2xf8E4M3FN> -> tensor<4x32xf32>
  return
}

//===----------------------------------------------------------------------===//
// Blockwise FP8: f32 scales (quantize C11, dequantize C6 - C8)
//===----------------------------------------------------------------------===//

// -----

func.func @f32_scales_mx_rule(%x: tensor<4x128xf32>) {
  // expected-error @+1 {{expects scale_algorithm encode or decode with f32 scales (blockwise FP8), but it is rceil (C11)}}
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = rceil : tensor<4x128xf32> -> tensor<4x128xf8E4M3FN>, tensor<4x1xf32>
  return
}

// -----

func.func @f32_scales_fp4(%x: tensor<4x128xf32>) {
  // expected-error @+1 {{expects FP8 codes (f8E4M3FN, f8E5M2) with f32 scales, but the codes are f4E2M1FN (C11)}}
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode : tensor<4x128xf32> -> tensor<4x128xf4E2M1FN>, tensor<4x1xf32>
  return
}

// -----

func.func @f32_scales_swizzled(%x: tensor<128x128xf32>) {
  // expected-error @+1 {{expects the linear layout with f32 scales, but it is swizzle_32_4_4 (C11)}}
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode layout = swizzle_32_4_4 : tensor<128x128xf32> -> tensor<128x128xf8E4M3FN>, tensor<512xf32>
  return
}

// -----

func.func @pow2_on_mx(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expects pow2 only with f32 scales (blockwise FP8), but the scales are f8E8M0FNU (C11)}}
  %q, %s = mxq.quantize %x axis = 1 scale = rceil pow2 : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @floor_on_nvfp4(%x: tensor<4x32xf32>) {
  // expected-error @+1 {{expects amax_floor only with f32 scales (blockwise FP8), but the scales are f8E4M3FN (C11)}}
  %q, %s = mxq.quantize %x axis = 1 block = 16 scale = decode amax_floor = 1.0e-04 : tensor<4x32xf32> -> tensor<4x32xf4E2M1FN>, tensor<4x2xf8E4M3FN>
  return
}

// -----

func.func @reciprocal_encode(%x: tensor<4x128xf32>) {
  // expected-error @+1 {{expects division = reciprocal only with scale_algorithm decode (encode divides exactly, as TransformerEngine does) (C11)}}
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = encode division = reciprocal : tensor<4x128xf32> -> tensor<4x128xf8E4M3FN>, tensor<4x1xf32>
  return
}

// -----

func.func @negative_floor(%x: tensor<4x128xf32>) {
  // expected-error @+1 {{expects amax_floor finite and >= 0, but it is -1.000000e+00 (C11)}}
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode amax_floor = -1.0 : tensor<4x128xf32> -> tensor<4x128xf8E4M3FN>, tensor<4x1xf32>
  return
}

// -----

func.func @f32_scales_rounding(%x: tensor<4x128xf32>) {
  // expected-error @+1 {{expects the default product with scale_algorithm decode (the conventions of stored scales state that step themselves) (C11)}}
  %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode product = bf16 : tensor<4x128xf32> -> tensor<4x128xf8E4M3FN>, tensor<4x1xf32>
  return
}

// -----

func.func @f32_scales_outer(%x: tensor<4x128xf32>, %o: tensor<f32>) {
  // expected-error @+1 {{expects no outer scale with scale_algorithm encode and f32 scales (only NVFP4's encode and decode take one) (C10)}}
  %q, %s = mxq.quantize %x outer(%o : tensor<f32>) axis = 1 block = 128 scale = encode : tensor<4x128xf32> -> tensor<4x128xf8E4M3FN>, tensor<4x1xf32>
  return
}

// -----

func.func @dequantize_f32_word(%q: tensor<4x128xf8E4M3FN>, %s: tensor<4x1xf32>) {
  // expected-error @+1 {{expects no scale word with f32 scales (the stored value multiplies), but it is decode (C6)}}
  %y = mxq.dequantize %q, %s axis = 1 block = 128 scale = decode : tensor<4x128xf8E4M3FN>, tensor<4x1xf32> -> tensor<4x128xf32>
  return
}

// -----

func.func @dequantize_f32_fp6(%q: tensor<4x128xf6E2M3FN>, %s: tensor<4x1xf32>) {
  // expected-error @+1 {{expects FP8 codes and the linear layout with f32 scales, but the codes are f6E2M3FN and the layout linear (C8)}}
  %y = mxq.dequantize %q, %s axis = 1 block = 128 : tensor<4x128xf6E2M3FN>, tensor<4x1xf32> -> tensor<4x128xf32>
  return
}
