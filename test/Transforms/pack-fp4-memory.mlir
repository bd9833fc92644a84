// RUN: mxq-opt %s --mxq-pack-fp4-memory --split-input-file | FileCheck %s

// FP4 buffers become i8 buffers of the same logical shape (the descriptor is
// unchanged). Their bytes are a view with ceil(K/2) bytes a row, made where
// the buffer is defined; a load reads byte col / 2 of its row and shifts the
// code's nibble down.
// CHECK-LABEL: func.func @load(
// CHECK-SAME: %[[M:.*]]: memref<?x?xi8>, %[[I:.*]]: index, %[[J:.*]]: index) -> f4E2M1FN
// CHECK: %[[ROWS:.*]] = memref.dim %[[M]], %c0
// CHECK: %[[K:.*]] = memref.dim %[[M]], %c1
// CHECK: %[[K1:.*]] = arith.addi %[[K]], %{{.*}}
// CHECK: %[[PITCH:.*]] = arith.shrui %[[K1]]
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[M]] to offset: [0], sizes: [%[[ROWS]], %[[PITCH]]], strides: [%[[PITCH]], 1] : memref<?x?xi8> to memref<?x?xi8, strided<[?, 1]>>
// CHECK: %[[HALF:.*]] = arith.shrui %[[J]], %c1
// CHECK: %[[BYTE:.*]] = memref.load %[[VIEW]][%[[I]], %[[HALF]]]
// CHECK: arith.shrui %[[BYTE]]
// CHECK: arith.andi %{{.*}}, %c15_i8
// CHECK: arith.trunci %{{.*}} : i8 to i4
// CHECK: arith.bitcast %{{.*}} : i4 to f4E2M1FN
func.func @load(%m: memref<?x?xf4E2M1FN>, %i: index, %j: index) -> f4E2M1FN {
  %v = memref.load %m[%i, %j] : memref<?x?xf4E2M1FN>
  return %v : f4E2M1FN
}

// -----

// A store keeps the other nibble where the row has a code there and writes
// 0 where it has none (the padding nibble of an odd row).
// CHECK-LABEL: func.func @store(
// CHECK-SAME: %[[M:.*]]: memref<3x5xi8>
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[M]] to offset: [0], sizes: [3, 3], strides: [3, 1] : memref<3x5xi8> to memref<3x3xi8, strided<[3, 1]>>
// CHECK: %[[PARTNER:.*]] = arith.xori %{{.*}}, %c1
// CHECK: %[[HAS:.*]] = arith.cmpi ult, %[[PARTNER]], %c5
// CHECK: %[[OTHER:.*]] = arith.select %{{.*}}, %c-16_i8, %c15_i8
// CHECK: %[[KEEP:.*]] = arith.select %[[HAS]], %[[OTHER]], %c0_i8
// CHECK: %[[OLD:.*]] = memref.load %[[VIEW]]
// CHECK: %[[CODE:.*]] = arith.shli
// CHECK: %[[KEPT:.*]] = arith.andi %[[OLD]], %[[KEEP]]
// CHECK: %[[BYTE:.*]] = arith.ori %[[KEPT]], %[[CODE]]
// CHECK: memref.store %[[BYTE]], %[[VIEW]]
func.func @store(%m: memref<3x5xf4E2M1FN>, %v: f4E2M1FN, %i: index, %j: index) {
  memref.store %v, %m[%i, %j] : memref<3x5xf4E2M1FN>
  return
}

// -----

// An allocation holds ceil(K/2) bytes a row, viewed with the logical shape.
// CHECK-LABEL: func.func @alloc(
// CHECK-SAME: -> memref<4x?xi8>
// CHECK: %[[RAW:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi8>
// CHECK: memref.reinterpret_cast %[[RAW]] to offset: [0], sizes: [4, %{{.*}}], strides: [%{{.*}}, 1] : memref<?xi8> to memref<4x?xi8>
func.func @alloc(%k: index) -> memref<4x?xf4E2M1FN> {
  %a = memref.alloc(%k) {alignment = 64 : i64} : memref<4x?xf4E2M1FN>
  return %a : memref<4x?xf4E2M1FN>
}

// -----

