"""flowbench legacy-test converter (embedded in the binary, run with python3).

Reads problems as JSON lines on stdin ({"task_id", "entry_point", "call_style",
"test"}), writes one JSON line per problem on stdout:
{"task_id", "asserts": N (static),
"asserts_converted", "asserts_dropped", "tests": [...], "dropped": [...], "failures": [...],
 "float_tol": abs tolerance or null}.

Test code comes from the benchmark (trusted data), never from model samples;
still, constant expressions are evaluated only after an AST whitelist check,
with no builtins except pure ones, no attribute access and a time limit, so a
typo cannot touch the machine. A test converts only when its meaning under
the native comparison is the meaning of the assert; anything else is reported
as a failure with its line and reason, and the Rust side keeps the problem
legacy.
"""

import ast
import base64
import json
import math
import signal
import sys

SAFE_FUNCS = {
    "range": range, "list": list, "tuple": tuple, "set": set, "frozenset": frozenset,
    "dict": dict, "str": str, "int": int, "float": float, "bool": bool, "len": len,
    "sorted": sorted, "reversed": reversed, "sum": sum, "min": min, "max": max,
    "abs": abs, "chr": chr, "ord": ord, "zip": zip, "enumerate": enumerate,
    "bytes": bytes, "round": round, "pow": pow, "divmod": divmod,
}
SAFE_NODES = (
    ast.Expression, ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Name, ast.Load,
    ast.Store, ast.UnaryOp, ast.BinOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call,
    ast.keyword, ast.Starred, ast.Subscript, ast.Slice, ast.ListComp, ast.SetComp,
    ast.DictComp, ast.GeneratorExp, ast.comprehension, ast.JoinedStr, ast.FormattedValue,
    ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.expr_context,
)
# Modules a test may import: pure functions and constants, so their calls in
# expected values evaluate like the builtins above (`math.sqrt(2)`), and
# `math.isclose` is read as a tolerance comparison. Any other import (random,
# a helper module) stays a failure: its values cannot be computed here.
PURE_MODULES = {"math": math}
TAGS = ("__tuple__", "__set__", "__frozenset__", "__dict__", "__float__", "__bytes__")
# Largest sequence a constant expression may build (MATH goes up to 100,000).
MAX_LEN = 2_000_000


class Unconvertible(Exception):
    """The assert has no exact native equivalent; the message says why."""


class Drop(Exception):
    """The assert checks nothing about the candidate's answer (e.g. `assert True`)."""


def check_size(value):
    if isinstance(value, (list, tuple, str, bytes, set, frozenset, dict)) and len(value) > MAX_LEN:
        raise Unconvertible("constant too large")
    return value


def const_eval(node, env):
    """Value of a closed constant expression, or Unconvertible."""
    try:
        return check_size(ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError, RecursionError):
        pass
    modules = {name: value for name, value in env.items() if value in PURE_MODULES.values()}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and pure_attribute(sub, modules):
            continue
        if not isinstance(sub, SAFE_NODES):
            raise Unconvertible(f"not a constant expression ({type(sub).__name__})")
        if isinstance(sub, ast.Call) and not (
            isinstance(sub.func, ast.Name) and (sub.func.id in SAFE_FUNCS or callable(env.get(sub.func.id)))
            or isinstance(sub.func, ast.Attribute) and pure_attribute(sub.func, modules)
        ):
            raise Unconvertible(f"calls {ast.unparse(sub.func)}")
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Pow):
            exp = sub.right
            if not (isinstance(exp, ast.Constant) and isinstance(exp.value, int) and exp.value <= 4096):
                raise Unconvertible("unbounded power")
        if isinstance(sub, ast.Name) and sub.id.startswith("__"):
            raise Unconvertible(f"name {sub.id}")
    scope = dict(SAFE_FUNCS)
    scope.update(env)
    try:
        code = compile(ast.Expression(node), "<test>", "eval")
        return check_size(eval(code, {"__builtins__": {}}, scope))  # noqa: S307 (whitelisted AST)
    except Unconvertible:
        raise
    except Exception as err:  # the expression needs something we do not provide
        raise Unconvertible(f"cannot evaluate {ast.unparse(node)[:60]!r}: {type(err).__name__}: {err}")


def pure_attribute(node, modules):
    """`math.sqrt` where `math` names an imported pure module (no dunders)."""
    return (isinstance(node.value, ast.Name) and node.value.id in modules
            and not node.attr.startswith("_") and hasattr(modules[node.value.id], node.attr))


