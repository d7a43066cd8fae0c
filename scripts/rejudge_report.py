"""OUT/rejudge.md for humaneval-rejudge.sh: per model, the recorded passes
that the generated tests fail, the failure classes and pass@1 three ways,
every catch with its class and first failure, and the disputed tests
(from the merged results' OUT/rejudge/all/all.disputed.jsonl)."""
import glob
import json
import os
import sys

# Generated tests hold integers far beyond 4300 digits.
sys.set_int_max_str_digits(0)

CLASSES = ("passed", "slow", "widened", "wrong")
out = sys.argv[1]
rows, catches = [], []
for path in sorted(glob.glob(os.path.join(out, "rejudge", "*.jsonl"))):
    if path.endswith(".disputed.jsonl"):
        continue
    model = os.path.basename(path)[: -len(".jsonl")]
    judged = recorded = caught = now_pass = 0
    classes = dict.fromkeys(CLASSES, 0)
    for line in open(path):
        r = json.loads(line)
        if r.get("mode") != "native":
            continue  # no generated tests for this problem
        judged += 1
        recorded += bool(r.get("recorded_passed"))
        now_pass += bool(r.get("passed"))
        classes[r.get("class") or "unclassed"] = classes.get(r.get("class") or "unclassed", 0) + 1
        if r.get("recorded_passed") and not r.get("passed"):
            caught += 1
            catches.append((model, r["task_id"], r.get("class") or "unclassed", r.get("result", ""), r.get("first_failure")))
    rows.append((model, judged, recorded, now_pass, caught, classes))


def pct(n, d):
    return 100.0 * n / d if d else 0.0


md = ["# HumanEval-V samples re-judged with the generated tests", "",
      "A *catch* is a sample the authors recorded as passing (HumanEval's own tests) that fails flowbench's",
      "generated tests. Problems without generated tests are not counted. Each failed sample has a class: `wrong`",
      "(fails a correctness test within the statement), `slow` (fails only large tests, by time, memory or",
      "recursion depth), `widened` (fails only inputs beyond what the statement and its examples show). pass@1",
      "(one sample per task): strict, without slow, within the statement (without slow and widened).", "",
      "| model | judged | recorded passes | pass now | catches | wrong | slow | widened | pass@1 strict | without slow | within statement |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
caught_by = {}
for m, task, cls, _, _ in catches:
    caught_by.setdefault(m, dict.fromkeys(CLASSES, 0))[cls] = caught_by.setdefault(m, dict.fromkeys(CLASSES, 0)).get(cls, 0) + 1
tot = [0] * 8
for m, j, rec, now, c, cl in rows:
    cb = caught_by.get(m, {})
    strict, noslow, within = now, now + cl["slow"], now + cl["slow"] + cl["widened"]
    md.append("| %s | %d | %d | %d | %d | %d | %d | %d | %.1f | %.1f | %.1f |" % (
        m, j, rec, now, c, cb.get("wrong", 0), cb.get("slow", 0), cb.get("widened", 0),
        pct(strict, j), pct(noslow, j), pct(within, j)))
    for i, v in enumerate((j, rec, now, c, cb.get("wrong", 0), cb.get("slow", 0), cb.get("widened", 0), cl["slow"] + cl["widened"])):
        tot[i] += v
j = tot[0]
all_slow = sum(r[5]["slow"] for r in rows)
all_widened = sum(r[5]["widened"] for r in rows)
md.append("| **all** | %d | %d | %d | %d | %d | %d | %d | %.1f | %.1f | %.1f |" % (
    j, tot[1], tot[2], tot[3], tot[4], tot[5], tot[6], pct(tot[2], j), pct(tot[2] + all_slow, j),
    pct(tot[2] + all_slow + all_widened, j)))
unclassed = sum(1 for r in rows for k, v in r[5].items() if k not in CLASSES and v)
md += ["", "Failed results without a class: %d." % unclassed,
       "", "## Catches", "", "| model | task | class | result | first failing test |", "|---|---|---|---|---|"]
cell = lambda s: s.replace("|", "\\|").replace("\n", " ")[:300]
for m, task, cls, result, ff in sorted(catches, key=lambda c: (int(c[1].split("-")[-1]), c[0])):
    ff = json.dumps(ff, ensure_ascii=False) if ff is not None else ""
    md.append("| %s | %s | %s | %s | %s |" % (m, task, cls, cell(result), cell(ff)))
disputed_path = os.path.join(out, "rejudge", "all", "all.disputed.jsonl")
md += ["", "## Disputed tests", "",
       "Tests that samples of at least three models fail with the same output while passing every other test",
       "(`judge merge --problems`, %s)." % os.path.relpath(disputed_path, out), ""]
disputed = [json.loads(l) for l in open(disputed_path)] if os.path.exists(disputed_path) else []
if not disputed:
    md.append("None." if os.path.exists(disputed_path) else "Not computed.")
else:
    md += ["| task | test | widened | input | reference | crowd | models | statement |", "|---|---:|---|---|---|---|---|---|"]
    for d in disputed:
        md.append("| %s | %d | %s | `%s` | `%s` | `%s` | %s | %s |" % (
            d["task_id"], d["test"], "yes" if d.get("widened") else "", cell(d["input"]), cell(d["reference"]),
            cell(d["crowd"]), ", ".join(d["models"]), cell(d.get("statement_line") or "")))
open(os.path.join(out, "rejudge.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md[: 10 + len(rows)]))
print("catches: %d; disputed tests: %d (listed in %s)" % (len(catches), len(disputed), os.path.join(out, "rejudge.md")))
