"""Writes a synthetic problem bank of N problems for build benchmarks and
the gallery check: problem i is a piecewise function of one integer with
2..7 decisions (so charts range from small to mid-sized), its flowchart,
reference solution, native tests (computed here by the same rules), [meta]
cycling through the subsets and difficulties, and a description.

Usage: python3 scripts/synthetic-bank.py N OUT_DIR
Deterministic: the same N gives the same files.
"""
import json
import os
import sys

SUBSETS = ["basic", "algorithm", "math"]
DIFFICULTIES = ["easy", "medium", "hard"]
OPS = [("*", 2), ("+", 7), ("-", 3), ("*", 3), ("+", 11), ("-", 5), ("*", 5)]


def pieces(i):
    k = 2 + i % 6
    thresholds = [(j + 1) * (5 + i % 7) - 10 for j in range(k)]
    return [(t, OPS[(i + j) % len(OPS)]) for j, t in enumerate(thresholds)]


def apply(op, c, n):
    return n * c if op == "*" else n + c if op == "+" else n - c


def reference(i, n):
    for t, (op, c) in pieces(i):
        if n < t:
            return apply(op, c, n)
    return -n


def write(out, i):
    name = f"synth_{i:04d}"
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    ps = pieces(i)
    chart = ["flowchart TD", "    S([Start]) --> I[/Input integer n/]"]
    prev = "I"
    for j, (t, (op, c)) in enumerate(ps):
        chart.append(f"    {prev} --> D{j}{{n < {t}?}}")
        chart.append(f"    D{j} -- Yes --> R{j}[/Return n {op} {c}/]")
        chart.append(f"    R{j} --> E([End])")
        chart.append(f"    D{j} -- No --> N{j}[next range]")
        prev = f"N{j}"
    chart.append(f"    {prev} --> RL[/Return -n/]")
    chart.append("    RL --> E")
    body = [f"def {name}(n: int) -> int:"]
    for t, (op, c) in ps:
        body += [f"    if n < {t}:", f"        return n {op} {c}"]
    body.append("    return -n")
    inputs = sorted({t - 1 for t, _ in ps} | {t for t, _ in ps} | {0, -1, 10**12, -10**12})
    tests = []
    for n in inputs:
        cat = "large" if abs(n) >= 10**5 else "edge" if n in (0, -1, 1) else "typical"
        tests.append({"args": [n], "expected": reference(i, n), "category": cat})
    files = {
        "flowchart.mmd": "\n".join(chart) + "\n",
        "solution.py": "\n".join(body) + "\n",
        "problem.json": json.dumps({"task_id": name, "entry_point": name, "starter_code": f"def {name}(n: int) -> int:\n",
                                    "call_style": "function", "tests": tests}, indent=1) + "\n",
        "problem.toml": "[meta]\n" + f'title = "Synthetic piecewise function {i}"\n'
        + f'subset = "{SUBSETS[i % 3]}"\ndifficulty = "{DIFFICULTIES[(i // 3) % 3]}"\n'
        + 'source = "synthetic (scripts/synthetic-bank.py)"\nlicence = "MIT"\n',
        "description.md": f"Given an integer `n`, walk through {len(ps)} ranges in order: for the first bound "
        + "`n` is below, apply that range's operation and return the result; "
        + "if `n` is below none of them, return `-n`.\n",
    }
    for f, text in files.items():
        with open(os.path.join(d, f), "w") as fh:
            fh.write(text)


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        write(out, i)


if __name__ == "__main__":
    main()
