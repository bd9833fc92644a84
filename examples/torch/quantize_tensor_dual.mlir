// PyTorch torch.nn.functional.quantize_tensor_dual(x, dim=(0, 1),
//     scaling_type=BlockWise1x32, qdata_dtype=float8_e4m3fn,
//     scaling_algorithm=MXFP_E8M0_RU, swizzle_type=SWIZZLE_32_4_4)
// -> (qdata0 (M, K), scale0 (L,), qdata1 stored (K, M), scale1 (L,)),
// L = 512 * ceil(M/128) * ceil(K/128).

func.func @quantize_tensor_dual_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %q0, %s0, %q1, %s1 = mxq.dual_quantize %x scale = rceil inf = nan
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %q0, %s0, %q1, %s1 : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}

func.func @quantize_tensor_dual_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %q0, %s0, %q1, %s1 = mxq.dual_quantize %x scale = rceil inf = nan
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %q0, %s0, %q1, %s1 : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}

func.func @quantize_tensor_dual_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %q0, %s0, %q1, %s1 = mxq.dual_quantize %x scale = rceil inf = nan
      : tensor<?x?xf16> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %q0, %s0, %q1, %s1 : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}
