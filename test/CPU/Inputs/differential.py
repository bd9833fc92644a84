"""Differential test: runs functions through mxq-run's compiled CPU path and
through its C++ reference, on edge-case and random data, for several shapes,
and compares every result byte for byte.

usage: differential.py MXQ_RUN FILE.mlir WORKDIR ENTRY=ARG;ARG;... [...]
An ARG is KIND:SHAPE with SHAPE a comma list of Python expressions in M and K,
KIND one of f32 f16 bf16 (data with edge cases), step (positive f32),
zp (small f32), codes (random code bytes), fp4 (random packed FP4 bytes),
scales (random E8M0 bytes), bytes (any byte: E4M3 scales), sf (fp32 block scales), amax (a stored amax: positive f32, a zero, a
subnormal and Inf among them), pts (torchao's per_tensor_scale). An empty
SHAPE is rank 0.
Shapes (M, K) default to a set of aligned and ragged ones; MXQ_SHAPES
overrides them ("M,K;M,K"). MXQ_RUN_FLAGS adds flags to the compiled runs
(e.g. "--tile-sizes=2,1", or "--target=nvvm" to run them on a GPU);
MXQ_COMPILE_FILE compiles another file (a transformed FILE.mlir) while the
reference runs FILE.mlir. MXQ_BASELINE=cpu compares with the compiled CPU
target instead of the reference (the GPU check: GPU against CPU bytes)."""
import os
import zlib
import subprocess
import sys
import numpy as np

SHAPES = [(1, 32), (3, 64), (5, 100), (64, 96), (130, 70), (2, 1030)]
if os.environ.get("MXQ_SHAPES"):
    SHAPES = [tuple(int(v) for v in s.split(","))
              for s in os.environ["MXQ_SHAPES"].split(";")]


def bf16_bits(a):
    b = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    r[np.isnan(a)] = 0x7FC0
    return r


def edge_data(rng, shape, dtype):
    """Random values over a wide exponent range with whole blocks of the edge
    cases: zeros, a NaN, an infinity, subnormals, huge values, grid ties."""
    n = int(np.prod(shape))
    x = (rng.standard_normal(n) *
         np.exp2(rng.integers(-30, 30, n))).astype(np.float32)
    tiny = {"f32": 2.0 ** -149, "f16": 2.0 ** -24, "bf16": 2.0 ** -133}[dtype]
    huge = {"f32": 3.0e38, "f16": 60000.0, "bf16": 3.0e38}[dtype]
    for start in range(0, n, 32):
        kind = rng.integers(0, 12)
        blk = slice(start, min(n, start + 32))
        m = blk.stop - blk.start
        if kind == 0:
            x[blk] = 0.0
            x[blk][rng.random(m) < 0.5] = -0.0
        elif kind == 1:
            x[start + rng.integers(0, m)] = np.nan
        elif kind == 2:
            x[start + rng.integers(0, m)] = np.inf * rng.choice([-1, 1])
        elif kind == 3:
            x[blk] = tiny * rng.integers(-4, 5, m)
        elif kind == 4:
            x[blk] = huge * rng.uniform(-1, 1, m)
        elif kind == 5:  # ties of the small grids, scaled by a power of two
            x[blk] = (rng.integers(-64, 64, m) + 0.5) * 2.0 ** rng.integers(-8, 8)
        elif kind == 6:
            x[blk] = np.float32(480.0) * rng.choice([-1, 1], m)
    x = x.reshape(shape)
    if dtype == "f32":
        return x
    if dtype == "f16":
        with np.errstate(over="ignore"):
            return x.astype(np.float16)
    return bf16_bits(x)


