"""Prints one function holding an mxq.quantize and an mxq.dequantize for every
attribute combination the semantics allow (see the op constraints), so that
round-trip tests cover all of them. Prints the expected count to stderr."""
import itertools
import math
import sys

ALGORITHMS = ["floor", "rceil", "ceil", "even"]
POLICIES = ["nan", "saturate", "exponent"]
FORMATS = ["f8E4M3FN", "f8E5M2", "f6E2M3FN", "f6E3M2FN", "f4E2M1FN"]
ROUNDINGS = ["rne", "away", "floor"]
NAN_ELEMENTS = ["max", "zero"]
LAYOUTS = ["linear", "swizzle_32_4_4", "pairs"]
SOURCES = ["f32", "f16", "bf16"]
SHAPE = [3, 129, 160]


def scale_shape(axis, block, layout):
    s = list(SHAPE)
    if layout == "linear":
        s[axis] = math.ceil(s[axis] / block)
    elif layout == "pairs":
        s[axis] = math.ceil(math.ceil(s[axis] / block) / 2)
        s.append(2)
    else:
        rows = s[2] if axis == 1 else s[1]
        s = s[:-2] + [512 * math.ceil(rows / 128) *
                      math.ceil(math.ceil(s[axis] / block) / 4)]
    return s


def tensor(shape, elt):
    return "tensor<" + "x".join(str(d) for d in shape) + "x" + elt + ">"


def allowed(alg, pol, fmt, rnd, nan):
    if pol == "exponent" and alg != "floor":
        return False
    if rnd != "rne" and fmt != "f4E2M1FN":
        return False
    if nan != "max" and fmt.startswith("f8"):
        return False
    return True


count = 0
print("func.func @all(%x32: tensor<3x129x160xf32>, %x16: tensor<3x129x160xf16>,"
      " %xb16: tensor<3x129x160xbf16>) {")
for alg, pol, fmt, rnd, nan, layout, src in itertools.product(
        ALGORITHMS, POLICIES, FORMATS, ROUNDINGS, NAN_ELEMENTS, LAYOUTS,
        SOURCES):
    if not allowed(alg, pol, fmt, rnd, nan):
        continue
    axis = 2 if count % 2 == 0 else 1
    block = 32 if count % 3 else 64
    arg = {"f32": "%x32", "f16": "%x16", "bf16": "%xb16"}[src]
    codes = tensor(SHAPE, fmt)
    scales = tensor(scale_shape(axis, block, layout), "f8E8M0FNU")
    print(f"  %q{count}, %s{count} = mxq.quantize {arg} axis = {axis} "
          f"block = {block} scale = {alg} inf = {pol} rounding = {rnd} "
          f"nan_element = {nan} layout = {layout} : {tensor(SHAPE, src)} -> "
          f"{codes}, {scales}")
    print(f"  %d{count} = mxq.dequantize %q{count}, %s{count} axis = {axis} "
          f"block = {block} layout = {layout} : {codes}, {scales} -> "
          f"{tensor(SHAPE, src)}")
    count += 1
print("  return")
print("}")
print(count, file=sys.stderr)
