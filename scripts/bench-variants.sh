#!/usr/bin/env bash
# Speed and yield of `flowbench variants` (issue 30): every bank problem,
# every kind, one variant each, timed in one process; prints the run's own
# summary (problems with ≥ 2 and ≥ 1 variants, kept per kind, the reason
# for each problem left without) and the wall time with the machine's load
# (other compiles on a 2-core machine skew it). Usage:
#   scripts/bench-variants.sh [KINDS] [OUT]
# The target is ≤ 60 s for the 60 problems on 2 cores.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KINDS=${1:-rename,constants,logic}
OUT=${2:-$(mktemp -d)}
cargo build --release -q --manifest-path "$ROOT/Cargo.toml"
mkdir -p "$OUT"
rm -rf "$OUT/variants"
t0=$(date +%s.%N)
"$ROOT/target/release/flowbench" variants "$ROOT"/problems/*/ --kinds "$KINDS" --count 1 -q -o "$OUT/variants" \
  > "$OUT/variants.txt"
t1=$(date +%s.%N)
grep -v '^  ' "$OUT/variants.txt" | tail -n 1
grep '^  no variant' "$OUT/variants.txt" || true
printf 'wall %.1f s for %s problems (kinds %s); cores %s; load: %s\n' "$(echo "$t1 - $t0" | bc)" \
  "$(ls -d "$ROOT"/problems/*/ | wc -l)" "$KINDS" "$(nproc)" "$(uptime | sed 's/.*load average: //')"
echo "variants and variants.json in $OUT/variants"
