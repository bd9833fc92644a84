"""The four defects of issue 10, each with the bytes it must produce, through
mxq-run compiled for the CPU and through the reference.

usage: issue10.py MXQ_RUN FILE.mlir WORKDIR"""
import os
import sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from expect import Expect  # noqa: E402

expect = Expect(*sys.argv[1:4])
run = expect.run

# 1. bf16 subnormal inputs quantized along axis 0 with blocks of 96 and 160.
x = np.array([[0x0040, 0x0001, 0x8003, 0x007F]], dtype=np.uint16)
for blk in (96, 160):
    expect(f"bf16 axis 0 block {blk}", f"q_bf16_axis0_block{blk}", [x],
           {0: (None, np.array([[0x38, 0x08, 0x94, 0x40]], np.uint8))})
# The same column of subnormals in every lane of whole and ragged blocks.
col = np.tile(np.array([0x0040, 0x0001, 0x8003, 0x007F], np.uint16), (200, 1))
for blk in (96, 160):
    want_q = np.tile(np.array([0x38, 0x08, 0x94, 0x40], np.uint8), (200, 1))
    expect(f"bf16 axis 0 block {blk}, 200 rows", f"q_bf16_axis0_block{blk}",
           [col], {0: (None, want_q)})
expect("bf16 axis 0 block 96, static 200x4", "q_bf16_axis0_block96_static",
       [col], {0: (None, np.tile(np.array([0x38, 0x08, 0x94, 0x40], np.uint8),
                                 (200, 1)))})

# 2. Dequantize to bf16 along axis 0: subnormal results in every lane.
q = np.full((32, 1), 0x08, np.uint8)
s = np.array([[0x01]], np.uint8)
expect("dequantize bf16 axis 0 (32x1)", "dq_bf16_axis0", [q, s],
       {0: (None, np.full((32, 1), 0x0002, np.uint16))})
q = np.full((45, 3), 0x08, np.uint8)  # a whole block and a ragged tail
s = np.full((2, 3), 0x01, np.uint8)
expect("dequantize bf16 axis 0 (45x3, ragged)", "dq_bf16_axis0", [q, s],
       {0: (None, np.full((45, 3), 0x0002, np.uint16))})
q = np.full((96, 2), 0x08, np.uint8)
s = np.full((1, 2), 0x01, np.uint8)
expect("dequantize bf16 axis 0 block 96 (static)", "dq_bf16_axis0_block96",
       [q, s], {0: (None, np.full((96, 2), 0x0002, np.uint16))})
q = np.full((170, 2), 0x08, np.uint8)
s = np.full((2, 2), 110, np.uint8)  # 2^-6 * 2^-17 = 2^-23: f16 bits 0x0002
expect("dequantize f16 axis 0 block 160 (ragged)", "dq_f16_axis0_block160",
       [q, s], {0: (None, np.full((170, 2), 0x0002, np.uint16)
                    .view(np.float16))})

# 3. scale = even where rounding the amax carries into the Inf exponent.
for bits in (0x7F7FFFFF, 0x7F7F0000, 0x7F7C0000):
    x = np.zeros((1, 32), np.uint32)
    x[0, 0] = bits
    x = x.view(np.float32)
    expect(f"even, inf = nan, amax {bits:#x}", "even_nan", [x],
           {0: ((0, 0), 0x7F), 1: (None, np.array([[0xFF]], np.uint8))})
    expect(f"even, inf = saturate, amax {bits:#x}", "even_saturate", [x],
           {0: ((0, 0), 0x40 if bits != 0x7F7C0000 else 0x40),
            1: (None, np.array([[0xFE]], np.uint8))})
# Just below the carry (the e4m3 half ulp): the floor path, 254 - 8.
x = np.zeros((1, 32), np.uint32)
x[0, 0] = 0x7F77FFFF
x = x.view(np.float32)
expect("even below the carry", "even_nan", [x],
       {1: (None, np.array([[246]], np.uint8))})
# bf16 max 0x7F7F with FP4 (one mantissa bit): NaN scale, NaN element max.
x = np.zeros((1, 32), np.uint16)
x[0, 0] = 0x7F7F
expect("even, bf16 max, e2m1", "even_nan_bf16_e2m1", [x],
       {1: (None, np.array([[0xFF]], np.uint8))})

# 4. An odd-length FP4 result read back by mxq-run.
x = np.array([[1.0, -2.0, 6.0]], np.float32)
out, err = run("q_fp4_1x3", [x], "compiled")
if out is None:
    print(f"FAIL fp4 1x3 quantize: {err}")
    expect.failures += 1
else:
    codes, scales = out
    if codes.shape != (1, 2):
        print(f"FAIL fp4 1x3: packed codes of shape {codes.shape}")
        expect.failures += 1
    expect("fp4 1x3 read back (static)", "dq_fp4_1x3", [codes, scales],
           {0: (None, x)})
    expect("fp4 1x3 read back (dynamic, --fp4-length 3)", "dq_fp4_dynamic",
           [codes, scales], {0: (None, x)}, extra=["--fp4-length=3"])
print(f"{expect.failures} failures")
sys.exit(1 if expect.failures else 0)
