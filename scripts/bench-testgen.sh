#!/usr/bin/env bash
# Speed of test generation (issue 9): generate, validate and score one
# typical bank problem (default gcd) RUNS times in one `tests gen --score`
# process each, and print the median wall time. Usage:
#   scripts/bench-testgen.sh [PROBLEM] [RUNS]
# The whole-HumanEval figure is the time humaneval-yardstick.sh reports.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROBLEM=${1:-gcd}
RUNS=${2:-7}
cargo build --release -q --manifest-path "$ROOT/Cargo.toml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$ROOT/problems/$PROBLEM" "$work/"
times=()
for _ in $(seq "$RUNS"); do
  t0=$(date +%s.%N)
  "$ROOT/target/release/flowbench" tests gen --score "$work/$PROBLEM" > "$work/out.txt"
  t1=$(date +%s.%N)
  times+=("$(echo "$t1 - $t0" | bc)")
done
cat "$work/out.txt"
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "median %.2f s over %d runs (min %.2f, max %.2f); load: %s\n", a[int((NR+1)/2)], NR, a[1], a[NR], "'"$(uptime | sed 's/.*load average: //')"'"}'
