// Kernels the simulator must refuse with a diagnostic rather than crash or
// hang on: a GM buffer larger than the tool holds, a loop that does not end
// (the chip's instruction budget, max-instructions, stops it), a core count
// the chip does not have.
// RUN: not mxq-vtile-run %s --entry big 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not mxq-vtile-run %s --entry overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// RUN: not mxq-vtile-run %s --entry endless --chip=950pr,max-instructions=1000 2>&1 | FileCheck %s --check-prefix=ENDLESS
// RUN: not mxq-vtile-run %s --entry cores 2>&1 | FileCheck %s --check-prefix=CORES
// RUN: not mxq-vtile-run %s --entry cores --chip=950pr,cores=0 2>&1 | FileCheck %s --check-prefix=CHIP
// The budget counts every instruction of every core: the same kernel with a
// loop that ends runs within it.
// RUN: mxq-vtile-run %s --entry ends --chip=950pr,max-instructions=1000 | FileCheck %s --check-prefix=ENDS

// BIG: mxq-vtile-run: error: argument 0 ([1099511627776]) is larger than the 4294967296 bytes of GM mxq-vtile-run holds in all
// OVERFLOW: mxq-vtile-run: error: argument 1 ([4611686018427387904, 8]) is larger than the 4294967296 bytes of GM mxq-vtile-run holds in all
// ENDLESS: mxq-vtile-run: error: core 0: 'vtile.set_flag' (hostile-kernels.mlir:{{[0-9]+}}) would be instruction 1001 of the kernel, past the simulator's budget of 1000 (a loop that does not end? the chip field max-instructions sets the budget)
// CORES: mxq-vtile-run: error: @cores runs on 57 cores, but chip 950pr has 56
// CHIP: mxq-vtile-run: error: chip '950pr,cores=0': cores must be a whole number from 1 to 4096, but it is 0
// ENDS: ascend simulator: chip 950pr, 1 core, 95 instructions

!x = memref<256xf32, #vtile.space<gm>>

func.func @big(%x: memref<1099511627776xi8, #vtile.space<gm>>) attributes {vtile.kernel} {
  return
}

func.func @overflow(%x: !x, %y: memref<4611686018427387904x8xf32, #vtile.space<gm>>) attributes {vtile.kernel} {
  return
}

func.func @endless(%x: !x) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000000000000 : index
  scf.for %i = %c0 to %n step %c1 {
    vtile.set_flag [<mte2>, <v>, %c0]
    vtile.wait_flag [<mte2>, <v>, %c0]
  }
  return
}

func.func @ends(%x: !x) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 30 : index
  scf.for %i = %c0 to %n step %c1 {
    vtile.set_flag [<mte2>, <v>, %c0]
    vtile.wait_flag [<mte2>, <v>, %c0]
  }
  return
}

func.func @cores(%x: !x) attributes {vtile.kernel, vtile.cores = 57 : i64} {
  return
}

// An empty buffer is empty however long its other dimensions are.
// RUN: mxq-vtile-run %s --entry empty | FileCheck %s --check-prefix=EMPTY
// EMPTY: ascend simulator: chip 950pr, 1 core
func.func @empty(%x: memref<0x4611686018427387904xf32, #vtile.space<gm>>) attributes {vtile.kernel} {
  return
}
