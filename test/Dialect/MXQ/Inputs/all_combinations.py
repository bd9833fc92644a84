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
UNDERFLOWS = ["keep", "flush_e0", "flush_le_emax"]
DIV_DENORMALS = ["ieee", "ftz"]
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


def allowed(alg, pol, fmt, rnd, under):
    if pol == "exponent" and alg != "floor":
        return False
    if rnd != "rne" and fmt != "f4E2M1FN":
        return False
    if under != "keep" and alg != "floor":
        return False
    return True


count = 0
print("func.func @all(%x32: tensor<3x129x160xf32>, %x16: tensor<3x129x160xf16>,"
      " %xb16: tensor<3x129x160xbf16>, %sm16: tensor<160xf16>,"
      " %smb16: tensor<160xbf16>, %p1: tensor<1xf32>, %p3: tensor<3xf32>,"
      " %p129: tensor<129xf32>, %p160: tensor<160xf32>) {")
for alg, pol, fmt, rnd, nan, under, layout, src in itertools.product(
        ALGORITHMS, POLICIES, FORMATS, ROUNDINGS, NAN_ELEMENTS, UNDERFLOWS,
        LAYOUTS, SOURCES):
    if not allowed(alg, pol, fmt, rnd, under):
        continue
    axis = 2 if count % 2 == 0 else 1
    block = 32 if count % 3 else 64
    arg = {"f32": "%x32", "f16": "%x16", "bf16": "%xb16"}[src]
    codes = tensor(SHAPE, fmt)
    scales = tensor(scale_shape(axis, block, layout), "f8E8M0FNU")
    print(f"  %q{count}, %s{count} = mxq.quantize {arg} axis = {axis} "
          f"block = {block} scale = {alg} inf = {pol} rounding = {rnd} "
          f"nan_element = {nan} underflow = {under} layout = {layout} : "
          f"{tensor(SHAPE, src)} -> "
          f"{codes}, {scales}")
    print(f"  %d{count} = mxq.dequantize %q{count}, %s{count} axis = {axis} "
          f"block = {block} layout = {layout} : {codes}, {scales} -> "
          f"{tensor(SHAPE, src)}")
    count += 1
# dual_quantize: every policy combination, every source type, rank 2 and 3.
dual = 0
for alg, pol, fmt, rnd, nan, under, src in itertools.product(
        ALGORITHMS, POLICIES, FORMATS, ROUNDINGS, NAN_ELEMENTS, UNDERFLOWS,
        SOURCES):
    if not allowed(alg, pol, fmt, rnd, under):
        continue
    arg = {"f32": "%x32", "f16": "%x16", "bf16": "%xb16"}[src]
    b, m, k = SHAPE
    L = 512 * math.ceil(m / 128) * math.ceil(k / 128)
    print(f"  %a{dual}, %b{dual}, %c{dual}, %e{dual} = mxq.dual_quantize {arg} "
          f"scale = {alg} inf = {pol} rounding = {rnd} nan_element = {nan} "
          f"underflow = {under} : "
          f"{tensor(SHAPE, src)} -> {tensor(SHAPE, fmt)}, "
          f"{tensor([b, L], 'f8E8M0FNU')}, {tensor([b, k, m], fmt)}, "
          f"{tensor([b, L], 'f8E8M0FNU')}")
    dual += 1
# two_level_quantize: every rounding and NaN policy, f16 and bf16, with and
# without smooth.
two = 0
for rnd, nan, div, src, smooth in itertools.product(
        ROUNDINGS, NAN_ELEMENTS, DIV_DENORMALS, ["f16", "bf16"],
        [False, True]):
    arg = {"f16": "%x16", "bf16": "%xb16"}[src]
    sm = {"f16": "%sm16", "bf16": "%smb16"}[src]
    b, m, k = SHAPE
    extra = f" smooth {sm}" if smooth else ""
    extra_t = f", tensor<{k}x{src}>" if smooth else ""
    print(f"  %y{two}, %l{two}, %m{two} = mxq.two_level_quantize {arg}{extra} "
          f"rounding = {rnd} nan_element = {nan} div_denormals = {div} : "
          f"{tensor(SHAPE, src)}{extra_t}"
          f" -> {tensor(SHAPE, 'f4E2M1FN')}, {tensor([b, m, 1], 'f32')}, "
          f"{tensor([b, m, 3, 2], 'f8E8M0FNU')}")
    two += 1
# fake_quant and its gradient: both formats, every source type, per tensor
# and per channel.
fq = 0
for fmt, src, axis in itertools.product(["f8E4M3FN", "f8E5M2"], SOURCES,
                                        [None, 0, 1, 2]):
    arg = {"f32": "%x32", "f16": "%x16", "bf16": "%xb16"}[src]
    mx = 448.0 if fmt == "f8E4M3FN" else 57344.0
    p = "%p1" if axis is None else f"%p{SHAPE[axis]}"
    pt = "tensor<1xf32>" if axis is None else f"tensor<{SHAPE[axis]}xf32>"
    ax = "" if axis is None else f" axis = {axis}"
    print(f"  %f{fq} = mxq.fake_quant {arg}, {p}, {p} format = {fmt} "
          f"quant_min = {-mx} quant_max = {mx}{ax} : {tensor(SHAPE, src)}, "
          f"{pt}, {pt}")
    print(f"  %g{fq} = mxq.fake_quant_grad {arg}, {arg}, {p} "
          f"quant_min = {-mx} quant_max = {mx}{ax} : {tensor(SHAPE, src)}, {pt}")
    fq += 1
print("  return")
print("}")
print(count, dual, two, fq, file=sys.stderr)
