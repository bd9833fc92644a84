// mxq.convert_scale_layout along the last axis between every pair of
// layouts (the same layout too: the padding still becomes 0), for
// test/Target/Ascend/variants-convert.test (run against the reference
// on the simulator, the source's padding bytes random).

func.func @cvt_linear_linear(%s: tensor<?x?xf8E8M0FNU>, %q: tensor<?x?xf8E4M3FN>) -> tensor<?x?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = linear to = linear
      : tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?x?xf8E8M0FNU>
  return %r : tensor<?x?xf8E8M0FNU>
}

func.func @cvt_linear_pairs(%s: tensor<?x?xf8E8M0FNU>, %q: tensor<?x?xf8E4M3FN>) -> tensor<?x?x2xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = linear to = pairs
      : tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?x?x2xf8E8M0FNU>
  return %r : tensor<?x?x2xf8E8M0FNU>
}

func.func @cvt_linear_swizzle(%s: tensor<?x?xf8E8M0FNU>, %q: tensor<?x?xf8E4M3FN>) -> tensor<?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = linear to = swizzle_32_4_4
      : tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?xf8E8M0FNU>
  return %r : tensor<?xf8E8M0FNU>
}

func.func @cvt_pairs_linear(%s: tensor<?x?x2xf8E8M0FNU>, %q: tensor<?x?xf4E2M1FN>) -> tensor<?x?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = pairs to = linear
      : tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf4E2M1FN> -> tensor<?x?xf8E8M0FNU>
  return %r : tensor<?x?xf8E8M0FNU>
}

func.func @cvt_pairs_pairs(%s: tensor<?x?x2xf8E8M0FNU>, %q: tensor<?x?xf4E2M1FN>) -> tensor<?x?x2xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = pairs to = pairs
      : tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf4E2M1FN> -> tensor<?x?x2xf8E8M0FNU>
  return %r : tensor<?x?x2xf8E8M0FNU>
}

func.func @cvt_pairs_swizzle(%s: tensor<?x?x2xf8E8M0FNU>, %q: tensor<?x?xf4E2M1FN>) -> tensor<?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = pairs to = swizzle_32_4_4
      : tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf4E2M1FN> -> tensor<?xf8E8M0FNU>
  return %r : tensor<?xf8E8M0FNU>
}

func.func @cvt_swizzle_linear(%s: tensor<?xf8E8M0FNU>, %q: tensor<?x?xf8E5M2>) -> tensor<?x?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = swizzle_32_4_4 to = linear
      : tensor<?xf8E8M0FNU>, tensor<?x?xf8E5M2> -> tensor<?x?xf8E8M0FNU>
  return %r : tensor<?x?xf8E8M0FNU>
}

func.func @cvt_swizzle_pairs(%s: tensor<?xf8E8M0FNU>, %q: tensor<?x?xf8E5M2>) -> tensor<?x?x2xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = swizzle_32_4_4 to = pairs
      : tensor<?xf8E8M0FNU>, tensor<?x?xf8E5M2> -> tensor<?x?x2xf8E8M0FNU>
  return %r : tensor<?x?x2xf8E8M0FNU>
}

func.func @cvt_swizzle_swizzle(%s: tensor<?xf8E8M0FNU>, %q: tensor<?x?xf8E5M2>) -> tensor<?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = swizzle_32_4_4 to = swizzle_32_4_4
      : tensor<?xf8E8M0FNU>, tensor<?x?xf8E5M2> -> tensor<?xf8E8M0FNU>
  return %r : tensor<?xf8E8M0FNU>
}

// Rank 3 (two matrices of rows), FP6 codes.

func.func @cvt_linear_swizzle_rank3(%s: tensor<2x?x?xf8E8M0FNU>, %q: tensor<2x?x?xf6E2M3FN>) -> tensor<2x?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 2 from = linear to = swizzle_32_4_4
      : tensor<2x?x?xf8E8M0FNU>, tensor<2x?x?xf6E2M3FN> -> tensor<2x?xf8E8M0FNU>
  return %r : tensor<2x?xf8E8M0FNU>
}

func.func @cvt_swizzle_pairs_rank3(%s: tensor<2x?xf8E8M0FNU>, %q: tensor<2x?x?xf6E2M3FN>) -> tensor<2x?x?x2xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 2 from = swizzle_32_4_4 to = pairs
      : tensor<2x?xf8E8M0FNU>, tensor<2x?x?xf6E2M3FN> -> tensor<2x?x?x2xf8E8M0FNU>
  return %r : tensor<2x?x?x2xf8E8M0FNU>
}

func.func @cvt_pairs_linear_rank3(%s: tensor<2x?x?x2xf8E8M0FNU>, %q: tensor<2x?x?xf6E2M3FN>) -> tensor<2x?x?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 2 from = pairs to = linear
      : tensor<2x?x?x2xf8E8M0FNU>, tensor<2x?x?xf6E2M3FN> -> tensor<2x?x?xf8E8M0FNU>
  return %r : tensor<2x?x?xf8E8M0FNU>
}

// Blocks of 64.

func.func @cvt_linear_swizzle_block64(%s: tensor<?x?xf8E8M0FNU>, %q: tensor<?x?xf8E4M3FN>) -> tensor<?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 block = 64 from = linear to = swizzle_32_4_4
      : tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?xf8E8M0FNU>
  return %r : tensor<?xf8E8M0FNU>
}

