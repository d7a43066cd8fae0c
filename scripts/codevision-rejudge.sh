#!/usr/bin/env bash
# Code-Vision+ (issue 31): re-judge every released sample of
# ../shared/codevision/samples (<subset>/<model>.jsonl) against the rebuilt
# records of OUT/dist (scripts/codevision-rebuild.sh OUT) in native mode,
# and write OUT/rejudge.md: pass@1 per model × subset × difficulty as
# recorded by Code-Vision's authors and as judged now, and every recorded
# pass that now fails with its first failing input, expected and actual value.
# Samples of problems the rebuild left out are not counted (the report says
# how many). Resumable: a finished model is skipped by the judge itself.
# Usage: scripts/codevision-rejudge.sh OUT
set -euo pipefail
OUT=${1:?usage: scripts/codevision-rejudge.sh OUT}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${FLOWBENCH_SHARED:-$ROOT/../shared}
FB=$OUT/flowbench
[ -x "$FB" ] || FB=$ROOT/target/release/flowbench
[ -f "$OUT/dist/manifest.json" ] || { echo "error: $OUT/dist is missing; run scripts/codevision-rebuild.sh $OUT first" >&2; exit 2; }
mkdir -p "$OUT/rejudge"
# One problems file of the function records (all three subsets).
python3 - "$OUT/dist" "$OUT/rejudge/records.jsonl" <<'PY'
import json, os, sys
sys.set_int_max_str_digits(0)  # generated tests hold huge integers
dist, out = sys.argv[1], sys.argv[2]
manifest = json.load(open(os.path.join(dist, "manifest.json")))
lines = [l.strip() for s, f in sorted(manifest["subsets"].items()) if s != "stdio"
         for l in open(os.path.join(dist, f)) if l.strip()]
open(out, "w").write("\n".join(lines) + "\n")
PY
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
            lines.append(json.dumps(s))
    target = os.path.join(out, subset, os.path.basename(path))
    text = "\n".join(lines) + "\n"
    if not os.path.exists(target) or open(target).read() != text:
        open(target, "w").write(text)
PY
t0=$(date +%s.%N)
for subset in HumanEval-V Algorithm MATH; do
  mkdir -p "$OUT/rejudge/$subset"
  for f in "$OUT/rejudge/samples/$subset"/*.jsonl; do
    m=$(basename "$f" .jsonl)
    # Exit 1 = judged, with diagnostics (samples of problems left out of the
    # dist, listed in the log); anything else is a failure of the run.
    rc=0
    "$FB" judge -q --problems "$OUT/rejudge/records.jsonl" --samples "$f" --mode native --coerce-numbers \
      -o "$OUT/rejudge/$subset/$m.jsonl" > "$OUT/rejudge/$subset/$m.log" 2>&1 || rc=$?
    if [ "$rc" -gt 1 ]; then echo "error: judging $subset/$m failed (exit $rc); see $OUT/rejudge/$subset/$m.log" >&2; exit "$rc"; fi
  done
done
printf 're-judge wall %.1f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)" | tee "$OUT/rejudge/timing.txt"
python3 "$ROOT/scripts/codevision_rejudge_report.py" "$OUT"
