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


def text(node):
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


def is_typing_import(s):
    if isinstance(s, ast.ImportFrom):
        return s.module == "typing"
    return isinstance(s, ast.Import) and all(a.name == "typing" for a in s.names)


def main():
    entry = sys.argv[1] if len(sys.argv) > 1 else ""
    source = sys.stdin.read()
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        print(json.dumps({"error": "syntax error: " + str(e.msg), "line": e.lineno or 0}))
        return
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
        else:
            preamble.append({"k": "simple", "line": s.lineno, "text": text(s)})
    if entry != "valid":
        # A top-level `valid(...)` is the test generator's input precondition
        # (problems/README.md), not part of the algorithm: never the entry,
        # never a helper the chart must draw.
        funcs = [f for f in funcs if not (f["name"] == "valid" and f["method"] is None)]
    allf = funcs + r.helpers
    if not funcs:
        print(json.dumps({"error": "no function definition found", "line": 1}))
        return
    chosen = None
    if entry:
        for f in allf:
            if f["name"] == entry or f["qual"] == entry:
                chosen = f
                break
        if chosen is None:
            print(json.dumps({"error": "no function named " + entry, "line": 1}))
            return
    else:
        # The last top-level function (or Solution method) is the entry, as
        # in HumanEval prompts where helpers come first.
        sols = [f for f in funcs if f["method"] == "Solution"]
        chosen = sols[0] if sols else funcs[-1]
    helpers = [f for f in allf if f is not chosen]
    print(json.dumps({"entry": chosen, "helpers": helpers, "preamble": preamble}))


main()
