// RUN: mxq-opt %s --convert-mxq-to-loops --canonicalize | FileCheck %s --enable-var-scope
// RUN: mxq-opt %s --mxq-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// Each block is one vector read along the axis (unmasked for whole blocks,
// masked for the ragged tail), its
// scale comes from exact integer IR, and byte-sized codes are one vector
// store; no float truncation to a small format is ever emitted.

// Linear scales have no padding: every byte is written by a block, so the
// scales start empty (no fill to write over).
// CHECK-LABEL: func @quantize_e4m3
// CHECK-NOT: linalg.fill
// CHECK: scf.for
// CHECK: scf.for
// Four blocks at once, one copy of the numerics for every group: a whole
// group is read unmasked, the last of a line masked (zeros past its end).
// bf16 is read as 32-bit lanes of two elements, each block as its even
// elements (shifted up) then its odd ones (low halves cleared), as the
// group's 4 x 32 tile.
// CHECK: scf.if {{.*}} -> (vector<4x32xf32>)
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true]} : tensor<?x?xbf16>, vector<128xbf16>
// CHECK: arith.bitcast {{.*}} : vector<128xbf16> to vector<128xi16>
// CHECK: vector.bitcast {{.*}} : vector<128xi16> to vector<64xi32>
// CHECK: arith.shli
// CHECK: } else {
// CHECK: vector.transfer_read {{.*}} : tensor<?x?xbf16>, vector<128xbf16>
// CHECK-NOT: in_bounds
// CHECK: scf.yield {{.*}} : vector<4x32xf32>
// Each block's amax by a tree of register-wide pieces: every block halved
// to 16 lanes, then neighbours merged (half of each row's lanes against the
// other half), down to one lane a block; no shuffle wider than 32 lanes.
// CHECK-NOT: vector<128xi32>, vector<128xi32>
// CHECK: vector.shuffle {{.*}} : vector<32xi32>, vector<32xi32>
// CHECK: arith.maxui {{.*}} : vector<16xi32>
// CHECK: vector.shuffle {{.*}} : vector<16xi32>, vector<16xi32>
// CHECK-NOT: vector<128xi32>, vector<128xi32>
// CHECK: arith.maxui {{.*}} : vector<4xi32>
// CHECK: arith.mulf {{.*}} : vector<4x32xf32>
// Then the stores: a whole group's codes and four scales as one vector each;
// at the end of a line the codes masked and the live blocks' scales in a
// loop. The codes of elements 2i and 2i + 1 meet in one 32-bit lane (even |
// odd << 8), truncated to 16 bits: the bytes in element order.
// CHECK: arith.trunci {{.*}} : vector<64xi32> to vector<64xi16>
// CHECK: vector.bitcast {{.*}} : vector<64xi16> to vector<128xi8>
// CHECK: scf.if
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true]} : vector<128xf8E4M3FN>, tensor<?x?xf8E4M3FN>
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true]} : vector<4xf8E8M0FNU>, tensor<?x?xf8E8M0FNU>
// CHECK: } else {
// CHECK-NOT: vector.reduction
// CHECK-NOT: scf.for
// CHECK: vector.transfer_write {{.*}} : vector<128xf8E4M3FN>, tensor<?x?xf8E4M3FN>
// CHECK-NOT: in_bounds
// CHECK: scf.for
// CHECK: vector.extract %{{.*}}[%{{.*}}] : i32 from vector<4xi32>
// CHECK: tensor.insert {{.*}} : tensor<?x?xf8E8M0FNU>
// CHECK-NOT: arith.truncf
// CHECK-LABEL: func @quantize_fp4_axis0
func.func @quantize_e4m3(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

// Blocks along a non-minor axis are read element by element at static lanes
// (a strided transfer would index a vector dynamically); FP4 codes are
// stored one by one (LLVM packs vectors of i4 in memory), at static lane
// indices, the ragged tail too (lanes past its end clamped to its last).
// CHECK: tensor.extract {{.*}} : tensor<?x?xf32>
// CHECK: vector.from_elements {{.*}} : vector<32xf32>
// CHECK-NOT: scf.for
// CHECK: vector.extract %{{.*}}[31] : i32 from vector<32xi32>
// CHECK: arith.minui
// CHECK: arith.bitcast {{.*}} : i4 to f4E2M1FN
// CHECK: tensor.insert {{.*}} : tensor<?x?xf4E2M1FN>
func.func @quantize_fp4_axis0(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 0 scale = floor inf = exponent layout = pairs : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
}

// The swizzled offset is computed from the row and the block.
// Swizzled (and paired) scales have padding bytes: filled first.
// CHECK-LABEL: func @swizzle
// CHECK: linalg.fill
// CHECK: arith.ceildivui
// CHECK: arith.divui {{.*}}, %c128
// CHECK: arith.remui {{.*}}, %c32
// CHECK: tensor.insert {{.*}} : tensor<?xf8E8M0FNU>
func.func @swizzle(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil layout = swizzle_32_4_4 : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}

// A dual tile (32 x 32) is three loops over its rows, which LLVM compiles
// quickly (an unrolled tile took it a third of a second): A, the column
// amax (an elementwise maximum of the rows); B, each row's column codes,
// written untransposed into the tile's own region of the row codes; then
// that region read back as one tile (masked to the tile's rows and
// columns, no bounds branch per row), transposed in five stages of two-row
// shuffles (never a vector.transpose of all 1024 lanes; the first stage
// moves i64s), and written to the [K, M] codes; the column scales as one
// vector.scatter at a 16-byte stride (the lines of one swizzle stripe);
// C, each row's amax, scale and codes, over the scratch.
// CHECK-LABEL: func @dual_tiled
// CHECK: arith.constant dense<[0, 16, 32, {{.*}}, 480, 496]> : vector<32xi32>
// CHECK-NOT: vector.transpose
// CHECK: scf.for {{.*}} -> (vector<32xi32>)
// CHECK: vector.transfer_read {{.*}} : tensor<?x?xbf16>, vector<32xbf16>
// CHECK: arith.maxui {{.*}} : vector<32xi32>
// CHECK: scf.for {{.*}} -> (tensor<?x?xf8E4M3FN>)
// CHECK: vector.transfer_write {{.*}} : vector<32xf8E4M3FN>, tensor<?x?xf8E4M3FN>
// CHECK: %[[RM:.*]] = vector.create_mask %[[ROWS:.*]], %[[COLS:.*]] : vector<32x32xi1>
// CHECK: vector.transfer_read {{.*}}, %[[RM]] {in_bounds = [true, true]} : tensor<?x?xf8E4M3FN>, vector<32x32xf8E4M3FN>
// CHECK-NOT: vector<1024x
// CHECK-COUNT-32: vector.shuffle {{.*}} : vector<4xi64>, vector<4xi64>
// CHECK-COUNT-32: vector.shuffle {{.*}} : vector<4xi64>, vector<4xi64>
// CHECK-COUNT-32: vector.shuffle {{.*}} : vector<8xi32>, vector<8xi32>
// CHECK-COUNT-32: vector.shuffle {{.*}} : vector<16xi16>, vector<16xi16>
// CHECK-COUNT-32: vector.shuffle {{.*}} : vector<32xi8>, vector<32xi8>
// CHECK: %[[WM:.*]] = vector.create_mask %[[COLS]], %[[ROWS]] : vector<32x32xi1>
// CHECK: vector.transfer_write {{.*}}, %[[WM]] {in_bounds = [true, true]} : vector<32x32xf8E4M3FN>, tensor<?x?xf8E4M3FN>
// CHECK: vector.create_mask %[[COLS]] : vector<32xi1>
// CHECK: vector.scatter {{.*}} : tensor<?xf8E8M0FNU>, vector<32xi32>, vector<32xi1>, vector<32xf8E8M0FNU> -> tensor<?xf8E8M0FNU>
// CHECK: scf.for {{.*}} -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>)
// CHECK: vector.reduction <maxui>, {{.*}} : vector<32xi32> into i32
// CHECK: tensor.insert {{.*}} : tensor<?xf8E8M0FNU>
// CHECK: vector.transfer_write {{.*}} : vector<32xf8E4M3FN>, tensor<?x?xf8E4M3FN>
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @dual_tiled(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>) {
  %a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>, tensor<?x?xf8E4M3FN>, tensor<?xf8E8M0FNU>
}

// bf16 results are rounded with integer IR, not arith.truncf.
// CHECK-LABEL: func @dequantize_bf16
// CHECK: vector.transfer_read {{.*}} : tensor<?x?xf8E5M2>, vector<32xf8E5M2>
// CHECK: arith.trunci {{.*}} : vector<32xi32> to vector<32xi16>
// CHECK: arith.bitcast {{.*}} : vector<32xi16> to vector<32xbf16>
// CHECK: vector.transfer_write {{.*}} : vector<32xbf16>, tensor<?x?xbf16>
func.func @dequantize_bf16(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %y = mxq.dequantize %q, %s axis = 1 : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

// CHECK-LABEL: func @fake_quant
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK: arith.cmpf olt
// CHECK: linalg.yield
func.func @fake_quant(%x: tensor<?x?xf32>, %s: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<?x?xf32> {
  %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0 quant_max = 448.0 : tensor<?x?xf32>, tensor<1xf32>, tensor<1xf32>
  return %y : tensor<?x?xf32>
}

// LLVM-LABEL: llvm.func @quantize_e4m3
// LLVM-NOT: mxq.
// LLVM-NOT: arith.
// LLVM: llvm.intr.vector.reduce.umax

// Paired scales in four-block groups: no fill of the scales; the last group
// of a line writes its live blocks' scales and, when their number is odd,
// the pad byte after them (the second of the line's last pair): its loop
// runs to the even number above and stores the pad past the live blocks.
// CHECK-LABEL: func @grouped_pairs_pad
// CHECK-NOT: linalg.fill
// CHECK: } else {
// CHECK: %[[HALF:.*]] = arith.ceildivui %{{.*}}, %c2
// CHECK: %[[STORED:.*]] = arith.muli %[[HALF]], %c2
// CHECK: scf.for %[[G:.*]] = %c0{{.*}} to %[[STORED]]
// CHECK: %[[LIVE:.*]] = arith.cmpi ult, %[[G]]
// CHECK: %[[BYTE:.*]] = arith.select %[[LIVE]], %{{.*}}, %[[PAD:.*]] : f8E8M0FNU
// CHECK: tensor.insert %[[BYTE]] into {{.*}} : tensor<?x?x2xf8E8M0FNU>
func.func @grouped_pairs_pad(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil inf = saturate layout = pairs : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?x2xf8E8M0FNU>
}

// bf16 into FP4 along the last axis: a group is read as 64 lanes of 32 bits,
// each block as its even elements (the lanes shifted up by 16) then its odd
// ones (the lanes' high halves), which the numerics take as the 4 x 32 tile;
// the codes pack as even | odd << 4 (no shuffle of lanes), a bitcast of the
// 64 bytes is written whole, and the last group writes its live codes one by
// one from the same bytes.
// CHECK-LABEL: func @grouped_bf16_fp4_pairs_of_lanes
// CHECK: vector.bitcast %{{.*}} : vector<128xi16> to vector<64xi32>
// CHECK: %[[EVEN:.*]] = arith.shli %{{.*}} : vector<4x16xi32>
// CHECK: %[[ODD:.*]] = arith.andi %{{.*}} : vector<4x16xi32>
// CHECK: vector.insert_strided_slice %[[EVEN]], %{{.*}} {offsets = [0, 0]
// CHECK: vector.insert_strided_slice %[[ODD]], %{{.*}} {offsets = [0, 16]
// CHECK: scf.yield %{{.*}} : vector<4x32xf32>
// CHECK: %[[LO:.*]] = vector.shuffle %[[HALVES:.*]], %[[HALVES]] [0, 2, 4, 6] : vector<8x16xi32>
// CHECK: %[[HI:.*]] = vector.shuffle %[[HALVES]], %[[HALVES]] [1, 3, 5, 7] : vector<8x16xi32>
// CHECK: %[[SHIFTED:.*]] = arith.shli %[[HI]]
// CHECK: arith.ori %[[LO]], %[[SHIFTED]] : vector<4x16xi32>
// CHECK: %[[BYTES:.*]] = arith.trunci %{{.*}} : vector<64xi32> to vector<64xi8>
// CHECK: %[[NIBBLES:.*]] = vector.bitcast %[[BYTES]] : vector<64xi8> to vector<128xi4>
// CHECK: %[[CODES:.*]] = arith.bitcast %[[NIBBLES]] : vector<128xi4> to vector<128xf4E2M1FN>
// CHECK: vector.transfer_write %[[CODES]], {{.*}} {in_bounds = [true]} : vector<128xf4E2M1FN>, tensor<?x?xf4E2M1FN>
// CHECK: } else {
// CHECK: scf.for
// CHECK: vector.extract %[[BYTES]][%{{.*}}] : i8 from vector<64xi8>
// CHECK: tensor.insert %{{.*}} : tensor<?x?xf4E2M1FN>
func.func @grouped_bf16_fp4_pairs_of_lanes(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}
