// TOSA 1.1's MXFP extension (CAST_TO_BLOCK_SCALED, CAST_FROM_BLOCK_SCALED):
// plain TOSA, no mxq op. Every front end runs --convert-tosa-to-mxq first,
// so these run on every target: mxq-run examples/tosa/mxfp.mlir --entry
// cast_to_f8E4M3FN_f32 --input x.npy --output-dir out. The scale rule is the
// specification's calc_block_scale (docs/Rationale.md, "TOSA ingress").

func.func @cast_to_f8E4M3FN_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @cast_to_f8E4M3FN_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xbf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @cast_from_f8E4M3FN_bf16(%q: tensor<?x?xf8E4M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %0 = tosa.cast_from_block_scaled %q, %s {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

func.func @cast_to_f8E5M2_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xf32>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>
}

func.func @cast_to_f8E5M2_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xbf16>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>
}

func.func @cast_from_f8E5M2_bf16(%q: tensor<?x?xf8E5M2>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %0 = tosa.cast_from_block_scaled %q, %s {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

func.func @cast_to_f6E2M3FN_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xf32>) -> (tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @cast_to_f6E2M3FN_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xbf16>) -> (tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>
}

func.func @cast_from_f6E2M3FN_bf16(%q: tensor<?x?xf6E2M3FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %0 = tosa.cast_from_block_scaled %q, %s {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xf6E2M3FN>, tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

func.func @cast_to_f6E3M2FN_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xf32>) -> (tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>
}

func.func @cast_to_f6E3M2FN_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xbf16>) -> (tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>
}

func.func @cast_from_f6E3M2FN_bf16(%q: tensor<?x?xf6E3M2FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %0 = tosa.cast_from_block_scaled %q, %s {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xf6E3M2FN>, tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

func.func @cast_to_f4E2M1FN_f32(%x: tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xf32>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}

func.func @cast_to_f4E2M1FN_bf16(%x: tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xbf16>) -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}

func.func @cast_from_f4E2M1FN_bf16(%q: tensor<?x?xf4E2M1FN>, %s: tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16> {
  %0 = tosa.cast_from_block_scaled %q, %s {block_size = #tosa.block_size<BLOCK_SIZE_32>} : (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}
