// convert-mxq-to-vtile: a last-axis dequantize of swizzle_32_4_4 scales,
// the inverse of the swizzled quantize's writer. Before the loop, the
// gather offsets: q = nbr / 4 words a row (a power of two: the tile's
// columns are 4 blocks times one), lane l of a group reads the slot of row
// l / q, word l % q: byte (l % q) * 1024 + (l / q) * 32. A tile's 32-row
// groups that hold rows read their words as 4-byte bursts 16 bytes apart
// in GM, each into its own 32-byte slot (a 12-byte GM gap); one gather per
// group packs them into scale rows, which widen to u32 lanes as usual.
// RUN: mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline)' | FileCheck %s
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-cols=384})' 2>&1 | FileCheck %s --check-prefix=COLS
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(mxq-ascend-pipeline{tile-rows=16})' 2>&1 | FileCheck %s --check-prefix=ROWS

// CHECK-LABEL: func.func @swizzled_dequant(
// CHECK-SAME: %[[S:[a-z0-9]+]]: memref<9216xf8E8M0FNU, #vtile.space<gm>>
// CHECK: vtile.vindex %[[OFF:.*]], 0 repeat %c1 : ui32
// CHECK: vtile.vscalar <shr> %[[TMP:.*]], %[[OFF]], 1 : ui32
// CHECK: vtile.vscalar <shl> %[[TMP]], %[[TMP]], 5 : ui32
// CHECK: vtile.vscalar <and> %[[OFF]], %[[OFF]], 1 : ui32
// CHECK: vtile.vscalar <shl> %[[OFF]], %[[OFF]], 10 : ui32
// CHECK: vtile.vbinary <add> %[[OFF]], %[[OFF]], %[[TMP]]
// CHECK: scf.for
// CHECK:   vtile.copy_gm_to_ub
// CHECK:   scf.if
// CHECK:     vtile.copy_gm_to_ub %[[S]][{{.*}}] to %[[SLOTS:[^ ]+]] bursts %{{.*}} x %c4 strides(%c12, %c0)
// CHECK:   vtile.wait_flag[<mte2>, <v>
// CHECK:   vtile.vgather %[[PACKED:[^,]+]], %[[SLOTS]], %[[OFF]] repeat %c1 : ui32
// CHECK:   vtile.vcast %{{.*}}, %[[PACKED]] repeat %c4 <none> : ui8 to ui32
// CHECK:   vtile.copy_ub_to_gm

// COLS: tile-cols = 384 is not 4 blocks (128 columns) times a power of two (swizzled scales are gathered by shifts and masks)
// ROWS: tile-rows = 16 is not a multiple of 32 (swizzle_32_4_4 scales are read 32 rows at a time)
func.func @swizzled_dequant(%q: tensor<200x1100xf8E4M3FN>, %s: tensor<9216xf8E8M0FNU>) -> tensor<200x1100xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 layout = swizzle_32_4_4
      : tensor<200x1100xf8E4M3FN>, tensor<9216xf8E8M0FNU> -> tensor<200x1100xbf16>
  return %y : tensor<200x1100xbf16>
}
