"""The renaming helper (crates/variants/src/rename.py), run as variants/rename.rs
runs it: `python -c <source>`, a JSON request on stdin, one JSON answer on
stdout."""
import ast
import json
import subprocess
import sys

from conftest import RENAME


def rename(solution, entry_point, keep=("valid",)):
    request = json.dumps({"solution": solution, "entry_point": entry_point, "keep": list(keep)})
    out = subprocess.run([sys.executable, "-c", RENAME.read_text()], input=request.encode(), capture_output=True,
                         timeout=60, check=True)
    return json.loads(out.stdout)


DIST = ("import math\ndef dist(xs, scale):\n    total = 0\n    for x in xs:\n        total += math.sqrt(x) * scale\n"
        "    return total\n\ndef valid(n):\n    return n\n")


def test_the_entry_point_becomes_f_and_every_other_name_a_fresh_letter():
    out = rename(DIST, "dist")
    assert out["ok"] is True
    assert out["names"] == {"dist": "f", "xs": "a", "scale": "b", "total": "c", "x": "d", "n": "e"}
    assert "def f(a, b):" in out["source"] and "c += math.sqrt(d) * b" in out["source"]


def test_kept_and_imported_names_are_not_renamed_and_behaviour_is_unchanged():
    out = rename(DIST, "dist")
    assert "valid" not in out["names"] and "math" not in out["names"]
    original, renamed = {}, {}
    exec(DIST, original)
    exec(out["source"], renamed)
    assert renamed["f"]([1, 4, 9], 2) == original["dist"]([1, 4, 9], 2) == 12.0
    assert renamed["valid"](3) == 3


def test_a_keyword_argument_is_renamed_with_its_parameter():
    out = rename("def g(count):\n    return count\n\ndef top(n):\n    return g(count=n)\n", "top")
    tree = ast.parse(out["source"])
    [call] = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert call.keywords[0].arg == out["names"]["count"]
    assert out["names"]["top"] == "f" and out["names"]["g"] == "g"


def test_a_solution_that_does_not_parse_is_an_error_answer():
    out = rename("def f(:", "f")
    assert out["ok"] is False and out["error"].startswith("the solution does not parse:"), out


def test_a_whole_programs_variables_are_renamed_and_its_output_unchanged():
    program = ("n = int(input())\ntotal = 0\ndef add(x):\n    global total\n    total += x\n"
               "for i in range(n):\n    add(i)\nprint(total)\n")
    out = rename(program, "__main__")
    assert out["ok"] is True
    assert {"n", "total", "i", "add", "x"} <= set(out["names"]), out["names"]
    assert "total" not in out["source"] and "global " + out["names"]["total"] in out["source"]
    run = lambda source: subprocess.run([sys.executable, "-c", source], input=b"5\n", capture_output=True,
                                        timeout=60, check=True).stdout
    assert run(out["source"]) == run(program) == b"10\n"
