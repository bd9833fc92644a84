// What convert-mxq-to-vtile does not lower is a diagnostic that names the
// reason, never a crash; and the pipeline's options are checked.
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline)' -split-input-file -verify-diagnostics
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{chip=tpu})' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{chip=950pr,cores=0})' 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-rows=-1})' 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(func.func(mxq-ascend-pipeline))' 2>&1 | FileCheck %s --check-prefix=NEST
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-cols=100})' -split-input-file 2>&1 | FileCheck %s --check-prefix=COLS
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-rows=4000})' -split-input-file 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{chip=950pr,ub-bytes=8192})' -split-input-file 2>&1 | FileCheck %s --check-prefix=UB
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-rows=3})' -split-input-file 2>&1 | FileCheck %s --check-prefix=RUNS

// CHIP: mxq-ascend-pipeline: unknown chip 'tpu' (known: a2, 950pr, 950dt)
// FIELD: mxq-ascend-pipeline: chip '950pr,cores=0': cores must be a whole number from 1 to 4096, but it is 0
// NEG: mxq-ascend-pipeline: a tile size cannot be negative
// NEST: mxq-ascend-pipeline runs on builtin.module, but it was nested under 'func.func'
// COLS: @ok: tile-cols = 100 is not a multiple of 64 and of the block (32) of at most 64 blocks, or a multiple of 32 blocks
// ROWS: tile-rows = 4000 with 4096 columns needs {{[0-9]+}} bytes of UB, more than the 251904 chip 950pr has
// UB: a tile of one row of 256 columns does not fit the 6144-byte UB of chip 950pr

func.func @ok(%x: tensor<64x4096xbf16>) -> (tensor<64x4096xf8E4M3FN>, tensor<64x128xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor
      : tensor<64x4096xbf16> -> tensor<64x4096xf8E4M3FN>, tensor<64x128xf8E8M0FNU>
  return %q, %s : tensor<64x4096xf8E4M3FN>, tensor<64x128xf8E8M0FNU>
}

// -----

// expected-error @+1 {{convert-mxq-to-vtile: @dynamic: needs static shapes (mxq-run specialises a function to its inputs' shapes before lowering it)}}
func.func @dynamic(%x: tensor<?x64xbf16>) -> (tensor<?x64xf8E4M3FN>, tensor<?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor
      : tensor<?x64xbf16> -> tensor<?x64xf8E4M3FN>, tensor<?x2xf8E8M0FNU>
  return %q, %s : tensor<?x64xf8E4M3FN>, tensor<?x2xf8E8M0FNU>
}

// -----

// expected-error @+1 {{@two_ops: the ascend target lowers a function that returns the codes and scales of one mxq.quantize (or mxq.two_level_quantize) of its argument, the four results of one mxq.dual_quantize of it, or the result of one mxq.dequantize, mxq.fake_quant, mxq.fake_quant_grad or mxq.convert_scale_layout of its arguments; other functions are not lowered yet}}
func.func @two_ops(%x: tensor<4x64xbf16>) -> tensor<4x64xf32> {
  %q, %s = mxq.quantize %x axis = 1 scale = floor
      : tensor<4x64xbf16> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  %y = mxq.dequantize %q, %s axis = 1 : tensor<4x64xf8E4M3FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// Channels along axis 0 of rank 3 lower (variants-fake-two-level.test),
// each tile inside one channel's run of 4 rows: 3 rows a tile do not fit
// that (RUNS).
// RUNS: @fake_axis0_rank3: tile-rows = 3 does not divide 4 (a tile's rows lie in one run of a channel's rows, or in one period of the channels)
func.func @fake_axis0_rank3(%x: tensor<2x4x64xf32>, %s: tensor<2xf32>, %z: tensor<2xf32>) -> tensor<2x4x64xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 axis = 0
      : tensor<2x4x64xf32>, tensor<2xf32>, tensor<2xf32>
  return %y : tensor<2x4x64xf32>
}

// -----

// The smooth scale must be the function's second argument (a kernel's GM
// operands are its arguments).
// expected-error @+1 {{@two_level_smooth_computed: the ascend target lowers a function that returns}}
func.func @two_level_smooth_computed(%x: tensor<4x512xbf16>) -> (tensor<4x512xf4E2M1FN>, tensor<4x1xf32>, tensor<4x8x2xf8E8M0FNU>) {
  %m = arith.constant dense<1.0> : tensor<512xbf16>
  %y, %l0, %l1 = mxq.two_level_quantize %x smooth %m
      : tensor<4x512xbf16>, tensor<512xbf16> -> tensor<4x512xf4E2M1FN>, tensor<4x1xf32>, tensor<4x8x2xf8E8M0FNU>
  return %y, %l0, %l1 : tensor<4x512xf4E2M1FN>, tensor<4x1xf32>, tensor<4x8x2xf8E8M0FNU>
}

// -----

// expected-error @+1 {{@dual_two_ops: the ascend target lowers a function that returns the codes and scales}}
func.func @dual_two_ops(%x: tensor<128x128xbf16>) -> (tensor<128x128xf8E4M3FN>, tensor<512xf8E8M0FNU>) {
  %q0, %s0, %q1, %s1 = mxq.dual_quantize %x scale = rceil
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<512xf8E8M0FNU>, tensor<128x128xf8E4M3FN>, tensor<512xf8E8M0FNU>
  return %q0, %s0 : tensor<128x128xf8E4M3FN>, tensor<512xf8E8M0FNU>
}
