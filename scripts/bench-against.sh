#!/usr/bin/env bash
# Speed benchmark of `flowbench check --against`: each chart of the
# faithfulness corpus (tests/faithfulness, bank entries: faithful and wrong
# twin) and of ../shared/anchors/codevision-style, checked against its
# solution one process at a time; prints the median and the slowest
# milliseconds per chart (target: median ≤ 1.5 s on 2 cores, sandbox start
# and input generation included), and how many charts ran as programs. A
# bank solution has its problem.json beside it, so a chart written in code
# is also run on the problem's tests; every chart that reads as code runs
# beside its solution on inputs made from it (the anchors have no tests).
# Then the batch: `check --beside` over the anchors' directory in one
# process (sandbox started once), milliseconds per chart (target ≤ 150).
#
# Each process starts the sandbox (about half a second) before its first
# run; benches/against_speed.rs, run last, times the charts with the
# sandbox started once, as a `check` of several charts or `author` runs.
#
#   scripts/bench-against.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/flowbench"
pairs=()
for dir in tests/faithfulness/*/; do
    source=$(sed -n 's/^source = "bank:\(.*\)"$/\1/p' "$dir/entry.toml")
    [ -n "$source" ] || continue
    pairs+=("problems/$source/solution.py" "$dir/faithful.mmd" "problems/$source/solution.py" "$dir/wrong.mmd")
done
anchors="${FLOWBENCH_SHARED:-../shared}/anchors/codevision-style"
for chart in "$anchors"/*.mmd; do
    [ -f "$chart" ] && pairs+=("${chart%.mmd}.py" "$chart")
done
[ "${#pairs[@]}" -gt 0 ] || { echo "no charts found" >&2; exit 1; }
times=()
executed=0
for ((k = 0; k < ${#pairs[@]}; k += 2)); do
    start=$(date +%s%N)
    out=$("$bin" check --json --against "${pairs[k]}" "${pairs[k + 1]}" 2>/dev/null || true)
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
    case "$out" in *'"evidence":"executed"'*) executed=$((executed + 1)) ;; esac
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
n=${#sorted[@]}
echo "check --against: $n charts ($executed with executed evidence); median ${sorted[n / 2]} ms, slowest ${sorted[n - 1]} ms per chart (load $(cut -d' ' -f1 /proc/loadavg))"
if [ -d "$anchors" ]; then
    count=$(ls "$anchors"/*.mmd | wc -l)
    start=$(date +%s%N)
    "$bin" check --beside "$anchors" >/dev/null 2>&1 || true
    total=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "check --beside (batch): $count anchors in $total ms, $((total / count)) ms per chart (load $(cut -d' ' -f1 /proc/loadavg))"
fi
cargo bench --quiet --bench against_speed 2>/dev/null | grep '^check --against'
