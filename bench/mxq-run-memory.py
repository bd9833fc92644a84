#!/usr/bin/python3
"""Peak resident memory of mxq-run against the bound of issue 16 item 5.

For the 8192 x 8192 bf16 MXFP8 quantize and dual quantize (or --size N), runs
mxq-run once on a tiny input (its fixed cost: the tool, LLVM, the JIT) and
once on the big one, each under getrusage, and prints the peak, the data the
run must hold (the input plus every result, in bytes), the bound (fixed cost
plus data, plus 10%) and the peak as a fraction of the bound (at most 1.0
meets it). Results are checked to have the expected sizes.

  bench/mxq-run-memory.py [--build build] [--size 8192] [--threads 1]
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CASES = [
    # name, file, entry, result bytes per input element
    ("MXFP8 quantize, bf16 in", "examples/quickstart.mlir",
     "quantize_tensor_bf16", 1 + 1 / 32),
    ("MXFP8 dual quantize, bf16 in", "examples/torch/quantize_tensor_dual.mlir",
     "quantize_tensor_dual_bf16", 2 + 2 / 32),
]


def peak_of(cmd):
    """Peak resident set (bytes) of one child process running `cmd`."""
    pid = os.fork()
    if pid == 0:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
        os.execv(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("mxq-run-memory: failed: " + " ".join(cmd))
    return usage.ru_maxrss * 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--size", type=int, default=8192)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    run = os.path.join(args.build, "bin", "mxq-run")
    n = args.size
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory() as tmp:
        def save(name, rows, cols):
            bits = (rng.standard_normal((rows, cols), dtype=np.float32) * 3)
            path = os.path.join(tmp, name)
            np.save(path, (bits.view(np.uint32) >> 16).astype(np.uint16))
            return path
        tiny, big = save("tiny.npy", 32, 64), save("big.npy", n, n)
        print(f"mxq-run peak resident memory, {n} x {n} bf16, "
              f"--num-threads={args.threads}")
        print(f"{'kernel':32} {'fixed MB':>9} {'data MB':>8} {'bound MB':>9} "
              f"{'peak MB':>8} {'peak/bound':>10}")
        for name, file, entry, out_per_elem in CASES:
            def cmd(inp, out):
                return [run, os.path.join(ROOT, file), "--entry", entry,
                        "--input", inp, "--output-dir", out,
                        f"--num-threads={args.threads}"]
            fixed = peak_of(cmd(tiny, os.path.join(tmp, "o-tiny")))
            out = os.path.join(tmp, "o-big")
            peak = peak_of(cmd(big, out))
            written = sum(np.load(os.path.join(out, f), mmap_mode="r").nbytes
                          for f in os.listdir(out))
            data = 2 * n * n + written
            expected = int(n * n * out_per_elem)
            if written != expected:
                sys.exit(f"mxq-run-memory: {name} wrote {written} bytes of "
                         f"results, expected {expected}")
            bound = (fixed + data) * 1.1
            mb = 1 << 20
            print(f"{name:32} {fixed / mb:9.0f} {data / mb:8.0f} "
                  f"{bound / mb:9.0f} {peak / mb:8.0f} {peak / bound:10.2f}")
            for f in os.listdir(out):
                os.remove(os.path.join(out, f))


if __name__ == "__main__":
    main()