def make_arg(rng, kind, shape):
    if kind in ("f32", "f16", "bf16"):
        return edge_data(rng, shape, kind)
    if kind == "step":
        return np.exp2(rng.integers(-6, 6, shape)).astype(np.float32) * \
            rng.uniform(0.5, 1.5, shape).astype(np.float32)
    if kind == "zp":
        return rng.choice(np.array([0.0, 0.5, -1.25], dtype=np.float32), shape)
    if kind == "codes":
        return rng.integers(0, 256, shape, dtype=np.uint8)
    if kind == "bytes":  # every byte value (E4M3 scales: NaN 0x7F too)
        return rng.integers(0, 256, shape, dtype=np.uint8)
    if kind == "codes6":
        return rng.integers(0, 64, shape, dtype=np.uint8)
    if kind == "fp4":
        shape = list(shape)
        shape[-1] = (shape[-1] + 1) // 2
        return rng.integers(0, 256, shape, dtype=np.uint8)
    if kind == "amax":  # an amax TE stores (rank 0 or per row): wide
        # magnitudes with a zero, a subnormal and an infinity where there is
        # room, as a stored amax may be
        a = np.exp2(rng.integers(-30, 30, shape)).astype(np.float32) * \
            rng.uniform(0.5, 1.5, shape).astype(np.float32)
        flat = a.reshape(-1)
        for i, v in enumerate([0.0, 1e-40, np.inf][:max(0, flat.size - 1)]):
            flat[1 + i] = v
        return a
    if kind == "pts":  # torchao's per_tensor_scale, amax / 2688
        return (np.exp2(rng.integers(-20, 20, shape)) *
                rng.uniform(0.5, 1.5, shape) / 2688).astype(np.float32)
    if kind == "sf":  # stored fp32 block scales: wide magnitudes, powers of
        # two, and a zero, a subnormal, an infinity and a NaN where there is
        # room
        a = (np.exp2(rng.integers(-40, 40, shape)) *
             rng.choice([1.0, 1.0, 1.3, 0.77], shape)).astype(np.float32)
        flat = a.reshape(-1)
        for i, v in enumerate([0.0, 1e-40, np.inf, np.nan]
                              [:max(0, flat.size - 1)]):
            flat[1 + i] = v
        return a
    if kind == "scales":
        s = rng.integers(100, 150, shape, dtype=np.uint8)
        s[rng.random(shape) < 0.05] = 255
        s[rng.random(shape) < 0.05] = 0
        s[rng.random(shape) < 0.05] = 254
        return s
    raise SystemExit(f"unknown argument kind {kind}")


def write_inputs(rng, args, M, K, d):
    """Writes the arguments `args` ("KIND:SHAPE;...") for shape (M, K) to
    d/arg<i>.npy and returns their paths."""
    paths = []
    for i, a in enumerate(args.split(";")):
        kind, shape = a.split(":")
        dims = tuple(int(eval(e, {}, {"M": M, "K": K}))
                     for e in shape.split(",") if e.strip())
        path = os.path.join(d, f"arg{i}.npy")
        np.save(path, make_arg(rng, kind, dims))
        paths.append(path)
    return paths


def main():
    mxq_run, mlir, work = sys.argv[1:4]
    if os.sep not in mxq_run:  # a tool name: find it on PATH
        import shutil
        mxq_run = shutil.which(mxq_run) or mxq_run
    failures = 0
    runs = 0
    for spec in sys.argv[4:]:
        entry, args = spec.split("=", 1)
        for (M, K) in SHAPES:
            rng = np.random.default_rng(zlib.crc32(f"{entry}{M}x{K}".encode()))
            d = os.path.join(work, f"{entry}_{M}x{K}")
            os.makedirs(d, exist_ok=True)
            cmd_inputs = []
            for path in write_inputs(rng, args, M, K, d):
                cmd_inputs += ["--input", path]
            outs = {}
            for mode in ("compiled", "reference"):
                out = os.path.join(d, mode)
                source = mlir
                if mode == "compiled" and os.environ.get("MXQ_COMPILE_FILE"):
                    source = os.environ["MXQ_COMPILE_FILE"]
                baseline = (["--target=reference"]
                            if os.environ.get("MXQ_BASELINE", "reference") ==
                            "reference" else [])
                cmd = [mxq_run, source, "--entry", entry, "--output-dir", out] + \
                    cmd_inputs + (baseline if mode == "reference"
                                  else os.environ.get("MXQ_RUN_FLAGS", "").split())
                p = subprocess.run(cmd, capture_output=True, text=True)
                if p.returncode != 0:
                    print(f"FAIL {entry} {M}x{K} {mode}: {p.stderr.strip()}")
                    failures += 1
                    break
                outs[mode] = sorted(os.listdir(out))
            else:
                runs += 1
                for name in outs["reference"]:
                    a = np.load(os.path.join(d, "compiled", name))
                    b = np.load(os.path.join(d, "reference", name))
                    if a.shape != b.shape or a.dtype != b.dtype or \
                            a.tobytes() != b.tobytes():
                        bad = np.argwhere(a.view(np.uint8) != b.view(np.uint8)) \
                            if a.shape == b.shape else "shape"
                        print(f"FAIL {entry} {M}x{K} {name}: compiled and "
                              f"reference differ (shapes {a.shape} {b.shape}, "
                              f"first differing bytes {bad[:4] if not isinstance(bad, str) else bad})")
                        failures += 1
    print(f"{runs} runs compared bit for bit, {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
