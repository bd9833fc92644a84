"""TransformerEngine's NVFP4 quantization (``NVFP4BlockScaling``,
``transformer_engine/common/cast/nvfp4``) and its block-wise FP8
(``Float8BlockScaling``, ``compute_scale_from_amax``) under their own names
and return orders, TE's bytes exactly (docs/Rationale.md, "NVFP4" and
"Blockwise FP8")."""

import numpy as np

from . import _ops

__all__ = ["quantize_nvfp4", "dequantize_nvfp4", "quantize_fp8_block"]


def _f32_values(a, dtype):
    if dtype == "bf16":
        return (a.astype(np.uint32) << 16).view(np.float32)
    return a.astype(np.float32)


def quantize_nvfp4(x, amax=None, columnwise=False, row_scaled=False, *,
                   input_dtype=None, target="cpu"):
    """TE's NVFP4 quantization of ``x`` (``[M, K]``): returns ``(codes,
    block_scales, amax)``.

    ``codes`` hold two E2M1 codes a byte (element 2i in the low nibble),
    ``block_scales`` are E4M3 bytes (``uint8``), linear, one per 16
    elements; with ``columnwise=True`` both are those of the transpose
    (``[K, M]``), as TE's column-wise data. ``amax`` is the f32 value TE
    stores (the largest ``|x|``, NaN ignored): computed unless given, a
    scalar, or with ``row_scaled`` one per row (``[M]``)."""
    a, dtype = _ops.as_source(x, input_dtype, "x")
    if a.ndim != 2:
        raise ValueError(f"x: TE quantizes a 2-d tensor [M, K], got rank "
                         f"{a.ndim}")
    if row_scaled and columnwise:
        raise ValueError("row_scaled: TE's row-scaled NVFP4 is row-wise only "
                         "(columnwise=False)")
    if columnwise:
        a = np.ascontiguousarray(a.T)
    if amax is None:
        v = np.abs(_f32_values(a, dtype))
        v = np.where(np.isnan(v), np.float32(0), v)
        if row_scaled:
            amax = v.max(axis=1, initial=np.float32(0)).astype(np.float32)
        else:
            amax = np.float32(v.max(initial=np.float32(0)))
    else:
        if _ops._is_torch(amax):
            amax = amax.detach().cpu().float().numpy()
        amax = np.asarray(amax, dtype=np.float32)
        want = (a.shape[0],) if row_scaled else ()
        if amax.shape != want and not (not row_scaled and amax.size == 1):
            raise ValueError(f"amax: expected shape {want}, got "
                             f"{amax.shape}")
        if not row_scaled:
            amax = np.float32(amax.reshape(()))
    codes, scales = _ops.quantize(a, axis=-1, elem="f4E2M1FN", scale="encode",
                                  block=16, outer=amax, input_dtype=dtype,
                                  target=target)
    return codes, scales, amax


def dequantize_nvfp4(codes, block_scales, amax, shape, out_dtype="f32", *,
                     target="cpu"):
    """TE's NVFP4 dequantization (``dequantize_nvfp4.cuh``): each element
    ``code * fl32(fl32(scale * amax) * fl32(1/2688))``, rounded to
    ``out_dtype`` ("f32", "f16", "bf16" as uint16 bit patterns). ``codes``
    and ``block_scales`` are ``quantize_nvfp4``'s, ``amax`` its third result
    (a scalar, or one per row), ``shape`` the logical ``[M, K]``."""
    if _ops._is_torch(amax):
        amax = amax.detach().cpu().float().numpy()
    return _ops.dequantize(codes, block_scales, shape=shape, elem="f4E2M1FN",
                           axis=-1, block=16, out_dtype=out_dtype,
                           scale="encode", outer=np.asarray(amax, np.float32),
                           target=target)


def quantize_fp8_block(x, block=(1, 128), pow2=True, eps=0.0,
                       columnwise=False, *, elem="f8E4M3FN", input_dtype=None,
                       target="cpu"):
    """TE's ``Float8BlockScaling`` quantization of ``x`` (``[M, K]``) in
    1 x 128 blocks: returns ``(codes, scale_inv)``, FP8 codes (``uint8``)
    and the fp32 ``scale_inv`` (``[M, ceil(K/128)]``, TE's compact form).
    The encode scale is ``448 / max(amax, eps)`` (NaN ignored in the amax;
    1 for a zero or infinite amax; the input type's largest value where
    the quotient is infinite), with ``pow2`` its mantissa cleared; codes of
    ``x * scale``, saturating. ``columnwise=True`` gives TE's column-wise
    data, the quantization of the transpose (``[K, M]``). ``elem`` is
    "f8E4M3FN" or "f8E5M2"."""
    block = tuple(_ops._int("block", b) for b in block)
    if block != (1, 128):
        raise ValueError(f"block: {block} is not supported yet; mxq states "
                         "TE's 1 x 128 blocks (128 x 128 needs 2-d blocks)")
    if elem not in ("f8E4M3FN", "f8E5M2"):
        raise ValueError(f"elem: {elem!r} is not supported; allowed: "
                         "f8E4M3FN, f8E5M2")
    a, dtype = _ops.as_source(x, input_dtype, "x")
    if a.ndim != 2:
        raise ValueError(f"x: TE quantizes a 2-d tensor [M, K], got rank "
                         f"{a.ndim}")
    if columnwise:
        a = np.ascontiguousarray(a.T)
    eps = float(eps)
    return _ops.quantize(a, axis=-1, elem=elem, scale="encode", block=128,
                         scale_dtype="f32",
                         amax_floor=eps if eps > 0 else None, pow2=bool(pow2),
                         input_dtype=dtype, target=target)
