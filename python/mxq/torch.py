"""PyTorch's ``torch.nn.functional.quantize_tensor`` and
``quantize_tensor_dual`` (MXFP8, MXFP_E8M0_RU), with their names, argument
names, defaults and restrictions (mx-semantics.md, section 2). Enum arguments
take the enum member or its name ("BlockWise1x32", "SWIZZLE_32_4_4")."""

import numpy as np

from . import _ops

__all__ = ["quantize_tensor", "quantize_tensor_dual"]


_name = _ops.enum_name


def _qdata_dtype(value):
    # torch 1.13 has no float8 dtypes: take the name or str(torch dtype).
    text = str(value).split(".")[-1]
    if text != "float8_e4m3fn":
        raise ValueError(f"qdata_dtype: {value!r} is not supported; allowed: "
                         "float8_e4m3fn")


def _check_common(input, dim, scaling_type, qdata_dtype, scaling_algorithm,
                  square, input_dtype):
    a, dtype = _ops.as_source(input, input_dtype, "input")
    if a.ndim != 2:
        raise ValueError(f"input: a {a.ndim}-D tensor is not supported; "
                         "allowed: 2-D")
    _name("scaling_type", scaling_type, ["BlockWise1x32"])
    _qdata_dtype(qdata_dtype)
    _name("scaling_algorithm", scaling_algorithm, ["MXFP_E8M0_RU"])
    if square:
        raise ValueError("scaling_type_use_square_block_size: True is not "
                         "supported; allowed: False")
    try:
        outer, inner = (int(d) for d in dim)
    except (TypeError, ValueError):
        raise ValueError(f"dim: {dim!r} is not a pair of axes; allowed: "
                         "(0, 1), (1, 0), (-2, -1), (-1, -2)")
    if {outer % 2, inner % 2} != {0, 1} or not all(-2 <= d <= 1
                                                   for d in (outer, inner)):
        raise ValueError(f"dim: {dim!r} is not supported; allowed: (0, 1), "
                         "(1, 0), (-2, -1), (-1, -2)")
    return a, dtype, inner % 2


def quantize_tensor(input, *, dim, scaling_type="BlockWise1x32",
                    qdata_dtype="float8_e4m3fn",
                    scaling_algorithm="MXFP_E8M0_RU",
                    swizzle_type="NO_SWIZZLE",
                    scaling_type_use_square_block_size=False,
                    input_dtype=None, target="cpu"):
    """Returns ``(qdata, scale)``. ``dim=(0, 1)``: 1x32 blocks along K,
    qdata (M, K), scale (M, ceil(K/32)) or, swizzled, (1, L). ``dim=(1, 0)``:
    32x1 blocks along M (SWIZZLE_32_4_4 only), qdata (M, K) with strides
    (1, M) (its buffer is (K, M)), scale (L, 1)."""
    a, dtype, inner = _check_common(input, dim, scaling_type, qdata_dtype,
                                    scaling_algorithm,
                                    scaling_type_use_square_block_size,
                                    input_dtype)
    swizzle = _name("swizzle_type", swizzle_type,
                    ["NO_SWIZZLE", "SWIZZLE_32_4_4"]) == "SWIZZLE_32_4_4"
    m, k = a.shape
    if inner == 1:
        if k % 32:
            raise ValueError(f"input: K = {k} is not a multiple of 32 "
                             "(dim-k quantization needs K % 32 == 0)")
        q, s = _ops.quantize(a, axis=1, elem="f8E4M3FN", scale="rceil",
                             inf="nan",
                             layout="swizzle_32_4_4" if swizzle else "linear",
                             input_dtype=dtype, target=target)
        return q, (s.reshape(1, -1) if swizzle else s)
    if not swizzle:
        raise ValueError("swizzle_type: NO_SWIZZLE is not supported with "
                         "dim=(1, 0); allowed: SWIZZLE_32_4_4")
    if m % 32 or k % 16:
        raise ValueError(f"input: shape ({m}, {k}) is not supported for "
                         "dim-m quantization (needs M % 32 == 0 and "
                         "K % 16 == 0)")
    q, s = _ops.quantize(a, axis=0, elem="f8E4M3FN", scale="rceil", inf="nan",
                         layout="swizzle_32_4_4", input_dtype=dtype,
                         target=target)
    # PyTorch stores dim-m qdata transposed-contiguous: a (K, M) buffer seen
    # as (M, K) with strides (1, M).
    return np.ascontiguousarray(q.T).T, s.reshape(-1, 1)


def quantize_tensor_dual(input, *, dim, scaling_type="BlockWise1x32",
                         qdata_dtype="float8_e4m3fn",
                         scaling_algorithm="MXFP_E8M0_RU",
                         swizzle_type="SWIZZLE_32_4_4",
                         scaling_type_use_square_block_size=False,
                         input_dtype=None, target="cpu"):
    """Returns ``(qdata, scale, qdata_reverse, scale_reverse)``: qdata (M, K)
    and scale (1, L) along K, qdata_reverse (M, K) with strides (1, M) and
    scale_reverse (L, 1) along M, L = 512 ceil(M/128) ceil(K/128)."""
    a, dtype, inner = _check_common(input, dim, scaling_type, qdata_dtype,
                                    scaling_algorithm,
                                    scaling_type_use_square_block_size,
                                    input_dtype)
    if inner != 1:
        raise ValueError(f"dim: {dim!r} is not supported; allowed: (0, 1), "
                         "(-2, -1)")
    _name("swizzle_type", swizzle_type, ["SWIZZLE_32_4_4"])
    m, k = a.shape
    if m % 32 or k % 32:
        raise ValueError(f"input: shape ({m}, {k}) is not supported (dual "
                         "quantization needs M % 32 == 0 and K % 32 == 0)")
    q0, s0, q1, s1 = _ops.dual_quantize(a, elem="f8E4M3FN", scale="rceil",
                                        inf="nan", input_dtype=dtype,
                                        target=target)
    return q0, s0.reshape(1, -1), q1.T, s1.reshape(-1, 1)
