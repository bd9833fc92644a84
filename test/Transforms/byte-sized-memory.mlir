// RUN: mxq-opt %s --mxq-byte-sized-memory | FileCheck %s

// FP4 codes (i4 in LLVM, one byte each in memory) are stored and loaded as
// bytes: a truncation to i4 becomes one to i8 and a mask, anything else a
// zero extension.
// CHECK-LABEL: llvm.func @codes
// CHECK-DAG: %[[M:.*]] = llvm.mlir.constant(15 : i8) : i8
// CHECK-DAG: %[[B:.*]] = llvm.trunc %arg1 : i32 to i8
// CHECK: %[[V:.*]] = llvm.and %[[B]], %[[M]] : i8
// CHECK: llvm.store %[[V]], %arg0 : i8, !llvm.ptr
// CHECK: %[[Z:.*]] = llvm.zext %arg2 : i6 to i8
// CHECK: llvm.store %[[Z]], %arg0 : i8, !llvm.ptr
// CHECK: %[[L:.*]] = llvm.load %arg0 : !llvm.ptr -> i8
// CHECK: %[[T:.*]] = llvm.trunc %[[L]] : i8 to i4
// CHECK: llvm.return %[[T]] : i4
llvm.func @codes(%p: !llvm.ptr, %c: i32, %d: i6) -> i4 {
  %n = llvm.trunc %c : i32 to i4
  llvm.store %n, %p : i4, !llvm.ptr
  llvm.store %d, %p : i6, !llvm.ptr
  %l = llvm.load %p : !llvm.ptr -> i4
  llvm.return %l : i4
}
