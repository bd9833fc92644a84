"""torchao's MX and NVFP4 quantization (``torchao.prototype.mx_formats``)
under its own names and return orders, torchao's bytes exactly
(docs/Rationale.md, "NVFP4")."""

import numpy as np

from . import _ops

__all__ = ["nvfp4_quantize", "to_mx"]

# torchao's element dtypes (torch dtypes or their names) and mxq's codes.
_ELEM = {"float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2",
         "float6_e2m3fn": "f6E2M3FN", "float6_e3m2fn": "f6E3M2FN",
         "float4_e2m1fn_x2": "f4E2M1FN"}
# ScaleCalculationMode's members and the E8M0 rule of the same bytes.
_MODES = {"floor": "floor", "rceil": "rceil", "ceil": "ceil", "even": "even"}


def _source(data_hp, input_dtype, fn):
    """``data_hp`` as ``_ops.as_source`` reads it, bf16 or f32 only (as
    torchao's ``fn`` asserts)."""
    a, dtype = _ops.as_source(data_hp, input_dtype, "data_hp")
    if dtype == "f16":
        raise ValueError(f"data_hp: torchao's {fn} takes bfloat16 or "
                         "float32, not float16")
    return a, dtype


def to_mx(data_hp, elem_dtype, block_size=32, scaling_mode="floor", *,
          input_dtype=None, target="cpu"):
    """torchao ``to_mx`` (``mx_tensor.py``): returns ``(scale_e8m0,
    data_lp)``, E8M0 bytes ``[..., K/block_size]`` and codes (FP8 and FP6 a
    byte each, ``[..., K]``; FP4 two a byte, ``[..., K/2]``).

    ``scaling_mode`` is a ``ScaleCalculationMode`` (or its name): ``floor``,
    ``rceil``, ``ceil``, ``even``; each is the mxq rule of that name with
    torchao's other choices (``inf = nan``: an infinite amax gives 0xFF as
    torchao's ``torch.where(isfinite(max_abs), ...)``; elements multiplied
    by 2^(127 - s) in fp32, nearest even, saturating). torchao's
    ``rceil`` multiplies the amax by ``fl32(1 / max)`` as mxq's does, and its
    floor and ceil clamps ([-127, 128] unbiased) never bind where mxq's
    (byte 254) does. Where torchao leaves a byte undefined, mxq's word
    stands: the FP6 and FP4 codes of a NaN block (torchao's conversion has
    no NaN) are the format's largest code. A last dimension that is not a
    multiple of ``block_size`` (torchao asserts) ends in a partial block."""
    name = str(getattr(elem_dtype, "name", elem_dtype))
    name = name.split(".")[-1]
    if name not in _ELEM:
        raise ValueError(f"elem_dtype: {elem_dtype!r} is not one of "
                         f"{', '.join(_ELEM)}")
    mode = str(getattr(scaling_mode, "name", scaling_mode)).split(".")[-1]
    mode = mode.lower()
    if mode not in _MODES:
        raise ValueError(f"scaling_mode: {scaling_mode!r} is not one of "
                         f"{', '.join(m.upper() for m in _MODES)}")
    a, dtype = _source(data_hp, input_dtype, "to_mx")
    codes, scales = _ops.quantize(a, axis=-1, elem=_ELEM[name],
                                  scale=_MODES[mode], inf="nan",
                                  block=block_size, input_dtype=dtype,
                                  target=target)
    return scales, codes


def nvfp4_quantize(data_hp, block_size=16, per_tensor_scale=None, *,
                   input_dtype=None, target="cpu"):
    """torchao ``nvfp4_quantize``: returns ``(block_scales, data_lp)``.

    ``block_scales`` are E4M3 bytes (``uint8``) of shape ``[..., K/16]``,
    ``data_lp`` two E2M1 codes a byte (element 2i in the low nibble) of shape
    ``[..., K/2]``. ``per_tensor_scale`` is torchao's decode-convention f32
    scalar (``amax / (448 * 6)``); without it the scaling is single-level.
    ``data_hp`` is float32 or bf16 (a torch bf16 tensor, or uint16 bit
    patterns with ``input_dtype="bf16"``), as torchao takes. A last
    dimension that is not a multiple of 16 (which torchao refuses) ends in a
    partial block, as in every mxq op. The element codes of a block holding a
    NaN, which torchao's conversion leaves undefined (it supports no NaN), are
    E2M1's largest code (``nan_element = max``); its scale is 0x7F as in
    torchao."""
    if block_size != 16:
        raise ValueError(f"block_size: NVFP4 blocks are 16 elements, got "
                         f"{block_size!r} (as torchao asserts)")
    a, dtype = _source(data_hp, input_dtype, "nvfp4_quantize")
    outer = None
    if per_tensor_scale is not None:
        outer = np.float32(np.asarray(
            per_tensor_scale.detach().cpu().float().numpy()
            if _ops._is_torch(per_tensor_scale) else per_tensor_scale,
            dtype=np.float32).reshape(()))
    codes, scales = _ops.quantize(a, axis=-1, elem="f4E2M1FN", scale="decode",
                                  block=16, outer=outer, input_dtype=dtype,
                                  target=target)
    return scales, codes
