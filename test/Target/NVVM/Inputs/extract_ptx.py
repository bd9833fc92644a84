"""Writes the PTX that gpu-module-to-binary{format=isa} embedded in an MLIR
file (argv[1]) to argv[2] (the first module; further ones to argv[2].N).
With "-" for both, reads standard input and writes every module, one after
the other, to standard output (for FileCheck)."""
import re
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])

text = sys.stdin.read() if sys.argv[1] == "-" else open(sys.argv[1]).read()
objects = re.findall(r'assembly = "((?:[^"\\]|\\.)*)"', text)
if not objects:
    sys.exit("no #gpu.object with PTX assembly found in " + sys.argv[1])


from extract_ptx_lib import unescape  # noqa: E402



if sys.argv[2] == "-":
    for obj in objects:
        sys.stdout.write(unescape(obj))
    sys.exit(0)

for i, obj in enumerate(objects):
    path = sys.argv[2] if i == 0 else f"{sys.argv[2]}.{i}"
    with open(path, "w") as f:
        f.write(unescape(obj))
print(len(objects), "PTX module(s)")
