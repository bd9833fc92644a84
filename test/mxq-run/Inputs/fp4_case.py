"""make DIR: writes DIR/x.npy (bf16 2 x 64 on the E2M1 grid times 2^k).
check DIR: checks the packed codes, the pair-layout scales and the round trip."""
import os
import sys
import numpy as np

GRID = [0, 0.5, 1, 1.5, 2, 3, 4, 6]
mode, d = sys.argv[1], sys.argv[2]
vals = np.array([GRID[i % 8] * (-1 if i % 16 >= 8 else 1) for i in range(64)],
                dtype=np.float32)
x = np.stack([vals, vals * 2.0 ** -10])
if mode == "make":
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, "x.npy"),
            (x.view(np.uint32) >> 16).astype(np.uint16))
    sys.exit(0)
q = np.load(os.path.join(d, "out/result0.npy"))
s = np.load(os.path.join(d, "out/result1.npy"))
y = np.load(os.path.join(d, "out/result2.npy"))
assert q.dtype == np.uint8 and q.shape == (2, 32), q.shape
# element 0 (+0, code 0) low, element 1 (+0.5, code 1) high.
assert q[0, 0] == 0x10, hex(q[0, 0])
assert q[0, 1] == 0x32, hex(q[0, 1])
assert s.shape == (2, 1, 2) and s[0, 0].tolist() == [127, 127], s
assert s[1, 0].tolist() == [117, 117], s
back = (y.astype(np.uint32) << 16).view(np.float32)
assert np.array_equal(back, x), (back, x)
print("fp4 OK")
