// An unknown or misplaced attribute word names itself and the op's order
// (issue 12: it used to be "expected ':'").
// RUN: mxq-opt %s -split-input-file -verify-diagnostics

func.func @f(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'layuot' is not an attribute of mxq.quantize; its attributes are, in order: axis, block, scale, inf, rounding, nan_element, underflow, product, layout}}
  %q, %s = mxq.quantize %x axis = 1 scale = floor layuot = linear : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @f(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'inf' is out of place: mxq.quantize writes its attributes in the order axis, block, scale, inf}}
  %q, %s = mxq.quantize %x axis = 1 scale = floor layout = linear inf = nan : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @f(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf8E8M0FNU>) {
  // expected-error @+1 {{'block' is out of place: mxq.dequantize writes its attributes in the order axis, block, scale, layout, cast}}
  %y = mxq.dequantize %q, %s axis = 1 layout = linear block = 32 : tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xf32>
  return
}

// -----

func.func @f(%s: tensor<4x2xf8E8M0FNU>, %q: tensor<4x64xf8E4M3FN>) {
  // expected-error @+1 {{'form' is not an attribute of mxq.convert_scale_layout; its attributes are, in order: axis, block, from, to}}
  %r = mxq.convert_scale_layout %s, %q axis = 1 from = linear to = pairs form = x : tensor<4x2xf8E8M0FNU>, tensor<4x64xf8E4M3FN> -> tensor<4x1x2xf8E8M0FNU>
  return
}

// -----

func.func @f(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{'layout' is not an attribute of mxq.dual_quantize; its attributes are, in order: scale, inf, rounding, nan_element, underflow}}
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil layout = linear : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<64x64xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return
}

// -----

func.func @f(%x: tensor<4x64xbf16>) {
  // expected-error @+1 {{'rounding' is out of place: mxq.two_level_quantize writes its attributes in the order smooth, rounding, nan_element, div_denormals}}
  %y, %l0, %l1 = mxq.two_level_quantize %x nan_element = zero rounding = rne : tensor<4x64xbf16> -> tensor<4x64xf4E2M1FN>, tensor<4x1xf32>, tensor<4x1x2xf8E8M0FNU>
  return
}

// -----

func.func @f(%x: tensor<4x64xf32>, %s: tensor<1xf32>, %z: tensor<1xf32>) {
  // expected-error @+1 {{'axes' is not an attribute of mxq.fake_quant; its attributes are, in order: format, quant_min, quant_max, axis}}
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 axes = 0 : tensor<4x64xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @f(%g: tensor<4x64xf32>, %x: tensor<4x64xf32>, %s: tensor<1xf32>) {
  // expected-error @+1 {{'format' is not an attribute of mxq.fake_quant_grad; its attributes are, in order: quant_min, quant_max, axis}}
  %y = mxq.fake_quant_grad %g, %x, %s quant_min = -448.0 quant_max = 448.0 format = f8E4M3FN : tensor<4x64xf32>, tensor<1xf32>
  return
}
