#!/usr/bin/env bash
# Speed benchmark of whole-program (stdio) judging with `flowbench judge`:
# 1,000 stdio runs of a trivial Python program (100 samples × 10 tests of
# "print twice the number read"), end to end (worker start-up included).
# Target: ≤ 10 s on the project's 2-core machine. Prints wall time, CPU time
# and load for each run; take the best of several runs on a quiet machine.
# `cargo bench --bench stdio_speed` measures the same work through the
# library, start-up excluded.
#
#   scripts/bench-stdio.sh [RUNS] [extra judge args, e.g. -j 4]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
shift || true
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/flowbench"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
tests = [{"stdin": "%d\n" % i, "stdout": "%d\n" % (2 * i)} for i in range(10)]
with open(d + "/problems.jsonl", "w") as f:
    f.write(json.dumps({"task_id": "double", "call_style": "stdio", "tests": tests}) + "\n")
with open(d + "/samples.jsonl", "w") as f:
    for k in range(100):
        f.write(json.dumps({"task_id": "double", "completion": "print(int(input()) * 2)  # sample %d\n" % k}) + "\n")
PY
echo "1000 stdio runs (100 samples x 10 tests); cores: $(nproc); args: ${*:-(defaults)}"
for i in $(seq 1 "$runs"); do
  out="$tmp/run$i.jsonl"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  start="$(date +%s.%N)"
  /usr/bin/time -f "%U %S" -o "$tmp/cpu" "$bin" judge -q --prelude none --problems "$tmp/problems.jsonl" \
    --samples "$tmp/samples.jsonl" -o "$out" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  end="$(date +%s.%N)"
  read -r user sys < "$tmp/cpu"
  passed="$(grep -c '"passed":true' "$out" || true)"
  printf 'run %d: %.1f s wall, %.1f s user + %.1f s sys, load before %s; %s/100 samples passed\n' \
    "$i" "$(echo "$end - $start" | bc)" "$user" "$sys" "$load" "$passed"
done
