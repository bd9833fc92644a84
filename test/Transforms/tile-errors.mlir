// RUN: not mxq-opt %s --mxq-tile="tile-sizes=4,-1" 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not mxq-opt %s --mxq-tile="loop=while" 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not mxq-run %s --entry q --tile-sizes=-2 --output-dir %t 2>&1 | FileCheck %s --check-prefix=TOOLERR

// NEG: error: 'mxq.quantize' op cannot be tiled with a negative tile size (-1 for dimension 1); sizes are iteration-domain units, 0 for untiled
// LOOP: error: mxq-tile: option 'loop' must be 'forall' or 'for', but it is 'while'
// TOOLERR: mxq-run: error: --tile-sizes: a tile size cannot be negative, but one is -2
func.func @q(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
