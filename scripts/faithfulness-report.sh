#!/usr/bin/env bash
# Figures of `flowbench check --against` on the faithfulness corpus
# (tests/faithfulness), per split: faithful charts passed / refused, wrong
# twins flagged (and of those, with a counterexample from running the
# chart), the wrong element named, and how many faithful charts' programs
# (chart2py with the solution's signature) agreed with the reference.
# Each entry's two charts are checked the way a user would, in one
# process: `check --json --against <solution> [--entry …] [--tests …]`.
#
#   scripts/faithfulness-report.sh [--split tuned|held-back|all] [-v]
#
# `tuned` (the default) leaves out the entries whose entry.toml says
# `split = "held-back"`; `held-back` reports only those (never look at
# them while tuning the checker); `all` reports both, apart. `-v` lists
# each refused faithful chart, each missed or unnamed wrong twin, and each
# faithful chart whose program did not run (and why).
set -euo pipefail
cd "$(dirname "$0")/.."
split=tuned
verbose=0
while [ $# -gt 0 ]; do
    case "$1" in
        --split) split="$2"; shift 2 ;;
        -v) verbose=1; shift ;;
        *) echo "usage: $0 [--split tuned|held-back|all] [-v]" >&2; exit 2 ;;
    esac
done
case "$split" in tuned | held-back | all) ;; *) echo "--split: tuned, held-back or all" >&2; exit 2 ;; esac
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/flowbench"
shared="${FLOWBENCH_SHARED:-../shared}"
corpus="${FLOWBENCH_FAITH_CORPUS:-tests/faithfulness}"
export bin shared corpus split verbose
python3 - <<'EOF'
import json, os, subprocess, sys, tempfile, tomllib

bin, shared, corpus, split, verbose = (os.environ[k] for k in ("bin", "shared", "corpus", "split", "verbose"))
humaneval = os.path.join(shared, "codevision/problems.jsonl")
tmp = tempfile.mkdtemp(prefix="faith-report-")


def plain(t):
    return " ".join(t.replace("<br>", " ").replace('"', "").replace("`", "").split()).lower()


def named(report, wrong):
    labels = [plain(l) for l in (wrong.get("element", ""), wrong.get("condition", "")) if l]
    line = wrong.get("line")
    return any(any(l in plain(m["message"]) for l in labels) or (line is not None and m.get("code_line") == line)
               for m in report["mismatches"])


def command(d, meta):
    source = meta["source"]
    if source == "local":
        entry = meta.get("entry_point")
        if meta.get("class"):
            entry = meta["class"] + "." + entry
        return [os.path.join(d, "solution.py")] + (["--entry", entry] if entry else [])
    if source.startswith("bank:"):
        name = source[5:]
        pj = json.load(open(os.path.join("problems", name, "problem.json")))
        return [os.path.join("problems", name, "solution.py"), "--entry", pj["entry_point"]]
    task = source.split(":", 1)[1]
    if not os.path.exists(humaneval):
        return None
    for line in open(humaneval):
        p = json.loads(line)
        if p["task_id"] == task:
            path = os.path.join(tmp, task.replace("/", "_") + ".py")
            open(path, "w").write(p["prompt"] + p["canonical_solution"])
            return [path, "--entry", p["entry_point"], "--tests", humaneval, "--task", task]
    return None


splits = {"tuned": {}, "held-back": {}}
for name in sorted(os.listdir(corpus)):
    d = os.path.join(corpus, name)
    if not os.path.isfile(os.path.join(d, "entry.toml")):
        continue
    meta = tomllib.load(open(os.path.join(d, "entry.toml"), "rb"))
    which = "held-back" if meta.get("split") == "held-back" else "tuned"
    if split != "all" and which != split:
        continue
    args = command(d, meta)
    if args is None:
        continue
    out = subprocess.run([bin, "check", "--json", "--against"] + args +
                         [os.path.join(d, "faithful.mmd"), os.path.join(d, "wrong.mmd")],
                         capture_output=True, text=True)
    lines = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    s = splits[which].setdefault("rows", [])
    s.append((name, meta, lines, out.stderr))

for which in ("tuned", "held-back"):
    rows = splits[which].get("rows")
    if not rows:
        continue
    n = len(rows)
    passed = flagged = counter = element = ran = agreed = 0
    refused, missed, unnamed, not_run = [], [], [], []
    for name, meta, lines, err in rows:
        if len(lines) != 2:
            refused.append("%s: no report (%s)" % (name, err.strip().splitlines()[-1:] or "?"))
            missed.append(name)
            continue
        f, w = lines
        if f["faithful"]:
            passed += 1
        else:
            refused.append("%s: %s" % (name, " | ".join(m["message"] for m in f["mismatches"])))
        b = f.get("behaviour") or {}
        e = f.get("execution") or {}
        if b.get("outcome") in ("agreed", "differs") or e.get("outcome") in ("passed", "failed"):
            ran += 1
            if b.get("outcome") == "agreed" or (e.get("outcome") == "passed" and b.get("outcome") != "differs"):
                agreed += 1
        else:
            not_run.append("%s: %s" % (name, b.get("reason") or e.get("reason") or b.get("outcome")))
        if w["faithful"]:
            missed.append("%s (%s)" % (name, meta["wrong"]["kind"]))
            continue
        flagged += 1
        if any(m["kind"] == "behaviour" for m in w["mismatches"]):
            counter += 1
        if named(w, meta["wrong"]):
            element += 1
        else:
            unnamed.append("%s (%s: %s)" % (name, meta["wrong"]["kind"], meta["wrong"].get("element")))
    pct = lambda a, b: 100.0 * a / max(b, 1)
    print("%s: %d entries" % (which, n))
    print("  faithful charts passed %d/%d, refused %d" % (passed, n, n - passed))
    print("  wrong twins flagged %d/%d (%.1f %%), with a counterexample %d/%d (%.1f %%)"
          % (flagged, n, pct(flagged, n), counter, flagged, pct(counter, flagged)))
    print("  element named %d/%d (%.1f %%)" % (element, flagged, pct(element, flagged)))
    print("  chart2py: %d/%d faithful charts ran; %d/%d agreed with the reference (%.1f %%)"
          % (ran, n, agreed, n, pct(agreed, n)))
    if verbose == "1":
        for r in refused:
            print("  refused: " + r)
        for m in missed:
            print("  missed: " + m)
        for r in not_run:
            print("  not run: " + r)
        for u in unnamed:
            print("  unnamed: " + u)
EOF
