"""The shipped CANN kernels' rules (issue 15; mx-semantics.md section 10),
each with the bytes section 10 gives, compiled for the CPU and through the
reference.

usage: issue15.py MXQ_RUN FILE.mlir WORKDIR"""
import os
import sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from expect import Expect  # noqa: E402

expect = Expect(*sys.argv[1:4])


def bf16(values, n):
    """One row of n bf16 bit patterns: `values` first, the rest 0."""
    x = np.zeros(n, np.float32)
    x[:len(values)] = values
    b = x.view(np.uint32).astype(np.uint64)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    r[np.isnan(x)] = 0x7FC0
    return r.reshape(1, n)


def row(codes, n=32):
    c = np.zeros(n, np.uint8)
    c[:len(codes)] = codes
    return c.reshape(1, n)


def fp4(nibbles, n=32):
    c = np.zeros(n, np.uint8)
    c[:len(nibbles)] = nibbles
    return (c[0::2] | (c[1::2] << 4)).reshape(1, n // 2)


# D2: the three underflow rules of the floor scale (section 10.2). Every
# row's scale byte is 00 under every rule.
D2 = [
    ("e4m3_bf16", [2.0**-120, -2.0**-121, 1.5 * 2.0**-125],
     [0x70, 0xE8, 0x4C], [0x70, 0xE8, 0x4C], [0x00, 0x80, 0x00]),
    ("e4m3_f32", [1e-36, -3e-37], [0x73, 0xE5], [0x73, 0xE5], [0x00, 0x80]),
    ("e2m1_bf16", [2.0**-125, 3 * 2.0**-127], [6, 5], [6, 5], [0, 0]),
    ("e5m2_bf16", [2.0**-112], [0x78], [0x78], [0x00]),
    ("e4m3_bf16", [2.0**-119], [0x78], [0x78], [0x00]),
    ("e4m3_bf16", [2.0**-126, -2.0**-127], [0x40, 0xB8], [0x40, 0xB8],
     [0x00, 0x80]),
    ("e4m3_bf16", [-2.0**-127, 2.0**-130], [0xB8, 0x20], [0x80, 0x00],
     [0x80, 0x00]),
]
for k, (kind, values, keep, e0, le) in enumerate(D2):
    fmt, src = kind.split("_")
    x = bf16(values, 32) if src == "bf16" else \
        np.array([values + [0.0] * (32 - len(values))], np.float32)
    for rule, codes in (("keep", keep), ("flush_e0", e0),
                        ("flush_le_emax", le)):
        want = fp4(codes) if fmt == "e2m1" else row(codes)
        expect(f"D2 row {k} {rule}", f"floor_{kind}_{rule}", [x],
               {0: (None, want), 1: (None, np.array([[0]], np.uint8))})
# 2^-118 has E = 9 > 8: byte 01, code 78 under all three rules.
for rule in ("keep", "flush_e0", "flush_le_emax"):
    expect(f"D2 2^-118 {rule}", f"floor_e4m3_bf16_{rule}",
           [bf16([2.0**-118], 32)],
           {0: (None, row([0x78])), 1: (None, np.array([[1]], np.uint8))})

# D3: the elements of a NaN-scale block are coded 0x00 (section 10.3).
ones = [1.0] * 32
for bad in (np.nan, np.inf):
    v = list(ones)
    v[3] = bad
    x = bf16(v, 32)
    expect(f"D3 e4m3 x3={bad} nan_element=max", "nan_e4m3_max", [x],
           {0: (None, np.full((1, 32), 0x7F, np.uint8)),
            1: (None, np.array([[0xFF]], np.uint8))})
    expect(f"D3 e4m3 x3={bad} nan_element=zero", "nan_e4m3_zero", [x],
           {0: (None, np.zeros((1, 32), np.uint8)),
            1: (None, np.array([[0xFF]], np.uint8))})
    expect(f"D3 e2m1 x3={bad} nan_element=zero", "nan_e2m1_zero", [x],
           {0: (None, np.zeros((1, 16), np.uint8)),
            1: (None, np.array([[0xFF]], np.uint8))})


def level1(b0, b1):
    want = np.zeros((1, 8, 2), np.uint8)
    want[0, 0] = [b0, b1]
    return want


def level0(bits):
    return np.array([[bits]], np.uint32).view(np.float32)


# D1: DualLevel NaN groups are coded 0x0 (section 10.1), 512-element rows.
for name, x, entry, l0 in (
        ("x0=NaN, x1=1.0", bf16([np.nan, 1.0], 512), "dl_rint_bf16",
         0x3E2AAAAB),
        ("x0=2^-124", bf16([2.0**-124], 512), "dl_rint_bf16", 0x00000000),
        ("x0=+Inf, x1=3.0 (f16)",
         np.array([[np.inf, 3.0] + [0.0] * 510], np.float16), "dl_rint_f16",
         0x3F000000)):
    for suffix, nibble in (("", 0x77), ("_kernel", 0x00)):
        y = np.zeros((1, 256), np.uint8)
        y[0, :16] = nibble
        expect(f"D1 {name}{suffix}", entry + suffix, [x],
               {0: (None, y), 1: (None, level0(l0)),
                2: (None, level1(0xFF, 0x00))})

# D4: the level-0 division flushes subnormals (section 10.4).
D4 = [
    ("[1.5*2^-124, 2^-127] rint", "dl_rint_bf16",
     bf16([1.5 * 2.0**-124, 2.0**-127], 512), 0x00800000,
     (0x7F, 0x00), (0x7F, 0x00), 0, 0x17, 0x07),
    ("[2^100, -2^-30] floor", "dl_floor_bf16",
     bf16([2.0**100, -2.0**-30], 512), 0x702AAAAB,
     (0x7F, 0x00), (0x7F, 0x00), 0, 0x97, 0x87),
]
x = np.zeros(512, np.float32)
x[0], x[32], x[33] = 2.0**-100, 2.0**-130, -3 * 2.0**-133
D4.append(("x0=2^-100, x32=2^-130, x33=-3*2^-133 rint", "dl_rint_bf16",
           bf16(list(x), 512), 0x0C2AAAAB, (0x7F, 0x61), (0x7F, 0x00), 16,
           0xC7, 0x80))
for name, entry, x, l0, l1_ieee, l1_ftz, at, y_ieee, y_ftz in D4:
    for suffix, l1, yb in (("", l1_ieee, y_ieee),
                           ("_kernel", l1_ftz, y_ftz)):
        expect(f"D4 {name}{suffix}", entry + suffix, [x],
               {0: ((0, at), yb), 1: (None, level0(l0)),
                2: (None, level1(*l1))})

# The cookbook files at the section's example bytes.
examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "..", "..", "examples", "cann")
dmq = Expect(sys.argv[1], os.path.join(examples, "dynamic_mx_quant.mlir"),
             os.path.join(sys.argv[3], "dmq"))
