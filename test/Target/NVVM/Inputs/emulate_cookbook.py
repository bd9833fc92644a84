"""Runs every cookbook function of test/CPU/cookbook-*.test on the SIMT
emulator (mxq-run --target=nvvm-emu --chip=CHIP) through differential.py,
against the reference, with the shapes each RUN line uses (the default
aligned and ragged ones, or its own MXQ_SHAPES).

usage: emulate_cookbook.py MXQ_RUN SRC_ROOT WORKDIR CHIP [FILTER]
Prints one line per RUN line and a total "N runs compared bit for bit,
F failures"; FILTER keeps the test files whose name contains it."""
import os
import re
import subprocess
import sys

mxq_run, root, work, chip = sys.argv[1:5]
only = sys.argv[5] if len(sys.argv) > 5 else ""
cpu = os.path.join(root, "test", "CPU")
runs = failures = 0
for test in sorted(os.listdir(cpu)):
    if not test.startswith("cookbook-") or only not in test:
        continue
    for n, line in enumerate(open(os.path.join(cpu, test))):
        m = re.match(r"#\s*RUN:\s*(?:env MXQ_SHAPES=(\S+) )?"
                     r"%PYTHON %S/Inputs/differential.py "
                     r"mxq-run (\S+) %t (.*?)\s*\|\s*FileCheck", line)
        if not m:
            continue
        env = dict(os.environ)
        env["MXQ_RUN_FLAGS"] = f"--target=nvvm-emu --chip={chip}"
        if m.group(1):
            env["MXQ_SHAPES"] = m.group(1)
        mlir = m.group(2).replace("%mxq_src_root", root).replace("%S", cpu)
        cmd = (f"{sys.executable} {cpu}/Inputs/differential.py {mxq_run} "
               f"{mlir} {work}/{test}.{n} {m.group(3)}")
        p = subprocess.run(cmd, shell=True, env=env, capture_output=True,
                           text=True)
        out = p.stdout + p.stderr
        r = re.search(r"(\d+) runs compared bit for bit, (\d+) failures", out)
        if p.returncode or not r:
            print(f"{test}:{n + 1}: ERROR\n{out[-3000:]}")
            failures += 1
            continue
        runs += int(r.group(1))
        failures += int(r.group(2))
        print(f"{test}:{n + 1}: {r.group(0)}")
        if int(r.group(2)):
            print(out[-3000:])
print(f"{runs} runs compared bit for bit, {failures} failures")
