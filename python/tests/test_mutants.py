"""Mutants of a reference (flowbench_testgen/mutants.py) and the sandbox
side of the kill search: the dispatcher (py/sandbox/dispatch.py) calling
mutants through their counted wrappers (py/sandbox/counted_wrapper.py),
assembled as kill.rs and reference.rs assemble them."""
import json

import pytest

from conftest import TESTGEN_PY
from flowbench_testgen.mutants import mutants
from flowbench_testgen.signature import SpecError

SANDBOX = TESTGEN_PY / "sandbox"
SOLUTION = '''def count(xs, limit):
    """How many of xs are below limit."""
    n = 0
    for x in xs:
        if x < limit:
            n += 1
    return n
'''


def test_mutants_change_one_operator_constant_or_comparison_each():
    found = mutants(SOLUTION, "solution.py", ["valid"])["mutants"]
    kinds = {m["kind"] for m in found}
    assert {"comparison Lt -> LtE", "comparison Lt -> Gt", "constant 0 -> 1", "operator Add= -> Sub="} <= kinds
    lte = next(m for m in found if m["kind"] == "comparison Lt -> LtE")
    assert lte["line"] == 5
    assert "if x <= limit:" in lte["source"]
    assert "-        if x < limit:\n+        if x <= limit:\n" in lte["diff"]


def test_no_mutant_touches_the_docstring_or_repeats_another():
    found = mutants(SOLUTION, "solution.py", ["valid"])["mutants"]
    assert all('"""How many of xs are below limit."""' in m["source"] for m in found)
    sources = [m["source"] for m in found]
    assert len(sources) == len(set(sources))


def test_skipped_functions_and_module_code_are_left_alone():
    source = "LIMIT = 3\n\ndef valid(n):\n    return n > 0\n\ndef f(n):\n    return n * LIMIT\n"
    found = mutants(source, "solution.py", ["valid"])["mutants"]
    assert found and all("return n > 0" in m["source"] and "LIMIT = 3" in m["source"] for m in found)
    whole = mutants(source, "solution.py", ["valid"], whole_program=True)["mutants"]
    assert any("LIMIT = 4" in m["source"] for m in whole)


def test_an_unparseable_reference_names_file_line_and_column():
    with pytest.raises(SpecError, match=r"^p/solution.py:1:7: the solution does not parse: invalid syntax$"):
        mutants("def f(:\n", "p/solution.py", [])


def counted(solution, call="f"):
    """reference.rs's `wrap` of a function without `valid()`."""
    template = (SANDBOX / "counted_wrapper.py").read_text()
    return (template.replace("__FB_LITERAL__", json.dumps(solution)).replace("__FB_WRAPPER__", "__flowbench_reference__")
            .replace("        __FB_CHECK__\n", "").replace("__FB_CALL__", call))


def dispatcher(sources, cap):
    """kill.rs's `dispatcher`, run: the namespace that defines
    `__flowbench_mutant__`."""
    text = "__fb_mutants__ = [%s]\n__fb_job_cap__ = %s\n%s" % (
        ",\n".join(json.dumps(s) for s in sources), cap, (SANDBOX / "dispatch.py").read_text())
    namespace = {"__name__": "__main__"}
    exec(compile(text, "<dispatch>", "exec"), namespace)
    return namespace["__flowbench_mutant__"]


def test_the_counted_wrapper_returns_the_value_and_its_operations():
    namespace = {}
    exec(counted("def f(n):\n    return sum(i for i in range(n))\n"), namespace)
    assert namespace["__flowbench_reference__"](10) == ["ok", 45, 11]  # the call, and ten elements


def test_the_dispatcher_calls_each_mutant_in_its_own_globals():
    call = dispatcher([counted("K = 1\ndef f(n):\n    return n + K\n"), counted("K = 2\ndef f(n):\n    return n + K\n")],
                      None)
    assert call(0, 5)[:2] == ["ok", 6]
    assert call(1, 5)[:2] == ["ok", 7]
    assert call(0, 1)[:2] == ["ok", 2]


def test_a_mutant_over_its_cap_answers_over_then_is_skipped():
    loop = counted("def f(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\n")
    call = dispatcher([loop, counted("def f(n):\n    return n\n")], 100)
    assert call(0, 10) == ["ok", 45, 11]
    assert call(0, 1000) == ["over"]
    assert call(0, 10) == ["skipped"]
    assert call(1, 1000) == ["ok", 1000, 1]


def test_a_mutant_whose_module_code_raises_raises_on_every_call():
    call = dispatcher([counted("raise ValueError('at definition')\ndef f(n):\n    return n\n")], None)
    for _ in range(2):
        with pytest.raises(ValueError, match="at definition"):
            call(0, 1)


def test_the_program_wrapper_returns_what_the_program_printed():
    template = (SANDBOX / "program_wrapper.py").read_text()
    program = "n = int(input())\nprint(n * 2, '  ')\nprint()\n"
    namespace = {}
    exec(template.replace("__FB_LITERAL__", json.dumps(program)).replace("__FB_WRAPPER__", "run"), namespace)
    assert namespace["run"]("21\n") == ["ok", "42\n"]
