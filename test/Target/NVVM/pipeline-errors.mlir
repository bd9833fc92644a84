// The GPU pipeline's option errors are diagnostics and a failure, before any
// lowering (no module dump, no exit 0).
// RUN: not mxq-opt %s --mxq-gpu-pipeline="format=elf" 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: mxq-gpu-pipeline: format is isa (PTX text), bin, fatbin or emulator, but it is 'elf'
// FORMAT-NOT: builtin.module
// RUN: not mxq-opt %s --mxq-gpu-pipeline="format=bin toolkit=%t/none" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// TOOLKIT: error: mxq-gpu-pipeline: format bin needs the CUDA toolkit, but '{{.*}}/none/bin/ptxas' does not exist
// RUN: not mxq-opt %s --pass-pipeline='builtin.module(func.func(mxq-gpu-pipeline))' 2>&1 | FileCheck %s --check-prefix=NEST
// NEST: error: mxq-gpu-pipeline runs on builtin.module, but it was nested under 'func.func'
func.func @q(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
