// mxq-lsp-server publishes the dialect's verifier error for an open file.
// RUN: %PYTHON %S/Inputs/lsp_client.py %mxq_obj_root/bin/mxq-lsp-server %s | FileCheck %s

// CHECK: initialized: True
// CHECK: 7:12: 'mxq.quantize' op expects block_size to be 16 or a positive multiple of 32 no larger than 1024, but it is 48 (C2)
func.func @bad(%x: tensor<4x96xf32>) -> (tensor<4x96xf8E4M3FN>, tensor<4x2xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 block = 48 scale = floor
      : tensor<4x96xf32> -> tensor<4x96xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return %q, %s : tensor<4x96xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
}
