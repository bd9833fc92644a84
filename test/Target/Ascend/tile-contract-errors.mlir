// Every rule of PyPTO's tile contract for quant_mx (tile-shape as
// set_vec_tile_shapes, performance-mode) is a diagnostic that names it, and
// so is a tile the UB cannot hold. Each RUN line asks for one contract on
// every function below and checks the diagnostics of the functions it
// breaks.
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{performance-mode=true})' -split-input-file 2>&1 | FileCheck %s --check-prefix=PERF
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=4,100})' -split-input-file 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=4,64 performance-mode=false})' -split-input-file 2>&1 | FileCheck %s --check-prefix=NONPERF
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=0,512})' -split-input-file 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=1,1,1,1,64})' -split-input-file 2>&1 | FileCheck %s --check-prefix=RANK5
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=1,2,512})' -split-input-file 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=64,96})' -split-input-file 2>&1 | FileCheck %s --check-prefix=FP4TILE
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=4,512 tile-rows=2})' -split-input-file 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{performance-mode=maybe})' -split-input-file 2>&1 | FileCheck %s --check-prefix=MODE

// TILE-DAG: @rows_16x512: the PyPTO tile contract: performance mode needs the tile's last dimension to equal the view's (512), but it is 100
// BOTH-DAG: @rows_16x512: the PyPTO tile contract: tile-shape and performance-mode exclude tile-rows and tile-cols
// ZERO-DAG: @rows_16x512: the PyPTO tile contract: tile-shape dimension 0 is 0; a tile dimension is positive
// MODE-DAG: convert-mxq-to-vtile: performance-mode is true or false, not 'maybe'
func.func @rows_16x512(%x: tensor<16x512xbf16>) -> (tensor<16x512xf8E4M3FN>, tensor<16x16xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor
      : tensor<16x512xbf16> -> tensor<16x512xf8E4M3FN>, tensor<16x16xf8E8M0FNU>
  return %q, %s : tensor<16x512xf8E4M3FN>, tensor<16x16xf8E8M0FNU>
}

// -----

// PERF-DAG: @rows_unaligned: the PyPTO tile contract: performance mode needs the last dimension 256-byte aligned, but it is 100 elements of 2 bytes (200 bytes); set performance-mode=false
// NONPERF-DAG: @rows_unaligned: the PyPTO tile contract: outside performance mode the last dimension is a multiple of 64, but it is 100
func.func @rows_unaligned(%x: tensor<16x100xbf16>) -> (tensor<16x100xf8E4M3FN>, tensor<16x4xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor
      : tensor<16x100xbf16> -> tensor<16x100xf8E4M3FN>, tensor<16x4xf8E8M0FNU>
  return %q, %s : tensor<16x100xf8E4M3FN>, tensor<16x4xf8E8M0FNU>
}

// -----

// One whole row of 65536 f32 elements does not fit the UB.
// PERF-DAG: @rows_too_long: a tile of one row of 65536 columns needs {{[0-9]+}} bytes of UB, more than the 251904 chip 950pr has
func.func @rows_too_long(%x: tensor<2x65536xf32>) -> (tensor<2x65536xf8E4M3FN>, tensor<2x2048xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor
      : tensor<2x65536xf32> -> tensor<2x65536xf8E4M3FN>, tensor<2x2048xf8E8M0FNU>
  return %q, %s : tensor<2x65536xf8E4M3FN>, tensor<2x2048xf8E8M0FNU>
}

// -----

// PERF-DAG: @axis0_rank3: the PyPTO tile contract: quant_mx quantizes along the last or the second-to-last axis, not axis 0 of a rank-3 tensor
// TILE-DAG: @axis0_rank3: the PyPTO tile contract: quant_mx quantizes along the last or the second-to-last axis, not axis 0 of a rank-3 tensor
func.func @axis0_rank3(%x: tensor<64x2x64xbf16>) -> (tensor<64x2x64xf8E4M3FN>, tensor<2x2x64xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor
      : tensor<64x2x64xbf16> -> tensor<64x2x64xf8E4M3FN>, tensor<2x2x64xf8E8M0FNU>
  return %q, %s : tensor<64x2x64xf8E4M3FN>, tensor<2x2x64xf8E8M0FNU>
}

