"""Writes examples/data/quickstart_x.npy: a 4 x 64 bf16 matrix (as <u2 bit
patterns) with one ordinary row and rows holding the edge cases of MX
quantization (a NaN, an infinity, zeros and subnormals, a value that
saturates)."""
import os
import numpy as np


def bf16_bits(a):
    """Round-to-nearest-even fp32 -> bf16 bit patterns."""
    b = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    nan = np.isnan(np.asarray(a, dtype=np.float32))
    rounded[nan] = 0x7FC0
    return rounded.astype(np.uint16)


x = np.zeros((4, 64), dtype=np.float32)
x[0] = np.linspace(-3.0, 3.0, 64)
x[1, :32] = 1.0
x[1, 5] = np.nan
x[1, 32:] = np.float32(2.0 ** -133)
x[2, :32] = np.arange(32)
x[2, 7] = np.inf
x[2, 32:] = 480.0
x[3] = 0.0
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "quickstart_x.npy")
np.save(out, bf16_bits(x))
print(out)
