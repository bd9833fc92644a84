#!/usr/bin/env bash
# The full attribute sweep: every combination of three attribute values
# (types and shape modes included) that the verifiers accept together is run
# at least once (mxq-sweep --strength=3), compiled for the CPU and compared
# with the reference, split into one shard per job. The whole product
# (--strength=0: mxq-sweep --list counts it) is days of CPU time.
#
#   ./scripts/sweep.sh [JOBS] [extra mxq-sweep options, e.g. --family=dequantize]
#
# Prints every mismatch and a summary per shard; exits non-zero on any. The
# last result is recorded in docs/Sweep.md. The bounded sample of the test
# suite is test/Regressions/sweep.test.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JOBS="${1:-$(nproc)}"
shift || true
"$ROOT/scripts/build.sh" --target mxq-sweep >/dev/null
SWEEP="${MXQ_BUILD_DIR:-$ROOT/build}/bin/mxq-sweep"
LOGS="$(mktemp -d)"
for ((i = 0; i < JOBS; ++i)); do
  "$SWEEP" --strength=3 --shard="$i/$JOBS" "$@" >"$LOGS/$i.log" 2>&1 &
done
status=0
wait || status=$?
for ((i = 0; i < JOBS; ++i)); do
  grep -A40 '^FAIL' "$LOGS/$i.log" | head -200
  tail -2 "$LOGS/$i.log" | sed "s/^/shard $i\/$JOBS: /"
  grep -q ' 0 failures$' "$LOGS/$i.log" || status=1
done
echo "logs in $LOGS"
exit "$status"
