"""Runs every function of an MLIR file through mxq-gpu-pipeline for a chip
and assembles each PTX module with ptxas -v, counting the kernels ptxas
rejects and those with a stack frame or spills (local memory).
usage: assemble_all.py MXQ_OPT PTXAS FILE CHIP WORKDIR"""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
mxq_opt, ptxas, mlir, chip, work = sys.argv[1:6]
os.makedirs(work, exist_ok=True)
out = os.path.join(work, os.path.basename(mlir) + "." + chip + ".mlir")
p = subprocess.run([mxq_opt, mlir, f"--mxq-gpu-pipeline=chip={chip}", "-o", out],
                   capture_output=True, text=True)
if p.returncode:
    sys.exit(f"mxq-gpu-pipeline failed on {mlir}: {p.stderr}")
ptx = os.path.join(work, os.path.basename(mlir) + "." + chip + ".ptx")
subprocess.run([sys.executable, os.path.join(here, "extract_ptx.py"), out, ptx],
               check=True, capture_output=True)
modules = [f for f in os.listdir(work)
           if f.startswith(os.path.basename(ptx))]
bad = local = 0
for m in sorted(modules):
    q = subprocess.run([ptxas, f"-arch={chip}", "-v", os.path.join(work, m),
                        "-o", os.devnull], capture_output=True, text=True)
    if q.returncode:
        bad += 1
        print(f"FAIL {m}: {q.stderr.strip()[:300]}")
    elif re.search(r"[1-9][0-9]* bytes (stack frame|spill)", q.stderr):
        local += 1
        print(f"LOCAL MEMORY {m}: {q.stderr.strip()[:300]}")
print(f"{len(modules)} PTX modules for {chip}, {bad} rejected by ptxas, "
      f"{local} using local memory")
sys.exit(1 if bad or local else 0)
