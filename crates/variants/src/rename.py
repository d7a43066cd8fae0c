"""Neutral names for a solution: the entry point becomes `f`, other
functions `g`, `h`, …, parameters and locals single letters `a`, `b`, …
(skipping any name the program already uses), consistently everywhere.
A whole program (entry point `__main__`) has its top-level variables
renamed too: they are its locals.
Reads {"solution", "entry_point", "keep"} as JSON on stdin; writes
{"ok", "source", "names"} (old → new). Parses the solution, never runs it."""
import ast
import builtins
import json
import string
import sys


WHOLE_PROGRAM = "__main__"


def bound_names(tree, keep, whole_program):
    """Functions (module level and nested), their parameters and the names
    they assign (and, in a whole program, every name it assigns), in
    first-seen order; `keep` (e.g. `valid`) stays."""
    funcs, others = [], []
    if whole_program:
        others += [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name not in keep:
                funcs.append(node.name)
            a = node.args
            for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
                if arg is not None and arg.arg not in ("self", "cls"):
                    others.append(arg.arg)
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                    others.append(inner.id)
                elif isinstance(inner, ast.arg) and inner.arg not in ("self", "cls"):
                    others.append(inner.arg)
    seen, ordered = set(), []
    for n in funcs + others:
        if n not in seen and n not in keep:
            seen.add(n)
            ordered.append(n)
    return funcs, ordered


def fresh(avoid):
    """Single letters, then letter pairs, never a name in `avoid`."""
    letters = [c for c in string.ascii_lowercase if c not in "lo"]
    for c in letters:
        if c not in avoid:
            yield c
    for c in letters:
        for d in letters:
            if c + d not in avoid:
                yield c + d


def rename(solution, entry_point, keep):
    tree = ast.parse(solution)
    funcs, names = bound_names(tree, set(keep), entry_point == WHOLE_PROGRAM)
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | set(dir(builtins)) | {"f", "g", "h"}
    used |= {a.name.split(".")[0] if a.asname is None else a.asname for n in ast.walk(tree)
             if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    mapping = {}
    helpers = iter(["g", "h"] + ["h%d" % i for i in range(2, 100)])
    for fn in funcs:
        mapping[fn] = "f" if fn == entry_point else next(helpers)
    letters = fresh(used - set(names))
    for n in names:
        if n not in mapping:
            mapping[n] = next(letters)

    class Renamer(ast.NodeTransformer):
        def visit_Name(self, node):
            node.id = mapping.get(node.id, node.id)
            return node

        def visit_arg(self, node):
            node.arg = mapping.get(node.arg, node.arg)
            return node

        def visit_FunctionDef(self, node):
            node.name = mapping.get(node.name, node.name)
            self.generic_visit(node)
            return node

        visit_AsyncFunctionDef = visit_FunctionDef

        def visit_Global(self, node):
            node.names = [mapping.get(n, n) for n in node.names]
            return node

        visit_Nonlocal = visit_Global

        def visit_keyword(self, node):
            # A call's keyword names a parameter: renamed with it.
            if node.arg is not None:
                node.arg = mapping.get(node.arg, node.arg)
            self.generic_visit(node)
            return node

    Renamer().visit(tree)
    return {"ok": True, "source": ast.unparse(tree) + "\n", "names": mapping}


def main():
    req = json.loads(sys.stdin.read())
    try:
        out = rename(req["solution"], req["entry_point"], req.get("keep", ["valid"]))
    except SyntaxError as e:
        out = {"ok": False, "error": "the solution does not parse: %s" % e}
    sys.stdout.write(json.dumps(out))


main()
