//===- MXQOps.td - mxq operations --------------------------*- tablegen -*-===//
//
// Every op states its constraints as (C1), (C2), ... in its description; the
// verifier's messages and test/Dialect/MXQ/invalid.mlir use the same ids.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_OPS_TD
#define MXQ_OPS_TD

include "mxq/Dialect/MXQ/MXQDialect.td"
include "mxq/Dialect/MXQ/MXQEnums.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/TilingInterface.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def MXQ_SourceFloat : AnyTypeOf<[F16, BF16, F32]>;
def MXQ_SourceTensor : RankedTensorOf<[F16, BF16, F32]>;
def MXQ_B16Tensor : RankedTensorOf<[F16, BF16]>;
def MXQ_ElementFloat : AnyTypeOf<[F8E4M3FN, F8E5M2, F6E2M3FN, F6E3M2FN, F4E2M1FN]>;
def MXQ_CodeTensor : RankedTensorOf<[F8E4M3FN, F8E5M2, F6E2M3FN, F6E3M2FN,
                                     F4E2M1FN]>;
def MXQ_FP4Tensor : RankedTensorOf<[F4E2M1FN]>;
def MXQ_ScaleTensor : RankedTensorOf<[F8E8M0FNU]>;
// The block scales of quantize: E8M0 (MX) or E4M3 (NVFP4).
def MXQ_BlockScaleTensor : RankedTensorOf<[F8E8M0FNU, F8E4M3FN]>;
// The scales quantize makes and dequantize takes: E8M0 bytes (MX), E4M3
// bytes (NVFP4) or fp32 values (blockwise FP8).
def MXQ_QuantScaleTensor : RankedTensorOf<[F8E8M0FNU, F8E4M3FN, F32]>;
def MXQ_F32Tensor : RankedTensorOf<[F32]>;
def MXQ_F32Vector : 1DTensorOf<[F32]>;

class MXQ_Op<string mnemonic, list<Trait> traits = []>
    : Op<MXQ_Dialect, mnemonic, traits # [
        Pure,
        DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                                  ["reifyResultShapes"]>,
        DeclareOpInterfaceMethods<TilingInterface,
            ["getLoopIteratorTypes", "getIterationDomain",
             "getTiledImplementation", "getResultTilePosition"]>]>;

//===----------------------------------------------------------------------===//
// quantize
//===----------------------------------------------------------------------===//

