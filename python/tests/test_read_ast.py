"""The AST reader (crates/author/src/read_ast.py), run as author/reader.rs runs it:
`python3 -I -S`, the entry point's name as the argument (or `--batch`),
the source on stdin, JSON on stdout."""
import json
import subprocess
import sys

from conftest import READ_AST


def read(source, *args):
    out = subprocess.run([sys.executable, "-I", "-S", str(READ_AST), *args], input=source.encode(),
                         capture_output=True, timeout=60, check=True)
    return [json.loads(line) for line in out.stdout.decode().splitlines()]


ADD = "def add(a, b):\n    if a > b:\n        return a - b\n    for x in range(b):\n        a += x\n    return a\n"


def test_the_entry_points_control_flow_is_read_with_its_lines():
    [out] = read(ADD, "add")
    entry = out["entry"]
    assert (entry["name"], entry["line"]) == ("add", 1)
    assert [p["name"] for p in entry["params"]] == ["a", "b"]
    branch, loop, ret = entry["body"]
    assert (branch["k"], branch["line"], branch["cond"]) == ("if", 2, "a > b")
    assert branch["then"] == [{"k": "return", "line": 3, "value": "a - b"}] and branch["else"] == []
    assert (loop["k"], loop["target"], loop["iter"]) == ("for", "x", "range(b)")
    assert loop["body"] == [{"k": "simple", "line": 5, "text": "a += x"}]
    assert ret == {"k": "return", "line": 6, "value": "a"}
    assert out["helpers"] == [] and out["preamble"] == []


def test_a_function_other_than_the_entry_point_is_a_helper():
    [out] = read("def twice(x):\n    return 2 * x\n\ndef main(y):\n    return twice(y)\n", "main")
    assert out["entry"]["name"] == "main"
    assert [h["name"] for h in out["helpers"]] == ["twice"]


def test_a_syntax_error_is_an_answer_naming_its_line_not_a_crash():
    [out] = read("def ok():\n    return 1\ndef broken(:\n", "broken")
    assert out["line"] == 3 and out["error"].startswith("syntax error"), out


def test_a_batch_answers_one_line_per_source_in_order():
    batch = json.dumps([["def g():\n    return 1\n", "g"], ["x = (", ""]])
    first, second = read(batch, "--batch")
    assert first["entry"]["body"] == [{"k": "return", "line": 2, "value": "1"}]
    assert second == {"error": "syntax error: '(' was never closed", "line": 1}