def encode(v):
    """Tagged-JSON encoding of a Python value, preserving its exact type."""
    t = type(v)
    if v is None or t is bool or t is str:
        return v
    if t is int:
        return v
    if t is float:
        if math.isnan(v):
            return {"__float__": "nan"}
        if math.isinf(v):
            return {"__float__": "inf" if v > 0 else "-inf"}
        return v
    if t is list:
        return [encode(x) for x in v]
    if t is tuple:
        return {"__tuple__": [encode(x) for x in v]}
    if t is set or t is frozenset:
        items = sorted((encode(x) for x in v), key=lambda e: json.dumps(e, sort_keys=True))
        return {"__set__" if t is set else "__frozenset__": items}
    if t is dict:
        if all(type(k) is str for k in v) and not (len(v) == 1 and next(iter(v)) in TAGS):
            return {k: encode(x) for k, x in v.items()}
        return {"__dict__": [[encode(k), encode(x)] for k, x in v.items()]}
    if t is bytes:
        return {"__bytes__": base64.b64encode(v).decode("ascii")}
    raise Unconvertible(f"value of type {t.__name__} has no native encoding")


class Problem:
    def __init__(self, rec):
        self.entry = rec["entry_point"]
        self.style = rec.get("call_style", "function")
        self.tests, self.dropped, self.failures = [], [], []
        self.asserts = set()  # static assert statements (by position)
        self.failed_asserts = set()
        self.dropped_asserts = set()
        self.tols = set()
        self.solution_vars = set()
        self.callee_names = {self.entry}

    # ---- calls -------------------------------------------------------------
    def is_candidate_call(self, node):
        if not isinstance(node, ast.Call):
            return False
        f = node.func
        if self.style == "solution_method":
            return (isinstance(f, ast.Attribute) and f.attr == self.entry
                    and isinstance(f.value, ast.Name) and f.value.id in self.solution_vars)
        return isinstance(f, ast.Name) and f.id in self.callee_names

    def mentions_candidate(self, node):
        """Whether `node` calls the candidate, directly or through the entry
        point's own name (HumanEval-33 compares `candidate(x)` with
        `sort_third(x)`: the same function)."""
        return any(self.is_candidate_call(n) or (
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == self.entry)
            for n in ast.walk(node))

    def call_args(self, call, env):
        args, kwargs = [], {}
        for a in call.args:
            if isinstance(a, ast.Starred):
                args.extend(const_eval(a.value, env))
            else:
                args.append(const_eval(a, env))
        for kw in call.keywords:
            if kw.arg is None:
                value = const_eval(kw.value, env)
                if not (isinstance(value, dict) and all(type(k) is str for k in value)):
                    raise Unconvertible("** argument is not a dict with string keys")
                kwargs.update(value)
            else:
                kwargs[kw.arg] = const_eval(kw.value, env)
        return args, kwargs

    def candidate_side(self, node):
        """(call node, wrapper) when `node` is a candidate call, optionally
        wrapped in tuple()/list() (HumanEval-33/37: order-preserving
        normalisation that native list/tuple equality already does) or in
        set()/frozenset()/sorted() (the result's order does not count: the
        problem's compare mode)."""
        if self.is_candidate_call(node):
            return node, None
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("tuple", "list", "set", "frozenset", "sorted") and len(node.args) == 1
                and not node.keywords and self.is_candidate_call(node.args[0])):
            return node.args[0], node.func.id
        return None, None

    # ---- asserts -----------------------------------------------------------
    def convert_assert(self, test, env):
        """Returns (call, expected, cmp, tol)."""
        if isinstance(test, ast.Constant):
            if test.value:
                raise Drop("assert of a true constant")
            raise Unconvertible("assert of a false constant")
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            if self.is_candidate_call(test.operand):
                return test.operand, False, "falsy", None
        if self.is_candidate_call(test):
            return test, True, "truthy", None
        close = self.isclose(test, env)
        if close is not None:
            return close
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            left, op, right = test.left, test.ops[0], test.comparators[0]
            if isinstance(op, ast.Eq):
                call, wrap = self.candidate_side(left)
                other = right
                if call is None:
                    call, wrap = self.candidate_side(right)
                    other = left
                if call is not None:
                    if self.mentions_candidate(other):
                        raise Drop("compares the candidate with itself")
                    expected = const_eval(other, env)
                    if wrap in ("set", "frozenset"):
                        if not isinstance(expected, (set, frozenset)):
                            raise Unconvertible(f"{wrap}() of the result compared with a non-set")
                        return call, expected, "set", None
                    if wrap == "sorted":
                        if not isinstance(expected, list):
                            raise Unconvertible("sorted() of the result compared with a non-list")
                        return call, expected, "sorted", None
                    if wrap is not None:
                        if not isinstance(expected, (tuple, list)):
                            raise Unconvertible(f"{wrap}() of the result compared with a non-sequence")
                        # Compare as a sequence: native list == tuple.
                        expected = list(expected)
                    return call, expected, "eq", None
            if isinstance(op, ast.Is) and self.is_candidate_call(left):
                if isinstance(right, ast.Constant) and right.value is None:
                    # `x is None` == `x == None` for every encodable value.
                    return left, None, "eq", None
                if isinstance(right, ast.Constant) and type(right.value) is bool:
                    return left, right.value, "is", None
            if isinstance(op, (ast.Lt, ast.LtE)):
                approx = self.abs_diff(left, env)
                if approx is not None:
                    tol = const_eval(right, env)
                    if type(tol) not in (int, float) or tol <= 0:
                        raise Unconvertible("tolerance is not a positive number")
                    call, expected = approx
                    return call, expected, "approx", float(tol)
            if isinstance(op, ast.In) and self.is_candidate_call(left):
                raise Unconvertible("any-of comparison (`in [...]`) has no native comparator")
        if isinstance(test, ast.BoolOp):
            raise Unconvertible("boolean combination of comparisons (any-of)")
        if self.mentions_candidate(test):
            raise Unconvertible(f"unsupported assert form: {ast.unparse(test)[:80]}")
        raise Unconvertible("assert does not call the entry point")

    def isclose(self, node, env):
        """`math.isclose(candidate(...), y[, rel_tol=r][, abs_tol=a])` (either
        order, `isclose` imported from math too): a tolerance comparison with
        the larger of the two tolerances (the native rule scales it by
        max(1, |y|), so it is at least as loose as isclose)."""
        if not (isinstance(node, ast.Call) and len(node.args) == 2):
            return None
        f = node.func
        named = isinstance(f, ast.Name) and env.get(f.id) is math.isclose
        attr = (isinstance(f, ast.Attribute) and f.attr == "isclose" and isinstance(f.value, ast.Name)
                and env.get(f.value.id) is math)
        if not (named or attr):
            return None
        tols = {"rel_tol": 1e-9, "abs_tol": 0.0}
        for kw in node.keywords:
            if kw.arg not in tols:
                raise Unconvertible(f"isclose() with argument {kw.arg}")
            tols[kw.arg] = const_eval(kw.value, env)
        tol = max(tols.values())
        if type(tol) not in (int, float) or not tol > 0:
            raise Unconvertible("tolerance is not a positive number")
        for call, other in ((node.args[0], node.args[1]), (node.args[1], node.args[0])):
            if self.is_candidate_call(call) and not self.mentions_candidate(other):
                expected = const_eval(other, env)
                if type(expected) not in (int, float):
                    raise Unconvertible("tolerance comparison with a non-number")
                return call, float(expected), "approx", float(tol)
        return None

    def abs_diff(self, node, env):
        """`abs(candidate(...) - y)` or `abs(y - candidate(...))`."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("abs", "fabs") and len(node.args) == 1):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "fabs" and len(node.args) == 1):
                return None
        inner = node.args[0]
        if not (isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Sub)):
            return None
        for call, other in ((inner.left, inner.right), (inner.right, inner.left)):
            if self.is_candidate_call(call) and not self.mentions_candidate(other):
                expected = const_eval(other, env)
                if type(expected) not in (int, float):
                    raise Unconvertible("tolerance comparison with a non-number")
                return call, float(expected)
        return None

    def add_assert(self, stmt, env):
        self.asserts.add((stmt.lineno, stmt.col_offset))
        try:
            call, expected, cmp, tol = self.convert_assert(stmt.test, env)
            args, kwargs = self.call_args(call, env)
            test = {"args": [encode(a) for a in args],
                    "kwargs": {k: encode(v) for k, v in kwargs.items()},
                    "expected": encode(expected), "line": stmt.lineno}
            if cmp != "eq":
                test["cmp"] = cmp
            if tol is not None:
                self.tols.add(tol)
            self.tests.append(test)
        except Drop as why:
            self.dropped_asserts.add((stmt.lineno, stmt.col_offset))
            self.dropped.append({"line": stmt.lineno, "reason": str(why)})
        except Unconvertible as why:
            self.failed_asserts.add((stmt.lineno, stmt.col_offset))
            self.failures.append({"line": stmt.lineno, "reason": str(why)})

    def add_import(self, stmt, env):
        """Binds an import of a pure module (or of its names) in `env`; any
        other import is a failure (its values cannot be computed)."""
        module = stmt.module if isinstance(stmt, ast.ImportFrom) else None
        for alias in stmt.names:
            name = module or alias.name
            if name not in PURE_MODULES or (module and not hasattr(PURE_MODULES[name], alias.name)):
                self.failures.append({"line": stmt.lineno,
                                      "reason": f"unsupported statement: {ast.unparse(stmt)[:80]}"})
                continue
            value = getattr(PURE_MODULES[name], alias.name) if module else PURE_MODULES[name]
            env[alias.asname or alias.name] = value

    # ---- statements --------------------------------------------------------
    def run_body(self, body, env):
        for stmt in body:
            if isinstance(stmt, ast.Assert):
                self.add_assert(stmt, env)
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                self.add_import(stmt, env)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, (ast.Constant, ast.Name)):
                continue  # docstring, bare string or a bare name such as HumanEval-129's `print`
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                value = stmt.value
                if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                        and value.func.id == "Solution" and not value.args):
                    self.solution_vars.add(name)
                    continue
                try:
                    env[name] = const_eval(value, env)
                except Unconvertible as why:
                    # Only fatal if an assert uses it: poison the name.
                    env.pop(name, None)
                    self.failures.append({"line": stmt.lineno, "reason": f"assignment to {name}: {why}"})
            elif isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) and not stmt.orelse:
                try:
                    items = list(const_eval(stmt.iter, env))
                except (Unconvertible, TypeError) as why:
                    self.failures.append({"line": stmt.lineno, "reason": f"loop over non-constant: {why}"})
                    continue
                for item in items:
                    inner = dict(env)
                    inner[stmt.target.id] = item
                    self.run_body(stmt.body, inner)
            else:
                self.failures.append({"line": stmt.lineno,
                                      "reason": f"unsupported statement: {ast.unparse(stmt).splitlines()[0][:80]}"})

    def run_module(self, tree):
        checks = [s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == "check"]
        if checks:
            # HumanEval: only `check(candidate)` matters; METADATA etc. are inert.
            env = {}
            for s in tree.body:
                if isinstance(s, (ast.Import, ast.ImportFrom)):
                    self.add_import(s, env)
                elif isinstance(s, ast.FunctionDef) and s is not checks[0]:
                    self.failures.append({"line": s.lineno, "reason": "test defines helpers"})
            fn = checks[0]
            if len(fn.args.args) != 1:
                self.failures.append({"line": fn.lineno, "reason": "check() does not take one argument"})
                return
            self.callee_names = {fn.args.args[0].arg}
            self.run_body(fn.body, env)
        else:
            self.run_body(tree.body, {})


def on_alarm(signum, frame):
    raise Unconvertible("conversion took too long")


def convert(rec):
    p = Problem(rec)
    try:
        tree = ast.parse(rec["test"])
    except SyntaxError as err:
        return {"failures": [{"line": err.lineno or 0, "reason": f"syntax error: {err.msg}"}],
                "asserts": 0, "asserts_converted": 0, "asserts_dropped": 0,
                "tests": [], "dropped": [], "float_tol": None}
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(20)
    try:
        p.run_module(tree)
    except Unconvertible as why:
        p.failures.append({"line": 0, "reason": str(why)})
    except RecursionError:
        p.failures.append({"line": 0, "reason": "value too deeply nested"})
    except MemoryError:
        p.failures.append({"line": 0, "reason": "constant expression too large"})
    finally:
        signal.alarm(0)
    if len(p.tols) > 1:
        p.failures.append({"line": 0, "reason": f"several float tolerances {sorted(p.tols)}"})
    dropped = p.dropped_asserts - p.failed_asserts
    # Asserts never reached (inside a loop over random data, say) count as
    # unconverted: the figure is over every assert statement in the source.
    static = {(n.lineno, n.col_offset) for n in ast.walk(tree) if isinstance(n, ast.Assert)}
    return {"asserts": len(static),
            "asserts_converted": len(p.asserts - p.failed_asserts - dropped),
            "asserts_dropped": len(dropped), "tests": p.tests, "dropped": p.dropped,
            "failures": p.failures, "float_tol": next(iter(p.tols)) if len(p.tols) == 1 else None}


def main():
    sys.setrecursionlimit(10_000)
    try:
        # A typo such as `[0] * 10**10` must fail the problem, not the machine.
        import resource
        limit = 4 << 30
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        rec = json.loads(line)
        result = convert(rec)
        result["task_id"] = rec["task_id"]
        out.write(json.dumps(result) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
