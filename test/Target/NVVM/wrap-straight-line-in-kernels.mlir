// RUN: mxq-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(mxq-wrap-straight-line-in-kernels))' | FileCheck %s
// The option moved out of the shared pass: asking it there is an error.
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(func.func(mxq-parallelize-loops{wrap-straight-line=true}))' 2>&1 | FileCheck %s --check-prefix=GONE
// GONE: wrap-straight-line

// Memory accesses outside any loop go into a one-iteration scf.parallel; a
// pure value used after them is hoisted, the allocation stays outside.
// CHECK-LABEL: func.func @straight_line
// CHECK: %[[A:.*]] = memref.alloc
// CHECK: %[[V:.*]] = arith.addf
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}})
// CHECK:   memref.store %[[V]], %[[A]]
// CHECK:   memref.load %arg0
// CHECK: return %[[A]], %[[V]]
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

// -----

// An scf.parallel ends a run: the accesses before and after it become two
// kernels, the loop itself is not nested in a third.
// CHECK-LABEL: func.func @around_a_loop
// CHECK: scf.parallel
// CHECK:   memref.store
// CHECK: scf.parallel
// CHECK:   memref.store
// CHECK: scf.parallel
// CHECK:   memref.store
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @around_a_loop(%a: memref<4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  memref.store %x, %a[%c0] : memref<4xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %x, %a[%i] : memref<4xf32>
    scf.reduce
  }
  memref.store %x, %a[%c1] : memref<4xf32>
  return
}

// -----

// A value read from memory and used after the run cannot be hoisted (it
// has an effect): the run is left on the host as it is.
// CHECK-LABEL: func.func @read_used_after
// CHECK-NOT: scf.parallel
// CHECK: memref.load
// CHECK: return
func.func @read_used_after(%a: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %l = memref.load %a[%c0] : memref<4xf32>
  return %l : f32
}

// -----

// Code without memory accesses is left alone.
// CHECK-LABEL: func.func @no_memory
// CHECK-NOT: scf.parallel
func.func @no_memory(%x: f32) -> f32 {
  %v = arith.addf %x, %x : f32
  return %v : f32
}
