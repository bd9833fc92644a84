"""mxq: microscaling (MX) quantization, bit-exact with the systems it models.

The package has three layers:

* The IR: ``Context``, ``parse`` (a ``Module``: ``str(module)``,
  ``module.run_pass_pipeline("builtin.module(mxq-cpu-pipeline)")``) and
  ``compile(module, entry, target="cpu")``, which returns a callable on NumPy
  arrays.
* One function per op, with the dialect's attribute words as keyword
  arguments: ``quantize``, ``dequantize``, ``dual_quantize``,
  ``two_level_quantize``, ``fake_quant``, ``fake_quant_grad``.
* The seed systems' calls under their own names: ``mxq.torch``
  (``quantize_tensor``, ``quantize_tensor_dual``), ``mxq.pypto``
  (``quant_mx``), ``mxq.cann`` (``dynamic_dual_level_mx_quant``) and
  ``mxq.owlite`` (``fake_fp8_quantize``); NVFP4 as ``mxq.torchao``
  (``nvfp4_quantize``) and ``mxq.te`` (``quantize_nvfp4``) compute it;
  block-wise FP8 with fp32 scales as ``mxq.deepseek`` (``act_quant``),
  ``mxq.deepgemm`` (``per_token_cast_to_fp8``) and ``mxq.te``
  (``quantize_fp8_block``) compute it.

Data conventions are mxq-run's: float32 and float16 arrays as themselves,
bf16 as ``uint16`` bit patterns (``input_dtype="bf16"``) or a PyTorch bf16
tensor; codes and E8M0 scales come back as ``uint8``, FP4 codes packed two per
byte along the last axis (element 0 in the low nibble). Results are NumPy
arrays. Input that is not C-contiguous (a slice, a transpose, a Fortran-order
array) is copied into C order first; C-contiguous input is read as it is.

Compiled kernels are cached per op, attributes, dtype, rank and target (the
IR is written with dynamic dimensions), so a second call with new data of the
same dtype and rank compiles nothing (``compile_count()`` counts compiles).
Every error is a ``ValueError`` that carries the dialect's diagnostic text.
"""

from ._mxq import Context, Module, Kernel, compile_count, target_names
from ._mxq import compile as _compile
from ._ops import (quantize, dequantize, dual_quantize, two_level_quantize,
                   fake_quant, fake_quant_grad, clear_kernel_cache,
                   kernel_cache_size)
from . import torch, pypto, cann, owlite, torchao, te, deepseek, deepgemm

__all__ = [
    "Context", "Module", "Kernel", "parse", "compile", "compile_count",
    "target_names", "quantize", "dequantize", "dual_quantize",
    "two_level_quantize", "fake_quant", "fake_quant_grad",
    "clear_kernel_cache", "kernel_cache_size", "torch", "pypto", "cann",
    "owlite", "torchao", "te", "deepseek", "deepgemm",
]


def parse(text, context=None):
    """Parses and verifies ``text`` into a ``Module`` (ValueError with the
    parser's or verifier's diagnostics otherwise)."""
    if context is None:
        context = Context()
    return Module.parse(context, text)


def compile(module, entry, target="cpu", *, chip="", isa_version=0,
            tile_sizes=()):
    """Compiles ``@entry`` of ``module`` for ``target`` (a name from
    ``target_names()``); returns a callable ``kernel(*arrays)`` that returns
    a tuple of NumPy arrays. ``module`` is a ``Module`` or IR text."""
    if isinstance(module, str):
        module = parse(module)
    return _compile(module, entry, target, chip, isa_version,
                    list(tile_sizes))