// Codes of a whole block along the last axis: one vector of packed bytes
// (even lanes in the low nibbles) where they start on a byte; code by code,
// in a loop, otherwise.
// CHECK-LABEL: func.func @transfer_write(
// CHECK: %[[EVEN:.*]] = arith.cmpi eq
// CHECK: scf.if %[[EVEN]] {
// CHECK:   %[[LO:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6]
// CHECK:   %[[HI:.*]] = vector.shuffle %{{.*}}, %{{.*}} [1, 3, 5, 7]
// CHECK:   %[[SH:.*]] = arith.shli %[[HI]]
// CHECK:   %[[P:.*]] = arith.ori %[[LO]], %[[SH]] : vector<4xi8>
// CHECK:   vector.transfer_write %[[P]], %{{.*}}[%{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<4xi8>, memref<?x?xi8, strided<[?, 1]>>
// CHECK: } else {
// CHECK:   scf.for %[[K:.*]] = %c0{{.*}} to %c8 step %c1{{.*}} {
// CHECK:     vector.extract %{{.*}}[%[[K]]] : i8 from vector<8xi8>
// CHECK:     memref.store %{{.*}} : memref<?x?xi8, strided<[?, 1]>>
// CHECK-NOT: memref.store
// CHECK: return
func.func @transfer_write(%m: memref<?x?xf4E2M1FN>, %c: vector<8xi32>, %i: index, %j: index) {
  %t = arith.trunci %c : vector<8xi32> to vector<8xi4>
  %v = arith.bitcast %t : vector<8xi4> to vector<8xf4E2M1FN>
  vector.transfer_write %v, %m[%i, %j] {in_bounds = [true]} : vector<8xf4E2M1FN>, memref<?x?xf4E2M1FN>
  return
}

// -----

// A column even by construction (a block's first column: a multiple of 2
// through products, sums, shifts and affine maps) needs no run-time test
// and no code-by-code path.
// CHECK-LABEL: func.func @transfer_write_even(
// CHECK-NOT: scf.if
// CHECK-NOT: scf.for
// CHECK: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<4xi8>, memref<?x?xi8, strided<[?, 1]>>
// CHECK: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<4xi8>, memref<?x?xi8, strided<[?, 1]>>
// CHECK-NOT: scf.if
// CHECK: return
func.func @transfer_write_even(%m: memref<?x?xf4E2M1FN>, %c: vector<8xi32>, %i: index, %b: index) {
  %t = arith.trunci %c : vector<8xi32> to vector<8xi4>
  %v = arith.bitcast %t : vector<8xi4> to vector<8xf4E2M1FN>
  %c32 = arith.constant 32 : index
  %c8 = arith.constant 8 : index
  %j = arith.muli %b, %c32 : index
  %j8 = arith.addi %j, %c8 : index
  vector.transfer_write %v, %m[%i, %j8] {in_bounds = [true]} : vector<8xf4E2M1FN>, memref<?x?xf4E2M1FN>
  %k = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0 * 2)>(%b)[%i]
  vector.transfer_write %v, %m[%i, %k] {in_bounds = [true]} : vector<8xf4E2M1FN>, memref<?x?xf4E2M1FN>
  return
}

// -----

// A column that may be odd (here one past an even one) keeps the run-time
// test.
// CHECK-LABEL: func.func @transfer_write_maybe_odd(
// CHECK: scf.if
// CHECK: scf.for
func.func @transfer_write_maybe_odd(%m: memref<?x?xf4E2M1FN>, %c: vector<8xi32>, %i: index, %b: index) {
  %t = arith.trunci %c : vector<8xi32> to vector<8xi4>
  %v = arith.bitcast %t : vector<8xi4> to vector<8xf4E2M1FN>
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  %j = arith.muli %b, %c32 : index
  %j1 = arith.addi %j, %c1 : index
  vector.transfer_write %v, %m[%i, %j1] {in_bounds = [true]} : vector<8xf4E2M1FN>, memref<?x?xf4E2M1FN>
  return
}

// -----

