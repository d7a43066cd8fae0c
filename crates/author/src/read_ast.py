"""Read a Python solution's AST and print its control flow as JSON for
`flowbench draw` / `check --against`. Reads only; never executes the code.

argv: [entry_name_or_empty]; source on stdin.
Output: {"entry": Func, "helpers": [Func], "preamble": [Stmt]} or {"error": msg, "line": n}.
Func: {"name", "qual", "params", "line", "body", "parent", "method"}.
Stmt kinds: simple (text, may span lines), if, while, for, break, continue,
return, raise.
"""
import ast
import json
import sys


class _Unparser(getattr(ast, "_Unparser", object)):
    """ast.unparse without the second pair of parentheses it puts round a
    generator that is a call's only argument (`sum((x for x in xs))`)."""

    def visit_Call(self, node):
        if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.GeneratorExp):
            self.set_precedence(ast._Precedence.ATOM, node.func)
            self.traverse(node.func)
            with self.delimit("(", ")"):
                gen = node.args[0]
                self.traverse(gen.elt)
                for comp in gen.generators:
                    self.traverse(comp)
            return
        super().visit_Call(node)


def text(node):
    try:
        return _Unparser().visit(node)
    except Exception:  # a Python whose private unparser differs
        return ast.unparse(node)


def bare(node):
    """A tuple without the parentheses ast.unparse adds (`a, b = b, a`)."""
    if isinstance(node, ast.Tuple) and node.elts and not any(isinstance(e, ast.Starred) for e in node.elts):
        return ", ".join(text(e) for e in node.elts)
    return text(node)


def statement(s):
    """Source of a simple statement, lightly humanised: no parentheses
    around the tuples of a multiple assignment."""
    if isinstance(s, ast.Assign):
        return " = ".join([bare(t) for t in s.targets] + [bare(s.value)])
    return text(s)


def params(args):
    out = []
    posonly = list(args.posonlyargs)
    regular = list(args.args)
    allpos = posonly + regular
    defaults = [None] * (len(allpos) - len(args.defaults)) + list(args.defaults)
    for i, a in enumerate(allpos):
        out.append(param(a, defaults[i]))
        if posonly and i == len(posonly) - 1:
            out.append({"name": "/", "annotation": None, "default": None})
    if args.vararg:
        out.append(param(args.vararg, None, "*"))
    elif args.kwonlyargs:
        out.append({"name": "*", "annotation": None, "default": None})
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append(param(a, d))
    if args.kwarg:
        out.append(param(args.kwarg, None, "**"))
    return out


def param(a, default, star=""):
    return {
        "name": star + a.arg,
        "annotation": text(a.annotation) if a.annotation is not None else None,
        "default": text(default) if default is not None else None,
    }


class Reader:
    def __init__(self):
        self.helpers = []

    def func(self, node, parent, method):
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            body = body[1:]
        ps = params(node.args)
        if method and ps and ps[0]["name"] in ("self", "cls"):
            ps = ps[1:]
        f = {
            "name": node.name,
            "qual": (method + "." if method else "") + node.name,
            "params": ps,
            "line": node.lineno,
            "parent": parent,
            "method": method,
            "body": None,
        }
        f["body"] = self.block(body, node.name)
        return f

    def block(self, stmts, owner):
        out = []
        for s in stmts:
            r = self.stmt(s, owner)
            if r is not None:
                out.append(r)
        return out

    def stmt(self, s, owner):
        line = s.lineno
        if isinstance(s, (ast.FunctionDef,)) and not s.decorator_list:
            self.helpers.append(self.func(s, owner, None))
            return None
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return None  # a stray docstring or string comment
        if isinstance(s, ast.If):
            return {"k": "if", "line": line, "cond": text(s.test), "then": self.block(s.body, owner), "else": self.block(s.orelse, owner)}
        if isinstance(s, ast.While) and not s.orelse:
            return {"k": "while", "line": line, "cond": text(s.test), "body": self.block(s.body, owner)}
        if isinstance(s, ast.For) and not s.orelse:
            return {"k": "for", "line": line, "target": bare(s.target), "iter": text(s.iter), "body": self.block(s.body, owner)}
        if isinstance(s, ast.Break):
            return {"k": "break", "line": line}
        if isinstance(s, ast.Continue):
            return {"k": "continue", "line": line}
        if isinstance(s, ast.Return):
            return {"k": "return", "line": line, "value": bare(s.value) if s.value is not None else None}
        if isinstance(s, ast.Raise):
            return {"k": "raise", "line": line, "text": text(s)}
        if isinstance(s, ast.Pass):
            return None
        return {"k": "simple", "line": line, "text": statement(s)}


