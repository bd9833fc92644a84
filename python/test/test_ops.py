"""The op functions: bytes equal to mxq-run and to the reference target on
random, edge-case and ragged data; the compiled-kernel cache; bad
arguments."""
import numpy as np
import pytest

import mxq
from conftest import data, run_cookbook

SHAPES = [(1, 1), (3, 32), (5, 100), (64, 64), (33, 130)]


def same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert (x.view(np.uint8) == y.view(np.uint8)).all()


@pytest.mark.parametrize("elem", ["f8E4M3FN", "f8E5M2", "f6E2M3FN",
                                  "f6E3M2FN", "f4E2M1FN"])
@pytest.mark.parametrize("dtype", ["f32", "bf16", "f16"])
def test_quantize_matches_reference(elem, dtype):
    for i, shape in enumerate(SHAPES):
        x = data(shape, i, dtype)
        for axis in (-1, 0):
            kw = dict(axis=axis, elem=elem, scale="floor",
                      input_dtype=dtype if dtype == "bf16" else None)
            same(mxq.quantize(x, **kw),
                 mxq.quantize(x, target="reference", **kw))


@pytest.mark.parametrize("layout", ["linear", "swizzle_32_4_4", "pairs"])
def test_quantize_layouts_roundtrip(layout):
    x = np.random.default_rng(7).standard_normal((40, 96)).astype(np.float32)
    x[3, 5] = np.nan
    q, s = mxq.quantize(x, axis=-1, scale="rceil", layout=layout)
    y = mxq.dequantize(q, s, shape=x.shape, axis=-1, layout=layout)
    yr = mxq.dequantize(q, s, shape=x.shape, axis=-1, layout=layout,
                        target="reference")
    same((y,), (yr,))
    finite = (np.isfinite(x) & np.isfinite(y) & (np.abs(x) < 1e30) &
              (np.abs(x) > 1e-30))
    rel = np.abs(y[finite] - x[finite]) / np.abs(x[finite])
    assert np.median(rel) < 0.07


def test_quantize_matches_mxq_run_torch_cookbook():
    x = data((33, 96), 3)
    same(mxq.quantize(x, axis=1, scale="rceil", inf="nan"),
         run_cookbook("torch/quantize_tensor.mlir", "quantize_tensor_f32", x))


def test_dequantize_fp4_ragged_matches_cookbook():
    x = data((6, 101), 5, "bf16")
    q, s = mxq.quantize(x, axis=-1, elem="f4E2M1FN", scale="floor",
                        inf="nan", layout="pairs", input_dtype="bf16",
                        underflow="flush_le_emax", nan_element="zero",
                        product="bf16")
    assert q.shape == (6, 51)
    y = mxq.dequantize(q, s, shape=(6, 101), elem="f4E2M1FN", layout="pairs",
                       out_dtype="bf16")
    (expected,) = run_cookbook("cann/anti_mx_quant.mlir",
                               "anti_mx_quant_e2m1_bf16", q, s,
                               fp4_length=101)
    same((y,), (expected,))


def test_dual_quantize_matches_cookbook():
    x = data((64, 96), 11, "bf16")
    same(mxq.dual_quantize(x, input_dtype="bf16"),
         run_cookbook("torch/quantize_tensor_dual.mlir",
                      "quantize_tensor_dual_bf16", x))


def test_two_level_matches_reference_ragged_and_smooth():
    x = data((3, 1030), 13, "f16")
    sm = data((1030,), 14, "f16", edge=False)
    for smooth in (None, sm):
        for mode in ("rint", "round", "floor"):
            same(mxq.two_level_quantize(x, smooth, round_mode=mode),
                 mxq.two_level_quantize(x, smooth, round_mode=mode,
                                        target="reference"))


