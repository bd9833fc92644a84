// What a real core turns into silent corruption is a run-time error of the
// simulator, naming the instruction and the core: each kernel below seeds
// one hazard; @ordered is the same work with its flags and runs.
// RUN: mxq-vtile-run %s --entry ordered | FileCheck %s --check-prefix=OK
// RUN: not mxq-vtile-run %s --entry raw 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: not mxq-vtile-run %s --entry war 2>&1 | FileCheck %s --check-prefix=WAR
// RUN: not mxq-vtile-run %s --entry out_unordered 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: not mxq-vtile-run %s --entry deadlock 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: not mxq-vtile-run %s --entry set_twice 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not mxq-vtile-run %s --entry ub_overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// RUN: not mxq-vtile-run %s --entry misaligned 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not mxq-vtile-run %s --entry gm_bounds 2>&1 | FileCheck %s --check-prefix=GM
// RUN: not mxq-vtile-run %s --entry repeat_limit 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: not mxq-vtile-run %s --entry foreign_op 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: not mxq-vtile-run %s --entry second_core 2>&1 | FileCheck %s --check-prefix=CORE
// RUN: mxq-vtile-run %s --entry gather_ok | FileCheck %s --check-prefix=OK
// RUN: not mxq-vtile-run %s --entry gather_misaligned 2>&1 | FileCheck %s --check-prefix=GALIGN
// RUN: not mxq-vtile-run %s --entry gather_outside 2>&1 | FileCheck %s --check-prefix=GOUT
// RUN: not mxq-vtile-run %s --entry gather_raw 2>&1 | FileCheck %s --check-prefix=GRAW

// OK: ascend simulator: chip 950pr, 2 cores
// RAW: mxq-vtile-run: error: core 0: 'vtile.vunary' (hazards.mlir:{{[0-9]+}}) reads UB bytes [0, 32) that 'vtile.copy_gm_to_ub' (hazards.mlir:{{[0-9]+}}) on pipe mte2 may still be writing: no flag orders them
// WAR: error: core 0: 'vtile.copy_gm_to_ub' (hazards.mlir:{{[0-9]+}}) overwrites UB bytes [0, 32) that 'vtile.vunary' (hazards.mlir:{{[0-9]+}}) on pipe v may still be reading: no flag orders them
// OUT: error: core 0: 'vtile.copy_ub_to_gm' (hazards.mlir:{{[0-9]+}}) reads UB bytes [256, 288) that 'vtile.vunary' (hazards.mlir:{{[0-9]+}}) on pipe v may still be writing: no flag orders them
// DEADLOCK: error: core 0: 'vtile.wait_flag' (hazards.mlir:{{[0-9]+}}) waits for a flag that no earlier set_flag set: pipe v would wait forever (deadlock)
// TWICE: error: core 0: 'vtile.set_flag' (hazards.mlir:{{[0-9]+}}) sets a flag that is already set (no wait_flag cleared it); the hardware leaves that undefined and can hang
// OVERFLOW: error: core 0: 'vtile.vunary' (hazards.mlir:{{[0-9]+}}) touches UB bytes [253952, 253984), outside the 253952-byte UB
// ALIGN: error: core 0: 'vtile.vunary' (hazards.mlir:{{[0-9]+}}) uses UB address 48 for a source, which is not 32-byte aligned
// GM: error: core 0: 'vtile.copy_gm_to_ub' (hazards.mlir:{{[0-9]+}}) touches GM bytes [0, 2048) of a 512-byte buffer
// REPEAT: error: core 0: 'vtile.vunary' (hazards.mlir:{{[0-9]+}}) repeats 300 times, but an instruction repeats 0 to 255 times
// FOREIGN: error: core 0: 'arith.shrsi' (hazards.mlir:{{[0-9]+}}) is not an operation the simulator executes
// CORE: error: core 1: 'vtile.wait_flag'
// GALIGN: error: core 0: 'vtile.vgather' (hazards.mlir:{{[0-9]+}}) gathers lane 1 from UB byte 1026, which is not 4-byte aligned
// GOUT: error: core 0: 'vtile.vgather' (hazards.mlir:{{[0-9]+}}) gathers lane 0 from UB byte 254976, which is outside the UB
// GRAW: error: core 0: 'vtile.vgather' (hazards.mlir:{{[0-9]+}}) reads UB bytes [1024, 1056) that 'vtile.copy_gm_to_ub' (hazards.mlir:{{[0-9]+}}) on pipe mte2 may still be writing: no flag orders them

!x = memref<256xf32, #vtile.space<gm>>

func.func @ordered(%x: !x, %y: !x) attributes {vtile.kernel, vtile.cores = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %in = vtile.ub_buffer {offset = 0 : i64, bytes = 1024 : i64}
  %out = vtile.ub_buffer {offset = 1024 : i64, bytes = 1024 : i64}
  %c4 = arith.constant 4 : index
  vtile.copy_gm_to_ub %x[%c0] to %in bursts %c1 x %c1024 strides (%c0, %c0) : !x
  vtile.set_flag [<mte2>, <v>, %c0]
  vtile.wait_flag [<mte2>, <v>, %c0]
  vtile.vunary <abs> %out, %in repeat %c4 : f32
  vtile.set_flag [<v>, <mte3>, %c0]
  vtile.wait_flag [<v>, <mte3>, %c0]
  vtile.copy_ub_to_gm %out to %y[%c0] bursts %c1 x %c1024 strides (%c0, %c0) : !x
  return
}

func.func @raw(%x: !x) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %in = vtile.ub_buffer {offset = 0 : i64, bytes = 2048 : i64}
  vtile.copy_gm_to_ub %x[%c0] to %in bursts %c1 x %c1024 strides (%c0, %c0) : !x
  vtile.vunary <abs> %in, %in repeat %c1 : f32
  return
}

