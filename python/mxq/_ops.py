"""One function per mxq op. Each writes the op as IR with dynamic dimensions
(so one compile serves every shape of a rank), compiles it once per
(IR, target) and runs it on the caller's arrays."""

import math
import re

import numpy as np

from . import _mxq

_context = None
_cache = {}
_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

_SOURCE_DTYPES = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16}
_ELEMENTS = ("f8E4M3FN", "f8E5M2", "f6E2M3FN", "f6E3M2FN", "f4E2M1FN")


def clear_kernel_cache():
    """Forgets every compiled kernel."""
    _cache.clear()


def kernel_cache_size():
    """The number of compiled kernels held."""
    return len(_cache)


def _kernel(text, target):
    global _context
    key = (text, target)
    kernel = _cache.get(key)
    if kernel is None:
        if _context is None:
            _context = _mxq.Context()
        module = _mxq.Module.parse(_context, text)
        kernel = _mxq.compile(module, "main", target)
        _cache[key] = kernel
    return kernel


def enum_name(arg, value, allowed):
    """The name of `value` (an enum member or its name, "Enum.NAME" too) if
    it is one of `allowed`, else a ValueError naming `arg` and `allowed`."""
    name = getattr(value, "name", value)
    if isinstance(name, str):
        name = name.split(".")[-1]
    if name not in allowed:
        raise ValueError(f"{arg}: {value!r} is not supported; allowed: "
                         f"{', '.join(allowed)}")
    return name


def _word(name, value):
    if not isinstance(value, str) or not _WORD.match(value):
        raise ValueError(f"{name}: {value!r} is not a word of the mxq "
                         "dialect (a letter or '_', then letters, digits "
                         "or '_')")
    return value


def _int(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name}: expected an integer, got {value!r}")
    return int(value)


def _finite(name, value):
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected a number, got {value!r}")
    if not math.isfinite(v):
        raise ValueError(f"{name}: {value!r} is not finite")
    # Nine significant digits print every float32 exactly; the IR parser
    # takes this form.
    return "%.9e" % v


def _is_torch(x):
    return type(x).__module__.split(".")[0] == "torch"


def as_source(x, input_dtype, name):
    """``x`` as a NumPy array and its IR element type ("f32", "f16",
    "bf16")."""
    if input_dtype is not None and input_dtype not in _SOURCE_DTYPES:
        raise ValueError(f"input_dtype: {input_dtype!r} is not one of "
                         f"{', '.join(map(repr, _SOURCE_DTYPES))} (or None)")
    if _is_torch(x):
        import torch
        t = x.detach().cpu().contiguous()
        if t.dtype == torch.bfloat16:
            a, dtype = t.view(torch.int16).numpy().view(np.uint16), "bf16"
        elif t.dtype == torch.float32:
            a, dtype = t.numpy(), "f32"
        elif t.dtype == torch.float16:
            a, dtype = t.numpy(), "f16"
        else:
            raise ValueError(f"{name}: a torch tensor of {t.dtype} is not "
                             "supported; expected torch.float32, "
                             "torch.float16 or torch.bfloat16")
        return _agree(name, input_dtype, a, dtype, t.dtype)
    a = np.asarray(x)
    if a.dtype == np.float32:
        dtype = "f32"
    elif a.dtype == np.float16:
        dtype = "f16"
    elif a.dtype == np.uint16:
        if input_dtype != "bf16":
            raise ValueError(f"{name}: a uint16 array is bf16 bit patterns "
                             "only with input_dtype='bf16'")
        dtype = "bf16"
    else:
        raise ValueError(f"{name}: arrays of {a.dtype} are not supported; "
                         "expected float32, float16, or uint16 with "
                         "input_dtype='bf16'")
    # np.require keeps a 0-d array 0-d (np.ascontiguousarray would not).
    return _agree(name, input_dtype, np.require(a, requirements="C"), dtype,
                  a.dtype)


def _agree(name, input_dtype, a, dtype, native):
    """(a, dtype), unless the caller's input_dtype says otherwise."""
    if input_dtype is not None and input_dtype != dtype:
        raise ValueError(f"{name}: input_dtype {input_dtype!r} contradicts "
                         f"the data's {native}")
    return a, dtype


def _f32_vector(name, value):
    if _is_torch(value):
        value = value.detach().cpu().float().numpy()
    a = np.ascontiguousarray(np.asarray(value, dtype=np.float32).reshape(-1))
    return a


def _axis(name, axis, rank):
    axis = _int(name, axis)
    if not -rank <= axis < rank:
        raise ValueError(f"{name}: {axis} is out of range for a rank-{rank} "
                         "input")
    return axis % rank


