"""The generators' value helpers (flowbench_testgen/values.py): the judge's
tagged-JSON encoding, bounds and the constraint check on mutated seeds."""
import math

import pytest

from flowbench_testgen.signature import SpecError
from flowbench_testgen.values import (bound, charset, count_of, decode, element_constraints, encode, length, one_of,
                                      same_len_of, satisfies)

INTS = {"k": "list", "of": {"k": "int"}}


def test_bounds_read_numbers_and_power_expressions():
    assert bound("10**9 + 7", "max") == 1_000_000_007
    assert bound("-2**31", "min") == -(2 ** 31)
    assert bound(-5, "min") == -5
    assert bound(None, "min") is None


def test_a_bound_that_is_no_number_names_what_it_bounds():
    with pytest.raises(SpecError, match=r"^max: `'ten'` is not a number"):
        bound("ten", "max")


def test_encoding_tags_what_json_cannot_say():
    value = (1, {3, 2}, float("inf"), {"a": 1}, {(1, 2): 3})
    assert encode(value) == {"__tuple__": [1, {"__set__": [2, 3]}, {"__float__": "inf"}, {"a": 1},
                                           {"__dict__": [[{"__tuple__": [1, 2]}, 3]]}]}


def test_decoding_undoes_encoding():
    back = decode(encode((1, frozenset({2}), {"k": [1.5]}, float("-inf"))))
    assert back == (1, frozenset({2}), {"k": [1.5]}, float("-inf"))
    assert type(back[1]) is frozenset
    assert math.isnan(decode(encode(float("nan"))))


def test_what_cannot_be_encoded_is_a_spec_error():
    with pytest.raises(SpecError, match="cannot encode a bytes"):
        encode(b"ab")


def test_satisfies_checks_range_order_and_distinctness():
    assert satisfies([1, 2, 3], INTS, {"min": 1, "max": 3, "sorted": "asc"})
    assert not satisfies([3, 1], INTS, {"sorted": "asc"})
    assert not satisfies([1, 1], INTS, {"distinct": True})
    assert not satisfies(5, {"k": "int"}, {"min": 1, "max": 4})


def test_satisfies_checks_a_string_s_length_and_charset():
    assert satisfies("abc", {"k": "str"}, {"charset": "lower", "len": [1, 3]})
    assert not satisfies("abcd", {"k": "str"}, {"len": [1, 3]})
    assert not satisfies("aBc", {"k": "str"}, {"charset": "lower"})


def test_length_reads_a_pair_a_number_or_the_defaults():
    assert length({"len": [2, 5]}, 0, None) == (2, 5)
    assert length({"len": 4}, 0, None) == (4, 4)
    assert length({}, 0, 9) == (0, 9)
    with pytest.raises(SpecError, match="len must be N or"):
        length({"len": "long"}, 0, None)


def test_charsets_by_name_and_elements_constraints():
    assert charset({"charset": "digits"}) == "0123456789"
    assert element_constraints({"min": 1, "max": 2, "len": 3}) == {"min": 1, "max": 2}
    assert same_len_of({"same_len": "a + 1"}) == ("a", 1)
    assert one_of({"one_of": [1, 2]}) == [1, 2] and one_of({}) is None
    assert (count_of([1, 2]), count_of("abc"), count_of({"a": 1})) == (2, 3, None)
