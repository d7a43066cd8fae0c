# AST mutants of a reference solution.
# Each mutant changes one node: operator swaps (arithmetic, comparison,
# boolean, augmented), constants +-1, off-by-one on indices and range
# bounds, negated conditions, deleted statements, swapped call arguments and
# changed returns. Sources are ast.unparse'd. Docstrings are not mutated
# (nothing reads them), and a mutant that compiles to the same bytecode as
# the reference or as an earlier mutant is left out (trivial compiler
# equivalence: `101 + 1` and `102` are one program): such a mutant can only
# survive, and every survivor runs the whole suite and the equivalence pool.
import ast
import contextlib
import copy
import difflib
import types

from .signature import parse_solution

ARITH = {ast.Add: [ast.Sub], ast.Sub: [ast.Add], ast.Mult: [ast.Add, ast.FloorDiv], ast.Div: [ast.Mult, ast.FloorDiv],
         ast.FloorDiv: [ast.Div, ast.Mult], ast.Mod: [ast.FloorDiv], ast.Pow: [ast.Mult], ast.LShift: [ast.RShift],
         ast.RShift: [ast.LShift], ast.BitAnd: [ast.BitOr], ast.BitOr: [ast.BitAnd], ast.BitXor: [ast.BitOr]}
CMP = {ast.Lt: [ast.LtE, ast.Gt], ast.LtE: [ast.Lt, ast.GtE], ast.Gt: [ast.GtE, ast.Lt], ast.GtE: [ast.Gt, ast.LtE],
       ast.Eq: [ast.NotEq], ast.NotEq: [ast.Eq], ast.In: [ast.NotIn], ast.NotIn: [ast.In], ast.Is: [ast.IsNot],
       ast.IsNot: [ast.Is]}


def plus(node, k):
    return ast.BinOp(left=node, op=ast.Add() if k > 0 else ast.Sub(), right=ast.Constant(abs(k)))


def variants(node, parent_field):
    """(kind, replacement) for one node; a replacement of None deletes it."""
    out = []
    if isinstance(node, ast.BinOp):
        for op in ARITH.get(type(node.op), []):
            out.append(("operator %s -> %s" % (type(node.op).__name__, op.__name__), ast.BinOp(node.left, op(), node.right)))
        if type(node.op) in (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow):
            out.append(("swapped operands", ast.BinOp(node.right, node.op, node.left)))
    elif isinstance(node, ast.AugAssign):
        for op in ARITH.get(type(node.op), []):
            out.append(("operator %s= -> %s=" % (type(node.op).__name__, op.__name__), ast.AugAssign(node.target, op(), node.value)))
    elif isinstance(node, ast.Compare) and len(node.ops) == 1:
        for op in CMP.get(type(node.ops[0]), []):
            out.append(("comparison %s -> %s" % (type(node.ops[0]).__name__, op.__name__), ast.Compare(node.left, [op()], node.comparators)))
    elif isinstance(node, ast.BoolOp):
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        out.append(("boolean %s -> %s" % (type(node.op).__name__, type(other).__name__), ast.BoolOp(other, node.values)))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("removed not", node.operand))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        out.append(("removed unary minus", node.operand))
    elif isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool):
            out.append(("constant %r -> %r" % (v, not v), ast.Constant(not v)))
        elif isinstance(v, int):
            out += [("constant %d -> %d" % (v, v + 1), ast.Constant(v + 1)), ("constant %d -> %d" % (v, v - 1), ast.Constant(v - 1))]
        elif isinstance(v, float):
            out += [("constant %r -> %r" % (v, v + 1), ast.Constant(v + 1.0)), ("constant %r -> %r" % (v, v / 2), ast.Constant(v / 2))]
        elif isinstance(v, str) and parent_field != "docstring":
            out.append(("constant %r -> ''" % v if v else "constant '' -> 'x'", ast.Constant("" if v else "x")))
    elif isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice) and isinstance(node.ctx, ast.Load):
        out += [("index +1", ast.Subscript(node.value, plus(node.slice, 1), node.ctx)),
                ("index -1", ast.Subscript(node.value, plus(node.slice, -1), node.ctx))]
    elif isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name == "range" and node.args:
            last = node.args[-1] if len(node.args) < 3 else node.args[1]
            i = node.args.index(last)
            for k in (1, -1):
                args = list(node.args)
                args[i] = plus(last, k)
                out.append(("range bound %+d" % k, ast.Call(node.func, args, node.keywords)))
        if len(node.args) >= 2 and not any(isinstance(a, ast.Starred) for a in node.args[:2]):
            args = list(node.args)
            args[0], args[1] = args[1], args[0]
            out.append(("swapped arguments", ast.Call(node.func, args, node.keywords)))
    if isinstance(node, (ast.If, ast.While)):
        neg = copy.copy(node)
        neg.test = ast.UnaryOp(ast.Not(), node.test)
        out.append(("negated condition", neg))
    if isinstance(node, ast.IfExp):
        out.append(("negated condition", ast.IfExp(ast.UnaryOp(ast.Not(), node.test), node.body, node.orelse)))
    if isinstance(node, ast.Return) and node.value is not None:
        out.append(("return None", ast.Return(ast.Constant(None))))
        if not isinstance(node.value, ast.Constant):
            out.append(("return changed (+1)", ast.Return(plus(node.value, 1))))
    if isinstance(node, ast.stmt) and parent_field == "body-stmt" and not isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Return)):
        out.append(("deleted statement", None))
    return out


