"""Guesses the shapes of an entry point's parameters from its source, for
`check --against` to make inputs when no tests are given (flowbench-author's
inputs.rs). The solution is parsed with `ast`, never run here: the guesses
are ranked candidates that the reference, run in the sandbox, then confirms
or refutes.

The `shapes` request (serve.py's schema) carries the solution, its file,
the entry (`name` or `Class.name`) and `hints` (per parameter, the words of
the chart's Input node about it); the answer is {"params": [{"name",
"given": bool, "shapes": [name, ...]}], "examples": [[arg, ...]]}. `given`:
the annotation fixes the type, which the generator reads itself. Shape
names are those of inputs.rs's catalogue.
"""
import ast

from .signature import SpecError, parse_solution, statement_examples

# Every shape, in the order ties are broken (the most common first).
CATALOGUE = ["ints", "int", "str", "nat", "strs", "text", "digits", "pairs", "grid", "bitgrid", "floats",
             "float", "bool", "brackets", "nats"]

NAME_HINTS = [
    (("nums", "arr", "array", "lst", "list", "numbers", "values", "heights", "prices", "temps", "temperatures",
      "scores", "costs", "weights", "piles", "stones", "coins", "items", "data", "xs", "seq", "sequence", "ratings", "digits_list", "candidates", "ages", "sizes", "amounts", "balances"), "ints"),
    (("s", "t", "string", "text", "word", "sentence", "str", "st", "s1", "s2", "pattern", "p", "name", "line",
      "phrase", "msg", "message", "haystack", "needle", "text1", "text2", "word1", "word2", "a_str"), "str"),
    (("n", "k", "m", "x", "y", "num", "number", "target", "limit", "count", "size", "amount", "total", "start",
      "end", "steps", "low", "high", "lo", "hi", "base", "shift", "width", "height", "rows", "cols", "day", "days",
      "capacity", "val", "value", "i", "j", "d", "z", "year", "times", "depth", "level", "key"), "int"),
    (("words", "strs", "strings", "names", "tokens", "tags", "list_of_words", "sentences", "lines", "wordlist",
      "dictionary", "wordDict", "word_list"), "strs"),
    (("grid", "matrix", "board", "mat", "image", "maze", "field", "table", "triangle"), "grid"),
    (("intervals", "meetings", "pairs", "edges", "points", "ranges", "segments", "events", "jobs", "gigs",
      "tasks", "coords", "queries", "connections", "prerequisites", "trips", "bookings"), "pairs"),
    (("num1", "num2", "digits", "binary", "bin_str", "a_bin", "b_bin", "hex_str"), "digits"),
    (("brackets", "parens", "parentheses", "expr", "expression"), "brackets"),
]

CHART_WORDS = [
    (("list", "array", "lst", "sequence", "integers", "numbers"), "ints"),
    (("string", "text", "word", "sentence", "characters", "str"), "str"),
    (("integer", "int", "number", "count"), "int"),
    (("grid", "matrix", "board"), "grid"),
    (("pairs", "intervals", "edges", "points", "tuples"), "pairs"),
    (("words", "strings"), "strs"),
    (("digits", "decimal", "binary"), "digits"),
    (("float", "real", "decimal"), "float"),
]

STR_METHODS = {"split", "lower", "upper", "isdigit", "isalpha", "isalnum", "isspace", "strip", "lstrip", "rstrip",
               "startswith", "endswith", "replace", "find", "rfind", "swapcase", "title", "capitalize", "islower",
               "isupper", "zfill", "partition", "splitlines", "casefold", "encode", "format"}
LIST_METHODS = {"append", "sort", "extend", "insert", "remove", "reverse", "copy"}