def _tensor(dims, elem):
    return "tensor<" + "".join(f"{d}x" for d in dims) + elem + ">"


def _dyn(rank):
    return ["?"] * rank


def _scale_dims(layout, rank):
    if layout == "swizzle_32_4_4":
        return ["?"]
    if layout == "pairs":
        return _dyn(rank) + [2]
    return _dyn(rank)


def _func(args, results, body, returned):
    sig = ", ".join(f"%{n}: {t}" for n, t in args)
    res = ", ".join(results)
    return (f"func.func @main({sig}) -> ({res}) {{\n  {body}\n"
            f"  return {returned} : {res}\n}}\n")


_E4M3_SCALES = ("encode", "decode")


def _outer(outer, shape, ax, what, args, inputs):
    """An NVFP4 outer scale (None, a scalar or one value per line of
    ``shape`` without ``ax``) appended to the kernel's arguments; returns
    the op's ``outer(...)`` words."""
    if outer is None:
        return ""
    o = outer
    if _is_torch(o):
        o = o.detach().cpu().float().numpy()
    o = np.require(np.asarray(o, dtype=np.float32), requirements="C")
    line = tuple(shape[:ax]) + tuple(shape[ax + 1:])
    if o.ndim != 0 and o.shape != line:
        raise ValueError(f"outer: expected a scalar or an array of shape "
                         f"{line} (the {what}'s without axis {ax}), got "
                         f"{o.shape}")
    to = _tensor(_dyn(o.ndim), "f32")
    args.append(("outer", to))
    inputs.append(o)
    return f" outer(%outer : {to})"


def quantize(x, *, axis=-1, elem="f8E4M3FN", scale="floor", inf="nan",
             rounding="rne", nan_element="max", layout="linear", block=32,
             underflow="keep", product="f32", outer=None, scale_dtype=None,
             amax_floor=None, pow2=False, division="exact",
             input_dtype=None, target="cpu"):
    """``mxq.quantize`` along ``axis``: returns ``(codes, scales)`` as uint8
    arrays (FP4 codes packed two per byte along the last axis). With
    ``scale`` "encode" or "decode" (NVFP4) the scales are E4M3 bytes and
    ``outer`` is the op's fp32 outer value: a scalar (the whole tensor's) or
    an array of the input's shape without ``axis`` (one per line). With
    ``scale_dtype="f32"`` (blockwise FP8, ``scale`` "encode" or "decode")
    the scales are float32 values and ``amax_floor``, ``pow2`` and
    ``division`` are the op's words of that name."""
    a, dtype = as_source(x, input_dtype, "x")
    rank = a.ndim
    if rank == 0:
        raise ValueError("x: mxq.quantize needs a tensor of rank >= 1, got "
                         "a scalar")
    ax = _axis("axis", axis, rank)
    words = dict(elem=elem, scale=scale, inf=inf, rounding=rounding,
                 nan_element=nan_element, layout=layout, underflow=underflow,
                 product=product)
    for k, v in words.items():
        _word(k, v)
    block = _int("block", block)
    tin = _tensor(_dyn(rank), dtype)
    tq = _tensor(_dyn(rank), elem)
    if scale_dtype not in (None, "f32"):
        raise ValueError(f"scale_dtype: {scale_dtype!r} is not supported; "
                         "allowed: None (the scale rule's byte), 'f32'")
    stored = ""
    if scale_dtype == "f32":
        scale_type = "f32"
        _word("division", division)
        if amax_floor is not None:
            stored += f" amax_floor = {_finite('amax_floor', amax_floor)}"
        if pow2:
            stored += " pow2"
        stored += f" division = {division}"
    else:
        if amax_floor is not None or pow2 or division != "exact":
            raise ValueError("amax_floor, pow2 and division go with "
                             "scale_dtype='f32' (blockwise FP8) only")
        scale_type = "f8E4M3FN" if scale in _E4M3_SCALES else "f8E8M0FNU"
    ts = _tensor(_scale_dims(layout, rank), scale_type)
    args, inputs = [("x", tin)], [a]
    outer_words = _outer(outer, a.shape, ax, "input", args, inputs)
    body = (f"%q, %s = mxq.quantize %x{outer_words} axis = {ax} "
            f"block = {block} "
            f"scale = {scale} inf = {inf} rounding = {rounding} "
            f"nan_element = {nan_element} underflow = {underflow} "
            f"product = {product}{stored} layout = {layout} "
            f": {tin} -> {tq}, {ts}")
    text = _func(args, [tq, ts], body, "%q, %s")
    return _kernel(text, target)(*inputs)


