// Found by mxq-structured-fuzzer -target=nvvm-emu (2026-12-07, a 1,000,000-run
// long run): a blockwise FP8 block (f32 scales, scale = decode) holding f16
// NaNs stored its NaN scale with the input NaN's payload (0x7FFBC000) on cpu
// and nvvm-emu, where the reference stores the canonical NaN (0x7FC00000).
func.func @f(%a0: tensor<?xf16>) -> (tensor<?xf8E4M3FN>, tensor<?xf32>) {
  %q, %s = mxq.quantize %a0 axis = 0 block = 160 scale = decode amax_floor = 1.0e-04 division = reciprocal layout = linear : tensor<?xf16> -> tensor<?xf8E4M3FN>, tensor<?xf32>
  return %q, %s : tensor<?xf8E4M3FN>, tensor<?xf32>
}
