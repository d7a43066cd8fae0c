#!/usr/bin/env bash
# The yardstick's suites judged by labelled programs (issue 58): the
# HumanEval-V samples of ../shared/codevision/samples, each labelled by the
# verdict its authors recorded, corrected by the hand checks in
# testgen/humaneval-hand-checks.jsonl (scripts/yardstick_labels.py), judged
# on HumanEval's own tests (problem.json) and on the generated ones
# (tests.jsonl) by `tests score --labelled`: TPR (correct programs
# accepted) and TNR (wrong ones rejected), per problem and overall, into
# OUT/labelled.md. Needs OUT/problems from humaneval-yardstick.sh.
# Usage: scripts/humaneval-labelled.sh OUT
set -euo pipefail
OUT=${1:?usage: scripts/humaneval-labelled.sh OUT}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${FLOWBENCH_SHARED:-$ROOT/../shared}
FB=${CARGO_TARGET_DIR:-$ROOT/target}/release/flowbench
test -d "$OUT/problems" || { echo "error: $OUT/problems is missing; run scripts/humaneval-yardstick.sh $OUT first" >&2; exit 2; }
cargo build --release -q --manifest-path "$ROOT/Cargo.toml"
python3 "$ROOT/scripts/yardstick_labels.py" "$SHARED/codevision/samples/HumanEval-V" \
  "$ROOT/testgen/humaneval-hand-checks.jsonl" "$OUT/labelled.jsonl" | tee "$OUT/labelled.md.head"
rc=0
"$FB" tests score --labelled "$OUT/labelled.jsonl" --json --tests problem.json --tests tests.jsonl "$OUT"/problems/* \
  > "$OUT/labelled-score.jsonl" 2> "$OUT/labelled-score.err" || rc=$?
if [ "$rc" -gt 1 ]; then echo "error: tests score --labelled failed (exit $rc); see $OUT/labelled-score.err" >&2; exit "$rc"; fi
# The generated suites again, a sample failing only slow or widened tests
# counted as accepted (`--count slow,widened`): the rates within the
# statement, which is what a correct program failing only those is.
rc=0
"$FB" tests score --labelled "$OUT/labelled.jsonl" --count slow,widened --json --tests tests.jsonl "$OUT"/problems/* \
  > "$OUT/labelled-score-within.jsonl" 2> "$OUT/labelled-score-within.err" || rc=$?
if [ "$rc" -gt 1 ]; then echo "error: tests score --labelled --count slow,widened failed (exit $rc); see $OUT/labelled-score-within.err" >&2; exit "$rc"; fi
python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
def overall_of(name, counting):
    rows = [json.loads(l) for l in open(os.path.join(out, name)) if '"overall"' in l]
    return [dict(r, counting=counting) for r in rows]
overall = overall_of("labelled-score.jsonl", "strict") + overall_of("labelled-score-within.jsonl", "slow, widened accepted")
pct = lambda r: "—" if r is None else "%.1f %%" % (100 * r)
md = ["# The yardstick's suites judged by labelled programs", "", open(os.path.join(out, "labelled.md.head")).read().strip(), "",
      "| suite | counting | problems | TPR (correct accepted) | TNR (wrong rejected) | not judged |",
      "|---|---|---:|---:|---:|---:|"]
for o in overall:
    r = o["rates"]
    md.append("| %s | %s | %d | %s (%d of %d) | %s (%d of %d) | %d |" % (
        o["tests"], o["counting"], o["problems"], pct(o["tpr"]), r["correct_accepted"], r["correct"], pct(o["tnr"]),
        r["wrong_rejected"], r["wrong"], r["unjudged"]))
for o in overall:
    md += ["", "## Judged against their label by %s (%s)" % (o["tests"], o["counting"]), "", "| task | sample | label | result |", "|---|---|---|---|"]
    for m in o["misjudged"]:
        md.append("| %s | %s | %s | %s |" % (m["task_id"], m["sample_key"], m["label"], m["result"].replace("|", "\\|")[:160]))
open(os.path.join(out, "labelled.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md[:9]))
PY
