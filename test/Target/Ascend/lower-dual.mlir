// convert-mxq-to-vtile: PyTorch's quantize_tensor_dual as one kernel. A
// tile is 32 rows (one block of rows) of a multiple of 128 columns, over
// the rows padded to 128. The row half is the swizzled row quantize; the
// column half transposes the tile (vtranspose, 256 columns at a time) and
// runs the same recipe on it, each of its rows one block. Column codes go
// to codes1 [K, M] as a 32-byte row per column of the tile; column scales
// are gathered one to a 32-byte slot (offsets 4 * (lane / 8), built before
// the loop) and go out per 32 columns as 32 one-byte bursts 16 bytes apart.
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline)' | FileCheck %s
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-rows=64})' 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-cols=192})' 2>&1 | FileCheck %s --check-prefix=COLS
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{chip=950pr,ub-bytes=65536})' 2>&1 | FileCheck %s --check-prefix=UB

// CHECK-LABEL: func.func @dual(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<200x300xbf16, #vtile.space<gm>>, %[[Q0:[a-z0-9]+]]: memref<200x300xf8E4M3FN, #vtile.space<gm>>, %[[S0:[a-z0-9]+]]: memref<3072xf8E8M0FNU, #vtile.space<gm>>, %[[Q1:[a-z0-9]+]]: memref<300x200xf8E4M3FN, #vtile.space<gm>>, %[[S1:[a-z0-9]+]]: memref<3072xf8E8M0FNU, #vtile.space<gm>>)
// CHECK-SAME: attributes {vtile.cores = 16 : i64, vtile.kernel}
// CHECK: vtile.vindex %[[OFF0:.*]], 0 repeat %c8 : ui32
// CHECK: vtile.vindex %[[OFF1:.*]], 0 repeat %c32 : ui32
// CHECK: vtile.vscalar <shr> %[[OFF1]], %[[OFF1]], 3 : ui32
// CHECK: vtile.vscalar <shl> %[[OFF1]], %[[OFF1]], 2 : ui32
// CHECK: scf.for
// CHECK:   vtile.copy_gm_to_ub %[[X]]
// CHECK:   vtile.vcast %[[XF:.*]], %{{.*}} repeat %c128 <none> : bf16 to f32
// CHECK:   vtile.vreduce_group <max> %[[AM:.*]], %{{.*}} repeat %c128 {group = 32 : i64} : ui32
// CHECK:   vtile.vgather %[[SLOTS0:.*]], %{{.*}}, %[[OFF0]] repeat %c8 : ui32
// CHECK:   vtile.vcast %[[C0:.*]], %{{.*}} repeat %c128 <rint> {sat} : f32 to f8E4M3FN
// CHECK:   vtile.vtranspose %[[XT:.*]], %[[XF]] {cols = 256 : i64, dst_stride = 32 : i64, rows = 32 : i64, src_stride = 256 : i64} : f32
// CHECK:   vtile.vscalar <and> %{{.*}}, %[[XT]], 2147483647 : ui32
// CHECK:   vtile.vreduce_group <max> %[[AM]], %{{.*}} repeat %c128 {group = 32 : i64} : ui32
// CHECK:   vtile.vgather %[[SLOTS1:.*]], %[[S:.*]], %[[OFF1]] repeat %c32 : ui32
// CHECK:   vtile.vbinary <mul> %{{.*}}, %[[XT]], %{{.*}} : f32
// CHECK:   vtile.vcast %[[C1:.*]], %{{.*}} repeat %c128 <rint> {sat} : f32 to f8E4M3FN
// CHECK:   vtile.set_flag[<v>, <mte3>
// CHECK:   vtile.copy_ub_to_gm %[[C0]] to %[[Q0]]
// CHECK:   scf.if
// CHECK:     vtile.copy_ub_to_gm %[[SLOTS0]] to %[[S0]][{{.*}}] bursts %{{.*}} x %c4 strides(%c0, %c12)
// CHECK:   vtile.copy_ub_to_gm %[[C1]] to %[[Q1]]
// CHECK:   scf.if
// CHECK:     vtile.copy_ub_to_gm %[[SLOTS1]] to %[[S1]][{{.*}}] bursts %c32 x %c1 strides(%c0, %c15)
// CHECK-COUNT-7: vtile.copy_ub_to_gm {{.*}} to %[[S1]][{{.*}}] bursts %c32 x %c1 strides(%c0, %c15)
// CHECK:   vtile.set_flag[<mte3>, <v>

// ROWS: tile-rows = 64 is not 32 (a dual tile is one block of rows: its columns are the column blocks)
// COLS: tile-cols = 192 is not a multiple of 128 (whole 4-byte words of swizzled scales)
// UB: a tile of 32 rows of 128 columns (swizzle_32_4_4 scales move 32 rows at a time) needs {{[0-9]+}} bytes of UB, more than the {{[0-9]+}} chip 950pr has
func.func @dual(%x: tensor<200x300xbf16>) -> (tensor<200x300xf8E4M3FN>, tensor<3072xf8E8M0FNU>, tensor<300x200xf8E4M3FN>, tensor<3072xf8E8M0FNU>) {
  %q0, %s0, %q1, %s1 = mxq.dual_quantize %x scale = rceil
      : tensor<200x300xbf16> -> tensor<200x300xf8E4M3FN>, tensor<3072xf8E8M0FNU>, tensor<300x200xf8E4M3FN>, tensor<3072xf8E8M0FNU>
  return %q0, %s0, %q1, %s1 : tensor<200x300xf8E4M3FN>, tensor<3072xf8E8M0FNU>, tensor<300x200xf8E4M3FN>, tensor<3072xf8E8M0FNU>
}
