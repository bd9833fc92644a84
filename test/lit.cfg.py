# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MXQ"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mxq_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Unit",
                   "Inputs"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

config.substitutions.append(("%mxq_src_root", config.mxq_src_root))
config.substitutions.append(("%mxq_obj_root", config.mxq_obj_root))

tool_dirs = [config.mxq_tools_dir, config.llvm_tools_dir]
tools = [
    "mxq-opt",
    "mxq-run",
    "mxq-sweep",
    "mxq-gpu-launch",
    "mxq-vtile-run",
    "mxq-capi-test",
    "mxq-npy-fuzzer",
    "mxq-parse-fuzzer",
    "mxq-structured-fuzzer",
    ToolSubst("%PYTHON", config.python_executable, unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# A sanitizer build (scripts/sanitize.sh) cannot load mxq into processes that
# are not instrumented (Debian's python3, a g++-built embedding example);
# libFuzzer builds run their own fuzz test (Fuzz/libfuzzer.test).
if config.mxq_sanitizers:
    config.available_features.add("sanitizers")
    for name in ("ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"):
        if name in os.environ:
            config.environment[name] = os.environ[name]
if config.mxq_libfuzzer:
    config.available_features.add("libfuzzer")

# Each target of the build is a feature: target-cpu, target-nvvm, ...
for target in config.mxq_targets:
    config.available_features.add("target-" + target.lower())

# The SIMT emulator (target nvvm-emu) runs the NVIDIA kernels anywhere the
# build has the NVVM target: no GPU, driver or toolkit needed. Tests that run
# GPU kernels without a GPU say REQUIRES: simt-emulator.
if "target-nvvm" in config.available_features:
    config.available_features.add("simt-emulator")

# Tests that need the CUDA toolkit say REQUIRES: ptxas.
cuda_root = os.environ.get("MXQ_CUDA_ROOT", "/usr/local/cuda")
if os.path.exists(os.path.join(cuda_root, "bin", "ptxas")):
    config.available_features.add("ptxas")
    config.substitutions.append(("%cuda_root", cuda_root))

# Tests that run kernels on an NVIDIA GPU say REQUIRES: cuda-driver; tests of
# what happens without one say UNSUPPORTED: cuda-driver.
try:
    import ctypes

    _cuda = ctypes.CDLL("libcuda.so.1")
    _count = ctypes.c_int(0)
    if _cuda.cuInit(0) == 0 and _cuda.cuDeviceGetCount(ctypes.byref(_count)) == 0 \
            and _count.value > 0:
        config.available_features.add("cuda-driver")
except OSError:
    pass
