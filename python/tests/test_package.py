"""The helper package as flowbench runs it: imported from memory by
loader.py in a `python3 -I -S` process, answering serve.py's schema."""
import ast
import builtins
import importlib.util
import json
import subprocess
import symtable
import sys

import pytest

from conftest import TESTGEN_PY
from flowbench_testgen import serve

PACKAGE_DIR = TESTGEN_PY / "flowbench_testgen"
MODULES = sorted(p.stem for p in PACKAGE_DIR.glob("*.py"))


def global_names(table, found):
    for s in table.get_symbols():
        if (s.is_global() or table.get_type() == "module") and s.is_referenced():
            found.add(s.get_name())
    for child in table.get_children():
        global_names(child, found)
    return found


@pytest.mark.parametrize("module", MODULES)
def test_every_module_imports_what_it_uses_and_uses_what_it_imports(module):
    text = (PACKAGE_DIR / (module + ".py")).read_text()
    table = symtable.symtable(text, module, "exec")
    defined = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported() or s.is_namespace()}
    undefined = sorted(n for n in global_names(table, set()) - defined if not hasattr(builtins, n))
    assert undefined == []
    imported = {s.get_name() for s in table.get_symbols() if s.is_imported()}
    used = {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)}
    assert sorted(imported - used) == []


def run_helper(*requests):
    """The replies of a helper process started as python.rs starts it."""
    sources = {p.stem: p.read_text() for p in PACKAGE_DIR.glob("*.py")}
    package = json.dumps(sources).encode()
    stdin = b"%d\n" % len(package) + package + b"".join(json.dumps(r).encode() + b"\n" for r in requests)
    out = subprocess.run([sys.executable, "-I", "-S", "-c", (TESTGEN_PY / "loader.py").read_text()], input=stdin,
                         capture_output=True, env={"PYTHONHASHSEED": "0"}, timeout=120, check=True)
    return [json.loads(line) for line in out.stdout.decode().splitlines()]


SOLUTION = "def f(n: int) -> int:\n    return n + 1\n"


def test_the_loader_serves_the_package_from_memory():
    mutants, parse, broken = run_helper(
        {"helper": "mutants", "solution": SOLUTION, "file": "s.py", "skip": ["valid"], "whole_program": False},
        {"helper": "parse", "solution": SOLUTION, "file": "s.py"},
        {"helper": "parse", "solution": "def f(:\n", "file": "s.py"})
    kinds = [m["kind"] for m in mutants["answer"]["mutants"]]
    assert "operator Add -> Sub" in kinds
    assert set(mutants["answer"]["mutants"][0]) == {"kind", "line", "source", "diff"}
    assert parse == {"answer": {}}
    assert broken == {"error": "s.py:1:7: the solution does not parse: invalid syntax"}


def test_a_generate_reply_has_every_key_of_the_schema():
    spec = {"seed": 1, "counts": {"typical": 3, "large": 1, "mutations": 2}}
    [reply] = run_helper({"helper": "generate", "solution": SOLUTION, "file": "s.py", "entry_point": "f",
                          "call_style": "function", "seed": 1, "spec": spec, "originals": [[4]], "mode": "gen",
                          "scale": 1, "stdin_format": None, "statement": ""})
    generated = reply["answer"]["generated"]
    assert set(generated) == {"params", "has_valid", "candidates", "outside_spec", "domains", "key"}
    assert generated["params"] == [["n", {"k": "int"}]]
    assert all(set(c) == {"category", "how", "args"} for c in generated["candidates"])
    assert len(generated["key"]) == 64


WORDS = '''def count_consonants(s):
    """The number of consonants in s."""
    return sum(1 for ch in s if ch.isalpha() and ch.lower() not in "aeiou")
'''


def test_inputs_beyond_the_examples_characters_are_marked_widened():
    # The examples show lowercase words alone: the generator widens the
    # charset (the other case, a blank, letters beyond ASCII) and marks
    # each input holding such a character, and the empty string no
    # example shows, and no other.
    originals = [["hello"], ["abcdefghijklmnopqrstuvwxyz"], ["world"]]
    spec = {"seed": 1, "counts": {"typical": 30, "large": 1, "mutations": 5}, "infer_domain": True}
    [reply] = run_helper({"helper": "generate", "solution": WORDS, "file": "s.py", "entry_point": "count_consonants",
                          "call_style": "function", "seed": 1, "spec": spec, "originals": originals, "mode": "gen",
                          "scale": 1, "stdin_format": None, "statement": ""})
    candidates = reply["answer"]["generated"]["candidates"]
    shown = set("abcdefghijklmnopqrstuvwxyz")
    marked = [c for c in candidates if "widened" in c]
    assert marked and len(marked) < len(candidates)
    for c in candidates:
        beyond = set(c["args"][0]) - shown if isinstance(c["args"][0], str) else set()
        assert ("widened" in c) == (bool(beyond) or c["args"][0] == ""), c
    assert any("'ñ'" in c["widened"] or "'Ñ'" in c["widened"] for c in marked), [c["widened"] for c in marked]
    assert all(c["widened"].startswith("s holds characters no example shows") for c in marked if c["args"][0])


def test_an_error_in_problem_toml_is_a_spec_error_without_the_file():
    spec = {"seed": 1, "counts": {"typical": 3, "large": 1, "mutations": 2}, "params": {"m": {"min": 0}}}
    [reply] = run_helper({"helper": "generate", "solution": SOLUTION, "file": "s.py", "entry_point": "f",
                          "call_style": "function", "seed": 1, "spec": spec, "originals": [], "mode": "gen",
                          "scale": 1, "stdin_format": None, "statement": ""})
    assert reply == {"spec_error": "[params.m] names no parameter of `f` (it has: n)"}


def test_a_request_missing_a_key_is_refused_naming_it():
    with pytest.raises(serve.RequestError, match="the mutants request has no key `whole_program`"):
        serve.checked({"helper": "mutants", "solution": "", "file": "s.py", "skip": []})
    reply = serve.reply({"helper": "parse", "solution": "x = 1\n"})
    assert reply == {"error": "the test generator failed: flowbench_testgen.serve.RequestError: "
                              "the parse request has no key `file`"}


def test_a_request_with_a_key_the_helper_does_not_take_is_refused():
    with pytest.raises(serve.RequestError, match="has a key `seed` it does not take"):
        serve.checked({"helper": "parse", "solution": "", "file": "s.py", "seed": 1})
    with pytest.raises(serve.RequestError, match="no helper 'gen'"):
        serve.checked({"helper": "gen"})


def test_the_loader_finds_only_its_own_package():
    spec = importlib.util.spec_from_file_location("fb_loader", TESTGEN_PY / "loader.py")
    loader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loader)
    finder = loader.SourceFinder({"__init__": "", "values": "X = 1\n"})
    assert finder.find_spec("json") is None
    assert finder.find_spec("flowbench_testgen.absent") is None
    assert finder.find_spec("flowbench_testgen").submodule_search_locations == []
    assert finder.get_source("flowbench_testgen.values") == "X = 1\n"
