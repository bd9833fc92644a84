"""Shared helpers: random and edge-case data, and mxq-run on a cookbook
function (the bytes every Python function must equal)."""
import os
import pathlib
import subprocess
import tempfile

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def mxq_run_path():
    path = os.environ.get("MXQ_RUN")
    if path:
        return path
    return str(ROOT / "build" / "bin" / "mxq-run")


def run_cookbook(file, entry, *inputs, target="cpu", fp4_length=None):
    """Runs @entry of examples/<file> through mxq-run on `inputs` (NumPy
    arrays in mxq-run's conventions) and returns its results."""
    with tempfile.TemporaryDirectory() as tmp:
        args = [mxq_run_path(), str(EXAMPLES / file), "--entry", entry,
                "--output-dir", tmp, f"--target={target}"]
        if fp4_length is not None:
            args.append(f"--fp4-length={fp4_length}")
        for i, a in enumerate(inputs):
            p = os.path.join(tmp, f"in{i}.npy")
            np.save(p, np.ascontiguousarray(a))
            args += ["--input", p]
        done = subprocess.run(args, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        results = []
        i = 0
        while os.path.exists(os.path.join(tmp, f"result{i}.npy")):
            results.append(np.load(os.path.join(tmp, f"result{i}.npy")))
            i += 1
        return results


def to_bf16(a):
    """float32 -> bf16 bit patterns (uint16), round to nearest even."""
    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    rounded = bits + 0x7FFF + ((bits >> 16) & 1)
    out = (rounded >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(a, dtype=np.float32))
    out[nan] = 0x7FC0
    return out


EDGE = np.array([0.0, -0.0, 1e-40, -1e-40, 1.5e-45, np.inf, -np.inf, np.nan,
                 448.0, 449.0, 464.0, -480.0, 1e30, 3.0e38, 6.0, 0.25, 0.375,
                 0.0625, 1.0, -1.0, 2.5, 3.5, -5.0, 7e-3],
                dtype=np.float32)


def data(shape, seed, dtype="f32", edge=True):
    """Random data of `shape` with scales spread over many binades, and,
    with `edge`, the edge values (zeros, subnormals, Inf, NaN, saturation,
    ties) sprinkled in. dtype: f32, f16 (float16) or bf16 (uint16 bits)."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) *
         np.exp2(rng.integers(-20, 20, size=shape))).astype(np.float32)
    if edge and x.size:
        flat = x.reshape(-1)
        idx = rng.choice(flat.size, size=min(flat.size, 3 * len(EDGE)),
                         replace=False)
        flat[idx] = np.resize(EDGE, len(idx))
        # A zero block and a tie-heavy block where there is room.
        if flat.size >= 96:
            flat[32:64] = 0.0
            flat[64:96] = np.arange(32, dtype=np.float32) * 0.5 + 0.25
    if dtype == "f32":
        return x
    if dtype == "f16":
        with np.errstate(over="ignore"):
            return x.astype(np.float16)
    return to_bf16(x)


@pytest.fixture
def cookbook():
    return run_cookbook