// -----

// TILE-DAG: @rank3: the PyPTO tile contract: tile-shape has 2 dimensions, but the input has rank 3 (a tile's rank is its input's)
// SPLIT-DAG: @rank3: the PyPTO tile contract: tile-shape [1, 2, 512] splits dimension 1 of the input [4, 4, 512]; the ascend kernels tile rows of whole inner dimensions
func.func @rank3(%x: tensor<4x4x512xbf16>) -> (tensor<4x4x512xf8E4M3FN>, tensor<4x4x16xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 2 scale = floor
      : tensor<4x4x512xbf16> -> tensor<4x4x512xf8E4M3FN>, tensor<4x4x16xf8E8M0FNU>
  return %q, %s : tensor<4x4x512xf8E4M3FN>, tensor<4x4x16xf8E8M0FNU>
}

// -----

// RANK5-DAG: @rank5: the PyPTO tile contract: set_vec_tile_shapes takes at most 4 dimensions, but the input has rank 5
func.func @rank5(%x: tensor<1x1x1x2x64xbf16>) -> (tensor<1x1x1x2x64xf8E4M3FN>, tensor<1x1x1x2x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 4 scale = floor
      : tensor<1x1x1x2x64xbf16> -> tensor<1x1x1x2x64xf8E4M3FN>, tensor<1x1x1x2x2xf8E8M0FNU>
  return %q, %s : tensor<1x1x1x2x64xf8E4M3FN>, tensor<1x1x1x2x2xf8E8M0FNU>
}

// -----

// PERF-DAG: @columns_ragged: the PyPTO tile contract: along axis -2 that dimension is a positive multiple of 64 with no tail, but it is 96
func.func @columns_ragged(%x: tensor<96x64xbf16>) -> (tensor<96x64xf8E4M3FN>, tensor<3x64xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor
      : tensor<96x64xbf16> -> tensor<96x64xf8E4M3FN>, tensor<3x64xf8E8M0FNU>
  return %q, %s : tensor<96x64xf8E4M3FN>, tensor<3x64xf8E8M0FNU>
}

// -----

// TILE-DAG: @columns_tile: the PyPTO tile contract: along axis -2 the tile's dimension -2 is a multiple of 64, but it is 4
func.func @columns_tile(%x: tensor<128x64xbf16>) -> (tensor<128x64xf8E4M3FN>, tensor<4x64xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor
      : tensor<128x64xbf16> -> tensor<128x64xf8E4M3FN>, tensor<4x64xf8E8M0FNU>
  return %q, %s : tensor<128x64xf8E4M3FN>, tensor<4x64xf8E8M0FNU>
}

// -----

// PERF-DAG: @fp4_columns_narrow: the PyPTO tile contract: FP4 along axis -2 needs the last dimension a multiple of 64 (32-byte packed rows), but it is 96
func.func @fp4_columns_narrow(%x: tensor<64x96xbf16>) -> (tensor<64x96xf4E2M1FN>, tensor<2x96xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor
      : tensor<64x96xbf16> -> tensor<64x96xf4E2M1FN>, tensor<2x96xf8E8M0FNU>
  return %q, %s : tensor<64x96xf4E2M1FN>, tensor<2x96xf8E8M0FNU>
}

// -----

// FP4TILE-DAG: @fp4_columns_tile: the PyPTO tile contract: FP4 along axis -2 needs the tile's last dimension a multiple of 64, but it is 96
func.func @fp4_columns_tile(%x: tensor<128x128xbf16>) -> (tensor<128x128xf4E2M1FN>, tensor<4x128xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor
      : tensor<128x128xbf16> -> tensor<128x128xf4E2M1FN>, tensor<4x128xf8E8M0FNU>
  return %q, %s : tensor<128x128xf4E2M1FN>, tensor<4x128xf8E8M0FNU>
}

// -----

// The contract is quant_mx's: other ops take tile-rows and tile-cols.
// PERF-DAG: @dequantize: tile-shape and performance-mode are the PyPTO tile contract of quant_mx (mxq.quantize); this function's op takes tile-rows and tile-cols
func.func @dequantize(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf8E8M0FNU>) -> tensor<4x64xf32> {
  %y = mxq.dequantize %q, %s axis = 1 : tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}
