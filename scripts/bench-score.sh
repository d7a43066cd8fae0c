#!/usr/bin/env bash
# Cost of the differential scores (issue 26): `tests score` over the whole
# bank (problems/*/) with the first-order mutants only and with the
# higher-order and alternative-algorithm mutants too, each RUNS times (one
# process per run), printing the median wall times, their ratio and the
# overall line. Usage: scripts/bench-score.sh [RUNS]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-1}
cargo build --release -q --manifest-path "$ROOT/Cargo.toml"
FB=$ROOT/target/release/flowbench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$ROOT/problems"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for mode in first-order all; do
  flag=()
  [ "$mode" = first-order ] && flag=(--first-order-only)
  for _ in $(seq "$RUNS"); do
    t0=$(date +%s.%N)
    "$FB" tests score "${flag[@]}" */ > "$work/$mode.txt"
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc >> "$work/$mode.times"
  done
done
first=$(median < "$work/first-order.times")
all=$(median < "$work/all.times")
grep '^overall' "$work/all.txt"
printf 'first-order only %.1f s, all three sets %.1f s (%.2fx), median of %d; load: %s\n' \
  "$first" "$all" "$(echo "$all / $first" | bc -l)" "$RUNS" "$(uptime | sed 's/.*load average: //')"
