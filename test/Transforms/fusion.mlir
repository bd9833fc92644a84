// RUN: mxq-opt %mxq_src_root/examples/swiglu_mxfp8.mlir --mxq-tile="tile-sizes=8,2" --canonicalize | FileCheck %s

// The SwiGLU producer is fused into the tiled loop: it computes only the tile
// the quantize consumes, and its whole result is never materialised.
// CHECK-LABEL: func @swiglu_mxfp8
// CHECK-NOT: linalg.generic
// CHECK: scf.forall
// CHECK: %[[A:.*]] = tensor.extract_slice %arg0
// CHECK: %[[B:.*]] = tensor.extract_slice %arg1
// CHECK: %[[H:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK: math.exp
// CHECK: mxq.quantize %[[H]] axis = 1 scale = rceil
// CHECK: scf.forall.in_parallel
