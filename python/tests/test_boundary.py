"""Boundary inputs the mutants of a reference do not lead to
(flowbench_testgen/boundary.py and main.py's inputs beyond the examples):
sorted sequences with a run of equal values inside, and empty strings where
no example shows one, marked as widened."""
import random

from flowbench_testgen.boundary import boundary_inputs
from flowbench_testgen.gen import Gen
from flowbench_testgen.main import generate

INTS = {"k": "list", "of": {"k": "int"}}


def plateau_inputs(params, spec=None):
    g = Gen(params, spec or {}, random.Random(7))
    return {label: args for label, args in boundary_inputs(g) if "run of equal values" in label}


def test_a_list_gets_an_ascending_and_a_descending_run_of_equal_values_inside():
    found = plateau_inputs([("l", INTS)])
    assert set(found) == {"l ascending with a run of equal values", "l descending with a run of equal values"}
    for label, args in found.items():
        xs = args["l"]
        assert xs == sorted(xs, reverse="descending" in label), xs
        assert xs[1] == xs[2] == xs[3] and xs[0] != xs[1] and xs[4] != xs[3], xs
        assert len(xs) >= 6


def test_no_run_where_elements_must_differ_or_have_no_order():
    assert plateau_inputs([("l", INTS)], {"params": {"l": {"distinct": True}}}) == {}
    assert plateau_inputs([("d", {"k": "list", "of": {"k": "dict", "key": {"k": "str"}, "val": {"k": "int"}}})]) == {}


def generated(solution, originals, docstring=""):
    req = {"solution": solution.replace("DOC", docstring), "file": "solution.py", "entry_point": "f",
           "call_style": "function", "spec": {"infer_domain": True}, "seed": 1, "originals": originals}
    return generate(req)["generated"]["candidates"]


SOLUTION = 'def f(a, b):\n    """DOC"""\n    return b in a\n'
EXAMPLES = [["hello", "ell"], ["abc", "d"]]


def test_strings_no_example_shows_empty_are_made_empty_once_each_and_together_marked_widened():
    tests = [t for t in generated(SOLUTION, EXAMPLES) if "beyond the examples" in t["how"]]
    assert [t["how"] for t in tests] == ["edge: a empty (beyond the examples)", "edge: b empty (beyond the examples)",
                                         "edge: a and b both empty (beyond the examples)"]
    assert tests[2]["args"] == ["", ""]
    assert tests[2]["widened"] == "a and b empty: no example shows an empty string"


def test_no_empty_string_beyond_the_examples_where_the_statement_says_non_empty_or_an_example_is():
    said = generated(SOLUTION, EXAMPLES, "a and b are non-empty strings.")
    assert not [t for t in said if "beyond the examples" in t["how"]]
    shown = generated(SOLUTION, EXAMPLES + [["", ""]])
    assert not [t for t in shown if "beyond the examples" in t["how"]]


def test_an_integer_is_the_sum_of_a_lists_first_two_and_last_two_elements():
    g = Gen([("nums", INTS), ("target", {"k": "int"})], {}, random.Random(3))
    found = {label: args for label, args in boundary_inputs(g) if "the sum of" in label}
    assert set(found) == {"target = the sum of the first two of nums", "target = the sum of the last two of nums"}
    first, last = found["target = the sum of the first two of nums"], found["target = the sum of the last two of nums"]
    assert first["target"] == sum(first["nums"][:2]) and last["target"] == sum(last["nums"][-2:])
