#!/usr/bin/env python3
"""Replays the cases the fuzzers found (DIR/<case>/f.mlir and in<i>.npy,
the files MXQ_FUZZ_DUMP writes) on each target named and compares every
result with the reference's, byte for byte. Prints one line per case and
target and a summary; exits non-zero on any difference or failure.

    replay_regressions.py [--allow-refusals] MXQ_RUN DIR TARGET [TARGET ...]

With --allow-refusals, a target that refuses a case with a diagnostic (the
Ascend-like target's open refusals) is counted and listed, as mxq-sweep
--allow-refusals does; a wrong byte still fails.
"""
import filecmp
import os
import subprocess
import sys
import tempfile


def run(mxq_run, case, target, out):
    inputs = sorted(f for f in os.listdir(case) if f.startswith("in"))
    cmd = [mxq_run, os.path.join(case, "f.mlir"), "--entry", "f",
           "--output-dir", out, "--target=" + target]
    for f in inputs:
        cmd += ["--input", os.path.join(case, f)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stderr.strip()


def main():
    args = sys.argv[1:]
    allow = "--allow-refusals" in args
    args = [a for a in args if a != "--allow-refusals"]
    mxq_run, root, targets = args[0], args[1], args[2:]
    refused = 0
    cases = sorted(d for d in os.listdir(root)
                   if os.path.isdir(os.path.join(root, d)))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in cases:
            case = os.path.join(root, name)
            ref = os.path.join(tmp, name, "reference")
            rc, err = run(mxq_run, case, "reference", ref)
            if rc:
                print(f"{name}: the reference fails: {err}")
                bad += 1
                continue
            results = sorted(os.listdir(ref))
            for t in targets:
                out = os.path.join(tmp, name, t)
                rc, err = run(mxq_run, case, t, out)
                if rc and allow:
                    print(f"{name}: {t} refuses: {err}")
                    refused += 1
                    continue
                if rc:
                    print(f"{name}: {t} fails: {err}")
                    bad += 1
                    continue
                differ = [r for r in results
                          if not filecmp.cmp(os.path.join(ref, r),
                                             os.path.join(out, r),
                                             shallow=False)]
                if differ:
                    print(f"{name}: {t} differs from the reference in "
                          f"{', '.join(differ)}")
                    bad += 1
                else:
                    print(f"{name}: {t} matches the reference "
                          f"({len(results)} results)")
    print(f"{len(cases)} cases on {len(targets)} targets, {bad} failures"
          + (f", {refused} refused" if allow else ""))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
