"""DeepGEMM's FP8 casts (``deep_gemm/utils/math.py``) under their own names
and return orders (docs/Rationale.md, "Blockwise FP8")."""

import numpy as np

from . import _ops

__all__ = ["per_token_cast_to_fp8", "pack_ue8m0_to_int"]


def pack_ue8m0_to_int(sf):
    """DeepGEMM's ``pack_ue8m0_to_int``: power-of-two fp32 scales
    (``[..., n]``, ``n`` a multiple of 4) as their E8M0 bytes, four to an
    ``int32`` (little-endian: scale 4j in the low byte)."""
    sf = np.require(np.asarray(sf), requirements="C")
    if sf.dtype != np.float32 or sf.ndim == 0 or sf.shape[-1] % 4 != 0:
        raise ValueError(f"sf: expected float32 scales whose last dimension "
                         f"is a multiple of 4, got {sf.dtype} {sf.shape}")
    bits = sf.view(np.uint32)
    if np.any(bits & np.uint32(0x7FFFFF)):
        raise ValueError("sf: the scales are not powers of two (use_ue8m0)")
    return (bits >> np.uint32(23)).astype(np.uint8).view("<i4")


def per_token_cast_to_fp8(x, use_ue8m0, gran_k=128, use_packed_ue8m0=False,
                          *, input_dtype=None, target="cpu"):
    """DeepGEMM's ``per_token_cast_to_fp8``: ``x`` (``[m, n]``) to ``(codes,
    sf)``: E4M3 codes (``uint8``, ``[m, n]``) and ``sf`` (f32, ``[m,
    ceil(n / gran_k)]``), ``sf = max(amax, 1e-4) * fl32(1/448)`` and codes of
    ``x * fl32(1/sf)`` (PyTorch's CUDA division by a scalar is that
    multiply); ``use_ue8m0`` rounds ``sf`` up to a power of two
    (``ceil_to_ue8m0``); ``use_packed_ue8m0`` returns ``sf`` as
    ``pack_ue8m0_to_int`` packs it (the SM100 kernels' scales). A ragged
    last block is padded with zeros, as DeepGEMM pads."""
    a, dtype = _ops.as_source(x, input_dtype, "x")
    if a.ndim != 2:
        raise ValueError(f"x: DeepGEMM casts a 2-d tensor [m, n], got rank "
                         f"{a.ndim}")
    if use_packed_ue8m0 and not use_ue8m0:
        raise ValueError("use_packed_ue8m0: packed scales are UE8M0 "
                         "(use_ue8m0=True)")
    gran_k = _ops._int("gran_k", gran_k)
    codes, sf = _ops.quantize(a, axis=-1, elem="f8E4M3FN", scale="decode",
                              block=gran_k, scale_dtype="f32",
                              amax_floor=1e-4, pow2=bool(use_ue8m0),
                              division="reciprocal", input_dtype=dtype,
                              target=target)
    if use_packed_ue8m0:
        sf = pack_ue8m0_to_int(sf)
    return codes, sf
