"""TOSA 1.1's MXFP casts, compiled through --convert-tosa-to-mxq on every
runnable target, against the specification's pseudocode (CAST_TO_BLOCK_SCALED
with calc_block_scale) restated here in NumPy: the scale exponent from log2
of the block's amax over out_max (float64), the elements divided by the scale
and rounded to nearest even by a search of the format's values."""
import math
import pathlib

import numpy as np
import pytest

import mxq
from conftest import data, to_bf16

F32 = np.float32
ROOT = pathlib.Path(__file__).resolve().parents[2]
TEXT = (ROOT / "examples" / "tosa" / "mxfp.mlir").read_text()

# ebits, mbits, bias, largest code, largest value
FORMATS = {
    "f8E4M3FN": (4, 3, 7, 0x7E, 448.0),
    "f8E5M2": (5, 2, 15, 0x7B, 57344.0),
    "f6E2M3FN": (2, 3, 1, 0x1F, 7.5),
    "f6E3M2FN": (3, 2, 3, 0x1F, 28.0),
    "f4E2M1FN": (2, 1, 1, 0x7, 6.0),
}


def grid(fmt):
    eb, mb, bias, top, _ = FORMATS[fmt]
    vals = []
    for c in range(top + 1):
        e, m = c >> mb, c & ((1 << mb) - 1)
        vals.append((m / 2 ** mb) * 2.0 ** (1 - bias) if e == 0 else
                    (1 + m / 2 ** mb) * 2.0 ** (e - bias))
    return np.array(vals)


def out_max(fmt):
    eb, mb, bias, top, mx = FORMATS[fmt]
    emax = int(math.floor(math.log2(mx)))
    return mx + 2.0 ** (emax - mb - 1)  # largest value plus half an ulp


def tosa_scale_exp(amax, fmt):
    """calc_block_scale's exponent (None: the NaN scale)."""
    if amax == 0:
        return -127
    if math.isnan(amax) or math.isinf(amax):
        return None
    r = math.log2(float(amax) / out_max(fmt))
    k = math.ceil(r) if fmt == "f8E4M3FN" else math.floor(r) + 1
    return min(max(k, -127), 127)


def encode(v, fmt):
    eb, mb, bias, top, mx = FORMATS[fmt]
    vals = grid(fmt)
    sign = 1 << (eb + mb)
    if math.isnan(v):
        return 0x7F if fmt.startswith("f8") else top  # mxq's nan_element
    a = abs(v)
    assert a < out_max(fmt), (v, fmt)  # the rule leaves no overflow
    hi = int(np.searchsorted(vals, a))
    if hi < len(vals) and vals[hi] == a:
        c = hi
    elif hi == len(vals):
        c = top
    else:
        lo = hi - 1
        dl, dh = a - vals[lo], vals[hi] - a
        c = lo if dl < dh or (dl == dh and lo % 2 == 0) else hi
    return c | (sign if math.copysign(1, v) < 0 else 0)


def oracle(x, fmt):
    m, k = x.shape
    codes = np.zeros((m, k), np.uint8)
    scales = np.zeros((m, k // 32), np.uint8)
    for i in range(m):
        for b in range(k // 32):
            blk = x[i, 32 * b:32 * b + 32].astype(np.float64)
            amax = np.nan if np.isnan(blk).any() else np.abs(blk).max()
            e = tosa_scale_exp(amax, fmt)
            scales[i, b] = 0xFF if e is None else e + 127
            for j, v in enumerate(blk):
                y = np.nan if e is None else v / 2.0 ** e
                codes[i, 32 * b + j] = encode(y, fmt)
    if fmt == "f4E2M1FN":
        codes = (codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8)
    return codes, scales


def f32_of(x, dtype):
    return (x.astype(np.uint32) << 16).view(F32) if dtype == "bf16" else x


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_cast_to_block_scaled(fmt, dtype):
    x = data((5, 96), 21, dtype)
    want = oracle(f32_of(x, dtype), fmt)
    for target in mxq.target_names(runnable_only=True):
        k = mxq.compile(TEXT, f"cast_to_{fmt}_{dtype}", target)
        got = k(x)
        for g, w in zip(got, want):
            assert (np.asarray(g).view(np.uint8) == w).all(), \
                (target, np.argwhere(np.asarray(g).view(np.uint8) != w)[:4])


def test_worked_scale_bytes():
    # out_max: 464, 61440, 7.75, 30, 7. E4M3 takes ceil(log2), the others
    # floor(log2) + 1: amax = out_max is scale 2^0 for E4M3, 2^1 otherwise.
    cases = [("f8E4M3FN", 464.0, 127), ("f8E4M3FN", 465.0, 128),
             ("f8E4M3FN", 448.0, 127), ("f4E2M1FN", 7.0, 128),
             ("f4E2M1FN", 6.5, 127), ("f4E2M1FN", 3.5, 127),
             ("f8E5M2", 61440.0, 128), ("f8E5M2", 57344.0, 127)]
    for fmt, amax, byte in cases:
        assert tosa_scale_exp(amax, fmt) + 127 == byte
        x = np.zeros((1, 32), F32)
        x[0, 0] = amax
        _, s = mxq.compile(TEXT, f"cast_to_{fmt}_f32")(x)
        assert s[0, 0] == byte, (fmt, amax, s[0, 0])
    # A zero block: 2^-127 (byte 0); an infinite one the NaN scale.
    x = np.zeros((1, 64), F32)
    x[0, 40] = np.inf
    _, s = mxq.compile(TEXT, "cast_to_f8E4M3FN_f32")(x)
    assert list(s[0]) == [0x00, 0xFF]


def test_tosa_refusals():
    bad = """
func.func @f(%x: tensor<4x32xf32>) -> (tensor<4x32x!tosa.mxint8>, tensor<4x1xf8E8M0FNU>) {
  %0:2 = tosa.cast_to_block_scaled %x {block_size = #tosa.block_size<BLOCK_SIZE_32> : i32} : (tensor<4x32xf32>) -> (tensor<4x32x!tosa.mxint8>, tensor<4x1xf8E8M0FNU>)
  return %0#0, %0#1 : tensor<4x32x!tosa.mxint8>, tensor<4x1xf8E8M0FNU>
}
"""
    with pytest.raises(ValueError, match="mxint8"):
        mxq.compile(bad, "f")
