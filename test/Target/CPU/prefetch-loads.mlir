// RUN: mxq-opt %s --split-input-file --mxq-prefetch-loads | FileCheck %s
// RUN: mxq-opt %s --split-input-file --mxq-prefetch-loads="ahead=2 min-bytes=128" | FileCheck %s --check-prefix=OPT
// RUN: mxq-opt %s --split-input-file --mxq-prefetch-loads --mxq-prefetch-loads | FileCheck %s --check-prefix=TWICE
// RUN: not mxq-opt %s --split-input-file --mxq-prefetch-loads="ahead=0" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not mxq-opt %s --split-input-file --mxq-prefetch-loads="min-bytes=-1" 2>&1 | FileCheck %s --check-prefix=BAD-MIN

// A 512-byte vector load: one prefetch per 64-byte line, 8 loads (4096
// bytes) ahead, through a getelementptr without inbounds (the address may
// be past the buffer).
// CHECK-LABEL: llvm.func @wide
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr)
// CHECK-NEXT: %[[A0:.*]] = llvm.getelementptr %[[P]][4096] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: "llvm.intr.prefetch"(%[[A0]]) <{cache = 1 : i32, hint = 3 : i32, rw = 0 : i32}>
// CHECK-NEXT: llvm.getelementptr %[[P]][4160]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][4224]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][4288]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][4352]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][4416]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][4480]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][4544]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.load %[[P]] : !llvm.ptr -> vector<128xf32>
// With ahead=2 min-bytes=128: 1024 bytes ahead.
// OPT-LABEL: llvm.func @wide
// OPT: llvm.getelementptr %{{.*}}[1024]
// OPT: llvm.getelementptr %{{.*}}[1472]
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

// One line: one prefetch, 512 bytes ahead (none below min-bytes=128).
// CHECK-LABEL: llvm.func @line
// CHECK-NEXT: llvm.getelementptr %{{.*}}[512]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.load
// TWICE-LABEL: llvm.func @line
// OPT-LABEL: llvm.func @line
// OPT-NOT: llvm.intr.prefetch
llvm.func @line(%p: !llvm.ptr) -> vector<32xbf16> {
  %v = llvm.load %p : !llvm.ptr -> vector<32xbf16>
  llvm.return %v : vector<32xbf16>
}

// -----

// A masked load (a row that may end early): the lines of all its lanes.
// CHECK-LABEL: llvm.func @masked
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr,
// CHECK-NEXT: llvm.getelementptr %[[P]][1024]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.getelementptr %[[P]][1088]
// CHECK-NEXT: "llvm.intr.prefetch"
// CHECK-NEXT: llvm.intr.masked.load %[[P]]
// OPT-LABEL: llvm.func @masked
// OPT: llvm.getelementptr %{{.*}}[256]
// TWICE-LABEL: llvm.func @masked
// TWICE-COUNT-2: "llvm.intr.prefetch"
// TWICE-NEXT: llvm.intr.masked.load
llvm.func @masked(%p: !llvm.ptr, %m: vector<32xi1>, %z: vector<32xf32>) -> vector<32xf32> {
  %d = llvm.intr.masked.load %p, %m, %z {alignment = 4 : i32} : (!llvm.ptr, vector<32xi1>, vector<32xf32>) -> vector<32xf32>
  llvm.return %d : vector<32xf32>
}

// -----

// Left alone: narrower vectors, scalars and volatile loads.
// CHECK-LABEL: llvm.func @alone
// CHECK-NOT: llvm.intr.prefetch
// CHECK: llvm.return
llvm.func @alone(%p: !llvm.ptr) -> !llvm.struct<(vector<8xf32>, f32, vector<32xf32>)> {
  %a = llvm.load %p : !llvm.ptr -> vector<8xf32>
  %b = llvm.load %p : !llvm.ptr -> f32
  %c = llvm.load volatile %p : !llvm.ptr -> vector<32xf32>
  %r0 = llvm.mlir.poison : !llvm.struct<(vector<8xf32>, f32, vector<32xf32>)>
  %r1 = llvm.insertvalue %a, %r0[0] : !llvm.struct<(vector<8xf32>, f32, vector<32xf32>)>
  %r2 = llvm.insertvalue %b, %r1[1] : !llvm.struct<(vector<8xf32>, f32, vector<32xf32>)>
  %r3 = llvm.insertvalue %c, %r2[2] : !llvm.struct<(vector<8xf32>, f32, vector<32xf32>)>
  llvm.return %r3 : !llvm.struct<(vector<8xf32>, f32, vector<32xf32>)>
}

// BAD: mxq-prefetch-loads: ahead and min-bytes must be positive, got 0 and 64
// BAD-MIN: mxq-prefetch-loads: ahead and min-bytes must be positive, got 8 and -1