func.func @cvt_swizzle_pairs_block64(%s: tensor<?xf8E8M0FNU>, %q: tensor<?x?xf8E4M3FN>) -> tensor<?x?x2xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 block = 64 from = swizzle_32_4_4 to = pairs
      : tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?x?x2xf8E8M0FNU>
  return %r : tensor<?x?x2xf8E8M0FNU>
}

// Along a non-last axis: axis 0 of a matrix between every pair of layouts,
// axis 1 of rank 3 (two matrices) to and from swizzled, axis 0 of rank 3
// between linear and pairs.

func.func @cvtc_linear_linear(%s: tensor<?x?xf8E8M0FNU>, %q: tensor<?x?xf8E4M3FN>) -> tensor<?x?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = linear to = linear
      : tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?x?xf8E8M0FNU>
  return %r : tensor<?x?xf8E8M0FNU>
}

func.func @cvtc_linear_pairs(%s: tensor<?x?xf8E8M0FNU>, %q: tensor<?x?xf8E4M3FN>) -> tensor<?x?x2xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = linear to = pairs
      : tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?x?x2xf8E8M0FNU>
  return %r : tensor<?x?x2xf8E8M0FNU>
}

func.func @cvtc_linear_swizzle(%s: tensor<?x?xf8E8M0FNU>, %q: tensor<?x?xf8E4M3FN>) -> tensor<?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = linear to = swizzle_32_4_4
      : tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?xf8E8M0FNU>
  return %r : tensor<?xf8E8M0FNU>
}

func.func @cvtc_pairs_linear(%s: tensor<?x?x2xf8E8M0FNU>, %q: tensor<?x?xf4E2M1FN>) -> tensor<?x?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = pairs to = linear
      : tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf4E2M1FN> -> tensor<?x?xf8E8M0FNU>
  return %r : tensor<?x?xf8E8M0FNU>
}

func.func @cvtc_pairs_pairs(%s: tensor<?x?x2xf8E8M0FNU>, %q: tensor<?x?xf4E2M1FN>) -> tensor<?x?x2xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = pairs to = pairs
      : tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf4E2M1FN> -> tensor<?x?x2xf8E8M0FNU>
  return %r : tensor<?x?x2xf8E8M0FNU>
}

func.func @cvtc_pairs_swizzle(%s: tensor<?x?x2xf8E8M0FNU>, %q: tensor<?x?xf4E2M1FN>) -> tensor<?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = pairs to = swizzle_32_4_4
      : tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf4E2M1FN> -> tensor<?xf8E8M0FNU>
  return %r : tensor<?xf8E8M0FNU>
}

func.func @cvtc_swizzle_linear(%s: tensor<?xf8E8M0FNU>, %q: tensor<?x?xf8E5M2>) -> tensor<?x?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = swizzle_32_4_4 to = linear
      : tensor<?xf8E8M0FNU>, tensor<?x?xf8E5M2> -> tensor<?x?xf8E8M0FNU>
  return %r : tensor<?x?xf8E8M0FNU>
}

func.func @cvtc_swizzle_pairs(%s: tensor<?xf8E8M0FNU>, %q: tensor<?x?xf8E5M2>) -> tensor<?x?x2xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = swizzle_32_4_4 to = pairs
      : tensor<?xf8E8M0FNU>, tensor<?x?xf8E5M2> -> tensor<?x?x2xf8E8M0FNU>
  return %r : tensor<?x?x2xf8E8M0FNU>
}

func.func @cvtc_swizzle_swizzle(%s: tensor<?xf8E8M0FNU>, %q: tensor<?x?xf8E5M2>) -> tensor<?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = swizzle_32_4_4 to = swizzle_32_4_4
      : tensor<?xf8E8M0FNU>, tensor<?x?xf8E5M2> -> tensor<?xf8E8M0FNU>
  return %r : tensor<?xf8E8M0FNU>
}

func.func @cvtc_linear_swizzle_batch(%s: tensor<2x?x?xf8E8M0FNU>, %q: tensor<2x?x?xf6E3M2FN>) -> tensor<2x?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = linear to = swizzle_32_4_4
      : tensor<2x?x?xf8E8M0FNU>, tensor<2x?x?xf6E3M2FN> -> tensor<2x?xf8E8M0FNU>
  return %r : tensor<2x?xf8E8M0FNU>
}

func.func @cvtc_swizzle_pairs_batch(%s: tensor<2x?xf8E8M0FNU>, %q: tensor<2x?x?xf6E3M2FN>) -> tensor<2x?x?x2xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = swizzle_32_4_4 to = pairs
      : tensor<2x?xf8E8M0FNU>, tensor<2x?x?xf6E3M2FN> -> tensor<2x?x?x2xf8E8M0FNU>
  return %r : tensor<2x?x?x2xf8E8M0FNU>
}

func.func @cvtc_linear_pairs_axis0_rank3(%s: tensor<?x?x?xf8E8M0FNU>, %q: tensor<70x?x?xf8E4M3FN>) -> tensor<?x?x?x2xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = linear to = pairs
      : tensor<?x?x?xf8E8M0FNU>, tensor<70x?x?xf8E4M3FN> -> tensor<?x?x?x2xf8E8M0FNU>
  return %r : tensor<?x?x?x2xf8E8M0FNU>
}

func.func @cvtc_pairs_linear_axis0_rank3(%s: tensor<?x?x?x2xf8E8M0FNU>, %q: tensor<70x?x?xf8E4M3FN>) -> tensor<?x?x?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = pairs to = linear
      : tensor<?x?x?x2xf8E8M0FNU>, tensor<70x?x?xf8E4M3FN> -> tensor<?x?x?xf8E8M0FNU>
  return %r : tensor<?x?x?xf8E8M0FNU>
}
