"""Runs every function of an MLIR file through mxq-gpu-pipeline for a chip
and assembles each PTX module with ptxas. usage: assemble_all.py MXQ_OPT
PTXAS FILE CHIP WORKDIR"""
import os
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
bad = 0
for m in sorted(modules):
    q = subprocess.run([ptxas, f"-arch={chip}", os.path.join(work, m), "-o",
                        os.devnull], capture_output=True, text=True)
    if q.returncode:
        bad += 1
        print(f"FAIL {m}: {q.stderr.strip()[:300]}")
print(f"{len(modules)} PTX modules for {chip}, {bad} rejected by ptxas")
sys.exit(1 if bad else 0)
