#!/usr/bin/env bash
# Builds all of mxq with clang-22 under AddressSanitizer and
# UndefinedBehaviorSanitizer (plus libFuzzer's coverage, so that the same
# build serves scripts/fuzz.sh) in ./build-sanitize, and runs the whole test
# suite there. MLIR itself (libMLIR.so) is not instrumented. Tests that load
# mxq into a process that is not instrumented (the Python package under
# /usr/bin/python3, the installed-package example built with g++) report
# UNSUPPORTED here (lit feature "sanitizers"). Suppressions, if any, are in
# scripts/sanitizer-suppressions.txt with a reason for each. Safe to rerun.
# The last result is recorded in docs/Fuzzing.md.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${MXQ_SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}"
LAUNCHER=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$ROOT"
  LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
"$ROOT/scripts/install-deps.sh" --sanitize
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -G Ninja -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DMXQ_SANITIZERS="address;undefined" -DMXQ_LIBFUZZER=ON "${LAUNCHER[@]}"
fi
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs from the
# inline code compiled into mxq's (instrumented) objects, while libMLIR.so's
# own (uninstrumented) code then uses that memory without unpoisoning it:
# every MLIR context reports a use-after-poison inside libMLIR that is not a
# bug. Heap, stack and global checks of mxq's own code are unaffected.
export ASAN_OPTIONS="${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=1:abort_on_error=1:suppressions=$ROOT/scripts/sanitizer-suppressions.txt}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$ROOT/scripts/sanitizer-suppressions.txt:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cmake --build "$BUILD" "$@"
cmake --build "$BUILD" --target check-mxq
