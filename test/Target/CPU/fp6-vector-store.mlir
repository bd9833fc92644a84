// RUN: mxq-opt %s --mxq-cpu-pipeline | FileCheck %s
// REQUIRES: target-cpu

// FP6 codes take one byte each in memory. A whole block's 32 codes along the
// last axis are one vector store of bytes (mxq-byte-sized-memory widens the
// vector of i6, which LLVM would pack); no vector of i6 reaches LLVM.
// CHECK-LABEL: llvm.func @fp6
// CHECK: llvm.store {{.*}} : vector<32xi8>, !llvm.ptr
// CHECK-NOT: vector<32xi6>
// CHECK-LABEL: llvm.func @_mlir_ciface_fp6
func.func @fp6(%x: tensor<?x?xbf16>) -> (tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>) attributes {llvm.emit_c_interface} {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
}
