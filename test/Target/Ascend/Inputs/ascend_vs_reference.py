"""Runs mxq functions on the ascend simulator and on the reference, and
compares every result byte for byte.

usage: ascend_vs_reference.py MXQ_RUN OUTDIR [--chip C ...] [--shape MxK ...]
                              [--run-arg ARG ...] [--only REGEX]
                              [--expect-lowered N] FILE.mlir...

Every function of one floating-point argument in the files is run on random
data with edge cases (zeros, subnormals, Inf, NaN, values at the format's
saturation and rounding ties) in each shape (the ones below by default:
aligned, ragged, one row, one element); every function of codes and scales
(a dequantize) on random codes (NaN and Inf codes included) and random
scale bytes (0, 254 and the NaN scale 255 included). A function the ascend lowering
does not take yet prints UNSUPPORTED with the lowering's sentence; any
byte that differs prints MISMATCH. Exit 1 on a mismatch, a crash, or fewer
lowered functions than --expect-lowered. --run-arg passes ARG to every
simulator run (e.g. --tile-sizes=3,64); --only keeps the functions whose
name matches REGEX (re.match)."""
import os
import re
import subprocess
import sys

import numpy as np

args = sys.argv[1:]
run, out = args[0], args[1]
chips, shapes, files, expect = [], [], [], 0
run_args, only = [], None
i = 2
while i < len(args):
    if args[i] == "--chip":
        chips.append(args[i + 1]); i += 2
    elif args[i] == "--shape":
        shapes.append(tuple(int(v) for v in args[i + 1].split("x"))); i += 2
    elif args[i] == "--run-arg":
        run_args.append(args[i + 1]); i += 2
    elif args[i] == "--only":
        only = re.compile(args[i + 1]); i += 2
    elif args[i] == "--expect-lowered":
        expect = int(args[i + 1]); i += 2
    else:
        files.append(args[i]); i += 1
chips = chips or ["950pr"]
shapes = shapes or [(64, 512), (7, 97), (1, 2112), (1, 1), (130, 64)]
rng = np.random.default_rng(11)


def make(shape, dtype):
    x = (rng.standard_normal(shape) * np.exp2(rng.integers(-8, 9, size=shape))).astype(np.float32)
    flat = x.reshape(-1)
    n = flat.size
    special = [0.0, -0.0, 1e-40, -1e-41, 448.0, 464.0, -480.0, 6.0, 5.0, 0.75,
               0.25, 2.0 ** -127, 65504.0, 3e38]
    for j, v in enumerate(special):
        if 3 * j + 1 < n:
            flat[3 * j + 1] = v
    # One block with an Inf, one with a NaN, one all zero, one all tiny.
    if n >= 200:
        flat[100] = np.inf
        flat[170] = np.nan
    if n >= 400:
        flat[256:288] = 0.0
        flat[320:352] = 1e-39
    # A NaN in the last block of the first row and an Inf in the last row:
    # with an odd dimension, FP4's padding nibble shares their block.
    if len(shape) >= 2 and shape[-1] >= 2 and shape[-2] >= 2:
        x[(0,) * (len(shape) - 1) + (-1,)] = np.nan
        x[(0,) * (len(shape) - 2) + (-1, 1)] = np.inf
    if dtype == "bf16":
        bits = x.view(np.uint32)
        r = ((bits >> 16) & 1) + 0x7FFF
        b16 = ((bits + r) >> 16).astype(np.uint16)
        b16[np.isnan(x)] = 0x7FC0
        return b16
    if dtype == "f16":
        with np.errstate(over="ignore"):
            return x.astype(np.float16)
    return x


def run_one(path, entry, target, extra, xin, d):
    os.makedirs(d, exist_ok=True)
    cmd = [run, path, "--entry", entry, "--target=" + target,
           "--output-dir", d] + extra
    for i in (xin if isinstance(xin, list) else [xin]):
        cmd += ["--input", i]
    return subprocess.run(cmd, capture_output=True, text=True)