func.func @war(%x: !x) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %c256 = arith.constant 256 : index
  %in = vtile.ub_buffer {offset = 0 : i64, bytes = 2048 : i64}
  vtile.vunary <abs> %c1024, %in repeat %c1 : f32
  vtile.copy_gm_to_ub %x[%c0] to %in bursts %c1 x %c256 strides (%c0, %c0) : !x
  return
}

func.func @out_unordered(%x: !x) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %b = vtile.ub_buffer {offset = 0 : i64, bytes = 2048 : i64}
  vtile.vunary <abs> %c256, %b repeat %c1 : f32
  vtile.copy_ub_to_gm %c256 to %x[%c0] bursts %c1 x %c256 strides (%c0, %c0) : !x
  return
}

func.func @deadlock() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  vtile.wait_flag [<mte2>, <v>, %c0]
  return
}

func.func @set_twice() attributes {vtile.kernel} {
  %c3 = arith.constant 3 : index
  vtile.set_flag [<v>, <mte3>, %c3]
  vtile.set_flag [<v>, <mte3>, %c3]
  return
}

func.func @ub_overflow() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %near = arith.constant 253920 : index
  %c32 = arith.constant 32 : index
  %end = arith.addi %near, %c32 : index
  vtile.vunary <abs> %end, %c0 repeat %c1 {mask = 8 : i64} : f32
  return
}

func.func @misaligned() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %a = arith.addi %c16, %c32 : index
  vtile.vunary <abs> %c0, %a repeat %c1 : f32
  return
}

func.func @gm_bounds(%x: memref<128xf32, #vtile.space<gm>>) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2048 = arith.constant 2048 : index
  vtile.copy_gm_to_ub %x[%c0] to %c0 bursts %c1 x %c2048 strides (%c0, %c0) : memref<128xf32, #vtile.space<gm>>
  return
}

func.func @repeat_limit() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  %r = arith.addi %c100, %c200 : index
  vtile.vunary <abs> %c0, %c0 repeat %r : f32
  return
}

func.func @foreign_op() attributes {vtile.kernel} {
  %a = arith.constant 1 : i32
  %b = arith.shrsi %a, %a : i32
  return
}

// Flags are per core: core 1 skips the set, and its wait deadlocks.
func.func @second_core() attributes {vtile.kernel, vtile.cores = 2 : i64} {
  %c0 = arith.constant 0 : index
  %core = vtile.core_id
  %first = arith.cmpi eq, %core, %c0 : index
  scf.if %first {
    vtile.set_flag [<mte2>, <v>, %c0]
  }
  vtile.wait_flag [<mte2>, <v>, %c0]
  return
}

// vtile.vgather: the offsets (vindex, then doubled) read lanes 0, 2, 4...
// of a buffer the DMA filled, ordered by a flag.
func.func @gather_ok(%x: !x) attributes {vtile.kernel, vtile.cores = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %off = vtile.ub_buffer {offset = 0 : i64, bytes = 256 : i64}
  %src = vtile.ub_buffer {offset = 1024 : i64, bytes = 1024 : i64}
  %dst = vtile.ub_buffer {offset = 2048 : i64, bytes = 256 : i64}
  vtile.copy_gm_to_ub %x[%c0] to %src bursts %c1 x %c1024 strides (%c0, %c0) : !x
  vtile.vindex %off, 0 repeat %c1 : ui32
  vtile.vscalar <shl> %off, %off, 3 : ui32 repeat %c1 : ui32
  vtile.set_flag[<mte2>, <v>, %c0]
  vtile.wait_flag[<mte2>, <v>, %c0]
  vtile.vgather %dst, %src, %off repeat %c1 : ui32
  return
}

func.func @gather_misaligned() attributes {vtile.kernel} {
  %c1 = arith.constant 1 : index
  %off = vtile.ub_buffer {offset = 0 : i64, bytes = 256 : i64}
  %src = vtile.ub_buffer {offset = 1024 : i64, bytes = 1024 : i64}
  %dst = vtile.ub_buffer {offset = 2048 : i64, bytes = 256 : i64}
  vtile.vindex %off, 0 repeat %c1 : ui32
  vtile.vscalar <shl> %off, %off, 1 : ui32 repeat %c1 : ui32
  vtile.vgather %dst, %src, %off repeat %c1 : ui32
  return
}

func.func @gather_outside() attributes {vtile.kernel} {
  %c1 = arith.constant 1 : index
  %off = vtile.ub_buffer {offset = 0 : i64, bytes = 256 : i64}
  %src = vtile.ub_buffer {offset = 1024 : i64, bytes = 1024 : i64}
  %dst = vtile.ub_buffer {offset = 2048 : i64, bytes = 256 : i64}
  vtile.vdup %off, 253952 : ui32 repeat %c1 : ui32
  vtile.vgather %dst, %src, %off repeat %c1 : ui32
  return
}

func.func @gather_raw(%x: !x) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %off = vtile.ub_buffer {offset = 0 : i64, bytes = 256 : i64}
  %src = vtile.ub_buffer {offset = 1024 : i64, bytes = 1024 : i64}
  %dst = vtile.ub_buffer {offset = 2048 : i64, bytes = 256 : i64}
  vtile.vindex %off, 0 repeat %c1 : ui32
  vtile.vscalar <shl> %off, %off, 2 : ui32 repeat %c1 : ui32
  vtile.copy_gm_to_ub %x[%c0] to %src bursts %c1 x %c1024 strides (%c0, %c0) : !x
  vtile.vgather %dst, %src, %off repeat %c1 : ui32
  return
}
