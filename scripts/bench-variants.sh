#!/usr/bin/env bash
# Speed and yield of `flowbench variants` (issues 30, 58): every problem of
# the bank (FUNCTIONS_ONLY=1: only the 60 function problems, as before
# whole programs had variants), every kind, one variant each, timed in one
# process; prints the run's own summary (problems with ≥ 2 and ≥ 1
# variants, kept per kind, the reason for each problem left without), the
# wall time, the CPU time (user+sys of the whole process tree: flowbench,
# its sandbox workers and its helper processes, which exit after flowbench
# and would escape `time`; a child subreaper waits for them) and the
# machine's load: other sessions' work on a 2-core machine skews
# the wall time, CPU ÷ cores estimates it on an idle machine. Usage:
#   scripts/bench-variants.sh [KINDS] [OUT] [JOBS]
# The target is ≤ 60 s for the 60 function problems on 2 cores; the run's
# summary also counts the whole programs (stdio) with ≥ 1 variant.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KINDS=${1:-rename,constants,logic}
OUT=${2:-$(mktemp -d)}
JOBS=${3:-$(nproc)}
cargo build --release -q --manifest-path "$ROOT/Cargo.toml"
mkdir -p "$OUT"
rm -rf "$OUT/variants"
DIRS=()
for d in "$ROOT"/problems/*/; do
  if [ "${FUNCTIONS_ONLY:-0}" = 1 ] && grep -q '"call_style": *"stdio"' "$d/problem.json" 2>/dev/null; then
    continue
  fi
  DIRS+=("$d")
done
# Runs a command as a child subreaper (every descendant, orphans too, is
# reaped here) and writes "wall user sys" of the whole tree to a file.
TREE_TIME='
import ctypes, os, resource, subprocess, sys, time
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
start = time.monotonic()
status = subprocess.call(sys.argv[2:])
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.2f %.2f %.2f\n" % (time.monotonic() - start, r.ru_utime, r.ru_stime))
sys.exit(status)
'
load=$(uptime | sed 's/.*load average: //')
status=0
python3 -c "$TREE_TIME" "$OUT/time.txt" \
  "$ROOT/target/release/flowbench" variants "${DIRS[@]}" --kinds "$KINDS" --count 1 -q -j "$JOBS" \
  -o "$OUT/variants" > "$OUT/variants.txt" || status=$?
read -r wall user sys < <(tail -n 1 "$OUT/time.txt")
grep -v '^  ' "$OUT/variants.txt" | tail -n 1
grep '^  no variant' "$OUT/variants.txt" || true
python3 - "$OUT/variants/variants.json" "$ROOT/problems" <<'PY'
import json, pathlib, sys
summary = json.load(open(sys.argv[1]))
stdio = {p.parent.name for p in pathlib.Path(sys.argv[2]).glob("*/problem.json")
         if json.loads(p.read_text()).get("call_style") == "stdio"}
runs = [p for p in summary["problems"] if p["problem"] in stdio]
if runs:
    some = sum(1 for p in runs if p["kept"])
    kinds = sorted({k["kind"] for p in runs for k in p["kept"]})
    print(f"whole programs (stdio): {some} of {len(runs)} with >= 1 variant "
          f"({100 * some / len(runs):.1f} %), kinds kept: {', '.join(kinds)}")
PY
cpu=$(echo "$user + $sys" | bc)
printf 'wall %.1f s, CPU %.1f s (user %.1f + sys %.1f; CPU / %s cores = %.1f s) for %s problems (kinds %s, -j %s)\n' \
  "$wall" "$cpu" "$user" "$sys" "$(nproc)" "$(echo "$cpu / $(nproc)" | bc -l)" "${#DIRS[@]}" "$KINDS" "$JOBS"
echo "load before: $load; after: $(uptime | sed 's/.*load average: //')"
echo "variants and variants.json in $OUT/variants"
exit "$status"
