// RUN: mxq-opt %s --mxq-bf16-memory-as-i16 | FileCheck %s

// A bf16 bitcast from i16 and stored stores the i16 itself.
// CHECK-LABEL: llvm.func @store_bits
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[V:.*]]: i16)
// CHECK-NEXT: llvm.store %[[V]], %[[P]] : i16, !llvm.ptr
llvm.func @store_bits(%p: !llvm.ptr, %v: i16) {
  %b = llvm.bitcast %v : i16 to bf16
  llvm.store %b, %p : bf16, !llvm.ptr
  llvm.return
}

// A bf16 value is stored through its bits.
// CHECK-LABEL: llvm.func @store_value
// CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : bf16 to i16
// CHECK-NEXT: llvm.store %[[B]], %{{.*}} : i16, !llvm.ptr
llvm.func @store_value(%p: !llvm.ptr, %x: bf16) {
  llvm.store %x, %p : bf16, !llvm.ptr
  llvm.return
}

// A load whose user wants the bits gives them straight away.
// CHECK-LABEL: llvm.func @load_bits
// CHECK-NEXT: %[[L:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i16
// CHECK-NEXT: llvm.return %[[L]] : i16
llvm.func @load_bits(%p: !llvm.ptr) -> i16 {
  %b = llvm.load %p : !llvm.ptr -> bf16
  %v = llvm.bitcast %b : bf16 to i16
  llvm.return %v : i16
}

// Otherwise the i16 is bitcast back for its users.
// CHECK-LABEL: llvm.func @load_value
// CHECK: %[[L:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i16
// CHECK: llvm.bitcast %[[L]] : i16 to bf16
llvm.func @load_value(%p: !llvm.ptr) -> bf16 {
  %b = llvm.load %p : !llvm.ptr -> bf16
  llvm.return %b : bf16
}

// Vectors of bf16 move whole and are left alone; so is every other type.
// CHECK-LABEL: llvm.func @untouched
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<8xbf16>
// CHECK: llvm.store %{{.*}}, %{{.*}} : vector<8xbf16>, !llvm.ptr
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f16
llvm.func @untouched(%p: !llvm.ptr) -> f16 {
  %v = llvm.load %p : !llvm.ptr -> vector<8xbf16>
  llvm.store %v, %p : vector<8xbf16>, !llvm.ptr
  %h = llvm.load %p : !llvm.ptr -> f16
  llvm.return %h : f16
}