# 10.5, scaleAlg 1, e4m3, one bf16 block: scale byte and codes.
for values, byte, codes in (([784.0], 0x80, [0x7C]), ([1.0], 0x77, [0x78]),
                            ([480.0], 0x80, [0x77]),
                            ([np.inf, 1.0], 0xFF, [0x00, 0x00]),
                            ([2.0**-130], 0x00, [0x20])):
    dmq(f"10.5 RCEIL {values}", "dynamic_mx_quant_e4m3_nv_bf16",
        [bf16(values, 32)],
        {0: (None, row(codes)),
         1: (None, np.array([[[byte, 0]]], np.uint8))})
# 10.5 scaleAlg 0 on the D2 row: flush_le_emax, then D3: NaN-scale -> 0x00.
dmq("10.5 OCP tiny block", "dynamic_mx_quant_e4m3_ocp_bf16",
    [bf16([2.0**-120, -2.0**-121, 1.5 * 2.0**-125], 32)],
    {0: (None, row([0x00, 0x80, 0x00])),
     1: (None, np.array([[[0, 0]]], np.uint8))})
# FP4 from bf16 multiplies in bf16: under floor a negative product below
# 2^-134 is -0 (code 8), not -0.5.
dmq("10.5 FP4 bf16 product, floor", "dynamic_mx_quant_e2m1_ocp_floor_bf16",
    [bf16([2.0**10, -2.0**-130], 32)], {0: ((0, 0), 0x86)})