def make_dequant_inputs(tag, shape, code_ty, scale_ty, axis, swizzled=False,
                        block=32, f32_scales=False):
    """Codes and scale bytes for a dequantize of `shape` along `axis` in
    blocks of `block` (swizzled: [batch..., 512 * ceil(R/128) *
    ceil(blocks/4)], R the other of the last two dimensions); with
    `f32_scales`, fp32 scales (blockwise FP8): powers of two and others,
    0, NaN, Inf, a subnormal and a negative value among them."""
    m, k = shape[:-1], shape[-1]
    fp4 = code_ty == "f4E2M1FN"
    codes = rng.integers(0, 256, size=m + ((k + 1) // 2 if fp4 else k,),
                         dtype=np.uint8)
    if fp4 and k % 2:
        codes[..., -1] &= 0x0F
    axis = axis % len(shape)
    nb = (shape[axis] + block - 1) // block
    if swizzled:
        bands = (shape[-1 if axis == len(shape) - 2 else -2] + 127) // 128
        sshape = tuple(shape[:-2]) + (512 * bands * ((nb + 3) // 4),)
    elif axis == len(shape) - 1:
        sshape = m + ((nb + 1) // 2, 2) if scale_ty else m + (nb,)
    else:
        before, after = shape[:axis], shape[axis + 1:]
        sshape = before + ((nb + 1) // 2,) + after + (2,) if scale_ty \
            else before + (nb,) + after
    if f32_scales:
        scales = (rng.uniform(0.5, 2.0, size=sshape) *
                  np.exp2(rng.integers(-20, 20, size=sshape))).astype(np.float32)
        flat = scales.reshape(-1)
        for j, v in enumerate([0.0, np.nan, np.inf, 1e-40, -0.375, 2.0**-130]):
            if 2 * j < flat.size:
                flat[2 * j] = v
    else:
        scales = rng.integers(100, 150, size=sshape, dtype=np.uint8)
        flat = scales.reshape(-1)
        for j, v in enumerate([0, 255, 254, 1, 127]):
            if 2 * j < flat.size:
                flat[2 * j] = v
    paths = [os.path.join(out, tag + "-codes.npy"),
             os.path.join(out, tag + "-scales.npy")]
    np.save(paths[0], codes)
    np.save(paths[1], scales)
    return paths, (["--fp4-length=%d" % k] if fp4 else [])


failures = lowered = unsupported = compared = 0
sig = re.compile(r"func\.func @(\w+)\(([^)]*)\)")
def functions(text):
    """(name, [argument types], body, [argument names]) of every function."""
    out = []
    for m in sig.finditer(text):
        types = re.findall(r"%\w+: tensor<([^>]*)>", m.group(2))
        names = re.findall(r"%(\w+): tensor<", m.group(2))
        body = text[m.end():text.find("\n}", m.end())]
        out.append((m.group(1), types, body, names))
    return out


def make_fake_quant_inputs(tag, shape, elt, body, names):
    """x, a positive step and a zero point per tensor or per channel (and,
    for a gradient, grad), in the order of the function's arguments."""
    axis = re.search(r"axis = (\d+)", body)
    n = shape[int(axis.group(1))] if axis else 1
    x = make(shape, elt)
    step = (np.exp2(rng.integers(-6, 4, size=(n,))) *
            rng.uniform(0.5, 1.5, size=(n,))).astype(np.float32)
    if "fake_quant_grad" in body and not axis:
        # Step 1: the edge values 448, -480 and 464 of `make` lie on and
        # beyond the E4M3 bounds +-448.
        step[0] = 1.0
    arrays = {"x": x, "step": step,
              "zero": np.round(rng.uniform(-3, 3, size=(n,))).astype(np.float32),
              "grad": make(shape, elt)}
    # Each argument's role from the op's operand order.
    m = re.search(r"mxq\.fake_quant_grad %(\w+), %(\w+), %(\w+)", body)
    roles = dict(zip(m.groups(), ("grad", "x", "step"))) if m else {}
    m = re.search(r"mxq\.fake_quant %(\w+), %(\w+), %(\w+)", body)
    roles = roles or (dict(zip(m.groups(), ("x", "step", "zero"))) if m else {})
    paths = []
    for name in names:
        key = roles.get(name, "zero")  # an argument the op does not use
        path = os.path.join(out, "%s-%s.npy" % (tag, name))
        np.save(path, arrays[key])
        paths.append(path)
    return paths


for path in files:
    for entry, types, body, names in functions(open(path).read()):
        if not types or (only and not only.match(entry)):
            continue
        ty = types[0]
        ty2 = types[1] if len(types) == 2 else ""
        fake = "mxq.fake_quant" in body
        smooth = "two_level_quantize" in body and len(types) == 2
        # convert_scale_layout (scales, codes): shapes are the codes'.
        convert = "convert_scale_layout" in body and len(types) == 2
        elt = ty.split("x")[-1]
        if not fake and not smooth and not convert and (
                len(types) > 3 or (len(types) == 2 and "f8E8M0FNU" not in ty2
                               and not ty2.endswith("xf32"))):
            continue
        if (len(types) != 2) and elt not in ("bf16", "f16", "f32"):
            continue
        if ty2 != "" and elt[:2] not in ("f8", "f6", "f4") and not smooth:
            continue
        if convert:
            ty = ty2
        rank = ty.count("x")
        ok_entry = True
        runs = 0  # shapes the reference takes
        for shape in shapes:
            # Leading dimensions the shapes lack: the type's where static,
            # else 1.
            lead = [1 if d == "?" else int(d) for d in ty.split("x")[:rank]]
            shape = tuple(lead[:rank - len(shape)]) + shape if rank > len(shape) else shape[-rank:]
            tag = "%s-%s" % (entry, "x".join(map(str, shape)))
            extra = []
            if fake:
                xin = make_fake_quant_inputs(tag, shape, elt, body, names)
            elif smooth:
                # x and a smooth vector of its type around 1 (with a 0).
                xin = [os.path.join(out, tag + "-x.npy"),
                       os.path.join(out, tag + "-smooth.npy")]
                np.save(xin[0], make(shape, elt))
                sm = rng.uniform(0.25, 4.0, size=(shape[-1],)).astype(np.float32)
                if sm.size > 3:
                    sm[3] = 0.0
                if elt == "bf16":
                    sm = (sm.view(np.uint32) >> 16).astype(np.uint16)
                else:
                    sm = sm.astype(np.float16)
                np.save(xin[1], sm)
            elif convert:
                # Codes, and scales in the source layout (random bytes in
                # its padding too: the destination's padding is 0).
                frm = re.search(r"from = (\w+)", body).group(1)
                block = re.search(r"block = (\d+)", body)
                axis = int(re.search(r"axis = (\d+)", body).group(1))
                paths, extra = make_dequant_inputs(
                    tag, shape, ty2.split("x")[-1],
                    "x2x" if frm == "pairs" else "", axis,
                    frm == "swizzle_32_4_4",
                    int(block.group(1)) if block else 32)
                xin = [paths[1], paths[0]]
            elif ty2:
                pairs = "x2x" if ty2.endswith("x2xf8E8M0FNU") else ""
                axis = re.search(r"axis = (\d+)", body)
                block = re.search(r"block = (\d+)", body)
                xin, extra = make_dequant_inputs(
                    tag, shape, elt, pairs, int(axis.group(1)) if axis else -1,
                    "swizzle_32_4_4" in body,
                    int(block.group(1)) if block else 32,
                    f32_scales=ty2.endswith("xf32"))
            else:
                xin = os.path.join(out, tag + "-x.npy")
                np.save(xin, make(shape, elt))
            ref = run_one(path, entry, "reference", extra, xin, os.path.join(out, tag, "ref"))
            if ref.returncode:
                continue  # the shape does not fit the function (e.g. even K)
            runs += 1
            for chip in chips:
                d = os.path.join(out, tag, chip)
                r = run_one(path, entry, "ascend", ["--chip=" + chip] + run_args + extra, xin, d)
                if r.returncode:
                    msg = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "exit %d" % r.returncode
                    if "convert-mxq-to-vtile" in msg and r.returncode == 1:
                        if ok_entry:
                            print("UNSUPPORTED %s: %s" % (entry, msg))
                        ok_entry = False
                        unsupported += 1
                        break
                    print("FAIL %s %s: %s" % (tag, chip, r.stderr[-2000:]))
                    failures += 1
                    ok_entry = None
                    continue
                compared += 1
                for res in sorted(os.listdir(os.path.join(out, tag, "ref"))):
                    a = np.load(os.path.join(out, tag, "ref", res))
                    b = np.load(os.path.join(d, res))
                    if a.shape != b.shape or not np.array_equal(a.view(np.uint8), b.view(np.uint8)):
                        bad = np.argwhere(a.view(np.uint8) != b.view(np.uint8)) if a.shape == b.shape else "shape"
                        print("MISMATCH %s %s %s: %s" % (tag, chip, res, bad[:5] if not isinstance(bad, str) else bad))
                        failures += 1
                        ok_entry = None
            if ok_entry is False:
                break
        if ok_entry and not runs:
            # A function no shape runs on the reference (it does not verify,
            # or takes none of the shapes) proves nothing.
            print("NOT RUN %s: the reference takes none of the shapes" % entry)
            failures += 1
            ok_entry = None
        if ok_entry:
            lowered += 1
            print("OK %s" % entry)
print("%d functions lowered, %d unsupported, %d runs compared, %d failures"
      % (lowered, unsupported, compared, failures))
if failures or lowered < expect:
    sys.exit(1)
