"""Runs one function with --num-threads 1, 2, 3 and 0 (every core) on the CPU
target and fails unless every run's results are byte-identical.

usage: thread_counts.py MXQ_RUN WORKDIR FILE.mlir ENTRY INPUT.npy...

MXQ_RUN_FLAGS adds flags to every run (e.g. "--tile-sizes=8,64")."""
import filecmp
import os
import subprocess
import sys

mxq_run, work, mlir, entry = sys.argv[1:5]
inputs = sys.argv[5:]
outs = []
for threads in (1, 2, 3, 0):
    out = os.path.join(work, f"{entry}.t{threads}")
    cmd = [mxq_run, mlir, "--entry", entry, "--output-dir", out,
           f"--num-threads={threads}"] + sum((["--input", i] for i in inputs), [])
    cmd += os.environ.get("MXQ_RUN_FLAGS", "").split()
    subprocess.run(cmd, check=True)
    outs.append(out)
names = sorted(os.listdir(outs[0]))
assert names, "no results"
for out in outs[1:]:
    for n in names:
        if not filecmp.cmp(os.path.join(outs[0], n), os.path.join(out, n),
                           shallow=False):
            sys.exit(f"{entry}: {n} differs between 1 thread and {out}")
print(f"{entry}: {len(names)} results identical on 1, 2, 3 threads and every core")
