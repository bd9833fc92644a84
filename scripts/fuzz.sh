#!/usr/bin/env bash
# The long fuzz run (docs/Fuzzing.md): builds the fuzz targets with libFuzzer
# under ASan and UBSan in ./build-sanitize (as scripts/sanitize.sh does) and
# runs each for RUNS executions (default 1,000,000) on a corpus in
# ./fuzz-corpus/<target>, seeded with the regression inputs
# (test/Fuzz/Inputs), the tests and the examples. Crash inputs land in
# ./fuzz-corpus/crashes; keep each one in test/Fuzz/Inputs/<target> once it is
# fixed (a structured one as the function and data it ran: rerun it with
# MXQ_FUZZ_DUMP=test/Fuzz/Inputs/regressions/<case>, which writes f.mlir and
# in<i>.npy, replayed on every target by the suite). Prints one line per
# target: runs, seconds, result.
#   scripts/fuzz.sh [npy|parse|structured ...]   (default: all three)
#   RUNS=100000 MAX_TIME=600 scripts/fuzz.sh structured   (stop after 600 s)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${MXQ_SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}"
RUNS="${RUNS:-1000000}"
MAX_TIME="${MAX_TIME:-0}"
CORPUS="$ROOT/fuzz-corpus"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(npy parse structured)
"$ROOT/scripts/install-deps.sh" --sanitize
if [ ! -f "$BUILD/build.ninja" ]; then
  MXQ_SANITIZE_BUILD_DIR="$BUILD" "$ROOT/scripts/sanitize.sh" --target mxq-npy-fuzzer >/dev/null || true
fi
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs from the
# inline code compiled into mxq's (instrumented) objects, while libMLIR.so's
# own (uninstrumented) code then uses that memory without unpoisoning it:
# every MLIR context reports a use-after-poison inside libMLIR that is not a
# bug. Heap, stack and global checks of mxq's own code are unaffected.
export ASAN_OPTIONS="${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=1:suppressions=$ROOT/scripts/sanitizer-suppressions.txt}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$ROOT/scripts/sanitizer-suppressions.txt}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
mkdir -p "$CORPUS/crashes"
for t in "${targets[@]}"; do
  cmake --build "$BUILD" --target "mxq-$t-fuzzer" >/dev/null
  dir="$CORPUS/$t"
  mkdir -p "$dir"
  cp -n "$ROOT"/test/Fuzz/Inputs/"$t"/* "$dir"/ 2>/dev/null || true
  seeds=()
  case "$t" in
    parse) seeds=("$ROOT/examples" "$ROOT/test/Dialect" "$ROOT/test/Regressions/Inputs") ;;
    npy) seeds=("$ROOT/examples/data") ;;
  esac
  max_len=4096
  [ "$t" = parse ] && max_len=16384
  start=$(date +%s)
  set +e
  "$BUILD/bin/mxq-$t-fuzzer" "$dir" "${seeds[@]}" -runs="$RUNS" \
    -max_len="$max_len" -timeout=60 -rss_limit_mb=4096 \
    -max_total_time="$MAX_TIME" \
    -artifact_prefix="$CORPUS/crashes/$t-" -print_final_stats=1 \
    > "$CORPUS/$t.log" 2>&1
  status=$?
  set -e
  secs=$(( $(date +%s) - start ))
  runs=$(grep -E "^stat::number_of_executed_units" "$CORPUS/$t.log" | awk '{print $2}')
  result=$([ $status -eq 0 ] && echo "no crash, leak, hang or mismatch" || echo "FAILED (see $CORPUS/$t.log)")
  echo "mxq-$t-fuzzer: ${runs:-?} runs in ${secs} s: $result ($(date -u +%Y-%m-%d), clang-22 libFuzzer + ASan + UBSan)"
done
