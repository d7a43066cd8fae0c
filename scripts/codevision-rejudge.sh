#!/usr/bin/env bash
# Code-Vision+ (issue 31): re-judge every released sample of
# ../shared/codevision/samples (<subset>/<model>.jsonl) against the rebuilt
# records of OUT/dist (scripts/codevision-rebuild.sh OUT) in native mode,
# and write OUT/rejudge.md: pass@1 per model × subset × difficulty as
# recorded by Code-Vision's authors and as judged now, and every recorded
# pass that now fails with its first failing input, expected and actual value.
# Samples of problems the rebuild left out are not counted (the report says
# how many). Resumable: the judge skips the samples already in results.jsonl.
# Usage: scripts/codevision-rejudge.sh OUT
set -euo pipefail
OUT=${1:?usage: scripts/codevision-rejudge.sh OUT}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${FLOWBENCH_SHARED:-$ROOT/../shared}
FB=$OUT/flowbench
[ -x "$FB" ] || FB=${CARGO_TARGET_DIR:-$ROOT/target}/release/flowbench
[ -f "$OUT/dist/manifest.json" ] || { echo "error: $OUT/dist is missing; run scripts/codevision-rebuild.sh $OUT first" >&2; exit 2; }
mkdir -p "$OUT/rejudge"
# One problems file of the function records (all three subsets).
python3 "$ROOT/scripts/dist_records.py" "$OUT/dist" "$OUT/rejudge/records.jsonl" > /dev/null
# The samples under the dist's task names: a record is named by its problem
# directory (`import`'s dir_name: MATH's "3102. Minimize Manhattan
# Distances" is 3102__Minimize_Manhattan_Distances).
python3 - "$SHARED/codevision/samples" "$OUT/rejudge/samples" <<'PY'
import glob, json, os, re, sys
src, out = sys.argv[1], sys.argv[2]
for path in glob.glob(os.path.join(src, "*", "*.jsonl")):
    subset = os.path.basename(os.path.dirname(path))
    os.makedirs(os.path.join(out, subset), exist_ok=True)
    lines = []
    for line in open(path):
        if line.strip():
            s = json.loads(line)
            s["task_id"] = re.sub(r"[^A-Za-z0-9_-]", "_", s["task_id"])
            s["codevision_subset"] = subset  # the report's column (samples say "basic", "math")
            lines.append(json.dumps(s))
    target = os.path.join(out, subset, os.path.basename(path))
    text = "\n".join(lines) + "\n"
    if not os.path.exists(target) or open(target).read() != text:
        open(target, "w").write(text)
PY
# One judge run for every sample: the problems file (hundreds of MB of
# tests) is read and decoded once, not once per model and subset.
# The limit per test is max(3 s, 4 × the reference's slowest test): 3 s is
# Code-Vision's own limit, and a floor of 1 s failed the standard
# O(n · 1000) DP of 3251 (~1 s in Python) because its hand reference is a
# closed form.
t0=$(date +%s.%N)
rc=0
"$FB" judge -q --problems "$OUT/rejudge/records.jsonl" --samples "$OUT"/rejudge/samples/*/*.jsonl --mode native \
  --coerce-numbers --time-floor 3 -o "$OUT/rejudge/results.jsonl" > "$OUT/rejudge/judge.log" 2>&1 || rc=$?
# Exit 1 = judged, with diagnostics (samples of problems left out of the
# dist, listed in the log); anything else is a failure of the run.
if [ "$rc" -gt 1 ]; then echo "error: the re-judge failed (exit $rc); see $OUT/rejudge/judge.log" >&2; exit "$rc"; fi
printf 're-judge wall %.1f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)" | tee "$OUT/rejudge/timing.txt"
python3 "$ROOT/scripts/codevision_rejudge_report.py" "$OUT"