def names_in(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def unused_constant(s, tree):
    """A module-level assignment no function (and no other module statement)
    reads, like HumanEval's `FIX = "..."` notes: drawing it adds a box that
    means nothing to the program."""
    if isinstance(s, ast.Assign):
        targets = s.targets
    elif isinstance(s, ast.AnnAssign):
        targets = [s.target]
    else:
        return False
    if not all(isinstance(t, (ast.Name, ast.Tuple)) for t in targets):
        return False
    assigned = set().union(*(names_in(t) for t in targets))
    read = set()
    for other in tree.body:
        if other is not s:
            read |= names_in(other)
    return not (assigned & read)


def is_typing_import(s):
    if isinstance(s, ast.ImportFrom):
        return s.module == "typing"
    return isinstance(s, ast.Import) and all(a.name == "typing" for a in s.names)


# The entry name of a whole program (the judge's name for stdio problems).
PROGRAM = "__main__"


def is_main_guard(s):
    return isinstance(s, ast.If) and text(s.test) in ("__name__ == '__main__'", "'__main__' == __name__")


def does_io(node):
    """Whether module code reads standard input or prints: `input()`,
    `print(...)`, `sys.stdin`/`sys.stdout`, `open(0)`."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("input", "print"):
            return True
        if isinstance(n, ast.Attribute) and n.attr in ("stdin", "stdout"):
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "open" and n.args and text(n.args[0]) == "0":
            return True
    return False


def program_statements(tree):
    """A whole program's module-level statements in order (a
    `__name__ == '__main__'` guard's body in its place), without
    definitions and docstrings; None when the module neither reads input,
    prints nor calls one of its functions outside its functions (a
    function problem)."""
    out = []
    for s in tree.body:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            continue
        if is_main_guard(s) and not s.orelse:
            out += s.body
        else:
            out.append(s)
    defined = {s.name for s in tree.body if isinstance(s, ast.FunctionDef)}

    def runs_a_function(s):
        # `main()` / `solve()` at module level: the program is that call.
        return isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) and s.value.func.id in defined

    return out if any(does_io(s) or runs_a_function(s) for s in out) else None


def read_program(tree, stmts):
    """A whole program: its module code is the entry (`__main__`, no
    parameters), every function a helper."""
    r = Reader()
    funcs = []
    for s in tree.body:
        if isinstance(s, ast.FunctionDef) and not s.decorator_list:
            funcs.append(r.func(s, None, None))
    entry = {"name": PROGRAM, "qual": PROGRAM, "params": [], "line": 1, "parent": None, "method": None,
             "body": r.block(stmts, PROGRAM)}
    return {"entry": entry, "helpers": funcs + r.helpers, "preamble": []}


def read(source, entry):
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return {"error": "syntax error: " + str(e.msg), "line": e.lineno or 0}
    except (ValueError, RecursionError, MemoryError) as e:
        return {"error": "cannot parse: " + str(e), "line": 0}
    stmts = program_statements(tree) if entry in ("", PROGRAM) else None
    if stmts is not None:
        return read_program(tree, stmts)
    if entry == PROGRAM:
        return {"error": "no module-level code reads input or prints: not a whole program", "line": 1}
    r = Reader()
    funcs = []
    preamble = []
    for s in tree.body:
        if isinstance(s, ast.FunctionDef) and not s.decorator_list:
            funcs.append(r.func(s, None, None))
        elif isinstance(s, ast.ClassDef) and not s.decorator_list and all(isinstance(m, ast.FunctionDef) and not m.decorator_list or isinstance(m, ast.Expr) for m in s.body):
            for m in s.body:
                if isinstance(m, ast.FunctionDef):
                    funcs.append(r.func(m, None, s.name))
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            continue
        elif isinstance(s, ast.If) and text(s.test) == "__name__ == '__main__'":
            continue
        elif is_typing_import(s):
            continue  # annotations only: the chart shows types in words
        elif not unused_constant(s, tree):
            preamble.append({"k": "simple", "line": s.lineno, "text": text(s)})
    # `valid(*args)` is the test generator's precondition on inputs
    # (problems/README.md), not part of the algorithm: never the default
    # entry, never a helper the chart must draw, unless asked for by name.
    if entry != "valid" and any(f["name"] != "valid" for f in funcs):
        dropped = {"valid"}
        funcs = [f for f in funcs if not (f["name"] == "valid" and f["method"] is None)]
        grew = True
        while grew:  # nested helpers are listed before their parents
            grew = False
            for h in r.helpers:
                if h["parent"] in dropped and h["name"] not in dropped:
                    dropped.add(h["name"])
                    grew = True
        r.helpers = [h for h in r.helpers if h["parent"] not in dropped]
    allf = funcs + r.helpers
    if not funcs:
        return {"error": "no function definition found", "line": 1}
    chosen = None
    if entry:
        for f in allf:
            if f["name"] == entry or f["qual"] == entry:
                chosen = f
                break
        if chosen is None:
            return {"error": "no function named " + entry, "line": 1}
    else:
        # The last top-level function (or Solution method) is the entry, as
        # in HumanEval prompts where helpers come first.
        sols = [f for f in funcs if f["method"] == "Solution"]
        chosen = sols[0] if sols else funcs[-1]
    helpers = [f for f in allf if f is not chosen]
    return {"entry": chosen, "helpers": helpers, "preamble": preamble}


def main():
    # `--batch`: a JSON list of [source, entry] on stdin, one answer line
    # each (one interpreter start for a whole bank).
    if sys.argv[1:2] == ["--batch"]:
        for source, entry in json.load(sys.stdin):
            try:
                answer = read(source, entry)
            except RecursionError:
                answer = {"error": "nested too deeply to read", "line": 0}
            print(json.dumps(answer))
        return
    entry = sys.argv[1] if len(sys.argv) > 1 else ""
    print(json.dumps(read(sys.stdin.read(), entry)))


main()