# 10.6: a 32 x 64 bf16 block of ones with x[3, 3] = NaN, e4m3: row 3's
# first row block and column 3's block get scale FF and codes 00; the rest
# 1.0 * 2^8 = code 78 with scale byte 127 - 8.
dual = Expect(sys.argv[1],
              os.path.join(examples, "dynamic_mx_quant_with_dual_axis.mlir"),
              os.path.join(sys.argv[3], "dual"))
x = np.ones((32, 64), np.float32)
x[3, 3] = np.nan
y1 = np.full((32, 64), 0x78, np.uint8)
y1[3, :32] = 0
s1 = np.full((32, 1, 2), 119, np.uint8)
s1[3, 0, 0] = 0xFF
y2 = np.full((32, 64), 0x78, np.uint8)
y2[:, 3] = 0
s2 = np.zeros((1, 64, 2), np.uint8)
s2[0, :, 0] = 119
s2[0, 3, 0] = 0xFF
dual("10.6 dual axis, x[3,3] = NaN", "dynamic_mx_quant_with_dual_axis_e4m3_bf16",
     [bf16(list(x.ravel()), 32 * 64).reshape(32, 64)],
     {0: (None, y1), 1: (None, s1), 2: (None, y2), 3: (None, s2)})

anti = Expect(sys.argv[1], os.path.join(examples, "anti_mx_quant.mlir"),
              os.path.join(sys.argv[3], "anti"))
# 10.7: one block, the code in element 0; bf16 and f16 results (bits).
for fmt, code, byte, out_bf16, out_f16 in (
        ("e4m3", 0x7E, 0xFE, 0x7F7F, 0x7BFF),
        ("e4m3", 0x7E, 0x8F, 0x4BE0, 0x7BFF),
        ("e4m3", 0x38, 0xFF, 0x0000, 0x0000),
        ("e4m3", 0x7F, 0x7F, 0x0000, 0x0000),
        ("e4m3", 0x38, 0x00, 0x0040, 0x0000),
        ("e2m1", 0x7, 0xFE, 0x7F80, 0x7BFF),
        ("e2m1", 0x2, 0xFF, 0x7FC0, 0x0000),  # NaN: mxq's canonical bf16 NaN
        ("e2m1", 0x1, 0x00, 0x0020, 0x0000)):
    codes = fp4([code]) if fmt == "e2m1" else row([code])
    scales = np.array([[[byte, 0]]], np.uint8)
    want16 = np.zeros((1, 32), np.uint16)
    want16[0, 0] = out_f16
    wantb = np.zeros((1, 32), np.uint16)
    wantb[0, 0] = out_bf16
    if byte == 0xFF and out_bf16 == 0x7FC0:
        wantb[:] = 0x7FC0  # a NaN scale makes the whole block NaN
    anti(f"10.7 {fmt} {code:#x} scale {byte:#x} -> bf16",
         f"anti_mx_quant_{fmt}_bf16", [codes, scales], {0: (None, wantb)})
    anti(f"10.7 {fmt} {code:#x} scale {byte:#x} -> f16",
         f"anti_mx_quant_{fmt}_f16", [codes, scales],
         {0: (None, want16.view(np.float16))})

failures = expect.failures + dmq.failures + dual.failures + anti.failures
print(f"{failures} failures")
sys.exit(1 if failures else 0)
