#!/bin/sh
# The robustness set's cost (issue 27's figures): a cold
# `flowbench build --robustness` of the embedded bank with -j 2 (target
# ≤ 30 s on 2 cores), the same build in the default style alone (what the
# six extra renderings add), and the per-phase times of the robustness
# build (FLOWBENCH_TIMINGS: `damage` is what the raster damage adds per
# image). Whole-process wall time; the machine load is printed alongside.
# `cargo bench --bench damage_speed` times each damage key alone.
# Usage: scripts/bench-robustness.sh
set -eu
cd "$(dirname "$0")/.."
cargo build --release --quiet
fb=$PWD/target/release/flowbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

echo "load: $(uptime)"
t0=$(now)
status=0
FLOWBENCH_TIMINGS=1 "$fb" build --robustness -o "$tmp/robust" -j 2 >/dev/null 2>"$tmp/timings" || status=$?
t1=$(now)
if [ "$status" != 0 ]; then
  # Say why (the temporary directory goes with the script), then time it anyway.
  echo "build --robustness failed (exit $status):"
  grep -v '^timing' "$tmp/timings" | sed 's/^/  /'
fi
styles=$(grep -c '^name' styles/robustness.toml)
echo "cold build --robustness of the bank ($styles styles), -j 2: $(elapsed "$t0" "$t1") s (target ≤ 30 s)"
t0=$(now)
"$fb" build -o "$tmp/default" -j 2 >/dev/null 2>&1
t1=$(now)
echo "cold build of the bank in the default style alone, -j 2: $(elapsed "$t0" "$t1") s"
awk '$1 == "timing" { s[$2] += $3; n[$2]++ }
     END { for (k in s) printf "  %-12s %9.0f ms over %4d calls, %7.1f ms each\n", k, s[k], n[k], s[k] / n[k] }' \
    "$tmp/timings" | sort -k2 -nr
echo "(damage target: ≤ 20 ms per image)"
