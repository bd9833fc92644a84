#!/usr/bin/env bash
# Installs the Debian 12 packages mxq needs, if any is missing. Safe to rerun.
set -euo pipefail
PACKAGES=(g++ cmake ninja-build ccache python3 python3-dev llvm-22-dev
          libmlir-22-dev mlir-22-tools python3-numpy python3-pytest
          pybind11-dev libgtest-dev libomp-22-dev)
# --sanitize: also clang and its runtimes (scripts/sanitize.sh, fuzz.sh).
if [ "${1:-}" = "--sanitize" ]; then
  PACKAGES+=(clang-22 libclang-rt-22-dev)
fi
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
