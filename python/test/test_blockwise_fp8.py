"""Block-wise FP8 with fp32 scales in DeepSeek's, DeepGEMM's and
TransformerEngine's words: each library's operation sequence recomputed
here by an independent NumPy oracle (float32 arithmetic step by step; E4M3
and E5M2 by a search of each format's sorted values, not by mxq's
encoders), on every runnable target, and the argument rules."""
import numpy as np
import pytest

import mxq
from conftest import data
from test_nvfp4 import _grid, encode, targets, f32_of, E4M3

F32 = np.float32
E5M2 = _grid(5, 2, 15, 0x7B)
MAX = {"f8E4M3FN": F32(448), "f8E5M2": F32(57344)}
GRID = {"f8E4M3FN": (E4M3, 0x7F), "f8E5M2": (E5M2, 0x7F)}
SRC_MAX = {"f32": np.finfo(F32).max, "bf16": F32(3.3895313892515355e38),
           "f16": F32(65504)}


def blocks(x, n=128):
    """[M, K] f32 -> [M, ceil(K/n), n], zero-padded."""
    m, k = x.shape
    nb = -(-k // n)
    p = np.zeros((m, nb * n), F32)
    p[:, :k] = x
    return p.reshape(m, nb, n)


def ceil_ue8m0(s):
    """DeepGEMM's ceil_to_ue8m0 on the bits."""
    bits = np.abs(s).astype(F32).view(np.uint32).astype(np.int64)
    e = ((bits >> 23) & 0xFF) + ((bits & 0x7FFFFF) != 0)
    return (np.clip(e, 1, 254).astype(np.uint32) << 23).view(F32)


def oracle_decode(x, exact, pow2, elem="f8E4M3FN"):
    b = blocks(x)
    with np.errstate(all="ignore"):
        amax = np.abs(b).max(axis=-1)   # NaN propagates, as torch.amax
        amax = np.where(amax < F32(1e-4), F32(1e-4), amax).astype(F32)
        m = MAX[elem]
        s = (amax / m if exact else amax * (F32(1) / m)).astype(F32)
        if pow2:
            s = ceil_ue8m0(s)
        y = (b / s[..., None] if exact else
             b * (F32(1) / s).astype(F32)[..., None]).astype(F32)
    grid, nan = GRID[elem]
    q = encode(y, grid, nan, 0x80).reshape(x.shape[0], b.shape[1] * b.shape[2])[:, :x.shape[1]]
    return q, s


def oracle_te(x, pow2, eps, src, elem="f8E4M3FN"):
    b = blocks(x)
    with np.errstate(all="ignore"):
        a = np.where(np.isnan(b), F32(0), np.abs(b)).max(axis=-1)  # fmaxf
        a = np.where(a < F32(eps), F32(eps), a).astype(F32)
        e = (MAX[elem] / a).astype(F32)
        e = np.where(np.isinf(e), SRC_MAX[src], e).astype(F32)
        if pow2:
            e = (e.view(np.uint32) & np.uint32(0xFF800000)).view(F32)
        e = np.where((a == 0) | np.isinf(a), F32(1), e).astype(F32)
        y = (b * e[..., None]).astype(F32)
        inv = (F32(1) / e).astype(F32)
    grid, nan = GRID[elem]
    q = encode(y, grid, nan, 0x80).reshape(x.shape[0], b.shape[1] * b.shape[2])[:, :x.shape[1]]
    return q, inv


def idt(dtype):
    return "bf16" if dtype == "bf16" else None


SHAPES = [(3, 256), (2, 300), (1, 128), (0, 128)]


@pytest.mark.parametrize("target", targets())
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("ue8m0", [False, True])
def test_deepseek_act_quant(target, dtype, shape, ue8m0):
    x = data((shape[0], shape[1] - shape[1] % 128), 21, dtype)
    q, s = mxq.deepseek.act_quant(x, scale_fmt="ue8m0" if ue8m0 else None, input_dtype=idt(dtype),
                                  target=target)
    wq, ws = oracle_decode(f32_of(x, dtype), True, ue8m0)
    assert s.dtype == np.float32 and s.shape == ws.shape
    np.testing.assert_array_equal(q, wq)
    assert s.tobytes() == ws.tobytes()


@pytest.mark.parametrize("target", targets())
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("ue8m0", [False, True])
def test_deepgemm_per_token_cast_to_fp8(target, dtype, shape, ue8m0):
    x = data(shape, 22, dtype)
    q, sf = mxq.deepgemm.per_token_cast_to_fp8(x, ue8m0, input_dtype=idt(dtype), target=target)
    wq, ws = oracle_decode(f32_of(x, dtype), False, ue8m0)
    np.testing.assert_array_equal(q, wq)
    assert sf.tobytes() == ws.tobytes()


@pytest.mark.parametrize("target", targets())
@pytest.mark.parametrize("dtype", ["f32", "bf16", "f16"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("pow2,eps", [(True, 0.0), (False, 0.0),
                                      (False, 1e-6)])
@pytest.mark.parametrize("elem", ["f8E4M3FN", "f8E5M2"])
def test_te_quantize_fp8_block(target, dtype, shape, pow2, eps, elem):
    x = data(shape, 23, dtype)
    q, inv = mxq.te.quantize_fp8_block(x, pow2=pow2, eps=eps, elem=elem, input_dtype=idt(dtype),
                                       target=target)
    xf = x.astype(F32) if dtype == "f16" else f32_of(x, dtype)
    wq, winv = oracle_te(xf, pow2, eps, dtype, elem)
    np.testing.assert_array_equal(q, wq)
    assert inv.tobytes() == winv.tobytes()
    qc, _ = mxq.te.quantize_fp8_block(x, columnwise=True, input_dtype=idt(dtype), target=target)
    wqc, _ = oracle_te(np.ascontiguousarray(xf.T), True, 0.0, dtype)
    np.testing.assert_array_equal(qc, wqc)


def test_deepseek_and_deepgemm_differ_as_stated():
    # A block of amax 3 and the element 0x3B392492: x / s is a tie of E4M3
    # (0x2E), x * fl32(1/s) just below it (0x2D); the scales differ by an
    # ulp.
    x = np.zeros((1, 128), F32)
    x[0, 0] = 3.0
    x[0, 1] = np.array([0x3B392492], np.uint32).view(F32)[0]
    q1, s1 = mxq.deepseek.act_quant(x)
    q2, s2 = mxq.deepgemm.per_token_cast_to_fp8(x, False)
    assert (q1[0, 1], q2[0, 1]) == (0x2E, 0x2D)
    assert s1.view(np.uint32)[0, 0] + 1 == s2.view(np.uint32)[0, 0]


def test_packed_ue8m0():
    x = data((2, 512), 24, "f32", edge=False)
    _, sf = mxq.deepgemm.per_token_cast_to_fp8(x, True)
    _, packed = mxq.deepgemm.per_token_cast_to_fp8(x, True,
                                                   use_packed_ue8m0=True)
    assert packed.dtype == np.int32 and packed.shape == (2, 1)
    want = (sf.view(np.uint32) >> 23).astype(np.uint8)
    assert packed.view(np.uint8).tobytes() == want.tobytes()


def test_dequantize_f32_scales():
    x = data((3, 300), 25, "f32", edge=False)
    q, s = mxq.deepseek.act_quant(x[:, :256])
    y = mxq.dequantize(q, s, shape=(3, 256), block=128)
    vals, _ = E4M3
    dec = np.where(q & 0x7F == 0x7F, np.nan,
                   vals[np.minimum(q & 0x7F, 0x7E)]).astype(F32)
    dec = np.where(q & 0x80, -dec, dec).astype(F32)
    want = (dec * np.repeat(s, 128, axis=1)).astype(F32)
    assert y.tobytes() == want.tobytes()


@pytest.mark.parametrize("call,match", [
    (lambda: mxq.deepseek.act_quant(np.zeros((2, 100), F32)), "multiple"),
    (lambda: mxq.deepseek.act_quant(np.zeros((2, 128), F32), scale_fmt="x"),
     "scale_fmt"),
    (lambda: mxq.deepgemm.per_token_cast_to_fp8(np.zeros((2, 128), F32),
                                               False, use_packed_ue8m0=True),
     "use_packed_ue8m0"),
    (lambda: mxq.deepgemm.per_token_cast_to_fp8(np.zeros((2, 128), F32),
                                               True, use_packed_ue8m0=True),
     "multiple of 4"),
    (lambda: mxq.te.quantize_fp8_block(np.zeros((2, 128), F32),
                                      block=(128, 128)), "2-d blocks"),
    (lambda: mxq.quantize(np.zeros((2, 64), F32), pow2=True), "scale_dtype"),
    (lambda: mxq.quantize(np.zeros((2, 128), F32), scale="rceil", block=128,
                          scale_dtype="f32"), "C11"),
])
def test_blockwise_argument_rules(call, match):
    with pytest.raises(ValueError, match=match):
        call()
