"""OUT/rejudge.md for codevision-rejudge.sh: pass@1 per model × subset ×
difficulty, recorded (Code-Vision's own tests) and now (the rebuilt tests),
and every recorded pass that the rebuilt tests fail, with its first failure."""
import glob
import json
import os
import sys
from collections import defaultdict

# Generated tests hold integers far beyond 4300 digits.
sys.set_int_max_str_digits(0)

out = sys.argv[1]
SUBSETS = ["HumanEval-V", "Algorithm", "MATH"]
cells = defaultdict(lambda: [0, 0, 0, 0])  # (model, subset, difficulty) -> judged, recorded, now, caught
not_built = defaultdict(int)
catches = []
for line in open(os.path.join(out, "rejudge", "results.jsonl")):
    r = json.loads(line)
    if r.get("mode") != "native":
        continue  # no rebuilt tests: counted below as not judged
    subset, model = r["codevision_subset"], r["model"]
    key = (model, subset, r.get("difficulty") or "?")
    c = cells[key]
    c[0] += 1
    c[1] += bool(r.get("recorded_passed"))
    c[2] += bool(r.get("passed"))
    if r.get("recorded_passed") and not r.get("passed"):
        c[3] += 1
        catches.append((subset, r["task_id"], model, r.get("error_class") or "", r.get("result", ""),
                        r.get("first_failure")))

# Samples of problems the rebuild left out have no record: the judge
# rejects them (listed in its log); they, and any judged without rebuilt
# tests, are the samples not counted.
for subset in SUBSETS:
    given = sum(1 for f in glob.glob(os.path.join(out, "rejudge", "samples", subset, "*.jsonl"))
                for line in open(f) if line.strip())
    judged = sum(n for (m, s, d), (n, *_) in cells.items() if s == subset)
    not_built[subset] = given - judged
pct = lambda a, n: "%.1f" % (100.0 * a / n) if n else "–"
md = ["# Code-Vision+: the released samples re-judged with the rebuilt tests", "",
      "pass@1 (%) per model, subset and difficulty: *recorded* is Code-Vision's verdict with its own tests,",
      "*now* is flowbench's native judge with the rebuilt tests (originals kept, generated typical, edge and",
      "large added). A *catch* is a recorded pass that now fails. Samples of problems the rebuild left out",
      "are not counted: %s." % ", ".join("%s %d" % (s, not_built[s]) for s in SUBSETS), "",
      "| model | subset | difficulty | samples | recorded | now | drop (points) | catches |",
      "|---|---|---|---:|---:|---:|---:|---:|"]
order = {s: i for i, s in enumerate(SUBSETS)}
tot = defaultdict(lambda: [0, 0, 0])
for (m, s, d), (n, rec, now, caught) in sorted(cells.items(), key=lambda kv: (kv[0][0], order[kv[0][1]], kv[0][2])):
    md.append("| %s | %s | %s | %d | %s | %s | %.1f | %d |" % (
        m, s, d, n, pct(rec, n), pct(now, n), 100.0 * (rec - now) / n if n else 0.0, caught))
    for k in ((m, s), (s,), ()):
        t = tot[k]
        t[0] += n; t[1] += rec; t[2] += now
md += ["", "## Per subset", "", "| subset | samples | recorded | now | catches |", "|---|---:|---:|---:|---:|"]
by_subset = defaultdict(int)
for c in catches:
    by_subset[c[0]] += 1
for s in SUBSETS:
    n, rec, now = tot[(s,)]
    md.append("| %s | %d | %s | %s | %d |" % (s, n, pct(rec, n), pct(now, n), by_subset[s]))
n, rec, now = tot[()]
md.append("| **all** | %d | %s | %s | %d |" % (n, pct(rec, n), pct(now, n), len(catches)))
md += ["", "## Catches (%d)" % len(catches), "",
       "| subset | task | model | class | first failing test |", "|---|---|---|---|---|"]
cell = lambda s: s.replace("|", "\\|").replace("\n", " ")[:300]
for subset, task, model, cls, result, ff in sorted(catches, key=lambda c: (order[c[0]], c[1], c[2])):
    ff = json.dumps(ff, ensure_ascii=False) if ff is not None else cell(result)
    md.append("| %s | %s | %s | %s | %s |" % (subset, task, model, cls, cell(ff)))
open(os.path.join(out, "rejudge.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md[md.index("## Per subset"):md.index("## Per subset") + 8]))
print("catches: %d (listed in %s)" % (len(catches), os.path.join(out, "rejudge.md")))
