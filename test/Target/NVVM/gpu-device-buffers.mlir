// RUN: mxq-opt %s --split-input-file --mxq-gpu-device-buffers --verify-diagnostics | FileCheck %s

// Host allocations become device allocations; a whole-buffer copy a device
// copy. Kernel launches are left alone.
// CHECK-LABEL: func @host
// CHECK: %[[A:.*]] = gpu.alloc (%{{.*}}) : memref<?xi8>
// CHECK: %[[B:.*]] = gpu.alloc (%{{.*}}) : memref<?xi8>
// CHECK: gpu.memcpy %[[B]], %[[A]] : memref<?xi8>, memref<?xi8>
// CHECK: gpu.dealloc %[[A]] : memref<?xi8>
// CHECK-NOT: memref.alloc
func.func @host(%n: index) -> memref<?xi8> {
  %a = memref.alloc(%n) : memref<?xi8>
  %b = memref.alloc(%n) : memref<?xi8>
  memref.copy %a, %b : memref<?xi8> to memref<?xi8>
  memref.dealloc %a : memref<?xi8>
  return %b : memref<?xi8>
}

// -----

func.func @touches(%m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'memref.load' op reads or writes a buffer in host code, which the GPU pipeline cannot run}}
  %v = memref.load %m[%c0] : memref<4xf32>
  return %v : f32
}
