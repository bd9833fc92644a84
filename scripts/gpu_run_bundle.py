"""Runs a bundle made by scripts/gpu_prepare.py on a machine with an NVIDIA
GPU (needs its driver, Python and NumPy; no LLVM, no MLIR): every cookbook
case through mxq-gpu-launch, its bytes compared with the CPU target's, then
the benchmark kernels on a bf16 N x N input against a device-to-device copy
of the same bytes in the same run.

usage: python3 run.py [--repeat 20]
Exit status: 0 when every case matched and every benchmark ran."""
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) \
        if "--repeat" in sys.argv else 20
    bundle = json.load(open(os.path.join(HERE, "bundle.json")))
    launch = os.path.join(HERE, "bin", "mxq-gpu-launch")
    failures = 0
    for case in bundle["cases"]:
        out = tempfile.mkdtemp()
        cmd = [launch, os.path.join(HERE, case["lib"]), "--output-dir", out]
        for p in case["inputs"]:
            cmd += ["--input", os.path.join(HERE, p)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        name = f"{case['entry']} {case['shape'][0]}x{case['shape'][1]}"
        if p.returncode:
            print(f"FAIL {name}: {p.stderr.strip()}")
            failures += 1
            continue
        expected = os.path.join(HERE, case["expected"])
        for f in sorted(os.listdir(expected)):
            a, b = np.load(os.path.join(out, f)), np.load(os.path.join(expected, f))
            if a.shape != b.shape or a.tobytes() != b.tobytes():
                where = np.argwhere(a.view(np.uint8) != b.view(np.uint8))[:4] \
                    if a.shape == b.shape else "shape"
                print(f"FAIL {name} {f}: GPU and CPU differ at {where}")
                failures += 1
    print(f"{len(bundle['cases'])} cases compared bit for bit with the CPU "
          f"target, {failures} failures")

    n = bundle["size"]
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((n, n)) * 3).astype(np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    bf16 = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    path = os.path.join(tempfile.mkdtemp(), "x.npy")
    np.save(path, bf16)
    print(f"bandwidth on {bundle['chip']}, bf16 {n} x {n}, {repeat} calls each")
    for b in bundle["bench"]:
        p = subprocess.run([launch, os.path.join(HERE, b["lib"]), "--input",
                            path, "--output-dir", tempfile.mkdtemp(),
                            "--repeat", str(repeat), "--copy-baseline"],
                           capture_output=True, text=True)
        k = re.search(r"kernels ([0-9.]+) ms per call, wall ([0-9.]+) ms",
                      p.stdout)
        c = re.search(r"copy of ([0-9]+) bytes: ([0-9.]+) ms", p.stdout)
        if p.returncode or not k or not c:
            print(f"FAIL {b['entry']}: {p.stdout}{p.stderr}")
            failures += 1
            continue
        kernel_ms, wall_ms = float(k.group(1)), float(k.group(2))
        copy_bytes, copy_ms = int(c.group(1)), float(c.group(2))
        copy_bw = 2 * copy_bytes / (copy_ms * 1e6)
        bw = b["bytes_per_element"] * n * n / (kernel_ms * 1e6)
        print(f"  {b['entry']:22s} kernels {kernel_ms:.4f} ms (wall "
              f"{wall_ms:.4f} ms), {bw:.0f} GB/s; copy {copy_ms:.4f} ms, "
              f"{copy_bw:.0f} GB/s; ratio {bw / copy_bw:.2f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
