"""OUT/rejudge.md for humaneval-rejudge.sh: recorded passes that the
generated tests fail, per model, and every catch with its first failure."""
import glob
import json
import os
import sys

# Generated tests hold integers far beyond 4300 digits.
sys.set_int_max_str_digits(0)

out = sys.argv[1]
rows, catches = [], []
for path in sorted(glob.glob(os.path.join(out, "rejudge", "*.jsonl"))):
    model = os.path.basename(path)[: -len(".jsonl")]
    judged = recorded = caught = slow = now_pass = 0
    for line in open(path):
        r = json.loads(line)
        if r.get("mode") != "native":
            continue  # no generated tests for this problem
        judged += 1
        recorded += bool(r.get("recorded_passed"))
        now_pass += bool(r.get("passed"))
        if r.get("recorded_passed") and not r.get("passed"):
            caught += 1
            slow += r.get("error_class") == "timeout"
            catches.append((model, r["task_id"], r.get("result", ""), r.get("first_failure")))
    rows.append((model, judged, recorded, now_pass, caught, slow))

md = ["# HumanEval-V samples re-judged with the generated tests", "",
      "A *catch* is a sample the authors recorded as passing (HumanEval's own tests) that fails flowbench's",
      "generated tests. Problems without generated tests are not counted. *Of which timeouts*: catches by the",
      "time limit on a large test (a correct but slower algorithm), not by a wrong answer.", "",
      "| model | judged | recorded passes | pass now | catches | of which timeouts | catch rate |",
      "|---|---:|---:|---:|---:|---:|---:|"]
for m, j, rec, now, c, s in rows:
    md.append("| %s | %d | %d | %d | %d | %d | %.1f %% |" % (m, j, rec, now, c, s, 100.0 * c / rec if rec else 0.0))
t = [sum(r[i] for r in rows) for i in range(1, 6)]
md.append("| **all** | %d | %d | %d | %d | %d | %.1f %% |" % (t[0], t[1], t[2], t[3], t[4], 100.0 * t[3] / t[1] if t[1] else 0.0))
md += ["", "## Catches", "", "| model | task | result | first failing test |", "|---|---|---|---|"]
for m, task, result, ff in sorted(catches, key=lambda c: (int(c[1].split("-")[-1]), c[0])):
    ff = json.dumps(ff, ensure_ascii=False) if ff is not None else ""
    cell = lambda s: s.replace("|", "\\|").replace("\n", " ")[:300]
    md.append("| %s | %s | %s | %s |" % (m, task, cell(result), cell(ff)))
open(os.path.join(out, "rejudge.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md[: 8 + len(rows)]))
print("catches: %d (listed in %s)" % (len(catches), os.path.join(out, "rejudge.md")))
