// RUN: mxq-opt %s --split-input-file --mxq-align-vector-accesses --verify-diagnostics | FileCheck %s
// RUN: mxq-opt %s --split-input-file --mxq-align-vector-accesses=base-alignment=4 | FileCheck %s --check-prefix=CAP

// Rows of 128 bf16 (256 bytes) read 32 at a time from a multiple of 32: 16
// bytes proven (the base alignment), the widest NVPTX access.
// CHECK-LABEL: func @static_rows
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x128xbf16>, vector<32xbf16>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x128xf8E4M3FN>, vector<32xf8E4M3FN>
// CAP-LABEL: func @static_rows
// CAP: vector.load {{.*}} {alignment = 4 : i64}
func.func @static_rows(%in: memref<64x128xbf16>, %out: memref<64x128xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : bf16
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %b = %c0 to %c4 step %c1 {
      %k = arith.muli %b, %c32 : index
      %v = vector.transfer_read %in[%i, %k], %pad {in_bounds = [true]} : memref<64x128xbf16>, vector<32xbf16>
      %q = arith.truncf %v : vector<32xbf16> to vector<32xf8E4M3FN>
      vector.transfer_write %q, %out[%i, %k] {in_bounds = [true]} : vector<32xf8E4M3FN>, memref<64x128xf8E4M3FN>
    }
  }
  return
}

// -----

// An odd index proves only the element size; a dynamic row stride proves
// nothing unless the row index is 0.
// CHECK-LABEL: func @weak
// CHECK: vector.load %{{.*}} {alignment = 2 : i64} : memref<64x128xbf16>, vector<32xbf16>
// CHECK: vector.load %{{.*}} {alignment = 2 : i64} : memref<?x?xbf16>, vector<32xbf16>
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xbf16>, vector<32xbf16>
func.func @weak(%a: memref<64x128xbf16>, %d: memref<?x?xbf16>, %i: index) -> (vector<32xbf16>, vector<32xbf16>, vector<32xbf16>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %pad = arith.constant 0.0 : bf16
  %x = vector.transfer_read %a[%i, %c3], %pad {in_bounds = [true]} : memref<64x128xbf16>, vector<32xbf16>
  %y = vector.transfer_read %d[%i, %c0], %pad {in_bounds = [true]} : memref<?x?xbf16>, vector<32xbf16>
  %z = vector.transfer_read %d[%c0, %c0], %pad {in_bounds = [true]} : memref<?x?xbf16>, vector<32xbf16>
  return %x, %y, %z : vector<32xbf16>, vector<32xbf16>, vector<32xbf16>
}

// -----

// Masked, out-of-bounds, strided and long transfers stay as they are.
// CHECK-LABEL: func @untouched
// CHECK-COUNT-4: vector.transfer_read
func.func @untouched(%a: memref<64x1024xbf16>, %m: vector<32xi1>, %i: index) -> (vector<32xbf16>, vector<32xbf16>, vector<32xbf16>, vector<512xbf16>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : bf16
  %x = vector.transfer_read %a[%c0, %c0], %pad, %m {in_bounds = [true]} : memref<64x1024xbf16>, vector<32xbf16>
  %y = vector.transfer_read %a[%c0, %i], %pad {in_bounds = [false]} : memref<64x1024xbf16>, vector<32xbf16>
  %z = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<64x1024xbf16>, vector<32xbf16>
  %w = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true]} : memref<64x1024xbf16>, vector<512xbf16>
  return %x, %y, %z, %w : vector<32xbf16>, vector<32xbf16>, vector<32xbf16>, vector<512xbf16>
}
