#!/usr/bin/env bash
# Timings of `draw`, `check --against` and `chart2py` on the 164 HumanEval
# canonical solutions (prompt + canonical solution), whole processes:
#
#   scripts/bench-author.sh [JOBS]      (default 2 parallel jobs)
#
# 1. per solution, sequentially: `draw -o X.mmd` then `check --against X.py
#    X.mmd` (ms per solution: mean and max; each includes two python3 starts
#    for reading the AST);
# 2. the pipeline on JOBS cores: draw all 164 at --detail high, render all to
#    PNG with --metrics (overlaps counted), chart2py all, judge the programs
#    with HumanEval's own tests (legacy mode): total seconds and the pass count.
# The load average is printed: on a shared machine say so with the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${1:-2}
cargo build --release --quiet
BIN="$PWD/target/release/flowbench"
SHARED=${FLOWBENCH_SHARED:-../shared}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 - "$SHARED/codevision/problems.jsonl" "$WORK" <<'PY'
import json, sys
root = sys.argv[2]
with open(f"{root}/entries.tsv", "w") as idx:
    for line in open(sys.argv[1]):
        p = json.loads(line)
        if p["subset"] != "HumanEval-V":
            continue
        open(f"{root}/{p['task_id']}.py", "w").write(p["prompt"] + p["canonical_solution"])
        idx.write(f"{p['task_id']}\t{p['entry_point']}\n")
PY
echo "load: $(uptime)"

# 1. draw + check --against per solution.
python3 - "$BIN" "$WORK" <<'PY'
import subprocess, sys, time
bin, root = sys.argv[1], sys.argv[2]
times = []
for line in open(f"{root}/entries.tsv"):
    task, entry = line.rstrip("\n").split("\t")
    py, mmd = f"{root}/{task}.py", f"{root}/{task}.d.mmd"
    t = time.perf_counter()
    subprocess.run([bin, "draw", py, "--entry", entry, "-o", mmd], check=True)
    subprocess.run([bin, "check", "--against", py, "--entry", entry, mmd], check=True, stderr=subprocess.DEVNULL)
    times.append(time.perf_counter() - t)
print(f"draw + check --against: {len(times)} solutions, mean {1000*sum(times)/len(times):.1f} ms, max {1000*max(times):.1f} ms per solution")
PY

# 2. draw, render, chart2py, judge: the whole round trip on JOBS cores.
start=$(date +%s.%N)
cut -f1,2 "$WORK/entries.tsv" | xargs -P "$JOBS" -L 1 sh -c '"$0" draw "$1/$2.py" --entry "$3" --detail high -o "$1/$2.mmd"' "$BIN" "$WORK"
mkdir -p "$WORK/png"
"$BIN" render -j "$JOBS" --metrics -O "$WORK/png" "$WORK"/HumanEval-*[0-9].mmd > "$WORK/metrics.jsonl"
cut -f1 "$WORK/entries.tsv" | xargs -P "$JOBS" -I{} "$BIN" chart2py "$WORK/{}.mmd" -o "$WORK/{}.rt.py"
python3 - "$WORK" > "$WORK/samples.jsonl" <<'PY'
import json, sys
root = sys.argv[1]
for line in open(f"{root}/entries.tsv"):
    task = line.split("\t")[0]
    print(json.dumps({"task_id": task, "model": "chart2py", "completion": open(f"{root}/{task}.rt.py").read()}))
PY
"$BIN" judge --mode legacy -q -j $((JOBS * 3)) --problems "$SHARED/codevision/problems.jsonl" --samples "$WORK/samples.jsonl" -o "$WORK/results.jsonl" > /dev/null
end=$(date +%s.%N)
python3 - "$WORK" "$start" "$end" <<'PY'
import json, sys
root, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
results = [json.loads(l) for l in open(f"{root}/results.jsonl")]
metrics = [json.loads(l) for l in open(f"{root}/metrics.jsonl")]
keys = ("node_overlaps", "label_overlaps", "edges_through_nodes", "labels_off_edge")
overlaps = sum(m.get(k, 0) for m in metrics for k in keys)
passed = sum(r["passed"] for r in results)
print(f"pipeline: {len(results)} charts drawn, {len(metrics)} rendered (overlaps {overlaps}), round trip {passed}/{len(results)} pass HumanEval's tests, in {end - start:.1f} s")
PY
echo "load: $(uptime)"
