// fake_quant per tensor, per row and per column, every input type and FP8
// format, for test/Target/Ascend/cookbook.test.

func.func @fq_tensor_f32_f8E4M3FN(%x: tensor<?x?xf32>, %s: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<?x?xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0
      : tensor<?x?xf32>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<?x?xf32>
}

func.func @fq_tensor_f32_f8E5M2(%x: tensor<?x?xf32>, %s: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<?x?xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E5M2 quant_min = -448.0 quant_max = 448.0
      : tensor<?x?xf32>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<?x?xf32>
}

func.func @fq_axis0_f32(%x: tensor<?x?xf32>, %s: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?x?xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -240.0 quant_max = 240.0 axis = 0
      : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<?x?xf32>
}

func.func @fq_axis1_f32(%x: tensor<?x?xf32>, %s: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?x?xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -240.0 quant_max = 240.0 axis = 1
      : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<?x?xf32>
}

func.func @fq_tensor_bf16_f8E4M3FN(%x: tensor<?x?xbf16>, %s: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<?x?xbf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0
      : tensor<?x?xbf16>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<?x?xbf16>
}

func.func @fq_tensor_bf16_f8E5M2(%x: tensor<?x?xbf16>, %s: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<?x?xbf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E5M2 quant_min = -448.0 quant_max = 448.0
      : tensor<?x?xbf16>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<?x?xbf16>
}

func.func @fq_axis0_bf16(%x: tensor<?x?xbf16>, %s: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?x?xbf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -240.0 quant_max = 240.0 axis = 0
      : tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<?x?xbf16>
}

func.func @fq_axis1_bf16(%x: tensor<?x?xbf16>, %s: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?x?xbf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -240.0 quant_max = 240.0 axis = 1
      : tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<?x?xbf16>
}

func.func @fq_tensor_f16_f8E4M3FN(%x: tensor<?x?xf16>, %s: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<?x?xf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0
      : tensor<?x?xf16>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<?x?xf16>
}

func.func @fq_tensor_f16_f8E5M2(%x: tensor<?x?xf16>, %s: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<?x?xf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E5M2 quant_min = -448.0 quant_max = 448.0
      : tensor<?x?xf16>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<?x?xf16>
}

func.func @fq_axis0_f16(%x: tensor<?x?xf16>, %s: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?x?xf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -240.0 quant_max = 240.0 axis = 0
      : tensor<?x?xf16>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<?x?xf16>
}

func.func @fq_axis1_f16(%x: tensor<?x?xf16>, %s: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?x?xf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -240.0 quant_max = 240.0 axis = 1
      : tensor<?x?xf16>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<?x?xf16>
}

func.func @fq_rank3_last(%x: tensor<?x?x?xf32>, %s: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E5M2 quant_min = -57344.0 quant_max = 57344.0 axis = 2
      : tensor<?x?x?xf32>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<?x?x?xf32>
}

// The straight-through gradient: per tensor, per row and per column, every
// input type.
func.func @fqg_tensor_f32(%g: tensor<?x?xf32>, %x: tensor<?x?xf32>, %s: tensor<1xf32>) -> tensor<?x?xf32> {
  %y = mxq.fake_quant_grad %g, %x, %s quant_min = -448.0 quant_max = 448.0
      : tensor<?x?xf32>, tensor<1xf32>
  return %y : tensor<?x?xf32>
}

func.func @fqg_axis0_bf16(%g: tensor<?x?xbf16>, %x: tensor<?x?xbf16>, %s: tensor<?xf32>) -> tensor<?x?xbf16> {
  %y = mxq.fake_quant_grad %g, %x, %s quant_min = -57344.0 quant_max = 57344.0 axis = 0
      : tensor<?x?xbf16>, tensor<?xf32>
  return %y : tensor<?x?xbf16>
}

func.func @fqg_axis1_f16(%g: tensor<?x?xf16>, %x: tensor<?x?xf16>, %s: tensor<?xf32>) -> tensor<?x?xf16> {
  %y = mxq.fake_quant_grad %g, %x, %s quant_min = -240.0 quant_max = 448.0 axis = 1
      : tensor<?x?xf16>, tensor<?xf32>
  return %y : tensor<?x?xf16>
}

func.func @fqg_rank3_last_f32(%g: tensor<?x?x?xf32>, %x: tensor<?x?x?xf32>, %s: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %y = mxq.fake_quant_grad %g, %x, %s quant_min = -448.0 quant_max = 448.0 axis = 2
      : tensor<?x?x?xf32>, tensor<?xf32>
  return %y : tensor<?x?x?xf32>
}

// Channels along a row axis of a higher rank: runs of rows of one channel
// (axis 0 of rank 3; axis 0 of a rank-4 convolution weight, OwLite's
// per-output-channel case; axis 1 of rank 4, whose channels repeat), and
// channels that repeat row by row (axis 1 of rank 3).
func.func @fq_rank3_axis0_f32(%x: tensor<3x?x?xf32>, %s: tensor<3xf32>, %z: tensor<3xf32>) -> tensor<3x?x?xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 axis = 0
      : tensor<3x?x?xf32>, tensor<3xf32>, tensor<3xf32>
  return %y : tensor<3x?x?xf32>
}

func.func @fq_rank3_axis1_bf16(%x: tensor<3x?x?xbf16>, %s: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<3x?x?xbf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E5M2 quant_min = -57344.0 quant_max = 57344.0 axis = 1
      : tensor<3x?x?xbf16>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<3x?x?xbf16>
}

func.func @fq_rank4_axis0_f16(%x: tensor<5x2x?x?xf16>, %s: tensor<5xf32>, %z: tensor<5xf32>) -> tensor<5x2x?x?xf16> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -240.0 quant_max = 240.0 axis = 0
      : tensor<5x2x?x?xf16>, tensor<5xf32>, tensor<5xf32>
  return %y : tensor<5x2x?x?xf16>
}

func.func @fqg_rank3_axis0_f32(%g: tensor<3x?x?xf32>, %x: tensor<3x?x?xf32>, %s: tensor<3xf32>) -> tensor<3x?x?xf32> {
  %y = mxq.fake_quant_grad %g, %x, %s quant_min = -448.0 quant_max = 448.0 axis = 0
      : tensor<3x?x?xf32>, tensor<3xf32>
  return %y : tensor<3x?x?xf32>
}

func.func @fqg_rank4_axis1_bf16(%g: tensor<2x3x?x?xbf16>, %x: tensor<2x3x?x?xbf16>, %s: tensor<3xf32>) -> tensor<2x3x?x?xbf16> {
  %y = mxq.fake_quant_grad %g, %x, %s quant_min = -448.0 quant_max = 448.0 axis = 1
      : tensor<2x3x?x?xbf16>, tensor<3xf32>
  return %y : tensor<2x3x?x?xbf16>
}