// A ragged read past the end of a row: packed bytes where the whole vector
// fits, otherwise the codes that exist, one by one, the rest padding.
// CHECK-LABEL: func.func @transfer_read_ragged(
// CHECK: %[[FITS:.*]] = arith.cmpi ule
// CHECK: scf.if %[[FITS]] -> (vector<8xi8>) {
// CHECK:   vector.transfer_read %{{.*}} {in_bounds = [true]} : memref<?x?xi8, strided<[?, 1]>>, vector<4xi8>
// CHECK: } else {
// CHECK:   %[[END:.*]] = arith.maxui
// CHECK:   %[[ROOM:.*]] = arith.subi %[[END]]
// CHECK:   %[[N:.*]] = arith.minui %[[ROOM]], %c8
// CHECK:   scf.for %[[K:.*]] = %c0{{.*}} to %[[N]] step %c1{{.*}} iter_args
// CHECK:     vector.insert %{{.*}}, %{{.*}} [%[[K]]] : i8 into vector<8xi8>
func.func @transfer_read_ragged(%m: memref<?x?xf4E2M1FN>, %i: index, %b: index) -> vector<8xf4E2M1FN> {
  %z = arith.constant 0.0 : f4E2M1FN
  %c8 = arith.constant 8 : index
  %j = arith.muli %b, %c8 : index
  %v = vector.transfer_read %m[%i, %j], %z : memref<?x?xf4E2M1FN>, vector<8xf4E2M1FN>
  return %v : vector<8xf4E2M1FN>
}

// -----

// Reading packed bytes back interleaves their low and high nibbles.
// CHECK-LABEL: func.func @transfer_read(
// CHECK: vector.transfer_read %{{.*}} {in_bounds = [true]} : memref<?x?xi8, strided<[?, 1]>>, vector<4xi8>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 4, 1, 5, 2, 6, 3, 7]
func.func @transfer_read(%m: memref<?x?xf4E2M1FN>, %i: index, %j: index) -> vector<8xf4E2M1FN> {
  %z = arith.constant 0.0 : f4E2M1FN
  %v = vector.transfer_read %m[%i, %j], %z {in_bounds = [true]} : memref<?x?xf4E2M1FN>, vector<8xf4E2M1FN>
  return %v : vector<8xf4E2M1FN>
}

// -----

// A copy copies the packed bytes.
// CHECK-LABEL: func.func @copy(
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<?x?xi8, strided<[?, 1]>> to memref<?x?xi8, strided<[?, 1]>>
func.func @copy(%a: memref<?x?xf4E2M1FN>, %b: memref<?x?xf4E2M1FN>) {
  memref.copy %a, %b : memref<?x?xf4E2M1FN> to memref<?x?xf4E2M1FN>
  return
}

// -----

// Other element types are not touched.
// CHECK-LABEL: func.func @bytes(
// CHECK: memref.load %{{.*}} : memref<?x?xf8E4M3FN>
func.func @bytes(%m: memref<?x?xf8E4M3FN>, %i: index) -> f8E4M3FN {
  %v = memref.load %m[%i, %i] : memref<?x?xf8E4M3FN>
  return %v : f8E4M3FN
}

// -----

// Codes packed already (a bitcast of bytes, element 2i the low nibble of
// byte i: what a quantize of bf16 into FP4 makes) are written as those
// bytes, without the even/odd shuffles; code by code, each lane is its
// byte's low or high nibble.
// CHECK-LABEL: func.func @transfer_write_packed(
// CHECK: scf.if
// CHECK-NOT: vector.shuffle
// CHECK:   vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<4xi8>, memref<?x?xi8, strided<[?, 1]>>
// CHECK: } else {
// CHECK:   scf.for %[[K:.*]] = %c0{{.*}} to %c8 step %c1{{.*}} {
// CHECK:     %[[HALF:.*]] = arith.shrui %[[K]], %c1
// CHECK:     %[[BYTE:.*]] = vector.extract %{{.*}}[%[[HALF]]] : i8 from vector<4xi8>
// CHECK:     %[[NIB:.*]] = arith.shrui %[[BYTE]]
// CHECK:     arith.andi %[[NIB]]
// CHECK:     memref.store %{{.*}} : memref<?x?xi8, strided<[?, 1]>>
// CHECK-NOT: vector.shuffle
// CHECK: return
func.func @transfer_write_packed(%m: memref<?x?xf4E2M1FN>, %b: vector<4xi8>, %i: index, %j: index) {
  %n = vector.bitcast %b : vector<4xi8> to vector<8xi4>
  %v = arith.bitcast %n : vector<8xi4> to vector<8xf4E2M1FN>
  vector.transfer_write %v, %m[%i, %j] {in_bounds = [true]} : vector<8xf4E2M1FN>, memref<?x?xf4E2M1FN>
  return
}
