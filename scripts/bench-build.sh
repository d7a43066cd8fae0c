#!/bin/sh
# Build speed (issue 10's figures): a no-op rebuild of the embedded bank
# (target ≤ 0.3 s) and a cold build of a 60-problem synthetic bank in two
# styles with -j 2 (target ≤ 15 s on 2 cores). Whole-process wall time,
# best of 3 for the no-op; the machine load is printed alongside.
# Usage: scripts/bench-build.sh [PROBLEMS=60]
#
# With --compile [BASE] it measures instead what the workspace split buys a
# developer: an incremental release build of the flowbench binary after
# touching one file of the test-generation crate, here and in BASE (default
# 4ed07ae, the last single-crate main), each in a warm target directory of
# its own (BASE's is $BENCH_BASE_TARGET, default target/bench-base; its first
# warm-up is a full build).
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" = --compile ]; then
    exec sh scripts/bench-compile.sh "${2:-4ed07ae}"
fi
n=${1:-60}
cargo build --release --quiet
fb=$PWD/target/release/flowbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

echo "load: $(uptime)"
"$fb" build -o "$tmp/dist" >/dev/null 2>&1 || true
best=
for _ in 1 2 3; do
    t0=$(now); "$fb" build -o "$tmp/dist" >/dev/null 2>&1; t1=$(now)
    e=$(elapsed "$t0" "$t1")
    best=$(awk -v e="$e" -v b="${best:-$e}" 'BEGIN { printf "%.2f", (e < b ? e : b) }')
done
echo "no-op rebuild of the embedded bank: $best s (target ≤ 0.3 s)"

python3 scripts/synthetic-bank.py "$n" "$tmp/bank"
printf '[[style]]\nname = "default"\n\n[[style]]\nname = "dark"\ntheme = "dark"\n' > "$tmp/two.toml"
t0=$(now)
"$fb" build --problems "$tmp/bank" -o "$tmp/synth" --styles "$tmp/two.toml" -j 2 >/dev/null 2>&1
t1=$(now)
echo "cold build of $n synthetic problems x 2 styles, -j 2: $(elapsed "$t0" "$t1") s (target ≤ 15 s)"
t0=$(now); "$fb" build --problems "$tmp/bank" -o "$tmp/synth" --styles "$tmp/two.toml" -j 2 >/dev/null 2>&1; t1=$(now)
echo "no-op rebuild of the same: $(elapsed "$t0" "$t1") s"
