"""The `shapes` helper: ranked parameter shapes and docstring examples for
`check --against`'s inputs, through serve.py's schema."""
from flowbench_testgen import serve


def shapes(source, entry="f", hints=None):
    return serve.reply({"helper": "shapes", "solution": source, "file": "solution.py", "entry": entry,
                        "hints": hints or {}})


def test_uses_rank_the_shapes():
    source = "def f(words, n, grid):\n    s = words.split()\n    for i in range(n):\n        x = grid[i][i + 1]\n    return s\n"
    answer = shapes(source)["answer"]
    assert [p["shapes"][0] for p in answer["params"]] == ["str", "int", "grid"]
    assert answer["examples"] == []


def test_an_annotated_parameter_is_given_and_a_method_drops_self():
    source = "class Solution:\n    def f(self, xs: list[int], k):\n        return xs[k]\n"
    params = shapes(source, entry="Solution.f")["answer"]["params"]
    assert [(p["name"], p["given"]) for p in params] == [("xs", True), ("k", False)]
    assert params[0]["shapes"] == []


def test_the_chart_words_about_a_parameter_count():
    source = "def f(data):\n    return data\n"
    answer = shapes(source, hints={"data": "the list of integers"})["answer"]
    assert answer["params"][0]["shapes"][0] == "ints"


def test_docstring_calls_are_examples_with_the_statements_reader():
    source = 'def f(a, b):\n    """>>> f(3, [1, 2])\n    5\n    >>> f(x, 1)\n    """\n    return a\n'
    assert shapes(source)["answer"]["examples"] == [[3, [1, 2]]]


def test_a_syntax_error_and_a_missing_function_are_errors_naming_the_file():
    assert shapes("def f(:\n")["error"].startswith("solution.py:1:")
    assert shapes("def g():\n    pass\n")["error"] == "solution.py: no function f"
