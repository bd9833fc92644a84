// Found by mxq-structured-fuzzer -target=nvvm-emu (2026-12-07): the
// cooperative dual kernel for bf16 input did not link in the SIMT emulator.
// LLVM's x86 backend moves a bf16 vector lane through an f32 register and
// calls the host's __truncsfbf2, which the emulator's JIT did not provide
// ("Symbols not found: [ __truncsfbf2 ]"). The emulator now models it (a
// 16-bit move: NaN payloads kept); the data holds signalling and quiet NaNs
// with payloads, subnormals, infinities and ragged blocks.
func.func @f(%a0: tensor<?x?x60xbf16>) -> (tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q0, %s0, %q1, %s1 = mxq.dual_quantize %a0 scale = even inf = nan rounding = rne nan_element = max underflow = keep : tensor<?x?x60xbf16> -> tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
  return %q0, %s0, %q1, %s1 : tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
}
