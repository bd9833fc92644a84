// SwiGLU followed by MXFP8 quantization: silu(a) * b in a linalg.generic,
// then PyTorch-style MXFP8 quantize. mxq-tile fuses the generic into the
// tiled loop, so silu(a) * b is never written to memory whole.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @swiglu_mxfp8(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%m, %n) : tensor<?x?xf32>
  %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %x : f32
    %e = math.exp %neg : f32
    %den = arith.addf %one, %e : f32
    %silu = arith.divf %x, %den : f32
    %r = arith.mulf %silu, %y : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  %q, %s = mxq.quantize %h axis = 1 scale = rceil : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