def sites(tree, skip, whole_program=False):
    """Every (path, node, field) inside function bodies (anywhere in a
    whole program, whose code is mostly at module level), in a stable
    order; `path` is the list of (field, index) steps from the module.
    A whole program's imports are left alone: deleting one only makes a
    NameError."""
    found = []

    def walk(node, path, inside, field):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in skip or field == "docstring":
            return
        if whole_program and isinstance(node, (ast.Import, ast.ImportFrom)):
            return
        if inside:
            found.append((path, node, field))
        for name, value in ast.iter_fields(node):
            if name in ("annotation", "returns", "decorator_list", "type_comment"):
                continue
            deeper = inside or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and name == "body"
            if isinstance(value, list):
                for i, child in enumerate(value):
                    if isinstance(child, ast.AST):
                        doc = i == 0 and name == "body" and isinstance(child, ast.Expr) and isinstance(getattr(child, "value", None), ast.Constant) and isinstance(child.value.value, str)
                        f = "docstring" if doc else ("body-stmt" if isinstance(child, ast.stmt) else name)
                        walk(child, path + [(name, i)], deeper, f)
            elif isinstance(value, ast.AST):
                walk(value, path + [(name, None)], deeper, name)

    walk(tree, [], whole_program, None)
    return found


def replace(tree, path, new):
    node = tree
    for name, i in path[:-1]:
        node = getattr(node, name)[i] if i is not None else getattr(node, name)
    name, i = path[-1]
    if i is None:
        setattr(node, name, new)
        return True
    body = getattr(node, name)
    if new is None:
        del body[i]
        if not body:
            body.append(ast.Pass())
    else:
        body[i] = new
    return True


@contextlib.contextmanager
def replaced(tree, path, new):
    """`tree` with `replace(tree, path, new)` applied while inside, restored
    after (only the changed field or list is put back: nothing else moves)."""
    node = tree
    for name, i in path[:-1]:
        node = getattr(node, name)[i] if i is not None else getattr(node, name)
    name, i = path[-1]
    saved = getattr(node, name)
    if i is not None:
        saved = list(saved)
    replace(tree, path, new)
    try:
        yield
    finally:
        if i is None:
            setattr(node, name, saved)
        else:
            getattr(node, name)[:] = saved


def bytecode(code):
    """What a code object does, without where it came from (lines, file):
    equal for programs that run alike instruction for instruction."""
    consts = tuple(bytecode(c) if isinstance(c, types.CodeType) else (type(c).__name__, repr(c)) for c in code.co_consts)
    return (code.co_code, consts, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars, code.co_argcount,
            code.co_posonlyargcount, code.co_kwonlyargcount, code.co_flags, code.co_name,
            getattr(code, "co_exceptiontable", b""))


def first_order(tree, filename, skip, whole_program=False):
    """The reference's text and its first-order mutants in order, each as
    (path, node, kind, replacement, text), plus the bytecode of the
    reference and of every mutant (what `wrong_programs.py` leaves out)."""
    original = ast.unparse(tree) + "\n"
    seen = {original}
    programs = {bytecode(compile(original, filename, "exec"))}
    out = []
    for path, node, field in sites(tree, set(skip), whole_program):
        for kind, new in variants(node, field):
            # The change is made in place and undone: copying the whole tree
            # per mutant was most of this helper's time.
            with replaced(tree, path, copy.deepcopy(new) if new is not None else None):
                try:
                    text = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
                    program = bytecode(compile(text, filename, "exec"))
                except Exception:
                    continue
            if text in seen or program in programs:
                continue
            seen.add(text)
            programs.add(program)
            out.append((path, node, kind, new, text))
    return original, out, programs


def unified(original, text):
    return "".join(difflib.unified_diff(original.splitlines(True), text.splitlines(True), "reference", "mutant", n=1))


def mutants(source, filename, skip, whole_program=False):
    tree = parse_solution(source, filename)
    original, found, _ = first_order(tree, filename, skip, whole_program)
    out = [{"kind": kind, "line": getattr(node, "lineno", 0), "source": text, "diff": unified(original, text)}
           for _, node, kind, _, text in found]
    return {"mutants": out}


def mutants_answer(req):
    """The answer to a `mutants` request (serve.py's schema)."""
    return mutants(req["solution"], req["file"], req["skip"], req["whole_program"])
