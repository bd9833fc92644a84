"""Packed FP4 on every target: the same bytes as the reference, two codes a
byte along the last axis (element 2i low), ceil(K/2) bytes a row and the
padding nibble of an odd row 0, on ragged shapes.

usage: packed_fp4.py MXQ_RUN MLIR OUTDIR"""
import os
import subprocess
import sys

import numpy as np

run, mlir, out = sys.argv[1:4]
targets = [("reference", []), ("cpu", ["--num-threads=1"]),
           ("cpu", ["--num-threads=2"]), ("nvvm-emu", ["--chip=sm_90"]),
           ("nvvm-emu", ["--chip=sm_100a"])]
rng = np.random.default_rng(4)
failures = runs = 0


def call(entry, inputs, target, flags, tag, extra=()):
    d = os.path.join(out, "%s-%s-%s" % (entry, tag, target + "".join(flags)))
    os.makedirs(d, exist_ok=True)
    cmd = [run, mlir, "--entry", entry, "--target=" + target,
           "--output-dir", d] + flags + list(extra)
    for i in inputs:
        cmd += ["--input", i]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return d


for (m, k) in [(1, 1), (3, 33), (5, 67), (64, 97), (33, 64), (7, 130)]:
    x = (rng.standard_normal((m, k)) * 4).astype(np.float32)
    x.flat[::7] = 0.0
    x.flat[3::11] = np.float32(1e-40)  # subnormal
    if x.size > 5:
        x.flat[5] = np.inf
    tag = "%dx%d" % (m, k)
    xin = os.path.join(out, "x-%s.npy" % tag)
    np.save(xin, x)
    entries = ["rows", "cols"] + (["static_rows"] if (m, k) == (3, 33) else [])
    for entry in entries:
        ref = None
        for target, flags in targets:
            d = call(entry, [xin], target, flags, tag)
            codes = np.load(os.path.join(d, "result0.npy"))
            runs += 1
            if codes.shape != (m, (k + 1) // 2):
                print("FAIL %s %s %s: codes of shape %s" % (entry, tag, target, codes.shape))
                failures += 1
                continue
            if k % 2 and np.any(codes[:, -1] >> 4):
                print("FAIL %s %s %s: a padding nibble is not 0" % (entry, tag, target))
                failures += 1
            if ref is None:
                ref = d
                continue
            for r in ("result0.npy", "result1.npy"):
                a = np.load(os.path.join(ref, r))
                b = np.load(os.path.join(d, r))
                if a.shape != b.shape or not np.array_equal(a, b):
                    print("FAIL %s %s %s%s %s differs from the reference" % (
                        entry, tag, target, "".join(flags), r))
                    failures += 1
        if entry == "rows":
            # Dequantize the packed codes back on every target.
            back_ref = None
            q = os.path.join(ref, "result0.npy")
            s = os.path.join(ref, "result1.npy")
            for target, flags in targets:
                d = call("back", [q, s], target, flags, tag,
                         ["--fp4-length=%d" % k])
                y = np.load(os.path.join(d, "result0.npy"))
                runs += 1
                if back_ref is None:
                    back_ref = y
                elif not np.array_equal(y.view(np.uint32), back_ref.view(np.uint32)):
                    print("FAIL back %s %s%s differs" % (tag, target, "".join(flags)))
                    failures += 1
print("%d packed-FP4 runs compared bit for bit, %d failures" % (runs, failures))
