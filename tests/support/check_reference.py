"""Runs HumanEval's canonical solutions (trusted benchmark code) on the
native tests produced by `flowbench tests import`, decoding the tagged JSON
values, and prints one line per failing test. Used by tests/integration/tests_import.rs
to check that conversion preserved each test's meaning: the reference must
pass every converted test, as it passes the legacy asserts.

argv: problems.jsonl (original, with canonical_solution) native.jsonl
"""
import base64
import json
import math
import sys

PRELUDE = "from typing import List, Tuple, Optional, Any\nimport math\n"


def decode(v):
    if isinstance(v, list):
        return [decode(x) for x in v]
    if isinstance(v, dict):
        if len(v) == 1:
            (k, inner), = v.items()
            if k == "__tuple__":
                return tuple(decode(x) for x in inner)
            if k == "__set__":
                return {decode(x) for x in inner}
            if k == "__frozenset__":
                return frozenset(decode(x) for x in inner)
            if k == "__dict__":
                return {decode(a): decode(b) for a, b in inner}
            if k == "__float__":
                return float(inner)
            if k == "__bytes__":
                return base64.b64decode(inner)
        return {k: decode(x) for k, x in v.items()}
    return v


def close(got, exp, tol):
    """Native comparison rules: list == tuple, float tolerance, NaN == NaN."""
    if isinstance(exp, float) or isinstance(got, float):
        if type(got) not in (int, float, bool) or type(exp) not in (int, float, bool):
            return False
        if math.isnan(exp):
            return math.isnan(got)
        return got == exp or abs(got - exp) <= tol * max(1.0, abs(exp))
    if isinstance(exp, (list, tuple)) and isinstance(got, (list, tuple)):
        return len(got) == len(exp) and all(close(g, e, tol) for g, e in zip(got, exp))
    return got == exp


def main():
    originals = {}
    for line in open(sys.argv[1]):
        rec = json.loads(line)
        originals[rec["task_id"]] = rec
    checked = 0
    for line in open(sys.argv[2]):
        p = json.loads(line)
        rec = originals[p["task_id"]]
        if not p["tests"] or not rec.get("canonical_solution"):
            continue
        scope = {}
        exec(PRELUDE + rec["prompt"] + rec["canonical_solution"], scope)
        fn = scope[p["entry_point"]]
        tol = p.get("float_tolerance", 1e-6)
        for i, t in enumerate(p["tests"]):
            got = fn(*decode(t["args"]), **decode(t["kwargs"]))
            exp = decode(t["expected"])
            cmp = t.get("compare", "eq")
            if cmp == "truthy":
                ok = bool(got) == exp
            elif cmp == "is":
                ok = got is exp
            else:
                ok = close(got, exp, tol)
            checked += 1
            if not ok:
                print(f"FAIL {p['task_id']} test {i}: got {got!r:.80} expected {exp!r:.80}")
    print(f"checked {checked}")


main()