class Uses(ast.NodeVisitor):
    """Evidence about one parameter (and the names its elements take)."""

    def __init__(self, name):
        self.name = name
        self.elems = set()  # names bound to an element of the parameter
        self.rows = set()   # names bound to an element that is itself indexed
        self.score = {}

    def add(self, shape, w):
        self.score[shape] = self.score.get(shape, 0) + w

    def is_p(self, node):
        return isinstance(node, ast.Name) and node.id == self.name

    def is_elem(self, node):
        if isinstance(node, ast.Name) and node.id in self.elems:
            return True
        return isinstance(node, ast.Subscript) and self.is_p(node.value) and not isinstance(node.slice, ast.Slice)

    def seq(self, w=1):
        for s in ("ints", "str", "strs"):
            self.add(s, w)

    def number(self, w=3):
        self.add("int", w)
        self.add("nat", w - 1)

    def elem_number(self, w=2):
        self.add("ints", w)
        self.add("nats", w - 1)
        self.add("digits", -1)

    def elem_text(self, w=2):
        self.add("str", w)
        self.add("strs", w)

    def visit_For(self, node):
        it = node.iter
        # enumerate(p) / zip(p, ...) / p.items()
        inner = it
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("enumerate", "reversed", "sorted") and it.args:
            inner = it.args[0]
        if self.is_p(inner):
            self.seq()
            target = node.target
            if isinstance(target, ast.Tuple) and isinstance(it, ast.Call) and getattr(it.func, "id", "") == "enumerate" and len(target.elts) == 2:
                target = target.elts[1]
            if isinstance(target, ast.Name):
                self.elems.add(target.id)
            elif isinstance(target, ast.Tuple):
                self.add("pairs", 5)
                self.add("ints", -3)
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
            for a in it.args:
                if self.is_p(a):
                    self.number(4)
                    self.add("nat", 2)
                if isinstance(a, ast.Call) and getattr(a.func, "id", "") == "len" and a.args and self.is_p(a.args[0]):
                    self.seq()
        self.generic_visit(node)

    def visit_comprehension(self, node):
        if self.is_p(node.iter) and isinstance(node.target, ast.Name):
            self.elems.add(node.target.id)
            self.seq()
        elif self.is_p(node.iter) and isinstance(node.target, ast.Tuple):
            self.add("pairs", 5)
        self.generic_visit(node)

    def visit_Assign(self, node):
        # x = p[i]: x is an element; a, b = p[i]: a pair.
        if self.is_elem(node.value) or (isinstance(node.value, ast.Subscript) and self.is_p(node.value.value)):
            for t in node.targets:
                if isinstance(t, ast.Name) and not isinstance(getattr(node.value, "slice", None), ast.Slice):
                    self.elems.add(t.id)
                elif isinstance(t, ast.Tuple) and self.is_elem(node.value):
                    self.add("pairs", 5)
        if isinstance(node.value, ast.Name) and node.value.id == self.name:
            for t in node.targets:
                if isinstance(t, ast.Tuple):
                    pass
        self.generic_visit(node)

    def visit_Subscript(self, node):
        if self.is_p(node.value):
            if isinstance(node.slice, ast.Slice):
                self.add("str", 1)
                self.add("ints", 1)
            else:
                self.seq()
        if isinstance(node.value, ast.Subscript) and self.is_p(node.value.value):
            # p[i][j]: the elements are indexed, so they are no numbers.
            if isinstance(node.slice, ast.Constant) and node.slice.value in (0, 1, -1):
                self.add("pairs", 5)
            self.add("grid", 4)
            self.add("bitgrid", 3)
            self.add("ints", -3)
            self.add("nats", -3)
        if isinstance(node.value, ast.Name) and node.value.id in self.elems and not isinstance(node.slice, ast.Slice):
            self.add("ints", -2)
            if isinstance(node.slice, ast.Constant) and node.slice.value in (0, 1, -1):
                self.add("pairs", 4)
            else:
                self.add("grid", 2)
                self.add("strs", 1)
        self.generic_visit(node)

    def visit_Call(self, node):
        f = node.func
        if isinstance(f, ast.Attribute):
            if self.is_p(f.value):
                if f.attr in STR_METHODS:
                    self.add("str", 4)
                    self.add("text", 3 if f.attr == "split" else 1)
                    if f.attr == "isdigit":
                        self.add("digits", 2)
                elif f.attr in LIST_METHODS or f.attr == "pop":
                    self.add("ints", 3)
                    self.add("strs", 2)
                elif f.attr in ("count", "index"):
                    self.seq()
                elif f.attr in ("items", "keys", "values", "get"):
                    pass
            elif self.is_elem(f.value):
                if f.attr in STR_METHODS:
                    self.elem_text(3)
            elif f.attr == "join" and any(self.is_p(a) for a in node.args):
                self.add("strs", 4)
        if isinstance(f, ast.Name):
            args = node.args
            if f.id == "len" and args and self.is_p(args[0]):
                self.seq()
            if f.id in ("sum", "max", "min") and args and self.is_p(args[0]):
                self.elem_number(3)
            if f.id in ("int",) and args:
                if self.is_elem(args[0]):
                    self.add("digits", 5)
                if self.is_p(args[0]):
                    self.add("digits", 4)
            if f.id in ("ord",) and args and (self.is_elem(args[0]) or self.is_p(args[0])):
                self.add("str", 4)
            if f.id in ("abs", "bin", "hex", "divmod", "pow", "chr", "str") and args and self.is_p(args[0]):
                self.number(3)
            if f.id in ("sorted", "set", "list", "reversed", "Counter", "enumerate", "heapify", "deque") and args and self.is_p(args[0]):
                self.seq()
            if f.id == "range":
                for a in args:
                    if self.is_p(a):
                        self.number(4)
                        self.add("nat", 2)
        self.generic_visit(node)

    def visit_BinOp(self, node):
        for side, other in ((node.left, node.right), (node.right, node.left)):
            lit_num = isinstance(other, ast.Constant) and isinstance(other.value, (int, float)) and not isinstance(other.value, bool)
            lit_str = isinstance(other, ast.Constant) and isinstance(other.value, str)
            if self.is_p(side):
                if isinstance(node.op, (ast.Mod, ast.FloorDiv, ast.Pow, ast.Sub, ast.RShift, ast.LShift, ast.BitAnd, ast.BitXor, ast.BitOr)) and not lit_str:
                    self.number(3)
                elif lit_num or isinstance(node.op, (ast.Div,)):
                    self.number(2)
                elif isinstance(node.op, (ast.Mult, ast.Add)):
                    self.number(1)
                elif lit_str:
                    self.add("str", 3)
            if self.is_elem(side):
                if isinstance(node.op, (ast.Mod, ast.FloorDiv, ast.Sub, ast.Div)) or lit_num:
                    self.elem_number(2)
                elif lit_str:
                    self.elem_text(2)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if self.is_elem(node.value) or self.is_p(node.value):
            w = self.score
            if isinstance(node.op, ast.Add):
                self.elem_number(1) if self.is_elem(node.value) else self.number(1)
        self.generic_visit(node)

    def visit_Compare(self, node):
        items = [node.left] + node.comparators
        for i, a in enumerate(items):
            others = items[:i] + items[i + 1:]
            nums = any(isinstance(o, ast.Constant) and isinstance(o.value, (int, float)) and not isinstance(o.value, bool) for o in others)
            strs = any(isinstance(o, ast.Constant) and isinstance(o.value, str) and o.value != "" for o in others)
            if self.is_p(a):
                if nums:
                    self.number(3)
                if strs:
                    self.add("str", 2)
            if self.is_elem(a):
                if nums:
                    self.elem_number(2)
                if strs:
                    self.add("str", 3)
                    if any(isinstance(o, ast.Constant) and isinstance(o.value, str) and set(o.value) <= set("()[]{}<>") for o in others):
                        self.add("brackets", 5)
                    if any(isinstance(o, ast.Constant) and isinstance(o.value, str) and set(o.value) <= set("0123456789") for o in others):
                        self.add("digits", 3)
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.In, ast.NotIn)) and self.is_elem(node.left) and isinstance(right, ast.Constant) and isinstance(right.value, str):
                self.add("str", 3)
                if set(right.value) <= set("()[]{}<>"):
                    self.add("brackets", 5)
            if isinstance(op, (ast.In, ast.NotIn)) and self.is_elem(node.left) and isinstance(right, (ast.Dict, ast.Set)):
                keys = right.keys if isinstance(right, ast.Dict) else right.elts
                chars = "".join(k.value for k in keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
                if chars and set(chars) <= set("()[]{}<>"):
                    self.add("brackets", 5)
        self.generic_visit(node)


def find(tree, entry):
    cls, _, name = entry.rpartition(".")
    scope = tree.body
    if cls:
        for n in tree.body:
            if isinstance(n, ast.ClassDef) and n.name == cls:
                scope = n.body
    fns = [n for n in scope if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
    return fns[-1] if fns else None


def plain(v):
    """Whether a value is the same in JSON (the generator's encoding of
    tuples, sets and dicts is tagged; an example holding one is left out)."""
    if v is None or isinstance(v, (bool, int, str)):
        return True
    if isinstance(v, float):
        return v == v and abs(v) != float("inf")
    if isinstance(v, list):
        return all(plain(x) for x in v)
    return False


def literal_shape(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    return None


def shapes_of(fn, name, hint, default):
    u = Uses(name)
    # Twice: the first pass learns which names are elements.
    u.visit(fn)
    u.score = {}
    u.visit(fn)
    score = dict(u.score)
    low = name.lower()
    for names, shape in NAME_HINTS:
        if low in names:
            score[shape] = score.get(shape, 0) + 3
    words = set(w.strip(".,:;()[]").lower() for w in (hint or "").split())
    for ws, shape in CHART_WORDS:
        if words & set(ws):
            score[shape] = score.get(shape, 0) + 3
    if "list[int]" in (hint or "").lower() or "list of int" in (hint or "").lower():
        score["ints"] = score.get("ints", 0) + 3
    if default is not None:
        s = literal_shape(default)
        if s:
            score[s] = score.get(s, 0) + 6
    ranked = sorted(CATALOGUE, key=lambda s: (-score.get(s, 0), CATALOGUE.index(s)))
    return ranked


def shapes_answer(req):
    """The answer to a `shapes` request (see the module's docstring)."""
    tree = parse_solution(req["solution"], req["file"])
    fn = find(tree, req["entry"])
    if fn is None:
        raise SpecError("%s: no function %s" % (req["file"], req["entry"]))
    args = list(fn.args.posonlyargs) + list(fn.args.args)
    if args and args[0].arg in ("self", "cls") and "." in req["entry"]:
        args = args[1:]
    defaults = [None] * (len(args) - len(fn.args.defaults)) + list(fn.args.defaults)
    out = []
    for a, d in zip(args, defaults):
        dv = None
        if d is not None:
            try:
                dv = ast.literal_eval(d)
            except (ValueError, TypeError, SyntaxError, RecursionError):
                dv = None
        given = a.annotation is not None
        out.append({"name": a.arg, "given": given,
                    "shapes": [] if given else shapes_of(fn, a.arg, req["hints"].get(a.arg), dv)})
    shown = [e for e in statement_examples(fn, fn.name, len(args)) if plain(e)]
    return {"params": out, "examples": shown}
