#!/usr/bin/env bash
# Speed benchmark of `flowbench check --against`: each chart of the
# faithfulness corpus (tests/faithfulness, bank entries: faithful and wrong
# twin) and of ../shared/anchors/codevision-style, checked against its
# solution one process at a time; prints the median and the slowest
# milliseconds per chart (target: median ≤ 100 ms). Structural check only:
# the executed evidence is not built yet.
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
for ((k = 0; k < ${#pairs[@]}; k += 2)); do
    start=$(date +%s%N)
    "$bin" check --against "${pairs[k]}" "${pairs[k + 1]}" >/dev/null 2>&1 || true
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
n=${#sorted[@]}
echo "check --against: $n charts; median ${sorted[n / 2]} ms, slowest ${sorted[n - 1]} ms per chart (load $(cut -d' ' -f1 /proc/loadavg))"
