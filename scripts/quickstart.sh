#!/usr/bin/env bash
# Installs what is missing, builds mxq, and quantizes the bundled example
# (PyTorch quantize_tensor, MXFP8 with MXFP_E8M0_RU, on a 4 x 64 bf16 matrix
# holding the edge cases). Safe to rerun.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"
OUT="$ROOT/build/quickstart"
echo "== mxq.quantize (PyTorch quantize_tensor, MXFP8, MXFP_E8M0_RU) on examples/data/quickstart_x.npy, compiled for this CPU"
"$ROOT/build/bin/mxq-run" "$ROOT/examples/quickstart.mlir" \
  --entry quantize_tensor_bf16 --input "$ROOT/examples/data/quickstart_x.npy" \
  --output-dir "$OUT" --print
"$ROOT/build/bin/mxq-run" "$ROOT/examples/quickstart.mlir" \
  --entry quantize_tensor_bf16 --input "$ROOT/examples/data/quickstart_x.npy" \
  --output-dir "$OUT/reference" --target=reference
if cmp -s "$OUT/result0.npy" "$OUT/reference/result0.npy" && \
   cmp -s "$OUT/result1.npy" "$OUT/reference/result1.npy"; then
  echo "== compiled codes and scales equal the C++ reference bit for bit"
else
  echo "== compiled results DIFFER from the C++ reference"; exit 1
fi
echo "== scales per row (E8M0 bytes: 0xff is NaN, 0x00 is 2^-127):"
/usr/bin/python3 -c "import numpy as np; print(np.load('$OUT/result1.npy'))"
echo "== codes and scales written to $OUT/result0.npy, $OUT/result1.npy"
