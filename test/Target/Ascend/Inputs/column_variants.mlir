// Quantize along a non-last axis (blocks of rows: the column recipe) with
// both scale layouts, for test/Target/Ascend/cookbook.test.

func.func @col_floor_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @col_rceil_pairs_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = rceil layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @col_floor_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @col_rceil_pairs_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = rceil layout = pairs
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @col_floor_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor
      : tensor<?x?xf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @col_rceil_pairs_f16(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = rceil layout = pairs
      : tensor<?x?xf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @col_fp4_pairs(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor inf = exponent layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @col_fp4_floor(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = even rounding = floor
      : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}

func.func @col_e5m2_flush(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor nan_element = zero underflow = flush_le_emax
      : tensor<?x?xf32> -> tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>
}

func.func @col_block64(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 block = 64 scale = ceil inf = saturate layout = pairs
      : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?x2xf8E8M0FNU>
}

func.func @col_rank3_axis1(%x: tensor<?x?x?xbf16>) -> (tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor
      : tensor<?x?x?xbf16> -> tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?x?xf8E4M3FN>, tensor<?x?x?xf8E8M0FNU>
}

func.func @col_rank3_axis0(%x: tensor<?x?x?xf32>) -> (tensor<?x?x?xf8E4M3FN>, tensor<?x?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor layout = pairs
      : tensor<?x?x?xf32> -> tensor<?x?x?xf8E4M3FN>, tensor<?x?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?x?xf8E4M3FN>, tensor<?x?x?x2xf8E8M0FNU>
}

func.func @col_rank3_fp4_axis1(%x: tensor<?x?x?xbf16>) -> (tensor<?x?x?xf4E2M1FN>, tensor<?x?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor product = bf16
      : tensor<?x?x?xbf16> -> tensor<?x?x?xf4E2M1FN>, tensor<?x?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?x?xf4E2M1FN>, tensor<?x?x?xf8E8M0FNU>
}

// FP4 from f32 and f16 along a non-last axis (pre-rounded).

func.func @col_fp4_f32_floor(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor rounding = floor
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}

func.func @col_fp4_f16_pairs(%x: tensor<?x?xf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor inf = exponent layout = pairs
      : tensor<?x?xf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
}

// FP6 along a non-last axis (integer encode).

func.func @col_fp6_e2m3(%x: tensor<?x?xbf16>) -> (tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor
      : tensor<?x?xbf16> -> tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @col_fp6_e3m2_pairs(%x: tensor<?x?xf32>) -> (tensor<?x?xf6E3M2FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor layout = pairs
      : tensor<?x?xf32> -> tensor<?x?xf6E3M2FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf6E3M2FN>, tensor<?x?x2xf8E8M0FNU>
}

// FP4 along axis 0 of a rank-3 tensor (an even last dimension, or a middle
// dimension of 1: the flattened rows pack as the last axis does), 40 rows
// (a ragged block).

func.func @col_rank3_fp4_axis0(%x: tensor<40x?x?xbf16>) -> (tensor<40x?x?xf4E2M1FN>, tensor<2x?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor
      : tensor<40x?x?xbf16> -> tensor<40x?x?xf4E2M1FN>, tensor<2x?x?xf8E8M0FNU>
  return %q, %s : tensor<40x?x?xf4E2M1FN>, tensor<2x?x?xf8E8M0FNU>
}

func.func @col_rank3_fp4_axis0_pairs_f32(%x: tensor<40x?x?xf32>) -> (tensor<40x?x?xf4E2M1FN>, tensor<1x?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = rceil inf = saturate layout = pairs
      : tensor<40x?x?xf32> -> tensor<40x?x?xf4E2M1FN>, tensor<1x?x?x2xf8E8M0FNU>
  return %q, %s : tensor<40x?x?xf4E2M1FN>, tensor<1x?x?x2xf8E8M0FNU>
}
