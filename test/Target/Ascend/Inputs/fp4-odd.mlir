// FP4 with an odd last dimension (test/Target/Ascend/fp4-pad-nibble.test).
func.func @q(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}

func.func @d(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = floor
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf4E2M1FN>, tensor<?xf8E8M0FNU>
}
