"""The IR layer: contexts, modules, pipelines, compile, errors."""
import numpy as np
import pytest

import mxq

QUANT = """
func.func @q(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil
      : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
"""


def test_parse_print_roundtrip():
    ctx = mxq.Context()
    m = mxq.Module.parse(ctx, QUANT)
    text = str(m)
    assert "mxq.quantize %arg0 axis = 1 scale = rceil" in text
    assert str(mxq.parse(text, ctx)) == text


def test_run_pass_pipeline_lowers_to_llvm():
    m = mxq.parse(QUANT)
    m.run_pass_pipeline("builtin.module(mxq-cpu-pipeline)")
    text = str(m)
    assert "llvm.func @q" in text and "mxq." not in text


def test_pipeline_errors_are_value_errors():
    m = mxq.parse(QUANT)
    with pytest.raises(ValueError, match="cannot parse the pass pipeline"):
        m.run_pass_pipeline("builtin.module(no-such-pass)")
    with pytest.raises(ValueError, match="tile-sizes"):
        m.run_pass_pipeline("builtin.module(mxq-cpu-pipeline{tile-sizes=})")


def test_verifier_error_text():
    bad = QUANT.replace("tensor<?x?xf8E8M0FNU>", "tensor<?xf8E8M0FNU>")
    with pytest.raises(ValueError) as e:
        mxq.parse(bad)
    assert "error:" in str(e.value)
    with pytest.raises(ValueError, match="expected one of floor, rceil"):
        mxq.parse(QUANT.replace("rceil", "flor"))


def test_compile_and_call_every_runnable_target():
    x = np.random.default_rng(0).standard_normal((3, 70)).astype(np.float32)
    results = {}
    for target in mxq.target_names(runnable_only=True):
        k = mxq.compile(QUANT, "q", target)
        assert k.target == target
        results[target] = k(x)
    first = next(iter(results.values()))
    for r in results.values():
        assert all((a == b).all() for a, b in zip(r, first))
    assert {"cpu", "reference"} <= set(results)


def test_compile_errors():
    m = mxq.parse(QUANT)
    with pytest.raises(ValueError, match="unknown target 'tpu'"):
        mxq.compile(m, "q", "tpu")
    with pytest.raises(ValueError, match="no function @nope"):
        mxq.compile(m, "nope")
    k = mxq.compile(m, "q")
    with pytest.raises(ValueError, match="takes 1 arguments, but 2"):
        k(np.zeros((1, 32), np.float32), np.zeros((1, 32), np.float32))
    with pytest.raises(ValueError, match="not a NumPy array"):
        k([1.0, 2.0])
    with pytest.raises(ValueError, match="<f8"):
        k(np.zeros((1, 32), np.float64))
