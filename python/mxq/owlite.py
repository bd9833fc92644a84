"""SqueezeBits OwLite ``fake_fp8_quantize`` (FP8 E4M3 quantize-dequantize)
with its argument names (mx-semantics.md, section 5)."""

from . import _ops

__all__ = ["fake_fp8_quantize"]


def fake_fp8_quantize(inputs, step_size, zero_point, quant_min, quant_max,
                      axis=None, *, input_dtype=None, target="cpu"):
    """``(fp8(clip(x / step + zp, quant_min, quant_max)) - zp) * step`` in
    fp32, rounded to the input's dtype; per tensor (one step and zero point)
    or per channel along ``axis``."""
    return _ops.fake_quant(inputs, step_size, zero_point, quant_min=quant_min,
                           quant_max=quant_max, axis=axis, format="f8E4M3FN",
                           input_dtype=input_dtype, target=target)
