"""Checks the bytes mxq-run wrote for the quick-start example (argv[1])."""
import sys
import numpy as np

q = np.load(sys.argv[1] + "/result0.npy")
s = np.load(sys.argv[1] + "/result1.npy")
assert q.dtype == np.uint8 and q.shape == (4, 64), (q.dtype, q.shape)
assert s.dtype == np.uint8 and s.shape == (4, 2), (s.dtype, s.shape)
# Row 0: amax 3 -> 3/448 rounds up to 2^-7 (byte 120); -3 * 2^7 = -384.
assert s[0].tolist() == [120, 120], s[0]
assert q[0, 0] == 0xFC, hex(q[0, 0])
# Row 1: a NaN makes its block NaN; 2^-133 (bf16 subnormal) -> byte 0, 2^-6.
assert s[1].tolist() == [255, 0], s[1]
assert (q[1, :32] == 0x7F).all()
assert (q[1, 32:] == 0x08).all()
# Row 2: an infinity gives the NaN scale (no saturation); 480 -> byte 128, 240.
assert s[2].tolist() == [255, 128], s[2]
assert (q[2, 32:] == 0x77).all()
# Row 3: zeros.
assert s[3].tolist() == [0, 0] and (q[3] == 0).all()
print("quickstart bytes OK")