def MXQ_QuantizeOp : MXQ_Op<"quantize"> {
  let summary = "MX block quantization along one axis";
  let description = [{
    Splits `input` into blocks of `block_size` consecutive elements along
    `axis`, gives every block one E8M0 scale byte `s` and every element the
    code `encode(fl32(x * 2^(127 - s)))` of the element format named by the
    element type of `codes`.

    * `scale_algorithm`: `floor` (OCP MX, PyPTO `ROUND_DOWN`, CANN scaleAlg 0),
      `rceil` (PyTorch `MXFP_E8M0_RU`, PyPTO `ROUND_UP`, cuBLAS), `ceil`, `even`
      (torchao). `rceil` computes `d = fl32(amax * fl32(1/max))` (the fp32
      multiply of every kernel) and rounds `d` up to a power of two.
    * `inf_policy` (default `nan`): the scale of a block holding an infinity
      and no NaN: `nan` gives 0xFF (PyTorch, CANN, OCP reference), `saturate`
      gives 0xFE (PyPTO NV, TransformerEngine), `exponent` lets the infinity
      follow the `floor` exponent path (PyPTO OCP: 247 for E4M3, 253 for E2M1).
      A block holding a NaN always gets 0xFF; its codes are NaN.
    * `rounding` (default `rne`): element rounding, with saturation to the
      largest finite value in every mode. `away` and `floor` (CANN `round`,
      `floor`) exist for `f4E2M1FN` only.
    * `nan_element` (default `max`): the code a NaN element gets (the
      elements of a block whose scale is NaN): `max` is the format's NaN code
      (FP8) or its largest code (FP6, FP4: the Ascend encoders), `zero` is
      +0 (0x00) in every format (CANN: its saturating casts turn NaN into 0).
    * `underflow` (default `keep`, `floor` only): the multiplier of a block
      whose scale byte is 0 because its amax exponent field `E` is at most
      `emax`: `keep` multiplies by 2^127 (OCP, PyPTO, CANN golden),
      `flush_e0` by 0 when `E == 0` (amax below 2^-126: CANN DualLevel level
      1, DynamicMxQuantWithDualAxis), `flush_le_emax` by 0 whenever `E <=
      emax` (CANN DynamicMxQuant). Flushed elements become +-0.
    * `product` (default `f32`): the scaled element `x * 2^(127 - s)` is
      an fp32 product (`f32`), or that product rounded to bf16 (nearest even)
      before its code is taken (`bf16`: CANN DynamicMxQuant's FP4 path on
      bf16 input multiplies in bf16; it changes a code only for products
      below 2^-126, e.g. -0 rather than -0.5 under `rounding = floor`).
    * `scale_layout`: `linear` (the grid with `axis` divided into blocks),
      `swizzle_32_4_4` (cuBLAS 1D block-scaling layout over the last two axes,
      rows padded to 128 and scale columns to 4, padding bytes 0x00, shape
      `[batch..., 512 * ceil(R/128) * ceil(C/4)]`), `pairs` (Ascend: `axis`
      becomes `ceil(nblocks/2)` and a trailing axis of 2 holds blocks `2g` and
      `2g+1`; an odd last block is paired with the byte 0x00).

    **NVFP4** (`scales` of `f8E4M3FN`, blocks of 16, `f4E2M1FN` codes): each
    block gets an E4M3 scale under an fp32 outer value, given as the operand
    `outer` (a rank-0 tensor for the whole tensor, or one value per line:
    the shape of `input` without `axis`), in one of two conventions, each
    its library's sequence of fp32 operations (nearest even at every step;
    `e4m3` saturates to 448, NaN to 0x7F; codes are E2M1 nearest even,
    saturating, NaN per `nan_element`):
    * `scale = encode` (TransformerEngine `NVFP4BlockScaling`): `outer` is
      the amax `A` TE stores; without it, `A` is the largest `|x|` of the
      whole tensor (NaN ignored). `S_enc = fminf(2688 / A, FLT_MAX)`, 1
      where `A = 0` or `S_enc = 0`; a block of amax `a` (NaN ignored, as
      `fmaxf`) gets `e4m3(fminf(a * fl32(S_enc * fl32(1/6)), FLT_MAX))`;
      its elements are multiplied by `fminf(1 / (scale * fl32(1 / S_enc)),
      FLT_MAX)`.
    * `scale = decode` (torchao `nvfp4_quantize`): `outer` is the decode
      scale `P` (torchao's `per_tensor_scale`, `amax / 2688`); without it,
      `P = 1` (torchao's single-level scaling gives the same bytes). A block
      of amax `a` (NaN propagated, as `torch.amax`) gets `e4m3(clamp(fl32(a
      / 6) / P, 2^-6, 448))`; its elements are divided by `fl32(P *
      scale)`.

    **Blockwise FP8** (`scales` of `f32`, FP8 codes, any block size, 128 in
    the libraries): each block stores its scale as an fp32 value, in one of
    two conventions (fp32 arithmetic, nearest even at every step; the codes
    nearest even, saturating, NaN to the NaN code). `a` is the block's amax
    raised to `amax_floor` where below it (0 when absent; NaN stays NaN);
    `M` the largest value of the code format.
    * `scale = decode` (DeepSeek `act_quant`, DeepGEMM
      `per_token_cast_to_fp8`): the stored scale `s = a / M` (the amax
      propagates NaN, as `torch.amax`); with `pow2`, `s` rounded up to a
      power of two on its bits (exponent field plus one where the mantissa
      is not zero, clamped to [1, 254]: DeepGEMM's `ceil_to_ue8m0`); codes of
      `x / s`. `division = exact` (default) divides both times (DeepSeek);
      `reciprocal` multiplies by `fl32(1/M)` and by `fl32(1/s)` (DeepGEMM).
    * `scale = encode` (TransformerEngine `Float8BlockScaling`,
      `compute_scale_from_amax`): the amax ignores NaN (`fmaxf`); the encode
      scale `e = M / a`, 1 where `a` is 0 or infinite, the input type's
      largest value where the quotient is infinite; with `pow2`, `e` with
      its mantissa bits cleared; codes of `x * e`; the stored scale is
      `fl32(1 / e)` (TE's `scale_inv`).

    A dimension that is not a multiple of `block_size` ends in a partial block
    whose scale is computed from the elements that exist (the same as padding
    with zeros).

    Constraints:
    (C1) `0 <= axis < rank(input)`.
    (C2) `block_size` is 16 or a positive multiple of 32, at most 1024.
    (C3) `codes` has the shape of `input`.
    (C4) `scales` has the shape that `scale_layout` gives for `input`.
    (C5) `swizzle_32_4_4` needs rank >= 2 and `axis` one of the last two axes.
    (C6) `inf_policy = exponent` needs `scale_algorithm = floor`.
    (C7) `rounding` other than `rne` needs `f4E2M1FN` codes.
    (C8) `underflow` other than `keep` needs `scale_algorithm = floor`.
    (C9) `f8E4M3FN` scales go with `scale_algorithm` `encode` or `decode`
         and back: those need `f4E2M1FN` codes, `block = 16`, and the
         default `inf_policy`, `rounding`, `underflow` and `product` (the
         conventions state each of those steps themselves).
    (C10) `outer` is given only with `encode` or `decode` and E4M3 scales;
         it is a rank-0 `f32` tensor or has the shape of `input` without
         `axis`.
    (C11) `f32` scales go with `scale_algorithm` `encode` or `decode`, FP8
         codes, the `linear` layout and the default `inf_policy`,
         `rounding`, `underflow` and `product`; `amax_floor`, `pow2` and
         `division` are given only with `f32` scales, `division =
         reciprocal` only with `decode`, `amax_floor` finite and >= 0.

    Example (PyTorch `quantize_tensor`, `MXFP_E8M0_RU`):

    ```mlir
    %q, %s = mxq.quantize %x axis = 1 scale = rceil layout = linear
        : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
    ```

    DeepGEMM's `per_token_cast_to_fp8(x, use_ue8m0=True)`:

    ```mlir
    %q, %s = mxq.quantize %x axis = 1 block = 128 scale = decode
        amax_floor = 1.0e-04 pow2 division = reciprocal
        : tensor<?x?xbf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
    ```

    NVFP4 as TransformerEngine computes it, with the stored amax:

    ```mlir
    %q, %s = mxq.quantize %x outer(%amax : tensor<f32>) axis = 1 block = 16
        scale = encode
        : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>
    ```
  }];
  let arguments = (ins
    MXQ_SourceTensor:$input,
    Optional<MXQ_F32Tensor>:$outer,
    I64Attr:$axis,
    DefaultValuedAttr<I64Attr, "32">:$block_size,
    MXQ_ScaleAlgorithmAttr:$scale_algorithm,
    DefaultValuedAttr<MXQ_InfPolicyAttr, "InfPolicy::nan">:$inf_policy,
    DefaultValuedAttr<MXQ_RoundingAttr, "Rounding::rne">:$rounding,
    DefaultValuedAttr<MXQ_NanElementAttr, "NanElement::max">:$nan_element,
    DefaultValuedAttr<MXQ_ScaleLayoutAttr, "ScaleLayout::linear">:$scale_layout,
    DefaultValuedAttr<MXQ_UnderflowAttr, "Underflow::keep">:$underflow,
    DefaultValuedAttr<MXQ_ProductAttr, "Product::f32">:$product,
    OptionalAttr<F32Attr>:$amax_floor,
    UnitAttr:$pow2,
    DefaultValuedAttr<MXQ_DivisionAttr, "Division::exact">:$division
  );
  let results = (outs MXQ_CodeTensor:$codes, MXQ_QuantScaleTensor:$scales);
  let assemblyFormat = [{
    $input (`outer` `(` $outer^ `:` type($outer) `)`)?
    `axis` `=` $axis (`block` `=` $block_size^)?
    `scale` `=` `` $scale_algorithm (`inf` `=` `` $inf_policy^)?
    (`rounding` `=` `` $rounding^)? (`nan_element` `=` `` $nan_element^)?
    (`underflow` `=` `` $underflow^)? (`product` `=` `` $product^)?
    (`amax_floor` `=` $amax_floor^)? (`pow2` $pow2^)?
    (`division` `=` `` $division^)?
    (`layout` `=` `` $scale_layout^)?
    custom<QuantizeWords>(ref($input)) attr-dict `:` type($input) `->` type($codes) `,` type($scales)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// dequantize
//===----------------------------------------------------------------------===//

def MXQ_DequantizeOp : MXQ_Op<"dequantize"> {
  let summary = "the value of MX codes and scales";
  let description = [{
    The inverse of `mxq.quantize`: every element becomes
    `decode(code) * 2^(s - 127)` computed in fp32 (NaN where `s = 0xFF` or the
    code is NaN), rounded to nearest even to the result type. With `cast =
    saturate` (CANN AntiMxQuant's SAT casts) a value beyond the result
    type's range, infinities included, becomes its largest finite value of
    that sign, and NaN becomes +0; `ieee` (the default) keeps IEEE overflow
    and NaN.

    **Blockwise FP8** (`f32` scales, the value quantize stored): each
    element is `fl32(decode(code) * s)` (DeepSeek `weight_dequant`, DeepGEMM
    `cast_back`, TransformerEngine's `scale_inv` product).

    **NVFP4** (`f8E4M3FN` scales, named by the convention that made them,
    `scale = encode | decode`): each element is the fp32 value of its code
    times its block's scale value under the line's outer value, in the
    library's order: `encode` (TransformerEngine `dequantize_nvfp4.cuh`,
    `outer` the stored amax `A`, required) `code * fl32(fl32(scale * A) *
    fl32(1/2688))`; `decode` (torchao `NVFP4Tensor.to_dtype`, `outer` the
    decode scale `P`, 1 without it) `code * fl32(P * scale)`.

    Constraints:
    (C1) `0 <= axis < rank(codes)`.
    (C2) `block_size` is 16 or a positive multiple of 32, at most 1024.
    (C3) `result` has the shape of `codes`.
    (C4) `scales` has the shape that `scale_layout` gives for `codes`.
    (C5) `swizzle_32_4_4` needs rank >= 2 and `axis` one of the last two axes.
    (C6) `f8E4M3FN` scales go with `scale` `encode` or `decode`, `f4E2M1FN`
         codes and `block = 16`; `f8E8M0FNU` and `f32` scales take no `scale`
         word.
    (C7) `outer` is given only with `encode` or `decode`, always with
         `encode`; it is a rank-0 `f32` tensor or has the shape of `codes`
         without `axis`.
    (C8) `f32` scales go with FP8 codes and the `linear` layout.

    ```mlir
    %y = mxq.dequantize %q, %s axis = 1
        : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU> -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins
    MXQ_CodeTensor:$codes,
    MXQ_QuantScaleTensor:$scales,
    Optional<MXQ_F32Tensor>:$outer,
    I64Attr:$axis,
    DefaultValuedAttr<I64Attr, "32">:$block_size,
    OptionalAttr<MXQ_ScaleAlgorithmAttr>:$scale_algorithm,
    DefaultValuedAttr<MXQ_ScaleLayoutAttr, "ScaleLayout::linear">:$scale_layout,
    DefaultValuedAttr<MXQ_ResultCastAttr, "ResultCast::ieee">:$cast
  );
  let results = (outs MXQ_SourceTensor:$result);
  let assemblyFormat = [{
    $codes `,` $scales (`outer` `(` $outer^ `:` type($outer) `)`)?
    `axis` `=` $axis (`block` `=` $block_size^)?
    (`scale` `=` `` $scale_algorithm^)?
    (`layout` `=` `` $scale_layout^)? (`cast` `=` `` $cast^)?
    custom<DequantizeWords>(ref($codes)) attr-dict `:` type($codes) `,` type($scales) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// convert_scale_layout
//===----------------------------------------------------------------------===//

def MXQ_ConvertScaleLayoutOp : Op<MXQ_Dialect, "convert_scale_layout", [
    Pure, DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                                    ["reifyResultShapes"]>]> {
  let summary = "move the block scales of codes from one layout to another";
  let description = [{
    Re-lays out the block scales (E8M0 or E4M3 bytes) of `codes` (quantized along `axis` in blocks
    of `block_size`): every block's byte moves from its place in layout
    `from` to its place in layout `to`; padding bytes of `to` are 0x00. Only
    the shape of `codes` is read. Users re-swizzle scales produced elsewhere
    with it, and `mxq-materialize-scale-layout` splits a quantize with a
    non-linear layout into a linear quantize and this op.

    Constraints:
    (C1) `0 <= axis < rank(codes)`.
    (C2) `block_size` is a positive multiple of 32, at most 1024.
    (C3) `scales` has the shape that `from` gives for `codes`.
    (C4) `result` has the shape that `to` gives for `codes`.
    (C5) `swizzle_32_4_4` needs rank >= 2 and `axis` one of the last two axes.
    (C6) `result` holds the element type of `scales`.

    ```mlir
    %sw = mxq.convert_scale_layout %s, %q axis = 1 from = linear to = swizzle_32_4_4
        : tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E4M3FN> -> tensor<?xf8E8M0FNU>
    ```
  }];
  let arguments = (ins
    MXQ_BlockScaleTensor:$scales,
    MXQ_CodeTensor:$codes,
    I64Attr:$axis,
    DefaultValuedAttr<I64Attr, "32">:$block_size,
    MXQ_ScaleLayoutAttr:$from,
    MXQ_ScaleLayoutAttr:$to
  );
  let results = (outs MXQ_BlockScaleTensor:$result);
  let assemblyFormat = [{
    $scales `,` $codes `axis` `=` $axis (`block` `=` $block_size^)?
    `from` `=` `` $from `to` `=` `` $to
    custom<ConvertScaleLayoutWords>(ref($scales)) attr-dict `:` type($scales) `,` type($codes) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// dual_quantize
//===----------------------------------------------------------------------===//

def MXQ_DualQuantizeOp : MXQ_Op<"dual_quantize"> {
  let summary = "row-wise and column-wise MX quantization from one read";
  let description = [{
    PyTorch `quantize_tensor_dual(x, dim=(-2,-1))`. For an input `[B..., M, K]`
    (rank 2 or 3) the results are exactly

    * `codes0, scales0 = quantize(x, axis = -1, swizzle_32_4_4)`: codes
      `[B..., M, K]`;
    * `codes1, scales1 = quantize(transpose(x), axis = -1, swizzle_32_4_4)`:
      codes stored `[B..., K, M]` (the column-wise codes, transposed);

    both with blocks of 32 and scales of `512 * ceil(M/128) * ceil(K/128)`
    bytes per batch. The attributes mean what they mean on `mxq.quantize`.

    Constraints:
    (C1) `input` has rank 2 or 3.
    (C2) `codes0` is `[B..., M, K]`, `codes1` is `[B..., K, M]`, both of one
         element type.
    (C3) `scales0` and `scales1` are `[B..., L]`, `L = 512*ceil(M/128)*ceil(K/128)`.
    (C4) - (C7): (C6) - (C8) of `mxq.quantize`, and `underflow` as there.
    (C8) `scale_algorithm` is one of the E8M0 rules (not `encode`, `decode`).

    ```mlir
    %q0, %s0, %q1, %s1 = mxq.dual_quantize %x scale = rceil
        : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<4096xf8E8M0FNU>,
                                  tensor<512x256xf8E4M3FN>, tensor<4096xf8E8M0FNU>
    ```
  }];
  let arguments = (ins
    MXQ_SourceTensor:$input,
    MXQ_ScaleAlgorithmAttr:$scale_algorithm,
    DefaultValuedAttr<MXQ_InfPolicyAttr, "InfPolicy::nan">:$inf_policy,
    DefaultValuedAttr<MXQ_RoundingAttr, "Rounding::rne">:$rounding,
    DefaultValuedAttr<MXQ_NanElementAttr, "NanElement::max">:$nan_element,
    DefaultValuedAttr<MXQ_UnderflowAttr, "Underflow::keep">:$underflow
  );
  let results = (outs MXQ_CodeTensor:$codes0, MXQ_ScaleTensor:$scales0,
                      MXQ_CodeTensor:$codes1, MXQ_ScaleTensor:$scales1);
  let assemblyFormat = [{
    $input `scale` `=` `` $scale_algorithm (`inf` `=` `` $inf_policy^)?
    (`rounding` `=` `` $rounding^)? (`nan_element` `=` `` $nan_element^)?
    (`underflow` `=` `` $underflow^)?
    custom<DualQuantizeWords>(ref($input)) attr-dict `:` type($input) `->` type($codes0) `,` type($scales0) `,`
                  type($codes1) `,` type($scales1)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// two_level_quantize
//===----------------------------------------------------------------------===//

def MXQ_TwoLevelQuantizeOp : MXQ_Op<"two_level_quantize"> {
  let summary = "CANN DynamicDualLevelMxQuant: fp32 scale per 512, E8M0 per 32, FP4";
  let description = [{
    Quantizes the last axis of `input` (f16 or bf16) in two levels, exactly as
    the CANN kernel `DynamicDualLevelMxQuant` does:

    1. with `smooth`: `x = x * smooth` in the input type;
    2. per 512 elements: `l0 = fl32(amax * fl32(1/6))` where the absolute
       maximum ignores Inf and NaN; `l0` below 2^-126 becomes 0;
    3. `t = x` where `x == 0`, else `t = round_to_input_type(fl32(x) / l0)`;
       with `div_denormals = ftz` (the kernel's `Div`) a subnormal dividend
       and a subnormal quotient become +-0 (`ieee`, the default: IEEE
       division, as the golden scripts);
    4. per 32 elements of `t`: the E8M0 byte is the OCP `floor` scale of the
       largest bf16 exponent field `e` (0xFF if any `t` is Inf or NaN, 0 if
       `e <= 2`, else `e - 2`), with multiplier `2^(127 - byte)` (0 when `e`
       is 0, NaN for 0xFF);
    5. `y = e2m1(fl32(t * multiplier))` with `rounding` and saturation to ±6;
       a NaN gets the `nan_element` code.

    Results: `y` (shape of `input`), `level0_scales` `[..., ceil(n/512)]`,
    `level1_scales` `[..., ceil(n/64), 2]` (pairs, odd tail padded with 0x00).

    Constraints:
    (C1) `input` has rank >= 1 and an even last dimension.
    (C2) `smooth`, if present, is 1-D of length `n` with the element type of
         `input`.
    (C3) `y` has the shape of `input`.
    (C4) `level0_scales` is `[..., ceil(n/512)]`.
    (C5) `level1_scales` is `[..., ceil(n/64), 2]`.

    ```mlir
    %y, %l0, %l1 = mxq.two_level_quantize %x rounding = floor
        : tensor<?x?xbf16> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf32>, tensor<?x?x2xf8E8M0FNU>
    ```
  }];
  let arguments = (ins
    MXQ_B16Tensor:$input,
    Optional<MXQ_B16Tensor>:$smooth,
    DefaultValuedAttr<MXQ_RoundingAttr, "Rounding::rne">:$rounding,
    DefaultValuedAttr<MXQ_NanElementAttr, "NanElement::max">:$nan_element,
    DefaultValuedAttr<MXQ_DivDenormalsAttr, "DivDenormals::ieee">:$div_denormals
  );
  let results = (outs MXQ_FP4Tensor:$y, MXQ_F32Tensor:$level0_scales,
                      MXQ_ScaleTensor:$level1_scales);
  let assemblyFormat = [{
    $input (`smooth` $smooth^)? (`rounding` `=` `` $rounding^)?
    (`nan_element` `=` `` $nan_element^)?
    (`div_denormals` `=` `` $div_denormals^)?
    custom<TwoLevelQuantizeWords>(ref($input)) attr-dict `:` type($input) (`,` type($smooth)^)? `->` type($y) `,`
                  type($level0_scales) `,` type($level1_scales)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// fake_quant and its gradient
//===----------------------------------------------------------------------===//

def MXQ_FakeQuantOp : MXQ_Op<"fake_quant",
                             [AllTypesMatch<["input", "result"]>]> {
  let summary = "FP8 quantize-dequantize (OwLite fake_fp8_quantize)";
  let description = [{
    `result = (fp8(clip(x / step + zp, quant_min, quant_max)) - zp) * step`,
    computed in fp32 (true division, RNE onto the `format` grid with
    saturation), rounded to nearest even to the type of `input`.
    `step_size` and `zero_point` are per tensor (`tensor<1xf32>`) or, with
    `axis`, per channel along `axis`. NaN stays NaN; ±Inf clips to
    `quant_min/max * step`. The op has no folder: its purpose is the rounding.

    Constraints:
    (C1) `format` is `f8E4M3FN` or `f8E5M2`.
    (C2) `quant_min < quant_max`, both finite and within the range of `format`.
    (C3) without `axis`, `step_size` and `zero_point` are `tensor<1xf32>`.
    (C4) with `axis`, `0 <= axis < rank(input)` and both have the size of
         that axis.

    ```mlir
    %y = mxq.fake_quant %x, %s, %z format = f8E4M3FN quant_min = -448.0
        quant_max = 448.0 : tensor<?x?xf32>, tensor<1xf32>, tensor<1xf32>
    ```
  }];
  let arguments = (ins
    MXQ_SourceTensor:$input,
    MXQ_F32Vector:$step_size,
    MXQ_F32Vector:$zero_point,
    TypeAttrOf<AnyType>:$format,
    F32Attr:$quant_min,
    F32Attr:$quant_max,
    OptionalAttr<I64Attr>:$axis
  );
  let results = (outs MXQ_SourceTensor:$result);
  let assemblyFormat = [{
    $input `,` $step_size `,` $zero_point `format` `=` $format
    `quant_min` `=` $quant_min `quant_max` `=` $quant_max
    (`axis` `=` $axis^)? custom<FakeQuantWords>(ref($input)) attr-dict
    `:` type($input) `,` type($step_size) `,` type($zero_point)
  }];
  let hasVerifier = 1;
}

def MXQ_FakeQuantGradOp : MXQ_Op<"fake_quant_grad",
    [AllTypesMatch<["grad", "input", "result"]>]> {
  let summary = "straight-through gradient of mxq.fake_quant";
  let description = [{
    `result = grad` where `quant_min * step <= x <= quant_max * step` (bounds
    computed in fp32), else 0: the straight-through estimator OwLite intends.
    OwLite 2.5.0 overwrites its upper bound with its lower bound, which zeroes
    almost every gradient; mxq implements the intended rule (see
    `docs/Rationale.md`). NaN inputs get a zero gradient.

    Constraints: (C1) - (C4) of `mxq.fake_quant`, without `format`.

    ```mlir
    %gx = mxq.fake_quant_grad %g, %x, %s quant_min = -448.0 quant_max = 448.0
        : tensor<?x?xf32>, tensor<1xf32>
    ```
  }];
  let arguments = (ins
    MXQ_SourceTensor:$grad,
    MXQ_SourceTensor:$input,
    MXQ_F32Vector:$step_size,
    F32Attr:$quant_min,
    F32Attr:$quant_max,
    OptionalAttr<I64Attr>:$axis
  );
  let results = (outs MXQ_SourceTensor:$result);
  let assemblyFormat = [{
    $grad `,` $input `,` $step_size
    `quant_min` `=` $quant_min `quant_max` `=` $quant_max
    (`axis` `=` $axis^)? custom<FakeQuantGradWords>(ref($grad)) attr-dict `:` type($input) `,` type($step_size)
  }];
  let hasVerifier = 1;
}

#endif // MXQ_OPS_TD
