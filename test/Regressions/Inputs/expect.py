"""Runs functions through mxq-run (compiled for the CPU, and the reference)
and checks results against expected bytes: the harness of the issue
regression tests."""
import os
import subprocess
import numpy as np


class Expect:
    def __init__(self, mxq_run, mlir, work):
        self.mxq_run, self.mlir, self.work = mxq_run, mlir, work
        self.failures = 0

    def run(self, entry, inputs, mode, extra=()):
        d = os.path.join(self.work, entry, mode)
        os.makedirs(d, exist_ok=True)
        paths = []
        for i, a in enumerate(inputs):
            p = os.path.join(self.work, entry, f"arg{i}.npy")
            np.save(p, a)
            paths.append(p)
        cmd = [self.mxq_run, self.mlir, "--entry", entry, "--output-dir", d]
        for p in paths:
            cmd += ["--input", p]
        cmd += list(extra) + (["--target=reference"] if mode == "reference"
                              else [])
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            return None, p.stderr.strip()
        n = len([f for f in os.listdir(d) if f.startswith("result")])
        return [np.load(os.path.join(d, f"result{i}.npy"))
                for i in range(n)], ""

    def __call__(self, name, entry, inputs, expected, extra=()):
        """`expected`: result index -> (index expression or None, bytes)."""
        for mode in ("compiled", "reference"):
            out, err = self.run(entry, inputs, mode, extra)
            if out is None:
                print(f"FAIL {name} ({mode}): {err}")
                self.failures += 1
                continue
            for i, (where, want) in expected.items():
                got = out[i] if where is None else out[i][where]
                want = np.asarray(want, dtype=got.dtype)
                if got.shape != want.shape or got.tobytes() != want.tobytes():
                    print(f"FAIL {name} ({mode}) result{i}: expected "
                          f"{want.ravel()[:8]}, got {got.ravel()[:8]}")
                    self.failures += 1
        print(f"checked {name}")
