"""DeepSeek-V3's block-wise FP8 activation quantization
(``inference/kernel.py``, ``act_quant``) under its own name and return
order (docs/Rationale.md, "Blockwise FP8")."""

from . import _ops

__all__ = ["act_quant"]


def act_quant(x, block_size=128, scale_fmt=None, *, input_dtype=None,
              target="cpu"):
    """DeepSeek's ``act_quant``: ``x`` (``[..., K]``, ``K`` a multiple of
    ``block_size``) to ``(codes, s)``: E4M3 codes (``uint8``, ``[..., K]``)
    and the fp32 scales ``s`` (``[..., K / block_size]``), with
    ``s = max(amax, 1e-4) / 448`` (a true division, as are the elements'
    ``x / s``); with ``scale_fmt="ue8m0"`` ``s`` is rounded up to a power of
    two (the exact ceiling: DeepSeek's kernel takes it as ``ceil(log2(s))``
    on the GPU's ``log2``)."""
    if scale_fmt not in (None, "ue8m0"):
        raise ValueError(f"scale_fmt: {scale_fmt!r} is not supported; "
                         "allowed: None, 'ue8m0'")
    a, dtype = _ops.as_source(x, input_dtype, "x")
    block = _ops._int("block_size", block_size)
    if a.ndim == 0 or block <= 0 or a.shape[-1] % block != 0:
        raise ValueError(f"x: the last dimension must be a multiple of "
                         f"block_size={block} (DeepSeek's assertion), got "
                         f"shape {a.shape}")
    return _ops.quantize(a, axis=-1, elem="f8E4M3FN", scale="decode",
                         block=block, scale_dtype="f32", amax_floor=1e-4,
                         pow2=scale_fmt == "ue8m0", division="exact",
                         input_dtype=dtype, target=target)
