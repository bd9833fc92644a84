// The CPU pipeline's errors are diagnostics naming it, never an abort.
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(func.func(mxq-cpu-pipeline))' 2>&1 | FileCheck %s --check-prefix=NEST
// NEST: error: mxq-cpu-pipeline runs on builtin.module, but it was nested under 'func.func'
// RUN: not mxq-opt %s --mxq-cpu-pipeline=foo 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: error: mxq-cpu-pipeline: cannot parse the options 'foo'
// RUN: not mxq-opt %s --mxq-cpu-pipeline=tile-sizes= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: mxq-cpu-pipeline: the option 'tile-sizes' is given no value
// RUN: not mxq-opt %s --mxq-cpu-pipeline=tile-sizes=-1 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: mxq-cpu-pipeline: a tile size cannot be negative, but one is -1
// With good options it lowers to the LLVM dialect.
// RUN: mxq-opt %s --mxq-cpu-pipeline=tile-sizes=1 | FileCheck %s --check-prefix=OK
// OK: llvm.func @q
func.func @q(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
