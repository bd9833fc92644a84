// RUN: mxq-opt %s --mxq-materialize-scale-layout | FileCheck %s --enable-var-scope

// CHECK-LABEL: func @quantize_swizzled
// CHECK: %[[Q:.*]], %[[S:.*]] = mxq.quantize %{{.*}} axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
// CHECK: %[[R:.*]] = mxq.convert_scale_layout %[[S]], %[[Q]] axis = 1 from = linear to = swizzle_32_4_4
// CHECK: return %[[Q]], %[[R]]
func.func @quantize_swizzled(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil layout = swizzle_32_4_4 : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}

// CHECK-LABEL: func @dequantize_pairs
// CHECK: %[[L:.*]] = mxq.convert_scale_layout %{{.*}}, %{{.*}} axis = 0 from = pairs to = linear : tensor<?x?x2xf8E8M0FNU>, tensor<?x?xf4E2M1FN> -> tensor<?x?xf8E8M0FNU>
// CHECK: mxq.dequantize %{{.*}}, %[[L]] axis = 0 : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
func.func @dequantize_pairs(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?x2xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 0 layout = pairs : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// Linear layouts are left alone.
// CHECK-LABEL: func @linear
// CHECK-NOT: convert_scale_layout
func.func @linear(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = floor : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
