// RUN: mxq-opt %s --mxq-pack-fp4-memory --split-input-file --verify-diagnostics

func.func @subview(%m: memref<4x8xf4E2M1FN>) -> f4E2M1FN {
  %c0 = arith.constant 0 : index
  // expected-error @below {{mxq-pack-fp4-memory: 'memref.subview' on a buffer of FP4 codes is not supported (FP4 codes are packed two per byte; only loads, stores, 1-d vector transfers, allocations, copies and calls are rewritten)}}
  %s = memref.subview %m[0, 1] [4, 4] [1, 1] : memref<4x8xf4E2M1FN> to memref<4x4xf4E2M1FN, strided<[8, 1], offset: 1>>
  %v = memref.load %s[%c0, %c0] : memref<4x4xf4E2M1FN, strided<[8, 1], offset: 1>>
  return %v : f4E2M1FN
}

// -----

// expected-error @below {{mxq-pack-fp4-memory: 'memref<4x4xf4E2M1FN, strided<[8, 1]>>' has a non-identity layout: FP4 codes are packed two per byte along the last axis, and only whole (identity-layout) buffers of them are addressed}}
func.func @strided(%m: memref<4x4xf4E2M1FN, strided<[8, 1]>>) {
  return
}
