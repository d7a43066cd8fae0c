#!/usr/bin/env bash
# The two test lanes' wall times, measured in one run on this machine: the
# fast lane (the README's `cargo test --release`, every crate, heavy tests
# ignored) and the full suite (the same with `--include-ignored`: every test
# once). Both are built first, so the times are of running, not compiling.
# Target: the fast lane at most 0.35 × the full suite. Prints the machine's
# load beside the figures: a loaded machine stretches both.
#
#   scripts/bench-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --no-run --quiet 2>/dev/null || cargo test --release --no-run
now() { date +%s.%N; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(now)
cargo test --release >"$log" 2>&1 || { tail -n 40 "$log"; echo "fast lane failed" >&2; exit 1; }
t1=$(now)
fast_counts=$(grep -E '^test result:' "$log" | awk '{p += $4; i += $8} END {print p " passed, " i " ignored"}')
cargo test --release -- --include-ignored >"$log" 2>&1 || { tail -n 40 "$log"; echo "full suite failed" >&2; exit 1; }
t2=$(now)
full_counts=$(grep -E '^test result:' "$log" | awk '{p += $4} END {print p " passed"}')
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v a="$t0" -v b="$t1" -v c="$t2" -v f="$fast_counts" -v g="$full_counts" 'BEGIN {
    fast = b - a; full = c - b
    printf "fast lane (cargo test --release): %.1f s (%s)\n", fast, f
    printf "full suite (-- --include-ignored): %.1f s (%s)\n", full, g
    printf "ratio: %.2f (target <= 0.35)\n", fast / full
}'
