"""The input generator (flowbench_testgen/gen.py): a seed gives the same
inputs, however the elements of a list are drawn."""
import random

import pytest

from flowbench_testgen.gen import Gen
from flowbench_testgen.signature import SpecError

INT, FLOAT, STR, BOOL = {"k": "int"}, {"k": "float"}, {"k": "str"}, {"k": "bool"}

ELEMENTS = [
    (INT, {}),
    (INT, {"min": 0, "max": 50}),
    (INT, {"min": "-10**9", "max": "10**9"}),
    (INT, {"min": 5}),
    (INT, {"one_of": [1, 2, 4, 8]}),
    (FLOAT, {}),
    (FLOAT, {"min": 0, "max": 1}),
    (BOOL, {}),
    ({"k": "any"}, {}),
    (STR, {}),
    (STR, {"charset": "lower", "len": [1, 5]}),
    (STR, {"charset": "ab", "distinct": True}),
    ({"k": "opt", "of": INT}, {}),
    ({"k": "list", "of": INT}, {}),
]


@pytest.mark.parametrize("mode", ["typical", "edge", "large"])
@pytest.mark.parametrize("element, constraints", ELEMENTS)
def test_many_draws_are_the_values_drawn_one_by_one(element, constraints, mode):
    # `many` reads the constraints once for a large list's elements; the
    # values, and the random stream after them, must not change.
    one_by_one, at_once = (Gen([("x", element)], {}, random.Random(7)) for _ in range(2))
    expected = [one_by_one.value(element, constraints, mode, 4, {}) for _ in range(300)]
    assert at_once.many(element, constraints, mode, 4, {}, 300) == expected
    assert at_once.rng.random() == one_by_one.rng.random()


def test_no_draw_reads_no_constraint():
    # A list drawn empty never reads its elements' constraints, one by one
    # or at once: a bad bound there is no error.
    gen = Gen([("x", INT)], {}, random.Random(1))
    assert gen.many(INT, {"min": 5, "max": 1}, "typical", 3, {}, 0) == []
    with pytest.raises(SpecError, match="min 5 is above max 1"):
        gen.many(INT, {"min": 5, "max": 1}, "typical", 3, {}, 1)
