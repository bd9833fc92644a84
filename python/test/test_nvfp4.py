"""NVFP4 in torchao's and TransformerEngine's words: the bytes of each
library's operation sequence, recomputed here by an independent NumPy oracle
(float32 arithmetic step by step; E4M3 and E2M1 by a search of each format's
sorted values, not by mxq's encoders), on every runnable target, and the
argument rules."""
import numpy as np
import pytest

import mxq
from conftest import data, to_bf16, run_cookbook

F32 = np.float32
FLT_MAX = np.finfo(np.float32).max


def _grid(ebits, mbits, bias, max_code):
    """(values, codes) of the non-negative finite codes up to max_code."""
    vals, codes = [], []
    for c in range(max_code + 1):
        e, m = c >> mbits, c & ((1 << mbits) - 1)
        v = (m / 2 ** mbits) * 2.0 ** (1 - bias) if e == 0 else \
            (1 + m / 2 ** mbits) * 2.0 ** (e - bias)
        vals.append(v)
        codes.append(c)
    return np.array(vals), np.array(codes)


E4M3 = _grid(4, 3, 7, 0x7E)
E2M1 = _grid(2, 1, 1, 0x7)


def encode(v, grid, nan_code, sign_bit):
    """Nearest even on the grid, saturating; NaN to nan_code."""
    vals, codes = grid
    out = np.zeros(v.shape, dtype=np.uint8)
    for idx, x in np.ndenumerate(v.astype(np.float64)):
        if np.isnan(x):
            out[idx] = nan_code
            continue
        a = min(abs(x), vals[-1])
        hi = np.searchsorted(vals, a)
        if vals[hi] == a:
            c = codes[hi]
        else:
            lo = hi - 1
            dl, dh = a - vals[lo], vals[hi] - a
            c = codes[lo] if dl < dh or (dl == dh and codes[lo] % 2 == 0) \
                else codes[hi]
        out[idx] = c | (sign_bit if np.signbit(x) else 0)
    return out


def decode_e4m3(b):
    vals, _ = E4M3
    return np.where(b == 0x7F, np.nan, vals[np.minimum(b, 0x7E)]).astype(F32)


