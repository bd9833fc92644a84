// OwLite owlite.nn.functions.fake_fp8_quantize(x, step_size, zero_point,
//     quant_min=-448, quant_max=448, axis=None | 0), and the straight-through
// gradient OwLite intends (grad where quant_min*step <= x <= quant_max*step).

func.func @fake_fp8_per_tensor_f32(%x: tensor<?x?xf32>, %step: tensor<1xf32>, %zero_point: tensor<1xf32>) -> tensor<?x?xf32> {
  %y = mxq.fake_quant %x, %step, %zero_point format = f8E4M3FN quant_min = -448.0 quant_max = 448.0
      : tensor<?x?xf32>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<?x?xf32>
}

func.func @fake_fp8_per_channel_f32(%x: tensor<?x?xf32>, %step: tensor<?xf32>, %zero_point: tensor<?xf32>) -> tensor<?x?xf32> {
  %y = mxq.fake_quant %x, %step, %zero_point format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 axis = 0
      : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<?x?xf32>
}

func.func @fake_fp8_grad_per_tensor_f32(%x: tensor<?x?xf32>, %step: tensor<1xf32>, %zero_point: tensor<1xf32>, %grad: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %g = mxq.fake_quant_grad %grad, %x, %step quant_min = -448.0 quant_max = 448.0
      : tensor<?x?xf32>, tensor<1xf32>
  return %g : tensor<?x?xf32>
}
