"""Huawei PyPTO ``pypto.quant_mx`` with its names, defaults and tile rules
(mx-semantics.md, section 3): FP8 (DT_FP8E4M3) or FP4 (DT_FP4_E2M1X2, from
fp16/bf16), ROUND_DOWN (OCP floor scale) or ROUND_UP (NVIDIA RCEIL), axis -1
or -2, scales in the pair layout."""

from . import _ops

__all__ = ["quant_mx"]

_QUANT_DTYPES = {"DT_FP8E4M3": "f8E4M3FN", "DT_FP4_E2M1X2": "f4E2M1FN"}
_MODES = {"ROUND_DOWN": ("floor", "exponent"), "ROUND_UP": ("rceil", "saturate")}
_ITEM = {"f32": 4, "f16": 2, "bf16": 2}


_name = _ops.enum_name


def quant_mx(input, quant_dtype="DT_FP8E4M3", mode="ROUND_DOWN", axis=-1,
             performance_mode=True, *, input_dtype=None, target="cpu"):
    """Returns ``(quantized, scale)``: codes of the input's shape (FP4 packed
    two per byte, element 0 in the low nibble) and E8M0 scales
    ``[..., ceil(n/64), 2]`` (axis -1) or ``[..., m/64, n, 2]`` (axis -2)."""
    a, dtype = _ops.as_source(input, input_dtype, "input")
    elem = _QUANT_DTYPES[_name("quant_dtype", quant_dtype,
                               list(_QUANT_DTYPES))]
    scale, inf = _MODES[_name("mode", mode, list(_MODES))]
    if not 1 <= a.ndim <= 4:
        raise ValueError(f"input: rank {a.ndim} is not supported; allowed: "
                         "1 to 4")
    if elem == "f4E2M1FN" and dtype == "f32":
        raise ValueError("input: DT_FP4_E2M1X2 needs fp16 or bf16 input, "
                         "got fp32")
    if isinstance(axis, bool) or axis not in (-1, -2, a.ndim - 1, a.ndim - 2):
        raise ValueError(f"axis: {axis!r} is not supported; allowed: -1, -2")
    axis = axis - a.ndim if axis >= 0 else axis
    if axis == -2 and a.ndim < 2:
        raise ValueError("axis: -2 needs an input of rank >= 2")
    n = a.shape[-1]
    if axis == -1:
        if performance_mode:
            if (n * _ITEM[dtype]) % 256:
                raise ValueError(
                    f"input: in performance mode the last dimension ({n} "
                    f"x {_ITEM[dtype]} bytes) must be 256-byte aligned "
                    f"(a multiple of {256 // _ITEM[dtype]})")
        elif n % 64:
            raise ValueError(f"input: the last dimension ({n}) must be a "
                             "multiple of 64 outside performance mode")
    else:
        m = a.shape[-2]
        if m % 64:
            raise ValueError(f"input: with axis -2 dimension -2 ({m}) must "
                             "be a multiple of 64")
        if elem == "f4E2M1FN" and n % 64:
            raise ValueError(f"input: with axis -2, DT_FP4_E2M1X2 needs the "
                             f"last dimension ({n}) a multiple of 64")
    return _ops.quantize(a, axis=axis, elem=elem, scale=scale, inf=inf,
                         layout="pairs", input_dtype=dtype, target=target)
