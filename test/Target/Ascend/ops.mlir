// Every vtile op parses, prints and parses again, and a kernel of them runs.
// RUN: mxq-opt %s | mxq-opt | FileCheck %s
// RUN: mxq-vtile-run %s --entry k | FileCheck %s --check-prefix=SIM
// RUN: mxq-vtile-run %s --entry k --chip 950dt | FileCheck %s --check-prefix=DT
// RUN: mxq-vtile-run %s --entry k --trace %t.json && %PYTHON -c "import json,sys; e=json.load(open(sys.argv[1]))[\"traceEvents\"]; n=[x for x in e if x[\"ph\"]==\"X\"]; print(len(n), sorted({x[\"tid\"] for x in n}))" %t.json | FileCheck %s --check-prefix=TRACE

module attributes {vtile.chip = "950pr"} {
  func.func @k(%x: memref<64x256xbf16, #vtile.space<gm>>, %y: memref<64x256xf8E4M3FN, #vtile.space<gm>>) attributes {vtile.kernel, vtile.cores = 1 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %in = vtile.ub_buffer {offset = 0 : i64, bytes = 32768 : i64}
    %x32 = vtile.ub_buffer {offset = 32768 : i64, bytes = 65536 : i64}
    %out = vtile.ub_buffer {offset = 98304 : i64, bytes = 16384 : i64}
    %m = vtile.ub_buffer {offset = 114688 : i64, bytes = 2048 : i64}
    %core = vtile.core_id
    %n = vtile.core_num
    vtile.copy_gm_to_ub %x[%c0] to %in bursts %c64 x %c512 strides (%c0, %c0) {pad_value = 0 : i64} : memref<64x256xbf16, #vtile.space<gm>>
    vtile.set_flag [<mte2>, <v>, %c0]
    vtile.wait_flag [<mte2>, <v>, %c0]
    vtile.vcast %x32, %in repeat %c4 <none> : bf16 to f32
    vtile.vbinary <mul> %x32, %x32, %x32 repeat %c4 : f32
    vtile.vscalar <and> %x32, %x32, 2147483647 : ui32 repeat %c4 : ui32
    vtile.vunary <abs> %x32, %x32 repeat %c4 {mask = 8 : i64} : f32
    vtile.vdup %x32, 1.0 : f32 repeat %c1 : f32
    vtile.vcmps <gt> %m, %x32, 0.5 : f32 repeat %c4 : f32
    vtile.vsel %x32, %m, %x32, %x32 repeat %c4 : f32
    vtile.vreduce_group <max> %m, %x32 repeat %c4 {group = 32 : i64} : ui32
    vtile.vbrc_group %x32, %m repeat %c4 {group = 32 : i64} : ui32
    vtile.vindex %m, 0 repeat %c1 : ui32
    vtile.vscalar <shl> %m, %m, 2 : ui32 repeat %c1 : ui32
    vtile.vgather %x32, %x32, %m repeat %c1 {mask = 16 : i64} : ui32
    vtile.set_ctrl[50] = true
    vtile.vcast %out, %x32 repeat %c4 <rint> {sat} : f32 to f8E4M3FN
    vtile.pipe_barrier <v>
    vtile.set_flag [<v>, <mte3>, %c1]
    vtile.wait_flag [<v>, <mte3>, %c1]
    vtile.copy_ub_to_gm %out to %y[%c0] bursts %c1 x %c64 strides (%c0, %c0) : memref<64x256xf8E4M3FN, #vtile.space<gm>>
    return
  }
}

// CHECK-LABEL: func.func @k
// CHECK-SAME: attributes {vtile.cores = 1 : i64, vtile.kernel}
// CHECK: vtile.ub_buffer {bytes = 32768 : i64, offset = 0 : i64}
// CHECK: vtile.core_id
// CHECK: vtile.core_num
// CHECK: vtile.copy_gm_to_ub %{{.*}}[%{{.*}}] to %{{.*}} bursts %{{.*}} x %{{.*}} strides(%{{.*}}, %{{.*}}) {pad_value = 0 : i64}
// CHECK: vtile.set_flag[<mte2>, <v>,
// CHECK: vtile.wait_flag[<mte2>, <v>,
// CHECK: vtile.vcast %{{.*}}, %{{.*}} repeat %{{.*}} <none> : bf16 to f32
// CHECK: vtile.vbinary <mul>
// CHECK: vtile.vscalar <and> {{.*}} 2147483647 : ui32 {{.*}} : ui32
// CHECK: vtile.vunary <abs> {{.*}} {mask = 8 : i64} : f32
// CHECK: vtile.vdup
// CHECK: vtile.vcmps <gt>
// CHECK: vtile.vsel
// CHECK: vtile.vreduce_group <max> {{.*}} {group = 32 : i64} : ui32
// CHECK: vtile.vbrc_group {{.*}} {group = 32 : i64} : ui32
// CHECK: vtile.vindex %{{.*}}, 0 repeat %{{.*}} : ui32
// CHECK: vtile.vgather %{{.*}}, %{{.*}}, %{{.*}} repeat %{{.*}} {mask = 16 : i64} : ui32
// CHECK: vtile.set_ctrl[50] = true
// CHECK: vtile.vcast {{.*}} <rint> {sat} : f32 to f8E4M3FN
// CHECK: vtile.pipe_barrier <v>
// CHECK: vtile.copy_ub_to_gm

// SIM-LABEL: ascend simulator: chip 950pr, 1 core, 33 instructions
// SIM: GM: 32768 bytes read, 64 written
// DT: chip 950dt
// TRACE: 15 [1, 2, 3]
