// RUN: mxq-opt %s -split-input-file --convert-tosa-to-mxq -verify-diagnostics

// What mxq cannot state is refused with a sentence that says which.

func.func @mxint8(%x: tensor<4x32xf32>) -> (tensor<4x32x!tosa.mxint8>, tensor<4x1xf8E8M0FNU>) {
  // expected-error @+1 {{'tosa.cast_to_block_scaled' op cannot be converted to mxq: it has !tosa.mxint8 data, which mxq does not state (its block scaling has no integer codes)}}
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32> : i32} : (tensor<4x32xf32>) -> (tensor<4x32x!tosa.mxint8>, tensor<4x1xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<4x32x!tosa.mxint8>, tensor<4x1xf8E8M0FNU>
}

// -----

func.func @unranked(%x: tensor<*xf32>) -> (tensor<*xf4E2M1FN>, tensor<*xf8E8M0FNU>) {
  // expected-error @+1 {{'tosa.cast_to_block_scaled' op cannot be converted to mxq: it takes an unranked tensor; mxq's ops need ranked tensors (a dynamic dimension is fine)}}
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<*xf32>) -> (tensor<*xf4E2M1FN>, tensor<*xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<*xf4E2M1FN>, tensor<*xf8E8M0FNU>
}

// -----

func.func @matmul(%a: tensor<1x4x32xf8E4M3FN>, %sa: tensor<1x4x1xf8E8M0FNU>, %b: tensor<1x8x32xf8E4M3FN>, %sb: tensor<1x8x1xf8E8M0FNU>) -> tensor<1x4x8xf32> {
  // expected-error @+1 {{'tosa.matmul_t_block_scaled' op cannot be converted to mxq: it is not lowered by mxq yet}}
  %0 = tosa.matmul_t_block_scaled %a, %sa, %b, %sb {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<1x4x32xf8E4M3FN>, tensor<1x4x1xf8E8M0FNU>, tensor<1x8x32xf8E4M3FN>, tensor<1x8x1xf8E8M0FNU>) -> tensor<1x4x8xf32>
  return %0 : tensor<1x4x8xf32>
}
