"""Writes the .npy files the mxq-run tests read into the directory argv[1]."""
import os
import sys
import numpy as np

d = sys.argv[1]
os.makedirs(d, exist_ok=True)


def save(name, a):
    np.save(os.path.join(d, name), a)


save("f32_4x64.npy", np.ones((4, 64), dtype=np.float32))
save("f32_64.npy", np.ones((64,), dtype=np.float32))
save("bf16_4x64.npy", np.full((4, 64), 0x3F80, dtype=np.uint16))
save("bf16_4x63.npy", np.full((4, 63), 0x3F80, dtype=np.uint16))
save("f32_2.npy", np.ones((2,), dtype=np.float32))
save("f32_1.npy", np.ones((1,), dtype=np.float32))
save("e4m3_4x64.npy", np.full((4, 64), 0x38, dtype=np.uint8))
save("e8m0_4x3.npy", np.full((4, 3), 127, dtype=np.uint8))
np.save(os.path.join(d, "fortran.npy"),
        np.asfortranarray(np.ones((4, 64), dtype=np.float32)))
with open(os.path.join(d, "garbage.npy"), "wb") as f:
    f.write(b"this is not a numpy file")
with open(os.path.join(d, "f32_4x64.npy"), "rb") as f:
    good = f.read()
with open(os.path.join(d, "truncated.npy"), "wb") as f:
    f.write(good[:-10])


def header_only(path, shape):
    """A .npy file whose header claims `shape` (f32) over 16 data bytes."""
    h = ("{'descr': '<f4', 'fortran_order': False, 'shape': %s, }"
         % shape).encode()
    h += b" " * ((64 - (10 + len(h) + 1) % 64) % 64) + b"\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h +
                b"\0" * 16)


header_only(os.path.join(d, "overflow.npy"), "(4294967296, 4294967296)")
header_only(os.path.join(d, "huge_dim.npy"), "(99999999999999999999999, 4)")
