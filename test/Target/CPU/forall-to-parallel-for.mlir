// RUN: mxq-opt %s --mxq-forall-to-parallel-for --split-input-file --verify-diagnostics | FileCheck %s

// Tiles of bytes: every loop of the forall is marked parallel.
// CHECK-LABEL: func.func @bytes
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             memref.subview
// CHECK:           } {mxq.parallel}
// CHECK:         } {mxq.parallel}
func.func @bytes(%m: memref<64x64xf8E4M3FN>, %c: f8E4M3FN) {
  scf.forall (%i, %j) = (0, 0) to (64, 64) step (16, 32) {
    %v = memref.subview %m[%i, %j] [16, 32] [1, 1] : memref<64x64xf8E4M3FN> to memref<16x32xf8E4M3FN, strided<[64, 1], offset: ?>>
    %c0 = arith.constant 0 : index
    memref.store %c, %v[%c0, %c0] : memref<16x32xf8E4M3FN, strided<[64, 1], offset: ?>>
  }
  return
}

// -----

// FP4 codes in tiles of whole rows (every view starts at column 0): no two
// tiles share a byte, the loop is parallel.
// CHECK-LABEL: func.func @fp4_rows
// CHECK:         scf.for
// CHECK:         } {mxq.parallel}
func.func @fp4_rows(%m: memref<64x63xf4E2M1FN>, %c: f4E2M1FN) {
  scf.forall (%i) = (0) to (64) step (5) {
    %n = affine.min affine_map<(d0) -> (5, 64 - d0)>(%i)
    %v = memref.subview %m[%i, 0] [%n, 63] [1, 1] : memref<64x63xf4E2M1FN> to memref<?x63xf4E2M1FN, strided<[63, 1], offset: ?>>
    %c0 = arith.constant 0 : index
    memref.store %c, %v[%c0, %c0] : memref<?x63xf4E2M1FN, strided<[63, 1], offset: ?>>
  }
  return
}

// -----

// FP4 codes in tiles that start inside a row: two tiles may write the two
// nibbles of one byte, so the loops stay sequential.
// CHECK-LABEL: func.func @fp4_columns
// CHECK-NOT:     mxq.parallel
func.func @fp4_columns(%m: memref<64x63xf4E2M1FN>, %c: f4E2M1FN) {
  scf.forall (%i, %j) = (0, 0) to (64, 63) step (8, 3) {
    %v = memref.subview %m[%i, %j] [8, 3] [1, 1] : memref<64x63xf4E2M1FN> to memref<8x3xf4E2M1FN, strided<[63, 1], offset: ?>>
    %c0 = arith.constant 0 : index
    memref.store %c, %v[%c0, %c0] : memref<8x3xf4E2M1FN, strided<[63, 1], offset: ?>>
  }
  return
}

// -----

// FP6 codes take a byte each (mxq/Support/ElementTypes.h): tiles that start
// inside a row still write disjoint bytes, the loops are parallel.
// CHECK-LABEL: func.func @fp6_columns
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:           } {mxq.parallel}
// CHECK:         } {mxq.parallel}
func.func @fp6_columns(%m: memref<64x63xf6E2M3FN>, %c: f6E2M3FN) {
  scf.forall (%i, %j) = (0, 0) to (64, 63) step (8, 3) {
    %v = memref.subview %m[%i, %j] [8, 3] [1, 1] : memref<64x63xf6E2M3FN> to memref<8x3xf6E2M3FN, strided<[63, 1], offset: ?>>
    %c0 = arith.constant 0 : index
    memref.store %c, %v[%c0, %c0] : memref<8x3xf6E2M3FN, strided<[63, 1], offset: ?>>
  }
  return
}

// -----

// A forall that still has results (before bufferization) is an error, not
// a crash (upstream's conversion gives loops that do not verify).
func.func @results(%t: tensor<64xf32>, %c: f32) -> tensor<64xf32> {
  // expected-error @below {{mxq-forall-to-parallel-for runs after bufferization, but this scf.forall has results}}
  %r = scf.forall (%i) = (0) to (64) step (16) shared_outs(%o = %t) -> tensor<64xf32> {
    %s = tensor.extract_slice %o[%i] [16] [1] : tensor<64xf32> to tensor<16xf32>
    %f = linalg.fill ins(%c : f32) outs(%s : tensor<16xf32>) -> tensor<16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i] [16] [1] : tensor<16xf32> into tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}
