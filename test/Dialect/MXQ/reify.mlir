// RUN: mxq-opt %s --resolve-ranked-shaped-type-result-dims --canonicalize | FileCheck %s --enable-var-scope

// Dynamic result sizes are reified from the input's sizes.

// CHECK-LABEL: func @linear
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf32>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[K:.*]] = tensor.dim %[[X]], %[[C1]]
// CHECK: %[[N:.*]] = arith.ceildivsi %[[K]], %[[C32]]
// CHECK: return %[[N]]
func.func @linear(%x: tensor<?x?xf32>) -> index {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  %c1 = arith.constant 1 : index
  %d = tensor.dim %s, %c1 : tensor<?x?xf8E8M0FNU>
  return %d : index
}

// CHECK-LABEL: func @swizzle
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xbf16>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[X]], %[[C0]]
// CHECK-DAG: %[[K:.*]] = tensor.dim %[[X]], %[[C1]]
// CHECK-DAG: %[[BANDS:.*]] = arith.ceildivsi %[[M]], %[[C128]]
// CHECK: %[[TILES:.*]] = arith.muli %[[BANDS]], %{{.*}}
// CHECK: %[[L:.*]] = arith.muli %[[TILES]], %[[C512]]
// CHECK: return %[[L]]
func.func @swizzle(%x: tensor<?x?xbf16>) -> index {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil layout = swizzle_32_4_4 : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %s, %c0 : tensor<?xf8E8M0FNU>
  return %d : index
}

// CHECK-LABEL: func @pairs_and_two_level
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xbf16>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C512:.*]] = arith.constant 512 : index
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %[[C1]]
// CHECK: %[[L0:.*]] = arith.ceildivsi %[[N]], %[[C512]]
// CHECK: return %[[L0]]
func.func @pairs_and_two_level(%x: tensor<?x?xbf16>) -> index {
  %y, %l0, %l1 = mxq.two_level_quantize %x : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  %c1 = arith.constant 1 : index
  %d = tensor.dim %l0, %c1 : tensor<?x?xf32>
  return %d : index
}

// CHECK-LABEL: func @dual_transposed
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf32>)
// CHECK: %[[K:.*]] = tensor.dim %[[X]], %c1
// CHECK: return %[[K]]
func.func @dual_transposed(%x: tensor<?x?xf32>) -> index {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  %c0 = arith.constant 0 : index
  %r = tensor.dim %c, %c0 : tensor<?x?xf8E4M3FN>
  return %r : index
}
