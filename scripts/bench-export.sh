#!/usr/bin/env bash
# Speed of `flowbench export`: the bank's dist exported to all three
# harnesses (hf, inspect, vlmevalkit), one after the other, each into a
# fresh directory. Target: ≤ 10 s for the three on the project's 2-core
# machine. Prints wall time, CPU time, peak memory and load per run, and
# the dist's size (memory target for a large dist: ≤ 2x its size).
#
#   scripts/bench-export.sh [RUNS] [DIST]   (DIST default: dist/, built first when absent)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
dist="${2:-dist}"
cargo build --release --quiet --bin flowbench
bin="${CARGO_TARGET_DIR:-target}/release/flowbench"
if [[ ! -f "$dist/manifest.json" ]]; then
  "$bin" build -o "$dist" >/dev/null
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
records="$(cat "$dist"/*.jsonl | grep -c .)"
echo "exporting $dist ($records records, $(du -sh "$dist" | cut -f1)) to hf, inspect, vlmevalkit; cores: $(nproc)"
for i in $(seq 1 "$runs"); do
  load="$(cut -d' ' -f1 /proc/loadavg)"
  start="$(date +%s.%N)"
  total_cpu=0
  peak=0
  for to in hf inspect vlmevalkit; do
    /usr/bin/time -f "%U %S %M" -o "$tmp/cpu" "$bin" export "$dist" --to "$to" -o "$tmp/run$i-$to" >/dev/null 2>"$tmp/err" \
      || { cat "$tmp/err" >&2; exit 1; }
    read -r user sys rss < "$tmp/cpu"
    total_cpu="$(echo "$total_cpu + $user + $sys" | bc)"
    (( rss > peak )) && peak="$rss"
  done
  end="$(date +%s.%N)"
  printf 'run %d: %.2f s wall for the three, %.2f s CPU, peak RSS %d MiB, load before %s\n' \
    "$i" "$(echo "$end - $start" | bc)" "$total_cpu" "$((peak / 1024))" "$load"
done
