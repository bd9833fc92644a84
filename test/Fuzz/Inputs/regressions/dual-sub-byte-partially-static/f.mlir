// Found by mxq-structured-fuzzer (2026-11-30): a dual_quantize with sub-byte
// codes and a partially static shape wrote its column scales over its row
// scales (CSE merged the two scale tensors' tensor.empty, then empty-tensor
// elimination gave both loops one buffer).
func.func @f(%a0: tensor<?x31x2xbf16>) -> (tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q0, %s0, %q1, %s1 = mxq.dual_quantize %a0 scale = floor inf = nan rounding = rne nan_element = max underflow = keep : tensor<?x31x2xbf16> -> tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
  return %q0, %s0, %q1, %s1 : tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
}
