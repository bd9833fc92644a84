#!/usr/bin/env bash
# Installs what is missing, builds mxq, and quantizes the bundled example.
# Safe to rerun.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"
"$ROOT/build/bin/mxq-opt" "$ROOT/examples/quickstart.mlir"
