// RUN: mxq-opt %s --mxq-tile="tile-sizes=4,2" --canonicalize -split-input-file | FileCheck %s --enable-var-scope
// RUN: mxq-opt %s --mxq-tile="tile-sizes=4,2 loop=for" -split-input-file | FileCheck %s --check-prefix=FOR

// Linear scales: the block axis is tiled in blocks (2 blocks = 64 elements),
// so every tile holds whole blocks; the ragged end is an affine.min.
// CHECK-LABEL: func @linear
// CHECK: scf.forall (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) = (0, 0) to (%{{.*}}, %{{.*}}) step (4, 2)
// CHECK: tensor.extract_slice %{{.*}}[%[[I]], %[[E:.*]]] [%{{.*}}, %{{.*}}] [1, 1] : tensor<?x?xbf16> to tensor<?x?xbf16>
// CHECK: mxq.quantize {{.*}} -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
// CHECK: scf.forall.in_parallel
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[I]], %{{.*}}]
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[I]], %[[J]]]
// FOR-LABEL: func @linear
// FOR: scf.for
// FOR: scf.for
// FOR: mxq.quantize
// FOR: tensor.insert_slice
func.func @linear(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

// -----

// Pair scales: the block axis is tiled in pairs of blocks (2 pairs = 128
// rows here), the scale tile is [pairs, columns, 2].
// CHECK-LABEL: func @pairs_axis0
// CHECK: scf.forall (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) = (0, 0) to
// CHECK: affine.apply #{{.*}}(%[[I]])
// CHECK: mxq.quantize {{.*}} axis = 0 {{.*}} layout = pairs : tensor<?x2xf32> -> tensor<?x2xf4E2M1FN>, tensor<?x2x2xf8E8M0FNU>
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[I]], %[[J]], 0] [%{{.*}}, 2, 2]
func.func @pairs_axis0(%x: tensor<?x6xf32>) -> (tensor<?x6xf4E2M1FN>, tensor<?x6x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor inf = exponent layout = pairs : tensor<?x6xf32> -> tensor<?x6xf4E2M1FN>, tensor<?x6x2xf8E8M0FNU>
  return %q, %s : tensor<?x6xf4E2M1FN>, tensor<?x6x2xf8E8M0FNU>
}

// -----

// Swizzled scales: the row axis is tiled in 128-row bands (4 bands = 512
// rows), the block axis is one unit; each band of the swizzled bytes is
// contiguous.
// CHECK-LABEL: func @swizzled
// CHECK: scf.forall (%[[I:[a-z0-9_]+]]) = (0) to (%{{.*}}) step (4)
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0] [%{{.*}}, %{{.*}}] [1, 1]
// CHECK: mxq.quantize {{.*}} layout = swizzle_32_4_4
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 0]
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%{{.*}}] [%{{.*}}] [1]
func.func @swizzled(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil layout = swizzle_32_4_4 : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}

// -----

// CHECK-LABEL: func @dequantize
// CHECK: scf.forall
// CHECK: tensor.extract_slice
// CHECK: tensor.extract_slice
// CHECK: mxq.dequantize
// CHECK: tensor.parallel_insert_slice
func.func @dequantize(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xf32> {
  %y = mxq.dequantize %q, %s axis = 1 : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// Two-level: the last axis in 512-element level-0 blocks; level-1 pairs
// follow at 8 per level-0 block.
// CHECK-LABEL: func @two_level
// CHECK: scf.forall (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) = (0, 0) to
// CHECK: mxq.two_level_quantize
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[I]], %[[J]]]
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[I]], %{{.*}}, 0] [%{{.*}}, %{{.*}}, 2]
func.func @two_level(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>) {
  %y, %a, %b = mxq.two_level_quantize %x : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
  return %y, %a, %b : tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
}

// -----

// Dual: batch axes only (both outputs are swizzled).
// CHECK-LABEL: func @dual
// CHECK: scf.forall (%[[B:[a-z0-9_]+]]) = (0) to (%{{.*}}) step (4)
// CHECK: tensor.extract_slice %{{.*}}[%[[B]], 0, 0]
// CHECK: mxq.dual_quantize
func.func @dual(%x: tensor<?x?x?xbf16>) -> (tensor<?x?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<?x?x?xbf16> -> tensor<?x?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<?x?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

// -----

// Fake quant: per-channel parameters are tiled with their axis.
// CHECK-LABEL: func @fake_quant
// CHECK: scf.forall (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]])
// CHECK: tensor.extract_slice %{{.*}}[%[[J]]]
// CHECK: mxq.fake_quant
func.func @fake_quant(%x: tensor<?x?xf32>, %s: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?x?xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 axis = 1 : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>
  return %y : tensor<?x?xf32>
}
