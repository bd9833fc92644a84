// two_level_quantize (CANN DynamicDualLevelMxQuant) with every rounding,
// nan_element and div_denormals, for test/Target/Ascend/cookbook.test.

func.func @two_level_rne_max_ieee(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = rne nan_element = max div_denormals = ieee
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_rne_max_ftz(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = rne nan_element = max div_denormals = ftz
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_rne_zero_ieee(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = rne nan_element = zero div_denormals = ieee
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_rne_zero_ftz(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = rne nan_element = zero div_denormals = ftz
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_away_max_ieee(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = away nan_element = max div_denormals = ieee
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_away_max_ftz(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = away nan_element = max div_denormals = ftz
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_away_zero_ieee(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = away nan_element = zero div_denormals = ieee
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_away_zero_ftz(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = away nan_element = zero div_denormals = ftz
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_floor_max_ieee(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = floor nan_element = max div_denormals = ieee
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_floor_max_ftz(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = floor nan_element = max div_denormals = ftz
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_floor_zero_ieee(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = floor nan_element = zero div_denormals = ieee
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_floor_zero_ftz(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = floor nan_element = zero div_denormals = ftz
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

// f16 input: temp rounded to f16, the f32 product pre-rounded on the E2M1
// grid.

func.func @two_level_rne_max_ieee_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = rne nan_element = max div_denormals = ieee
      : tensor<?x?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_away_zero_ftz_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = away nan_element = zero div_denormals = ftz
      : tensor<?x?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_floor_max_ftz_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = floor nan_element = max div_denormals = ftz
      : tensor<?x?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_rne_zero_ieee_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x rounding = rne nan_element = zero div_denormals = ieee
      : tensor<?x?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

// With a smooth scale (x * smooth in the input type first).
func.func @two_level_smooth_bf16(%x: tensor<?x?xbf16>, %s: tensor<?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x smooth %s rounding = rne
      : tensor<?x?xbf16>, tensor<?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

func.func @two_level_smooth_f16_floor(%x: tensor<?x?xf16>, %s: tensor<?xf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %l0, %l1 = mxq.two_level_quantize %x smooth %s rounding = floor div_denormals = ftz
      : tensor<?x?xf16>, tensor<?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}
