#!/usr/bin/env bash
# The GPU check (issue 5). On a machine with an NVIDIA GPU and its driver:
#   1. builds mxq (./scripts/build.sh);
#   2. runs every cookbook function on the GPU (mxq-run --target=nvvm) on edge-case
#      and random data, aligned and ragged shapes, and compares every result
#      byte for byte with the CPU target (the differential tests of
#      test/CPU/cookbook-*.test, with MXQ_RUN_FLAGS=--target=nvvm MXQ_BASELINE=cpu);
#   3. times MXFP8 quantize, dual quantize and FP4 quantize of a bf16
#      8192 x 8192 input against a device-to-device copy of the same bytes
#      measured in the same run (bench/mxq-gpu-bench), and prints the ratios.
# Where there is no GPU it says so and exits 0 after the build.
# Usage: ./scripts/gpu-check.sh [--no-build] [--chip sm_90a] [--size N]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${MXQ_BUILD_DIR:-$ROOT/build}"
BUILD_FIRST=1
CHIP=""
SIZE=8192
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD_FIRST=0 ;;
    --chip) CHIP="$2"; shift ;;
    --size) SIZE="$2"; shift ;;
    *) echo "gpu-check: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
if [ "$BUILD_FIRST" = 1 ]; then
  "$ROOT/scripts/build.sh"
fi
CHIP_FLAGS=()
if [ -n "$CHIP" ]; then CHIP_FLAGS=(--chip "$CHIP"); fi

echo "== GPU against CPU, every cookbook function"
set +e
/usr/bin/python3 "$ROOT/scripts/gpu_check.py" "$BUILD" "${CHIP_FLAGS[@]}"
status=$?
set -e
if [ "$status" = 3 ]; then
  echo "gpu-check: no GPU here; nothing was run on a device"
  exit 0
fi

echo "== bandwidth, bf16 ${SIZE} x ${SIZE}"
"$BUILD/bin/mxq-gpu-bench" --size "$SIZE" --repeat 20 "${CHIP_FLAGS[@]}" || status=1
exit "$status"
