// convert-mxq-to-vtile: a last-axis quantize with swizzle_32_4_4 scales.
// Before the tile loop, the gather offsets of one 32-row group (8 u32
// lanes a 32-byte slot; slot s reads row s % 32, word s / 32 of the packed
// scale rows: (s % 32) * nbr + (s / 32) * 4). A tile has whole 32-row
// groups over the rows padded to 128 (rows past the input zeroed: scale
// 0x00, the layout's pad); its scale bytes are packed, gathered into
// slots, and each group goes out as one copy of 4-byte bursts 16 bytes
// apart in GM (a 12-byte gap). Along axis -2 the grid's rows are the
// columns: a word is four block-rows' scale bytes of one column, built by
// shifts and ORs, then gathered and written the same way per 32 columns.
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline)' -split-input-file | FileCheck %s
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-rows=48})' 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-cols=192})' 2>&1 | FileCheck %s --check-prefix=COLS
// A UB that holds the smallest tile once but not twice: one buffer (the
// prologue marks one input and one output buffer free, not two).
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{chip=950pr,ub-bytes=65536})' | FileCheck %s --check-prefix=ONE
// A UB that does not hold it once says how much one buffer needs.
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{chip=950pr,ub-bytes=49152})' 2>&1 | FileCheck %s --check-prefix=UB

// CHECK-LABEL: func.func @swizzled(
// CHECK-SAME: %[[S:[a-z0-9]+]]: memref<9216xf8E8M0FNU, #vtile.space<gm>>)
// CHECK-SAME: attributes {vtile.cores = 24 : i64, vtile.kernel}
// CHECK: vtile.vindex %[[OFF:.*]], 0 repeat %c12 : ui32
// CHECK: vtile.vscalar <shr> %[[OFF]], %[[OFF]], 3 : ui32
// CHECK: vtile.vscalar <and> %[[TMP:.*]], %[[OFF]], 31 : ui32
// CHECK: vtile.vscalar <mul> %[[TMP]], %[[TMP]], 12 : ui32
// CHECK: vtile.vscalar <shr> %[[OFF]], %[[OFF]], 5 : ui32
// CHECK: vtile.vscalar <shl> %[[OFF]], %[[OFF]], 2 : ui32
// CHECK: vtile.vbinary <add> %[[OFF]], %[[OFF]], %[[TMP]]
// CHECK: scf.for
// CHECK:   scf.if
// CHECK:     vtile.vdup {{.*}}, 0 : ui32
// CHECK:   vtile.copy_gm_to_ub
// CHECK:   vtile.wait_flag[<mte3>, <v>, %[[P:.*]]]
// CHECK:   vtile.vcast %[[PACKED:.*]], %{{.*}} repeat %c6 <none> : ui32 to ui8
// CHECK:   vtile.vgather %[[SLOTS:.*]], %[[PACKED]], %[[OFF]] repeat %c12 : ui32
// CHECK:   vtile.copy_ub_to_gm
// CHECK:   scf.if
// CHECK:     vtile.copy_ub_to_gm %[[SLOTS]] to %[[S]][{{.*}}] bursts %{{.*}} x %c4 strides(%c0, %c12)
// CHECK:   }
// CHECK:   vtile.set_flag[<mte3>, <v>, %[[P]]]

// ROWS: tile-rows = 48 is not a multiple of 32 (swizzle_32_4_4 scales are written 32 rows at a time)
// COLS: tile-cols = 192 is not a multiple of 4 blocks (128 columns: swizzled scales go out in 4-byte words)
// ONE-LABEL: func.func @swizzled(
// ONE: vtile.set_flag[<v>, <mte2>, %c0]
// ONE-NEXT: vtile.set_flag[<mte3>, <v>, %c0]
// ONE-NEXT: scf.for
// UB: a tile of 32 rows of 128 columns (swizzle_32_4_4 scales move 32 rows at a time) needs {{[0-9]+}} bytes of UB, more than the {{[0-9]+}} chip 950pr has
func.func @swizzled(%x: tensor<200x1100xbf16>) -> (tensor<200x1100xf8E4M3FN>, tensor<9216xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil layout = swizzle_32_4_4
      : tensor<200x1100xbf16> -> tensor<200x1100xf8E4M3FN>, tensor<9216xf8E8M0FNU>
  return %q, %s : tensor<200x1100xf8E4M3FN>, tensor<9216xf8E8M0FNU>
}

// -----

// CHECK-LABEL: func.func @swizzled_axis0(
// CHECK-SAME: %[[S0:[a-z0-9]+]]: memref<2048xf8E8M0FNU, #vtile.space<gm>>)
// CHECK: vtile.vindex %[[OFF0:.*]], 0 repeat %c4 : ui32
// CHECK: vtile.vscalar <mul> %[[OFF0]], %[[OFF0]], 64 : ui32
// CHECK: vtile.vscalar <shl> %[[OFF0]], %[[OFF0]], 2 : ui32
// CHECK: scf.for
// CHECK:   vtile.vscalar <shl> %[[T:[^,]+]], %{{.*}}, 8 : ui32
// CHECK:   vtile.vbinary <or> %[[WORD:[^,]+]], %[[WORD]], %[[T]]
// CHECK:   vtile.vscalar <shl> %[[T]], %{{.*}}, 16 : ui32
// CHECK:   vtile.vscalar <shl> %[[T]], %{{.*}}, 24 : ui32
// CHECK:   vtile.vgather %[[SL:[^,]+]], %[[WORD]], %[[OFF0]] repeat %c4 : ui32
// CHECK:   vtile.vgather
// CHECK:   scf.if
// CHECK:     vtile.copy_ub_to_gm %[[SL]] to %[[S0]][{{.*}}] bursts %{{.*}} x %c4 strides(%c0, %c12)
// CHECK:   scf.if
// CHECK:     vtile.copy_ub_to_gm {{.*}} to %[[S0]][{{.*}}] bursts %{{.*}} x %c4 strides(%c0, %c12)
func.func @swizzled_axis0(%x: tensor<256x200xbf16>) -> (tensor<256x200xf8E4M3FN>, tensor<2048xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = rceil layout = swizzle_32_4_4
      : tensor<256x200xbf16> -> tensor<256x200xf8E4M3FN>, tensor<2048xf8E8M0FNU>
  return %q, %s : tensor<256x200xf8E4M3FN>, tensor<2048xf8E8M0FNU>
}
