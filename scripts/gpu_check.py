"""Runs the cookbook differential tests (test/CPU/cookbook-*.test) with the
compiled side on the GPU and the CPU target as the baseline.

usage: gpu_check.py BUILD_DIR [--chip CHIP]
Exit status: 0 all equal, 1 a difference or failure, 3 no GPU."""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    build = sys.argv[1]
    flags = ["--target=nvvm"] + sys.argv[2:]
    mxq_run = os.path.join(build, "bin", "mxq-run")
    # Is there a GPU? (mxq-run says why not, e.g. no libcuda.so.1.)
    probe = subprocess.run(
        [mxq_run, os.path.join(ROOT, "examples", "quickstart.mlir"),
         "--entry", "quantize_tensor_bf16", "--input",
         os.path.join(ROOT, "examples", "data", "quickstart_x.npy"),
         "--output-dir", tempfile.mkdtemp()] + flags,
        capture_output=True, text=True)
    if probe.returncode != 0 and re.search(
            r"no CUDA driver|cuInit failed|sees no GPU|no GPU to ask",
            probe.stderr):
        print(probe.stderr.strip())
        return 3
    env = dict(os.environ, MXQ_RUN_FLAGS=" ".join(flags), MXQ_BASELINE="cpu")
    failed = 0
    for test in sorted(glob.glob(os.path.join(ROOT, "test", "CPU",
                                              "cookbook-*.test"))):
        for line in open(test):
            m = re.match(r"#\s*RUN:\s*%PYTHON %S/Inputs/differential.py mxq-run "
                         r"(.*?)\s*\|\s*FileCheck", line)
            if not m:
                continue
            args = shlex.split(m.group(1).replace(
                "%mxq_src_root", ROOT).replace("%t", tempfile.mkdtemp()))
            cmd = [sys.executable,
                   os.path.join(ROOT, "test", "CPU", "Inputs",
                                "differential.py"), mxq_run] + args
            p = subprocess.run(cmd, env=env, capture_output=True, text=True)
            name = os.path.basename(args[0])
            print(f"{name}: {p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr.strip()}")
            if p.returncode != 0:
                print(p.stdout + p.stderr)
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
