"""The seed systems' calls: the cookbook's bytes (mxq-run on examples/) on
random, edge-case and ragged inputs, and their argument rules."""
import numpy as np
import pytest

import mxq
from conftest import data, run_cookbook

try:
    import torch
except ImportError:  # python3-torch is optional
    torch = None


def same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x.shape == y.shape, (x.shape, y.shape)
        assert (np.ascontiguousarray(x).view(np.uint8).reshape(-1) ==
                np.ascontiguousarray(y).view(np.uint8).reshape(-1)).all()


@pytest.mark.parametrize("dtype", ["f32", "bf16", "f16"])
@pytest.mark.parametrize("shape", [(1, 32), (33, 96), (0, 64)])
def test_torch_quantize_tensor(dtype, shape):
    x = data(shape, 1, dtype)
    kw = dict(input_dtype="bf16") if dtype == "bf16" else {}
    q, s = mxq.torch.quantize_tensor(x, dim=(0, 1), **kw)
    same((q, s), run_cookbook("torch/quantize_tensor.mlir",
                              f"quantize_tensor_{dtype}", x))
    assert s.shape == (shape[0], shape[1] // 32)
    q2, s2 = mxq.torch.quantize_tensor(x, dim=(-2, -1),
                                       swizzle_type="SWIZZLE_32_4_4", **kw)
    assert s2.shape[0] == 1 and (q2 == q).all()


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_torch_quantize_tensor_dual_and_dim_m(dtype):
    x = data((64, 160), 2, dtype)
    kw = dict(input_dtype="bf16") if dtype == "bf16" else {}
    q0, s0, q1, s1 = mxq.torch.quantize_tensor_dual(x, dim=(0, 1), **kw)
    e0, f0, e1, f1 = run_cookbook("torch/quantize_tensor_dual.mlir",
                                  f"quantize_tensor_dual_{dtype}", x)
    L = 512 * 1 * 2
    assert s0.shape == (1, L) and s1.shape == (L, 1)
    assert q1.shape == (64, 160) and q1.strides == (1, 64)
    same((q0, s0.reshape(-1), s1.reshape(-1)), (e0, f0, f1))
    same((np.ascontiguousarray(q1.T),), (e1,))
    # dim=(1, 0) alone is the dual's second pair.
    qm, sm = mxq.torch.quantize_tensor(x, dim=(1, 0),
                                       swizzle_type="SWIZZLE_32_4_4", **kw)
    assert qm.strides == (1, 64)
    same((np.ascontiguousarray(qm.T), sm.reshape(-1)), (e1, f1))


@pytest.mark.skipif(torch is None, reason="python3-torch is not installed")
def test_torch_tensors_bf16():
    x = data((32, 64), 3)
    t = torch.from_numpy(x).to(torch.bfloat16)
    q, s = mxq.torch.quantize_tensor(t, dim=(0, 1))
    bits = t.view(torch.int16).numpy().view(np.uint16)
    same((q, s), run_cookbook("torch/quantize_tensor.mlir",
                              "quantize_tensor_bf16", bits))


@pytest.mark.parametrize("kwargs, match", [
    (dict(dim=(0, 1), qdata_dtype="float8_e5m2"), "qdata_dtype"),
    (dict(dim=(0, 1), scaling_algorithm="MXFP_E8M0_RZ"), "scaling_algorithm"),
    (dict(dim=(0, 1), scaling_type="BlockWise1x16"), "scaling_type"),
    (dict(dim=(1, 0)), "NO_SWIZZLE is not supported with dim=\\(1, 0\\)"),
    (dict(dim=(0, 0)), "dim"),
    (dict(dim=(0, 1), swizzle_type="SWIZZLE"), "swizzle_type"),
    (dict(dim=(0, 1), scaling_type_use_square_block_size=True), "square"),
])
def test_torch_argument_rules(kwargs, match):
    with pytest.raises(ValueError, match=match):
        mxq.torch.quantize_tensor(data((32, 64), 4), **kwargs)


def test_torch_shape_rules():
    with pytest.raises(ValueError, match="K % 32"):
        mxq.torch.quantize_tensor(data((4, 40), 5), dim=(0, 1))
    with pytest.raises(ValueError, match="M % 32 == 0 and K % 32 == 0"):
        mxq.torch.quantize_tensor_dual(data((40, 64), 5), dim=(0, 1))
    with pytest.raises(ValueError, match="2-D"):
        mxq.torch.quantize_tensor(data((2, 4, 64), 5), dim=(1, 2))
    with pytest.raises(ValueError, match="swizzle_type"):
        mxq.torch.quantize_tensor_dual(data((32, 64), 5), dim=(0, 1),
                                       swizzle_type="NO_SWIZZLE")


PYPTO = [
    ("DT_FP8E4M3", "ROUND_DOWN", -1, "f32", "quant_mx_fp8_round_down_f32"),
    ("DT_FP8E4M3", "ROUND_DOWN", -1, "bf16", "quant_mx_fp8_round_down_bf16"),
    ("DT_FP8E4M3", "ROUND_UP", -1, "f16", "quant_mx_fp8_round_up_f16"),
    ("DT_FP4_E2M1X2", "ROUND_DOWN", -1, "bf16",
     "quant_mx_fp4_round_down_bf16"),
    ("DT_FP4_E2M1X2", "ROUND_UP", -1, "f16", "quant_mx_fp4_round_up_f16"),
    ("DT_FP8E4M3", "ROUND_UP", -2, "bf16", "quant_mx_dn_fp8_round_up_bf16"),
    ("DT_FP4_E2M1X2", "ROUND_DOWN", -2, "bf16",
     "quant_mx_dn_fp4_round_down_bf16"),
]


@pytest.mark.parametrize("qd, mode, axis, dtype, entry", PYPTO)
@pytest.mark.parametrize("perf", [True, False])
def test_pypto_quant_mx(qd, mode, axis, dtype, entry, perf):
    x = data((64, 256), 6, dtype)
    kw = dict(input_dtype="bf16") if dtype == "bf16" else {}
    got = mxq.pypto.quant_mx(x, qd, mode, axis, perf, **kw)
    same(got, run_cookbook("pypto/quant_mx.mlir", entry, x))


def test_pypto_rules():
    x = data((64, 192), 7, "f16")
    with pytest.raises(ValueError, match="256-byte aligned"):
        mxq.pypto.quant_mx(x)
    mxq.pypto.quant_mx(x, performance_mode=False)
    with pytest.raises(ValueError, match="multiple of 64 outside"):
        mxq.pypto.quant_mx(data((4, 96), 7, "f16"), performance_mode=False)
    with pytest.raises(ValueError, match="dimension -2 \\(40\\)"):
        mxq.pypto.quant_mx(data((40, 128), 7, "f16"), axis=-2)
    with pytest.raises(ValueError, match="needs fp16 or bf16"):
        mxq.pypto.quant_mx(data((4, 128), 7), "DT_FP4_E2M1X2")
    with pytest.raises(ValueError, match="quant_dtype.*DT_FP8E4M3, "
                                         "DT_FP4_E2M1X2"):
        mxq.pypto.quant_mx(x, "DT_FP8E5M2")
    with pytest.raises(ValueError, match="mode"):
        mxq.pypto.quant_mx(x, mode="ROUND_NEAREST")
    with pytest.raises(ValueError, match="axis"):
        mxq.pypto.quant_mx(x, axis=0 if x.ndim > 2 else -3)


@pytest.mark.parametrize("mode", ["rint", "round", "floor"])
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
@pytest.mark.parametrize("shape", [(4, 1024), (3, 1030), (1, 2)])
def test_cann_dynamic_dual_level(mode, dtype, shape):
    x = data(shape, 8, dtype)
    kw = dict(input_dtype="bf16") if dtype == "bf16" else {}
    got = mxq.cann.dynamic_dual_level_mx_quant(x, round_mode=mode, **kw)
    same(got, run_cookbook("cann/dual_level_mx_quant.mlir",
                           f"dual_level_mx_quant_{mode}_{dtype}", x))
    assert got[0].shape == shape[:-1] + (shape[-1] // 2,)


def test_cann_smooth_and_rules():
    x = data((4, 1030), 9, "bf16")
    sm = data((1030,), 10, "bf16", edge=False)
    got = mxq.cann.dynamic_dual_level_mx_quant(x, sm, input_dtype="bf16")
    same(got, run_cookbook("cann/dual_level_mx_quant.mlir",
                           "dual_level_mx_quant_smooth_rint_bf16", x, sm))
    with pytest.raises(ValueError, match="round_mode"):
        mxq.cann.dynamic_dual_level_mx_quant(x, round_mode="ceil",
                                             input_dtype="bf16")
    with pytest.raises(ValueError, match="level0_block_size"):
        mxq.cann.dynamic_dual_level_mx_quant(x, level0_block_size=256,
                                             input_dtype="bf16")
    with pytest.raises(ValueError, match="must be even"):
        mxq.cann.dynamic_dual_level_mx_quant(data((2, 33), 9, "f16"))
    with pytest.raises(ValueError, match="float16, bfloat16"):
        mxq.cann.dynamic_dual_level_mx_quant(data((2, 32), 9))
    with pytest.raises(ValueError, match="empty"):
        mxq.cann.dynamic_dual_level_mx_quant(data((0, 32), 9, "f16"))


@pytest.mark.parametrize("shape", [(4, 50), (1, 1), (7, 129)])
def test_owlite_fake_fp8_quantize(shape):
    x = data(shape, 12)
    step = np.array([0.03125], np.float32)
    zp = np.array([0.0], np.float32)
    got = mxq.owlite.fake_fp8_quantize(x, step, zp, -448.0, 448.0)
    same((got,), run_cookbook("owlite/fake_fp8_quantize.mlir",
                              "fake_fp8_per_tensor_f32", x, step, zp))
    steps = np.linspace(0.01, 4, shape[0]).astype(np.float32)
    zps = np.zeros(shape[0], np.float32)
    got = mxq.owlite.fake_fp8_quantize(x, steps, zps, -448.0, 448.0, axis=0)
    same((got,), run_cookbook("owlite/fake_fp8_quantize.mlir",
                              "fake_fp8_per_channel_f32", x, steps, zps))