def dequantize(codes, scales, *, shape, elem="f8E4M3FN", axis=-1,
               layout="linear", block=32, out_dtype="f32", cast="ieee",
               scale=None, outer=None, target="cpu"):
    """``mxq.dequantize``: ``codes`` (uint8; FP4 packed) of logical
    ``shape`` and ``scales`` (uint8) back to ``out_dtype`` ("f32", "f16", or
    "bf16" as uint16 bit patterns). NVFP4 scales (E4M3 bytes) name the
    convention that made them, ``scale`` "encode" (``outer`` the amax) or
    "decode" (``outer`` the decode scale, optional)."""
    shape = tuple(_int("shape", d) for d in shape)
    rank = len(shape)
    if rank == 0:
        raise ValueError("shape: mxq.dequantize needs a rank >= 1")
    for k, v in dict(elem=elem, layout=layout, cast=cast,
                     out_dtype=out_dtype).items():
        _word(k, v)
    if scale is not None:
        _word("scale", scale)
    if out_dtype not in _SOURCE_DTYPES:
        raise ValueError(f"out_dtype: {out_dtype!r} is not one of "
                         f"{', '.join(map(repr, _SOURCE_DTYPES))}")
    ax = _axis("axis", axis, rank)
    block = _int("block", block)
    q = np.require(np.asarray(codes), requirements="C")
    s = np.require(np.asarray(scales), requirements="C")
    if q.dtype != np.uint8:
        raise ValueError(f"codes: expected uint8 codes, got {q.dtype}")
    f32_scales = s.dtype == np.float32
    if s.dtype != np.uint8 and not f32_scales:
        raise ValueError(f"scales: expected uint8 scale bytes (or float32 "
                         f"scales, blockwise FP8), got {s.dtype}")
    fp4 = elem == "f4E2M1FN"
    expected = shape[:-1] + ((shape[-1] + 1) // 2,) if fp4 else shape
    if q.shape != expected:
        raise ValueError(f"codes: shape {q.shape} does not hold {elem} codes "
                         f"of shape {shape} (expected {expected})")
    tq = _tensor(_dyn(rank), elem)
    sdims = _dyn(s.ndim)
    if layout == "pairs" and s.ndim >= 1:
        sdims[-1] = 2
    ts = _tensor(sdims, "f32" if f32_scales else
                 "f8E4M3FN" if scale in _E4M3_SCALES else "f8E8M0FNU")
    ty = _tensor(_dyn(rank), out_dtype)
    args, inputs = [("q", tq), ("s", ts)], [q, s]
    outer_words = _outer(outer, shape, ax, "codes", args, inputs)
    scale_words = f" scale = {scale}" if scale is not None else ""
    body = (f"%y = mxq.dequantize %q, %s{outer_words} axis = {ax} "
            f"block = {block}{scale_words} "
            f"layout = {layout} cast = {cast} : {tq}, {ts} -> {ty}")
    text = _func(args, [ty], body, "%y")
    (y,) = _kernel(text, target)(*inputs,
                                 fp4_length=shape[-1] if fp4 else -1)
    return y


def dual_quantize(x, *, elem="f8E4M3FN", scale="rceil", inf="nan",
                  rounding="rne", nan_element="max", underflow="keep",
                  input_dtype=None, target="cpu"):
    """``mxq.dual_quantize``: returns ``(q0, s0, q1, s1)``, row-wise codes and
    swizzled scales, then column-wise codes (stored transposed, (K, M)) and
    swizzled scales."""
    a, dtype = as_source(x, input_dtype, "x")
    rank = a.ndim
    for k, v in dict(elem=elem, scale=scale, inf=inf, rounding=rounding,
                     nan_element=nan_element, underflow=underflow).items():
        _word(k, v)
    tin = _tensor(_dyn(rank), dtype)
    tq = _tensor(_dyn(rank), elem)
    # [B..., L]: the batch dimensions, then the swizzled bytes.
    ts = _tensor(_dyn(max(rank - 1, 1)), "f8E8M0FNU")
    body = (f"%q0, %s0, %q1, %s1 = mxq.dual_quantize %x scale = {scale} "
            f"inf = {inf} rounding = {rounding} nan_element = {nan_element} "
            f"underflow = {underflow} : {tin} -> {tq}, {ts}, {tq}, {ts}")
    text = _func([("x", tin)], [tq, ts, tq, ts], body, "%q0, %s0, %q1, %s1")
    return _kernel(text, target)(a)


_ROUND_MODES = {"rint": "rne", "round": "away", "floor": "floor",
                "rne": "rne", "away": "away"}


def two_level_quantize(x, smooth_scale=None, *, round_mode="rint",
                       nan_element="max", div_denormals="ieee",
                       input_dtype=None, target="cpu"):
    """``mxq.two_level_quantize`` (fp32 scale per 512, E8M0 per 32, FP4):
    returns ``(y, level0, level1)``; ``round_mode`` takes CANN's words
    (rint, round, floor) or the dialect's (rne, away, floor)."""
    a, dtype = as_source(x, input_dtype, "x")
    rank = a.ndim
    if round_mode not in _ROUND_MODES:
        raise ValueError(f"round_mode: {round_mode!r} is not one of "
                         f"{', '.join(map(repr, _ROUND_MODES))}")
    for k, v in dict(nan_element=nan_element,
                     div_denormals=div_denormals).items():
        _word(k, v)
    tin = _tensor(_dyn(rank), dtype)
    ty = _tensor(_dyn(rank), "f4E2M1FN")
    t0 = _tensor(_dyn(rank), "f32")
    t1 = _tensor(_dyn(rank) + [2], "f8E8M0FNU")
    args = [("x", tin)]
    inputs = [a]
    smooth = ""
    stype = ""
    if smooth_scale is not None:
        sm, sdtype = as_source(smooth_scale, dtype if dtype == "bf16" else None,
                               "smooth_scale")
        if sdtype != dtype:
            raise ValueError(f"smooth_scale: {sdtype} does not match x's "
                             f"{dtype}")
        ts = _tensor(_dyn(sm.ndim), dtype)
        args.append(("smooth", ts))
        inputs.append(sm)
        smooth = " smooth %smooth"
        stype = f", {ts}"
    body = (f"%y, %l0, %l1 = mxq.two_level_quantize %x{smooth} "
            f"rounding = {_ROUND_MODES[round_mode]} "
            f"nan_element = {nan_element} div_denormals = {div_denormals} "
            f": {tin}{stype} -> {ty}, {t0}, {t1}")
    text = _func(args, [ty, t0, t1], body, "%y, %l0, %l1")
    return _kernel(text, target)(*inputs)


def _fake_params(step_size, zero_point, axis, rank):
    step = _f32_vector("step_size", step_size)
    args = [step]
    if zero_point is not None:
        args.append(_f32_vector("zero_point", zero_point))
    if axis is None:
        for n, v in zip(("step_size", "zero_point"), args):
            if v.size != 1:
                raise ValueError(f"{n}: per-tensor (axis=None) needs one "
                                 f"value, got {v.size}")
        return args, None, "tensor<1xf32>"
    return args, _axis("axis", axis, rank), "tensor<?xf32>"


def fake_quant(x, step_size, zero_point, *, quant_min, quant_max, axis=None,
               format="f8E4M3FN", input_dtype=None, target="cpu"):
    """``mxq.fake_quant``: FP8 quantize-dequantize (OwLite
    fake_fp8_quantize); the result has the input's dtype."""
    a, dtype = as_source(x, input_dtype, "x")
    rank = a.ndim
    _word("format", format)
    params, ax, tp = _fake_params(step_size, zero_point, axis, rank)
    tin = _tensor(_dyn(rank), dtype)
    axis_text = "" if ax is None else f" axis = {ax}"
    body = (f"%y = mxq.fake_quant %x, %step, %zp format = {format} "
            f"quant_min = {_finite('quant_min', quant_min)} "
            f"quant_max = {_finite('quant_max', quant_max)}{axis_text} "
            f": {tin}, {tp}, {tp}")
    text = _func([("x", tin), ("step", tp), ("zp", tp)], [tin], body, "%y")
    (y,) = _kernel(text, target)(a, *params)
    return y


def fake_quant_grad(grad, x, step_size, *, quant_min, quant_max, axis=None,
                    input_dtype=None, target="cpu"):
    """``mxq.fake_quant_grad``: the straight-through gradient of
    ``fake_quant`` (``grad`` where ``quant_min*step <= x <= quant_max*step``,
    else 0)."""
    a, dtype = as_source(x, input_dtype, "x")
    g, gdtype = as_source(grad, input_dtype, "grad")
    if gdtype != dtype:
        raise ValueError(f"grad: {gdtype} does not match x's {dtype}")
    rank = a.ndim
    params, ax, tp = _fake_params(step_size, None, axis, rank)
    tin = _tensor(_dyn(rank), dtype)
    axis_text = "" if ax is None else f" axis = {ax}"
    body = (f"%g = mxq.fake_quant_grad %grad, %x, %step "
            f"quant_min = {_finite('quant_min', quant_min)} "
            f"quant_max = {_finite('quant_max', quant_max)}{axis_text} "
            f": {tin}, {tp}")
    text = _func([("grad", tin), ("x", tin), ("step", tp)], [tin], body,
                 "%g")
    (y,) = _kernel(text, target)(g, a, *params)
    return y
