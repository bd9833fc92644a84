// RUN: mxq-opt %s --split-input-file --mxq-prefetch-loads | FileCheck %s
// RUN: mxq-opt %s --split-input-file --mxq-prefetch-loads="distance=256 min-bytes=128" | FileCheck %s --check-prefix=OPT
// RUN: mxq-opt %s --split-input-file --mxq-prefetch-loads --mxq-prefetch-loads | FileCheck %s --check-prefix=TWICE
// RUN: not mxq-opt %s --split-input-file --mxq-prefetch-loads="distance=0" 2>&1 | FileCheck %s --check-prefix=BAD

// A 512-byte vector load: one prefetch per 64-byte line, 2048 bytes ahead,
// through a getelementptr without inbounds (the address may be past the
// buffer).
// CHECK-LABEL: llvm.func @wide
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr)
// CHECK-NEXT: %[[A0:.*]] = llvm.getelementptr %[[P]][2048] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: "llvm.intr.prefetch"(%[[A0]]) <{cache = 1 : i32, hint = 3 : i32, rw = 0 : i32}>
// CHECK-NEXT: llvm.getelementptr %[[P]][2112]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][2176]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][2240]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][2304]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][2368]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][2432]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][2496]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.load %[[P]] : !llvm.ptr -> vector<128xf32>
// With distance=256 min-bytes=128:
// OPT-LABEL: llvm.func @wide
// OPT: llvm.getelementptr %{{.*}}[256]
// OPT: llvm.getelementptr %{{.*}}[704]
// OPT-NEXT: "llvm.intr.prefetch"
// OPT-NEXT: llvm.load
// Run twice, still one prefetch per line.
// TWICE-LABEL: llvm.func @wide
// TWICE-COUNT-8: "llvm.intr.prefetch"
// TWICE-NEXT: llvm.load
// TWICE-NOT: "llvm.intr.prefetch"
llvm.func @wide(%p: !llvm.ptr) -> vector<128xf32> {
  %v = llvm.load %p : !llvm.ptr -> vector<128xf32>
  llvm.return %v : vector<128xf32>
}

// -----

// One line: one prefetch (none below min-bytes=128).
// CHECK-LABEL: llvm.func @line
// CHECK-COUNT-1: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.load
// TWICE-LABEL: llvm.func @line
// OPT-LABEL: llvm.func @line
// OPT-NOT: llvm.intr.prefetch
llvm.func @line(%p: !llvm.ptr) -> vector<32xbf16> {
  %v = llvm.load %p : !llvm.ptr -> vector<32xbf16>
  llvm.return %v : vector<32xbf16>
}

// -----

// Left alone: narrower vectors, scalars, volatile and masked loads.
// CHECK-LABEL: llvm.func @alone
// CHECK-NOT: llvm.intr.prefetch
// CHECK: llvm.return
llvm.func @alone(%p: !llvm.ptr, %m: vector<32xi1>, %z: vector<32xf32>) -> !llvm.struct<(vector<8xf32>, f32, vector<32xf32>, vector<32xf32>)> {
  %a = llvm.load %p : !llvm.ptr -> vector<8xf32>
  %b = llvm.load %p : !llvm.ptr -> f32
  %c = llvm.load volatile %p : !llvm.ptr -> vector<32xf32>
  %d = llvm.intr.masked.load %p, %m, %z {alignment = 4 : i32} : (!llvm.ptr, vector<32xi1>, vector<32xf32>) -> vector<32xf32>
  %r0 = llvm.mlir.poison : !llvm.struct<(vector<8xf32>, f32, vector<32xf32>, vector<32xf32>)>
  %r1 = llvm.insertvalue %a, %r0[0] : !llvm.struct<(vector<8xf32>, f32, vector<32xf32>, vector<32xf32>)>
  %r2 = llvm.insertvalue %b, %r1[1] : !llvm.struct<(vector<8xf32>, f32, vector<32xf32>, vector<32xf32>)>
  %r3 = llvm.insertvalue %c, %r2[2] : !llvm.struct<(vector<8xf32>, f32, vector<32xf32>, vector<32xf32>)>
  %r4 = llvm.insertvalue %d, %r3[3] : !llvm.struct<(vector<8xf32>, f32, vector<32xf32>, vector<32xf32>)>
  llvm.return %r4 : !llvm.struct<(vector<8xf32>, f32, vector<32xf32>, vector<32xf32>)>
}

// BAD: mxq-prefetch-loads: distance and min-bytes must be positive, got 0 and 64
