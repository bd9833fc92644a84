// Scale layout conversions on scales produced elsewhere.
func.func @linear_to_swizzle(%s: tensor<?x?xf8E8M0FNU>, %q: tensor<?x?xf8E4M3FN>) -> tensor<?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = linear to = swizzle_32_4_4 : tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?xf8E8M0FNU>
  return %r : tensor<?xf8E8M0FNU>
}
func.func @swizzle_to_pairs(%s: tensor<?xf8E8M0FNU>, %q: tensor<?x?xf8E4M3FN>) -> tensor<?x?x2xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = swizzle_32_4_4 to = pairs : tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?x?x2xf8E8M0FNU>
  return %r : tensor<?x?x2xf8E8M0FNU>
}
func.func @pairs_axis0_to_swizzle(%s: tensor<?x?x2xf8E8M0FNU>, %q: tensor<?x?xf8E4M3FN>) -> tensor<?xf8E8M0FNU> {
  %r = mxq.convert_scale_layout %s, %q axis = 0 from = pairs to = swizzle_32_4_4 : tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?xf8E8M0FNU>
  return %r : tensor<?xf8E8M0FNU>
}
