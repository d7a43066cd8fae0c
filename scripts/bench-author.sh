#!/usr/bin/env bash
# Timings of `draw`, `check --against` and `chart2py` on the 164 HumanEval
# canonical solutions (prompt + canonical solution), whole processes:
#
#   scripts/bench-author.sh [JOBS]      (default 2 parallel jobs)
#
# 0. node counts per --detail (mean, spread, min/median/max) of the 164 and
#    of the 24 Code-Vision-style solutions in ../shared/anchors;
# 1. per solution: (a) one process each, `draw -o X.mmd` then `check
#    --against X.py X.mmd`, with an empty AST cache (draw starts python3,
#    check reuses its reading), and again with FLOWBENCH_CACHE=off (two
#    python3 starts); (b) as a bank is drawn: one `draw -O DIR` for all 164
#    (one python3 per job), then `check --against` per chart; ms per solution;
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
# A cache of its own: every solution's first reading is a cold one.
export XDG_CACHE_HOME="$WORK/cache"
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

# 0. node counts per --detail.
for d in low medium high; do
  mkdir -p "$WORK/n-$d" "$WORK/cv-$d"
  "$BIN" draw -j "$JOBS" --detail "$d" -O "$WORK/n-$d" "$WORK"/HumanEval-*[0-9].py
  "$BIN" draw -j "$JOBS" --detail "$d" -O "$WORK/cv-$d" "$SHARED"/anchors/codevision-style/*.py
done
python3 - "$BIN" "$WORK" <<'PY'
import glob, json, statistics, subprocess, sys
bin, root = sys.argv[1], sys.argv[2]
def nodes(path):
    return len(json.loads(subprocess.run([bin, "parse", "--json", path], check=True, capture_output=True).stdout)["nodes"])
for corpus, label in (("n", "HumanEval (164)"), ("cv", "codevision-style (24)")):
    for d in ("low", "medium", "high"):
        c = sorted(nodes(p) for p in glob.glob(f"{root}/{corpus}-{d}/*.mmd"))
        share = sum(11 <= n <= 19 for n in c) / len(c)
        print(f"nodes {label} --detail {d}: mean {statistics.mean(c):.2f}, sd {statistics.pstdev(c):.2f}, min {c[0]}, median {statistics.median(c)}, max {c[-1]}, in 11-19: {100 * share:.0f} %")
PY

# 1. draw + check --against per solution.
python3 - "$BIN" "$WORK" <<'PY'
import os, resource, shutil, subprocess, sys, time
bin, root = sys.argv[1], sys.argv[2]
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
for label, env in (("AST cache, cold at each draw", {}), ("no cache (FLOWBENCH_CACHE=off)", {"FLOWBENCH_CACHE": "off"})):
    shutil.rmtree(f"{root}/cache", ignore_errors=True)
    env = dict(os.environ, **env)
    times = []
    c0 = cpu()
    for line in open(f"{root}/entries.tsv"):
        task, entry = line.rstrip("\n").split("\t")
        py, mmd = f"{root}/{task}.py", f"{root}/{task}.d.mmd"
        t = time.perf_counter()
        subprocess.run([bin, "draw", py, "--entry", entry, "-o", mmd], check=True, env=env)
        subprocess.run([bin, "check", "--against", py, "--entry", entry, mmd], check=True, stderr=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - t)
    print(f"(a) draw + check --against, one process each, {label}: {len(times)} solutions, mean {1000*sum(times)/len(times):.1f} ms, max {1000*max(times):.1f} ms per solution (CPU {1000*(cpu()-c0)/len(times):.1f} ms)")
shutil.rmtree(f"{root}/cache", ignore_errors=True)
t, c0 = time.perf_counter(), cpu()
subprocess.run([bin, "draw", "-O", f"{root}/batch"] + [f"{root}/{l.split(chr(9))[0]}.py" for l in open(f"{root}/entries.tsv")], check=True)
drawn = time.perf_counter() - t
for line in open(f"{root}/entries.tsv"):
    task = line.split("\t")[0]
    subprocess.run([bin, "check", "--against", f"{root}/{task}.py", f"{root}/batch/{task}.mmd"], check=True, stderr=subprocess.DEVNULL)
total = time.perf_counter() - t
print(f"(b) one draw -O for all, then check --against each: {1000*total/len(times):.1f} ms per solution (draw {1000*drawn/len(times):.1f} ms, check {1000*(total-drawn)/len(times):.1f} ms; CPU {1000*(cpu()-c0)/len(times):.1f} ms)")
PY

# 2. draw, render, chart2py, judge: the whole round trip on JOBS cores.
start=$(date +%s.%N)
# HumanEval's entry point is the last function of prompt + solution: draw's default.
"$BIN" draw -j "$JOBS" --detail high -O "$WORK" "$WORK"/HumanEval-*[0-9].py
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
counts = ", ".join(f"{k} {sum(m.get(k, 0) for m in metrics)}" for k in keys)
passed = sum(r["passed"] for r in results)
print(f"pipeline: {len(results)} charts drawn, {len(metrics)} rendered ({counts}), round trip {passed}/{len(results)} pass HumanEval's tests, in {end - start:.1f} s")
PY
echo "load: $(uptime)"
