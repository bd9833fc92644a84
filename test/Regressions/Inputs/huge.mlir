func.func @largest(%x: tensor<9223372036854775807xf32>) -> (tensor<9223372036854775807xf8E4M3FN>, tensor<288230376151711744xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor : tensor<9223372036854775807xf32> -> tensor<9223372036854775807xf8E4M3FN>, tensor<288230376151711744xf8E8M0FNU>
  return %q, %s : tensor<9223372036854775807xf8E4M3FN>, tensor<288230376151711744xf8E8M0FNU>
}

// -----

func.func @swizzle_overflow(%x: tensor<4611686018427387904x4611686018427387904xf32>) -> (tensor<4611686018427387904x4611686018427387904xf8E4M3FN>, tensor<512xf8E8M0FNU>) {
  // expected-error @+1 {{the swizzled scales of a 4611686018427387904 x 4611686018427387904 grid would number more than a 64-bit size can count}}
  %q, %s = mxq.quantize %x axis = 1 scale = floor layout = swizzle_32_4_4 : tensor<4611686018427387904x4611686018427387904xf32> -> tensor<4611686018427387904x4611686018427387904xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return %q, %s : tensor<4611686018427387904x4611686018427387904xf8E4M3FN>, tensor<512xf8E8M0FNU>
}
