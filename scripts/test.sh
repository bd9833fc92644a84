#!/usr/bin/env bash
# Builds mxq and runs the whole test suite (lit regression tests and the
# GoogleTest unit tests, through lit). Safe to rerun.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
"$ROOT/scripts/build.sh"
"$ROOT/scripts/build.sh" --target check-mxq
