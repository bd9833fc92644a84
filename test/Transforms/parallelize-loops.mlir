// RUN: mxq-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mxq-parallelize-loops))' | FileCheck %s

// A perfect nest of marked loops becomes one scf.parallel over both.
// CHECK-LABEL: func.func @nest
// CHECK-SAME: (%[[M:.*]]: memref<?x?xf32>, %[[A:.*]]: index, %[[B:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[C0]], %[[C0]]) to (%[[A]], %[[B]]) step (%[[C1]], %[[C1]])
// CHECK-NEXT: memref.store %{{.*}}, %[[M]][%[[I]], %[[J]]]
// CHECK-NOT: scf.for
func.func @nest(%m: memref<?x?xf32>, %a: index, %b: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %a step %c1 {
    scf.for %j = %c0 to %b step %c1 {
      memref.store %f, %m[%i, %j] : memref<?x?xf32>
    } {mxq.parallel}
  } {mxq.parallel}
  return
}

// -----

// An inner loop whose bound depends on the outer index stays a loop inside
// the parallel one; unmarked loops and loops carrying values stay loops.
// CHECK-LABEL: func.func @partial
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[I]]
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT: scf.parallel
// CHECK-LABEL: func.func @carried
// CHECK-NOT: scf.parallel
// CHECK: scf.for {{.*}} iter_args
func.func @partial(%m: memref<?x?xf32>, %a: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %a step %c1 {
    scf.for %j = %c0 to %i step %c1 {
      memref.store %f, %m[%i, %j] : memref<?x?xf32>
    } {mxq.parallel}
  } {mxq.parallel}
  return
}
func.func @unmarked(%m: memref<?xf32>, %a: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %a step %c1 {
    memref.store %f, %m[%i] : memref<?xf32>
  }
  return
}
func.func @carried(%a: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %a step %c1 iter_args(%s = %f) -> f32 {
    %t = arith.addf %s, %f : f32
    scf.yield %t : f32
  } {mxq.parallel}
  return %r : f32
}

// -----

// Memory accesses outside any loop are not the shared pass's business
// (the NVIDIA target wraps them: mxq-wrap-straight-line-in-kernels).
// CHECK-LABEL: func.func @straight_line
// CHECK-NOT: scf.parallel
func.func @straight_line(%in: memref<4xf32>, %x: f32) -> (memref<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  %v = arith.addf %x, %x : f32
  memref.store %v, %a[%c0] : memref<4xf32>
  %l = memref.load %in[%c1] : memref<4xf32>
  memref.store %l, %a[%c1] : memref<4xf32>
  return %a, %v : memref<4xf32>, f32
}
