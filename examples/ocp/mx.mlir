// OCP MX v1.0 (the reference implementation, microsoft/microxcaling):
// shared scale 2^(floor(log2 amax) - emax), linear scales, elements rounded
// to nearest even and saturated; a block holding NaN or Inf gets the NaN
// scale. And the inverse, to f32.

func.func @mx_e4m3_floor_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor inf = nan layout = linear
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @mx_dequantize_e4m3_f32(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear
      : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @mx_e5m2_floor_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor inf = nan layout = linear
      : tensor<?x?xf32> -> tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>
}

func.func @mx_dequantize_e5m2_f32(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear
      : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @mx_e2m3_floor_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor inf = nan layout = linear
      : tensor<?x?xf32> -> tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @mx_dequantize_e2m3_f32(%q: tensor<?x?xf6E2M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear
      : tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @mx_e3m2_floor_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor inf = nan layout = linear
      : tensor<?x?xf32> -> tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>
}

func.func @mx_dequantize_e3m2_f32(%q: tensor<?x?xf6E3M2FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear
      : tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @mx_e2m1_floor_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor inf = nan layout = linear
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}

func.func @mx_dequantize_e2m1_f32(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 layout = linear
      : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
