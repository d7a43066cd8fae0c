#!/usr/bin/env bash
# Peak memory of `flowbench judge` on a large problems file (issue 28): a
# generated native problems JSONL of about MB megabytes (default 500; each
# problem ten tests of a 15,000-integer list, ~1.2 MB a problem) and 1,000
# samples spread over its problems, judged natively. Prints the file size,
# /usr/bin/time -v's maximum resident size and their ratio, and the same
# for a file a tenth the size, so the constant part shows.
# Target: peak ≤ 2 × the file + a constant.
#
#   scripts/bench-judge-memory.sh [MB]
set -euo pipefail
cd "$(dirname "$0")/.."
mb="${1:-500}"
cargo build --release --quiet
bin="$PWD/${CARGO_TARGET_DIR:-target}/release/flowbench"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

generate() { # MB DIR
    python3 - "$1" "$2" <<'PY'
import json, random, sys
mb, out = float(sys.argv[1]), sys.argv[2]
random.seed(1)
problems = max(1, round(mb / 1.18))
with open(f"{out}/problems.jsonl", "w") as f:
    for p in range(problems):
        tests = [{"args": [[random.randrange(10**6) for _ in range(15000)]], "expected": 15000} for _ in range(10)]
        f.write(json.dumps({"task_id": f"T{p}", "entry_point": "f", "call_style": "function", "tests": tests}) + "\n")
with open(f"{out}/samples.jsonl", "w") as s:
    for k in range(1000):
        s.write(json.dumps({"task_id": f"T{k % problems}", "completion": "def f(xs):\n    return len(xs)\n"}) + "\n")
PY
}

for size in "$(awk -v m="$mb" 'BEGIN { print m / 10 }')" "$mb"; do
    dir="$tmp/$size"
    mkdir -p "$dir"
    generate "$size" "$dir"
    bytes=$(stat -c %s "$dir/problems.jsonl")
    /usr/bin/time -v -o "$dir/time" "$bin" judge -q --problems "$dir/problems.jsonl" --samples "$dir/samples.jsonl" \
        -o "$dir/results.jsonl" >/dev/null
    rss_kb=$(awk -F': ' '/Maximum resident/ { print $2 }' "$dir/time")
    wall=$(awk -F': ' '/Elapsed/ { print $2 }' "$dir/time")
    passed=$(grep -c '"passed":true' "$dir/results.jsonl" || true)
    awk -v b="$bytes" -v r="$rss_kb" -v w="$wall" -v p="$passed" 'BEGIN {
        printf "problems file %.0f MB: peak %.0f MB (%.2f x the file), %s wall, %d/1000 passed\n",
            b / 1e6, r * 1024 / 1e6, r * 1024 / b, w, p }'
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
