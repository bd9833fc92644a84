"""Builds a self-contained bundle for running the GPU check on a machine that
has an NVIDIA driver, Python and NumPy but no LLVM or MLIR (the device
machines this project is lent).

usage: gpu_prepare.py BUILD_DIR OUT_DIR [--chip sm_90a] [--size 8192]

Here (with the build): every cookbook function of test/CPU/cookbook-*.test
is compiled ahead of time for the chip (mxq-run --target=nvvm --emit-library),
its differential inputs (edge cases and random data, aligned and ragged
shapes) are generated, and the CPU target's outputs computed as the expected
bytes; the three benchmark kernels (MXFP8, dual, FP4 quantize of a bf16
N x N input, static shapes) are compiled too. OUT_DIR gets mxq-gpu-launch,
the libraries, the data and run.py, which runs everything there:

    python3 OUT_DIR/run.py"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "CPU", "Inputs"))
import numpy as np  # noqa: E402
import differential  # noqa: E402


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"gpu_prepare: {' '.join(cmd)} failed:\n{p.stderr}")


def main():
    build, out = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    chip = args[args.index("--chip") + 1] if "--chip" in args else "sm_90a"
    size = int(args[args.index("--size") + 1]) if "--size" in args else 8192
    mxq_run = os.path.join(build, "bin", "mxq-run")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "bin"))
    shutil.copy(os.path.join(build, "bin", "mxq-gpu-launch"),
                os.path.join(out, "bin"))
    shutil.copy(os.path.join(ROOT, "scripts", "gpu_run_bundle.py"),
                os.path.join(out, "run.py"))
    cases = []
    for test in sorted(os.listdir(os.path.join(ROOT, "test", "CPU"))):
        if not test.startswith("cookbook-"):
            continue
        for line in open(os.path.join(ROOT, "test", "CPU", test)):
            m = re.match(r"#\s*RUN:\s*(?:env MXQ_SHAPES=(\S+) )?"
                         r"%PYTHON %S/Inputs/differential.py "
                         r"mxq-run (\S+) %t (.*?)\s*\|\s*FileCheck", line)
            if not m:
                continue
            shapes = differential.SHAPES
            if m.group(1):  # a file of static shapes names its own
                shapes = [tuple(int(v) for v in sh.split(","))
                          for sh in m.group(1).split(";")]
            mlir = m.group(2).replace("%mxq_src_root", ROOT).replace(
                "%S", os.path.join(ROOT, "test", "CPU"))
            for spec in shlex.split(m.group(3)):
                entry, argspec = spec.split("=", 1)
                lib = os.path.join(out, "lib", entry + ".so")
                os.makedirs(os.path.dirname(lib), exist_ok=True)
                run([mxq_run, mlir, "--entry", entry, "--target=nvvm", "--chip", chip,
                     "--emit-library", lib])
                for (M, K) in shapes:
                    rng = np.random.default_rng(
                        zlib.crc32(f"{entry}{M}x{K}".encode()))
                    d = os.path.join(out, "data", f"{entry}_{M}x{K}")
                    os.makedirs(d, exist_ok=True)
                    inputs = [os.path.relpath(p, out) for p in
                              differential.write_inputs(rng, argspec, M, K, d)]
                    expected = os.path.join(d, "cpu")
                    run([mxq_run, mlir, "--entry", entry, "--output-dir",
                         expected] + sum((["--input", os.path.join(out, p)]
                                          for p in inputs), []))
                    cases.append({"lib": os.path.relpath(lib, out),
                                  "entry": entry, "shape": [M, K],
                                  "inputs": inputs,
                                  "expected": os.path.relpath(expected, out)})
    # The benchmark kernels, as mxq-gpu-bench builds them.
    n, bench = size, []
    N, B = str(n), str(n // 32)
    inp = f"tensor<{N}x{N}xbf16>"
    q8 = f"tensor<{N}x{N}xf8E4M3FN>"
    q4 = f"tensor<{N}x{N}xf4E2M1FN>"
    s = f"tensor<{N}x{B}xf8E8M0FNU>"
    sp = f"tensor<{N}x{n // 64}x2xf8E8M0FNU>"
    sw = f"tensor<{(n // 128) * (n // 32 // 4) * 512}xf8E8M0FNU>"
    kernels = {
        "mxfp8_quantize": (f"%q, %s = mxq.quantize %x axis = 1 scale = rceil : {inp} -> {q8}, {s}", [q8, s], 2 + 1 + 1 / 32),
        "mxfp8_dual_quantize": (f"%a, %b, %c, %d = mxq.dual_quantize %x scale = rceil : {inp} -> {q8}, {sw}, {q8}, {sw}", [q8, sw, q8, sw], 2 + 2 + 2 / 32),
        "fp4_quantize": (f"%q, %s = mxq.quantize %x axis = 1 scale = rceil inf = saturate layout = pairs : {inp} -> {q4}, {sp}", [q4, sp], 2 + 0.5 + 1 / 32),
    }
    os.makedirs(os.path.join(out, "bench"), exist_ok=True)
    for name, (body, results, bytes_per_elem) in kernels.items():
        names = ", ".join(f"%{c}" for c in ("q", "s") if len(results) == 2) \
            if len(results) == 2 else "%a, %b, %c, %d"
        text = (f"func.func @{name}(%x: {inp}) -> ({', '.join(results)}) {{\n"
                f"  {body}\n  return {names} : {', '.join(results)}\n}}\n")
        mlir = os.path.join(out, "bench", name + ".mlir")
        open(mlir, "w").write(text)
        run([mxq_run, mlir, "--entry", name, "--target=nvvm", "--chip", chip,
             "--emit-library", os.path.join(out, "bench", name + ".so")])
        bench.append({"lib": f"bench/{name}.so", "entry": name,
                      "bytes_per_element": bytes_per_elem})
    json.dump({"chip": chip, "size": n, "cases": cases, "bench": bench},
              open(os.path.join(out, "bundle.json"), "w"), indent=1)
    print(f"gpu_prepare: {len(cases)} cases and {len(bench)} benchmarks for "
          f"{chip} in {out}")


if __name__ == "__main__":
    main()
