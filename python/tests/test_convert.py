"""The legacy-test converter (crates/judge/src/import/convert.py), run as
crates/judge/src/import/mod.rs runs it: problems as JSON lines on stdin,
one answer line each on stdout."""
import json
import subprocess
import sys

from conftest import CONVERTER


def convert(*problems):
    lines = "".join(json.dumps(p) + "\n" for p in problems)
    out = subprocess.run([sys.executable, str(CONVERTER)], input=lines.encode(), capture_output=True, timeout=60,
                         check=True)
    return [json.loads(line) for line in out.stdout.decode().splitlines()]


def problem(test, entry_point="add", task_id="t/1"):
    return {"task_id": task_id, "entry_point": entry_point, "call_style": "function", "test": test}


def test_equality_asserts_become_tests_with_their_lines():
    [out] = convert(problem("def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(*[1, 1]) == 2\n"))
    assert out["task_id"] == "t/1"
    assert (out["asserts"], out["asserts_converted"], out["asserts_dropped"]) == (2, 2, 0)
    assert out["tests"] == [{"args": [1, 2], "kwargs": {}, "expected": 3, "line": 2},
                            {"args": [1, 1], "kwargs": {}, "expected": 2, "line": 3}]
    assert out["failures"] == [] and out["float_tol"] is None


def test_a_tolerance_assert_becomes_an_approximate_test_and_sets_the_tolerance():
    [out] = convert(problem("def check(candidate):\n    assert abs(candidate(0.1, 0.2) - 0.3) < 1e-6\n"))
    assert out["tests"] == [{"args": [0.1, 0.2], "kwargs": {}, "expected": 0.3, "line": 2, "cmp": "approx"}]
    assert out["float_tol"] == 1e-06


def test_an_assert_of_another_form_is_a_failure_naming_its_line():
    [out] = convert(problem("def check(candidate):\n    assert candidate(1, 1) == 2\n"
                            "    assert isinstance(candidate(1, 1), int)\n"))
    assert out["asserts_converted"] == 1
    assert out["failures"] == [{"line": 3, "reason": "unsupported assert form: isinstance(candidate(1, 1), int)"}]


def test_tagged_values_and_one_answer_per_problem_in_order():
    first = problem("def check(candidate):\n    assert candidate((1, 2)) == {3}\n", "f", "a")
    second = problem("def check(candidate):\n    assert candidate('x') is True\n", "g", "b")
    answers = convert(first, second)
    assert [a["task_id"] for a in answers] == ["a", "b"]
    assert answers[0]["tests"][0]["args"] == [{"__tuple__": [1, 2]}]
    assert answers[0]["tests"][0]["expected"] == {"__set__": [3]}