def test_fake_quant_and_grad():
    x = data((4, 50), 17)
    g = data((4, 50), 18, edge=False)
    step = np.array([0.5], np.float32)
    zp = np.array([0.0], np.float32)
    kw = dict(quant_min=-448.0, quant_max=448.0)
    same((mxq.fake_quant(x, step, zp, **kw),),
         run_cookbook("owlite/fake_fp8_quantize.mlir",
                      "fake_fp8_per_tensor_f32", x, step, zp))
    same((mxq.fake_quant_grad(g, x, step, **kw),),
         run_cookbook("owlite/fake_fp8_quantize.mlir",
                      "fake_fp8_grad_per_tensor_f32", x, step, zp, g))
    steps = np.array([0.5, 1.0, 2.0, 0.125], np.float32)
    zps = np.zeros(4, np.float32)
    same((mxq.fake_quant(x, steps, zps, axis=0, **kw),),
         run_cookbook("owlite/fake_fp8_quantize.mlir",
                      "fake_fp8_per_channel_f32", x, steps, zps))


def test_second_call_does_not_compile():
    x1 = data((8, 64), 21)
    x2 = data((17, 200), 22)
    mxq.quantize(x1, scale="even", elem="f8E5M2")
    mxq.quantize(x1, scale="even", elem="f8E5M2", target="reference")
    before = mxq.compile_count()
    size = mxq.kernel_cache_size()
    q2, s2 = mxq.quantize(x2, scale="even", elem="f8E5M2")
    assert mxq.compile_count() == before
    assert mxq.kernel_cache_size() == size
    same((q2, s2), mxq.quantize(x2, scale="even", elem="f8E5M2",
                                target="reference"))
    # A new rank or dtype is a new kernel.
    mxq.quantize(data((2, 4, 64), 23), scale="even", elem="f8E5M2")
    assert mxq.compile_count() == before + 1


def test_non_contiguous_input_is_copied():
    x = data((64, 96), 31)
    expected = mxq.quantize(np.ascontiguousarray(x.T), axis=-1)
    same(mxq.quantize(x.T, axis=-1), expected)
    same(mxq.quantize(np.asfortranarray(x.T), axis=-1), expected)
    same(mxq.quantize(data((64, 192), 32)[:, ::2], axis=-1),
         mxq.quantize(np.ascontiguousarray(data((64, 192), 32)[:, ::2]),
                      axis=-1))


@pytest.mark.parametrize("call, match", [
    (lambda x: mxq.quantize(x, scale="flor"),
     "'flor' is not a word for scale; expected one of floor, rceil"),
    (lambda x: mxq.quantize(x, layout="swizzle"),
     "not a word for scale_layout|swizzle"),
    (lambda x: mxq.quantize(x, elem="f8E4M3"), "f8E4M3"),
    (lambda x: mxq.quantize(x, scale="floor ; x"), "not a word"),
    (lambda x: mxq.quantize(x, axis=2), "axis: 2 is out of range"),
    (lambda x: mxq.quantize(x, block=33), "block_size|multiple of 32"),
    (lambda x: mxq.quantize(x.astype(np.int32)), "int32 are not supported"),
    (lambda x: mxq.quantize(x.astype(np.uint16)), "input_dtype='bf16'"),
    (lambda x: mxq.quantize(x, input_dtype="f64"), "input_dtype"),
    (lambda x: mxq.quantize(np.float32(1.0)), "rank >= 1"),
    (lambda x: mxq.two_level_quantize(x), "f16 or bf16|f32"),
    (lambda x: mxq.fake_quant(x, [1.0, 2.0], [0.0], quant_min=-448,
                              quant_max=448), "per-tensor"),
    (lambda x: mxq.fake_quant(x, [1.0], [0.0], quant_min=-448,
                              quant_max=float("inf")), "not finite"),
    (lambda x: mxq.dequantize(x, x, shape=x.shape), "uint8 codes"),
])
def test_bad_arguments_raise_value_error(call, match):
    x = data((4, 64), 41)
    with pytest.raises(ValueError, match=match):
        call(x)
