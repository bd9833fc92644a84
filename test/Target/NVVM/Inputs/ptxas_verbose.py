"""Assembles every PTX module embedded in an MLIR file (argv[3]) with
`ptxas -arch=argv[2] -v` (argv[1] is ptxas) in module order and prints what
ptxas reports: registers, stack frame and spills per entry function."""
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, __file__.rsplit("/", 1)[0])

ptxas, arch, path = sys.argv[1:4]
text = open(path).read()
objects = re.findall(r'assembly = "((?:[^"\\]|\\.)*)"', text)
if not objects:
    sys.exit("no #gpu.object with PTX assembly found in " + path)
from extract_ptx_lib import unescape  # noqa: E402

for obj in objects:
    with tempfile.NamedTemporaryFile("w", suffix=".ptx") as f:
        f.write(unescape(obj))
        f.flush()
        p = subprocess.run([ptxas, "-arch=" + arch, "-v", f.name, "-o",
                            "/dev/null"], capture_output=True, text=True)
        sys.stdout.write(p.stdout + p.stderr)
        if p.returncode != 0:
            sys.exit(p.returncode)