def blocks(x):
    """[..., K] f32 -> [..., ceil(K/16), 16], zero-padded."""
    k = x.shape[-1]
    nb = -(-k // 16)
    pad = np.zeros(x.shape[:-1] + (nb * 16,), dtype=F32)
    pad[..., :k] = x
    return pad.reshape(x.shape[:-1] + (nb, 16))


def pack(codes, k):
    c = codes.reshape(codes.shape[:-2] + (codes.shape[-2] * 16,))[..., :k]
    if k % 2:
        c = np.concatenate([c, np.zeros(c.shape[:-1] + (1,), np.uint8)], -1)
    return (c[..., 0::2] | (c[..., 1::2] << 4)).astype(np.uint8)


def oracle_torchao(x, p=None):
    """torchao nvfp4_quantize: (scales, packed codes)."""
    b = blocks(x)
    with np.errstate(all="ignore"):
        amax = np.max(np.abs(b), axis=-1)  # NaN propagates, as torch.amax
        amax = np.where(np.isnan(np.abs(b)).any(-1), np.nan, amax).astype(F32)
        bs = (amax / F32(6)).astype(F32)
        if p is not None:
            bs = (bs / F32(p)).astype(F32)
        bs = np.where(bs < F32(2 ** -6), F32(2 ** -6), bs)
        bs = np.where(bs > F32(448), F32(448), bs).astype(F32)
        s = encode(bs, E4M3, 0x7F, 0x80)
        total = decode_e4m3(s)
        if p is not None:
            total = (F32(p) * total).astype(F32)
        y = (b / total[..., None]).astype(F32)
    return s, pack(encode(y, E2M1, 0x7, 0x8), x.shape[-1])


def oracle_te(x, amax):
    """TE: (packed codes, scales) with the stored amax (scalar or per row)."""
    b = blocks(x)
    with np.errstate(all="ignore"):
        a = np.asarray(amax, dtype=F32)
        s_enc = (F32(2688) / a).astype(F32)
        s_enc = np.where(np.isnan(s_enc) | (s_enc > FLT_MAX), FLT_MAX, s_enc)
        s_enc = np.where((a == 0) | (s_enc == 0), F32(1), s_enc).astype(F32)
        if s_enc.ndim:
            s_enc = s_enc[:, None]
        k = (s_enc * F32(F32(1) / F32(6))).astype(F32)
        ab = np.abs(b)
        bamax = np.max(np.where(np.isnan(ab), F32(0), ab), axis=-1)
        v = (bamax * k).astype(F32)
        v = np.where(v > FLT_MAX, FLT_MAX, v).astype(F32)
        s = encode(v, E4M3, 0x7F, 0x80)
        s_dec = (F32(1) / s_enc).astype(F32)
        m = (F32(1) / (decode_e4m3(s) * s_dec).astype(F32)).astype(F32)
        m = np.where(np.isnan(m) | (m > FLT_MAX), FLT_MAX, m).astype(F32)
        y = (b * m[..., None]).astype(F32)
    return pack(encode(y, E2M1, 0x7, 0x8), x.shape[-1]), s


def targets():
    return [t for t in mxq.target_names(runnable_only=True)
            if not t.startswith("ascend")]


def f32_of(x, dtype):
    return (x.astype(np.uint32) << 16).view(F32) if dtype == "bf16" else x


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
@pytest.mark.parametrize("shape", [(4, 64), (3, 40), (2, 16), (0, 32)])
@pytest.mark.parametrize("with_p", [False, True])
def test_torchao_nvfp4_quantize(dtype, shape, with_p):
    x = data(shape, 11, dtype)
    p = F32(0.0078125 * 3) if with_p else None
    want = oracle_torchao(f32_of(x, dtype), p)
    kw = dict(input_dtype="bf16") if dtype == "bf16" else {}
    for target in targets():
        got = mxq.torchao.nvfp4_quantize(x, per_tensor_scale=p, target=target,
                                         **kw)
        assert got[0].shape == shape[:-1] + (-(-shape[-1] // 16),)
        assert got[1].shape == shape[:-1] + (-(-shape[-1] // 2),)
        for g, w in zip(got, want):
            assert (g == w).all(), (target, np.argwhere(g != w)[:4])


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
@pytest.mark.parametrize("shape", [(4, 64), (5, 48), (1, 16)])
def test_te_quantize_nvfp4(dtype, shape):
    x = data(shape, 12, dtype)
    xf = f32_of(x, dtype)
    kw = dict(input_dtype="bf16") if dtype == "bf16" else {}
    finite = np.abs(np.where(np.isnan(xf), 0, xf))
    for target in targets():
        q, s, amax = mxq.te.quantize_nvfp4(x, target=target, **kw)
        assert amax == finite.max()
        assert all((g == w).all() for g, w in zip((q, s),
                                                   oracle_te(xf, amax)))
        # The stored amax given back; per row; the transpose.
        q2, s2, _ = mxq.te.quantize_nvfp4(x, amax=F32(7.5), target=target,
                                          **kw)
        assert all((g == w).all() for g, w in zip((q2, s2),
                                                   oracle_te(xf, F32(7.5))))
        q3, s3, rows = mxq.te.quantize_nvfp4(x, row_scaled=True,
                                             target=target, **kw)
        assert rows.shape == (shape[0],)
        assert all((g == w).all() for g, w in zip((q3, s3),
                                                   oracle_te(xf, rows)))
        q4, s4, _ = mxq.te.quantize_nvfp4(x, columnwise=True, target=target,
                                          **kw)
        assert all((g == w).all() for g, w in zip(
            (q4, s4), oracle_te(np.ascontiguousarray(xf.T), amax)))


def test_te_and_torchao_differ_as_stated():
    # An all-zero block: TE's scale byte 0x00, torchao's 2^-6 (0x08).
    x = np.zeros((1, 16), F32)
    _, s_te, _ = mxq.te.quantize_nvfp4(x)
    s_ao, _ = mxq.torchao.nvfp4_quantize(x)
    assert s_te[0, 0] == 0x00 and s_ao[0, 0] == 0x08
    # A NaN: TE ignores it in the amax (its code is 0x7, +6), torchao's
    # block scale is NaN (0x7F).
    x = np.arange(16, dtype=F32).reshape(1, 16)
    x[0, 3] = np.nan
    q_te, s_te, amax = mxq.te.quantize_nvfp4(x)
    s_ao, _ = mxq.torchao.nvfp4_quantize(x)
    assert amax == 15 and s_te[0, 0] != 0x7F and s_ao[0, 0] == 0x7F
    assert (q_te[0, 1] >> 4) == 0x7


def test_cookbook_matches_python():
    x = data((8, 64), 13, "bf16")
    xf = f32_of(x, "bf16")
    q, s, amax = mxq.te.quantize_nvfp4(x, input_dtype="bf16")
    got = run_cookbook("te/nvfp4.mlir", "quantize_nvfp4_bf16", x)
    assert (got[0] == q).all() and (got[1] == s).all()
    s_ao, q_ao = mxq.torchao.nvfp4_quantize(x, input_dtype="bf16")
    got = run_cookbook("torchao/nvfp4.mlir", "nvfp4_quantize_bf16", x)
    assert (got[0] == q_ao).all() and (got[1] == s_ao).all()
    assert (oracle_torchao(xf)[0] == s_ao).all()


@pytest.mark.parametrize("call, match", [
    (lambda: mxq.torchao.nvfp4_quantize(np.zeros((2, 32), F32),
                                        block_size=32), "16 elements"),
    (lambda: mxq.torchao.nvfp4_quantize(np.zeros((2, 32), np.float16)),
     "float16"),
    (lambda: mxq.te.quantize_nvfp4(np.zeros((2, 2, 32), F32)), "2-d"),
    (lambda: mxq.te.quantize_nvfp4(np.zeros((2, 32), F32), row_scaled=True,
                                   columnwise=True), "row-wise only"),
    (lambda: mxq.te.quantize_nvfp4(np.zeros((2, 32), F32),
                                   amax=np.ones(3, F32), row_scaled=True),
     "expected shape"),
    (lambda: mxq.quantize(np.zeros((2, 32), F32), elem="f4E2M1FN",
                          scale="encode", block=16, outer=np.ones(3, F32)),
     "outer"),
    (lambda: mxq.quantize(np.zeros((2, 32), F32), elem="f8E4M3FN",
                          scale="encode", block=16), "C9"),
])
def test_nvfp4_argument_rules(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def oracle_to_mx_e4m3(x, mode, block=32):
    """torchao to_mx for float8_e4m3fn: scale bytes and codes (NumPy)."""
    k = x.shape[-1]
    nb = -(-k // block)
    b = np.zeros(x.shape[:-1] + (nb * block,), F32)
    b[..., :k] = x
    b = b.reshape(x.shape[:-1] + (nb, block))
    with np.errstate(all="ignore"):
        amax = np.max(np.abs(b), -1)
        amax = np.where(np.isnan(b).any(-1), np.nan, amax).astype(F32)
        bits = amax.view(np.uint32).astype(np.int64)
        e, m = (bits >> 23) & 0xFF, bits & 0x7FFFFF
        if mode == "rceil":
            d = (amax * F32(1.0 / 448)).astype(F32)
            db = d.view(np.uint32).astype(np.int64)
            de, dm = (db >> 23) & 0xFF, db & 0x7FFFFF
            s = de + np.where(de == 0, dm > 0x400000, dm != 0)
            s = np.where(np.isfinite(d), s, 255)
        else:
            if mode == "even":
                r = (bits + (1 << (23 - 3 - 1))) & (0x1FF << 23)
                e = (r >> 23) & 0xFF
                amax = np.where(np.isnan(amax), np.nan,
                                r.astype(np.uint32).view(F32))
            up = (m > 0) if mode == "ceil" else 0
            s = np.clip(e - 127 + up - 8, -127, 128) + 127
            s = np.where(np.isfinite(amax), s, 255)
        s = s.astype(np.int64)
        inv = np.where(s == 255, np.nan,
                       np.ldexp(1.0, 127 - s)).astype(F32)
        y = (b * inv[..., None]).astype(F32)
    codes = encode(np.clip(y, -448, 448), E4M3, 0x7F, 0x80)
    return s.astype(np.uint8), codes.reshape(x.shape[:-1] + (-1,))[..., :k]


@pytest.mark.parametrize("mode", ["floor", "rceil", "ceil", "even"])
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_torchao_to_mx(mode, dtype):
    x = data((6, 96), 14, dtype)
    kw = dict(input_dtype="bf16") if dtype == "bf16" else {}
    want = oracle_to_mx_e4m3(f32_of(x, dtype), mode)
    for target in targets():
        got = mxq.torchao.to_mx(x, "float8_e4m3fn", 32, mode.upper(),
                                target=target, **kw)
        for g, w in zip(got, want):
            assert (g == w).all(), (target, mode, np.argwhere(g != w)[:4])
    s, q = mxq.torchao.to_mx(x, "float4_e2m1fn_x2", 32, mode, **kw)
    assert s.shape == (6, 3) and q.shape == (6, 48)


def test_to_mx_rules():
    with pytest.raises(ValueError, match="elem_dtype"):
        mxq.torchao.to_mx(np.zeros((2, 32), F32), "int8")
    with pytest.raises(ValueError, match="scaling_mode"):
        mxq.torchao.to_mx(np.zeros((2, 32), F32), "float8_e5m2", 32, "up")


def test_nvfp4_dequantize_round_trip():
    x = data((6, 48), 15, "f32")
    xf = x.copy()
    q, s, amax = mxq.te.quantize_nvfp4(x)
    vals = np.array([0, .5, 1, 1.5, 2, 3, 4, 6], F32)
    codes = np.stack([q & 0xF, q >> 4], -1).reshape(6, 48)
    value = np.where(codes & 8, -1, 1) * vals[codes & 7]
    with np.errstate(all="ignore"):
        scale = ((decode_e4m3(s) * F32(amax)).astype(F32) *
                 F32(F32(1) / F32(2688))).astype(F32)
        want = (value.astype(F32) * np.repeat(scale, 16, axis=1)).astype(F32)
    for target in targets():
        y = mxq.te.dequantize_nvfp4(q, s, amax, (6, 48), target=target)
        same = (y == want) | (np.isnan(y) & np.isnan(want))
        assert same.all(), target
    # torchao's: code * fl32(P * scale).
    p = F32(0.01)
    s2, q2 = mxq.torchao.nvfp4_quantize(xf, per_tensor_scale=p)
    y = mxq.dequantize(q2, s2, shape=(6, 48), elem="f4E2M1FN", block=16,
                       scale="decode", outer=p)
    codes = np.stack([q2 & 0xF, q2 >> 4], -1).reshape(6, 48)
    value = np.where(codes & 8, -1, 1) * vals[codes & 7]
    with np.errstate(all="ignore"):
        want = (value.astype(F32) * np.repeat(
            (p * decode_e4m3(s2)).astype(F32), 16, axis=1)).astype(F32)
    assert ((y == want) | (np.isnan(y) & np.isnan(want))).all()
