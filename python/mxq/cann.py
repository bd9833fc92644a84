"""Huawei CANN ``aclnnDynamicDualLevelMxQuant`` as
``dynamic_dual_level_mx_quant``, at the bytes of the shipped arch35 kernel
(mx-semantics.md, sections 10.1 and 10.4: NaN groups coded 0x0, the level-0
division flushing subnormals)."""

from . import _ops

__all__ = ["dynamic_dual_level_mx_quant"]

_ROUND_MODES = ("rint", "round", "floor")


def dynamic_dual_level_mx_quant(x, smooth_scale=None, round_mode="rint",
                                level0_block_size=512, level1_block_size=32,
                                *, input_dtype=None, target="cpu"):
    """Returns ``(y, level0_scale, level1_scale)``: FP4 codes packed two per
    byte, fp32 scales ``[..., ceil(n/512)]`` and E8M0 scales
    ``[..., ceil(n/64), 2]``."""
    a, dtype = _ops.as_source(x, input_dtype, "x")
    if dtype not in ("f16", "bf16"):
        raise ValueError(f"x: {dtype} is not supported; allowed: float16, "
                         "bfloat16")
    if not 1 <= a.ndim <= 7:
        raise ValueError(f"x: rank {a.ndim} is not supported; allowed: 1 to 7")
    if a.size == 0:
        raise ValueError("x: an empty tensor is not supported")
    if a.shape[-1] % 2:
        raise ValueError(f"x: the last dimension ({a.shape[-1]}) must be "
                         "even")
    if round_mode not in _ROUND_MODES:
        raise ValueError(f"round_mode: {round_mode!r} is not supported; "
                         f"allowed: {', '.join(_ROUND_MODES)}")
    if level0_block_size != 512:
        raise ValueError(f"level0_block_size: {level0_block_size!r} is not "
                         "supported; allowed: 512")
    if level1_block_size != 32:
        raise ValueError(f"level1_block_size: {level1_block_size!r} is not "
                         "supported; allowed: 32")
    smooth = None
    if smooth_scale is not None:
        smooth, sdtype = _ops.as_source(smooth_scale,
                                        "bf16" if dtype == "bf16" else None,
                                        "smooth_scale")
        if sdtype != dtype or smooth.shape != (a.shape[-1],):
            raise ValueError(f"smooth_scale: expected shape ({a.shape[-1]},) "
                             f"of x's dtype {dtype}, got {smooth.shape} of "
                             f"{sdtype}")
    return _ops.two_level_quantize(a, smooth, round_mode=round_mode,
                                   nan_element="zero", div_denormals="ftz",
                                   input_dtype=dtype, target=target)
