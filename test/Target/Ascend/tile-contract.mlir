// PyPTO's tile contract for quant_mx (set_vec_tile_shapes as `tile-shape`,
// `performance-mode`): the lowered kernel's tiles follow the requested tile
// shape. FP8 and FP4, both axes, performance and non-performance mode. Each
// tile is visible as the UB input buffer (two of them: double buffering)
// and the number of cores the tiles spread over.
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=4,512})' -split-input-file | FileCheck %s --check-prefix=PERF
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{performance-mode=true})' -split-input-file | FileCheck %s --check-prefix=WHOLE
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=4,256 performance-mode=false})' -split-input-file | FileCheck %s --check-prefix=NONPERF
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-shape=4,64 performance-mode=false})' -split-input-file | FileCheck %s --check-prefix=NARROW

// Performance mode: a tile of 4 whole rows (4 x 512 bf16, 4096 bytes a
// buffer), 16 rows over 4 cores.
// PERF-LABEL: func.func @fp8_rows(
// PERF-SAME: vtile.cores = 4
// PERF: vtile.ub_buffer {bytes = 8192 : i64, offset = 0 : i64}
// PERF: vtile.vcast {{.*}} <rint> {sat} : f32 to f8E4M3FN
// Without a tile shape, performance mode tiles whole rows as the UB allows.
// WHOLE-LABEL: func.func @fp8_rows(
// WHOLE-SAME: vtile.cores = 16
// WHOLE: vtile.ub_buffer {bytes = 2048 : i64, offset = 0 : i64}
// Outside performance mode a tile may hold part of a row: 4 x 256, two
// column slices a row, 8 tiles.
// NONPERF-LABEL: func.func @fp8_rows(
// NONPERF-SAME: vtile.cores = 8
// NONPERF: vtile.ub_buffer {bytes = 4096 : i64, offset = 0 : i64}
// Any multiple of 64 outside performance mode: 4 x 64, 8 slices a row, 32
// tiles. A row's 2 scale bytes do not start a 32-byte block, so the scale
// rows are gathered onto 32-lane rows (offsets made once, before the loop)
// and cast in one go.
// NARROW-LABEL: func.func @fp8_rows(
// NARROW-SAME: vtile.cores = 32
// NARROW: vtile.ub_buffer {bytes = 1024 : i64, offset = 0 : i64}
// NARROW: vtile.vindex %[[OFFSETS:[0-9]+]], 0 repeat %c2 : ui32
// NARROW: scf.for
// NARROW: vtile.vgather %[[TMP:.*]], %{{.*}}, %[[OFFSETS]] repeat %c2 : ui32
// NARROW-NEXT: vtile.vcast %{{.*}}, %[[TMP]] repeat %c2 <none> : ui32 to ui8
func.func @fp8_rows(%x: tensor<16x512xbf16>) -> (tensor<16x512xf8E4M3FN>, tensor<16x8x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor layout = pairs
      : tensor<16x512xbf16> -> tensor<16x512xf8E4M3FN>, tensor<16x8x2xf8E8M0FNU>
  return %q, %s : tensor<16x512xf8E4M3FN>, tensor<16x8x2xf8E8M0FNU>
}

// -----

// FP4 (PyPTO's NV mode, rceil) along the last axis: the same tiles, the
// bf16 -> e2m1 cast.
// PERF-LABEL: func.func @fp4_rows(
// PERF-SAME: vtile.cores = 4
// PERF: vtile.ub_buffer {bytes = 8192 : i64, offset = 0 : i64}
// PERF: vtile.vcast {{.*}} {sat} : bf16 to f4E2M1FN
// NONPERF-LABEL: func.func @fp4_rows(
// NONPERF-SAME: vtile.cores = 8
// NONPERF: vtile.ub_buffer {bytes = 4096 : i64, offset = 0 : i64}
// NARROW-LABEL: func.func @fp4_rows(
// NARROW-SAME: vtile.cores = 32
// NARROW: vtile.vgather
func.func @fp4_rows(%x: tensor<16x512xbf16>) -> (tensor<16x512xf4E2M1FN>, tensor<16x8x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil inf = saturate layout = pairs
      : tensor<16x512xbf16> -> tensor<16x512xf4E2M1FN>, tensor<16x8x2xf8E8M0FNU>
  return %q, %s : tensor<16x512xf4E2M1FN>, tensor<16x8x2xf8E8M0FNU>
}
