#!/usr/bin/env bash
# Same seed, same tests, whatever the load (issue 26): imports the first N
# HumanEval problems of ../shared/codevision/problems.jsonl without hand
# specs, runs `tests gen` on them twice, the second time beside two CPU hogs,
# and compares the two tests.jsonl files of every problem (measured times
# aside). Usage: scripts/testgen-under-load.sh [N] (default 40).
set -euo pipefail
N=${1:-40}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${FLOWBENCH_SHARED:-$ROOT/../shared}
FB=$ROOT/target/release/flowbench
cargo build --release -q --manifest-path "$ROOT/Cargo.toml"
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT
"$FB" import codevision "$SHARED/codevision/problems.jsonl" --subset HumanEval-V -o "$WORK/all" > /dev/null 2>&1
mkdir -p "$WORK/idle" "$WORK/loaded"
for p in $(ls "$WORK/all" | sort | head -n "$N"); do
  cp -r "$WORK/all/$p" "$WORK/idle/"
  cp -r "$WORK/all/$p" "$WORK/loaded/"
done
(cd "$WORK/idle" && "$FB" tests gen -- * > /dev/null 2>&1 || true)
python3 -c "while True: pass" &
python3 -c "while True: pass" &
(cd "$WORK/loaded" && "$FB" tests gen -- * > /dev/null 2>&1 || true)
kill $(jobs -p)
python3 - "$WORK/idle" "$WORK/loaded" <<'PY'
import json, os, sys
sys.set_int_max_str_digits(0)
a, b = sys.argv[1], sys.argv[2]
def load(path):
    if not os.path.exists(path):
        return None
    out = []
    for line in open(path):
        v = json.loads(line)
        v.pop("reference_time_s", None)
        out.append(json.dumps(v, sort_keys=True))
    return out
problems = sorted(os.listdir(a))
differ = [p for p in problems if load(os.path.join(a, p, "tests.jsonl")) != load(os.path.join(b, p, "tests.jsonl"))]
written = sum(os.path.exists(os.path.join(a, p, "tests.jsonl")) for p in problems)
print(f"{len(problems)} problems, {written} with tests; identical beside two CPU hogs: {len(problems) - len(differ)}")
for p in differ:
    print("differs:", p)
sys.exit(1 if differ else 0)
PY
