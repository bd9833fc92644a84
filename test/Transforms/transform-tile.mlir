// RUN: mxq-opt %s --transform-interpreter --canonicalize | FileCheck %s

// Upstream transforms tile mxq ops through their TilingInterface.

// CHECK-LABEL: func @quantize
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in
// CHECK: mxq.quantize {{.*}} : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
// CHECK-LABEL: func @fake
// CHECK: scf.for
// CHECK: scf.for
// CHECK: mxq.fake_quant {{.*}} : tensor<?x?xf32>, tensor<1xf32>, tensor<1xf32>
func.func @quantize(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @fake(%x: tensor<?x?xf32>, %s: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<?x?xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 : tensor<?x?xf32>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<?x?xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %q = transform.structured.match ops{["mxq.quantize"]} in %root : (!transform.any_op) -> !transform.any_op
    %t0, %l0 = transform.structured.tile_using_forall %q tile_sizes [8, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.structured.match ops{["mxq.fake_quant"]} in %root : (!transform.any_op) -> !transform.any_op
    %t1, %l1:2 = transform.structured.tile_using_for %f tile_sizes [16, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
