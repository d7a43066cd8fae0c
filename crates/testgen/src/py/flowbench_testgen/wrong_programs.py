# Plausible wrong programs beyond first-order mutants, for scoring only
# (`tests gen` never asks for them, so what it generates and selects cannot
# depend on them). Two sets:
# - higher-order mutants: two first-order mutants at disjoint sites (neither
#   inside the other) applied together, a seeded sample of at most
#   `cap` pairs per problem (the request's, differential.rs's
#   HIGHER_ORDER_CAP);
# - alternative-algorithm mutants: operators (ALTERNATIVES) that imitate a
#   whole wrong approach, often two coordinated changes, not one typo.
# A program of either set that compiles to the bytecode of the reference,
# of a first-order mutant or of an earlier program of its set is left out:
# it is already counted (or can only survive).
import ast
import copy
import random

from .mutants import bytecode, first_order, replace, sites, unified
from .signature import parse_solution

# Draws per accepted pair before giving up (most draws are rejected as
# i >= j, overlapping sites or twins, and cost no compilation).
DRAWS_PER_PAIR = 40

FLIP_STRICT = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}


def disjoint(p, q):
    """Whether neither path leads into the other's subtree (nor the same node)."""
    n = min(len(p), len(q))
    return p[:n] != q[:n]


def path_key(path):
    return [(name, -1 if i is None else i) for name, i in path]


def apply_edits(tree, edits):
    """A copy of `tree` with each (path, replacement) applied, the last path
    first: deleting a statement shifts only its later siblings, which are
    already done."""
    out = copy.deepcopy(tree)
    for path, new in sorted(edits, key=lambda e: path_key(e[0]), reverse=True):
        replace(out, path, copy.deepcopy(new) if new is not None else None)
    return out


def compiled(tree, filename):
    """(text, bytecode) of a mutated tree, or None when it does not compile."""
    try:
        text = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
        return text, bytecode(compile(text, filename, "exec"))
    except Exception:
        return None


def higher_order(tree, filename, first, programs, seed, cap):
    """Up to `cap` pairs of first-order mutants (`first`, as first_order
    gives them) at disjoint sites, drawn with random.Random(seed) and kept
    in the order of their first-order mutants."""
    n = len(first)
    rng = random.Random(seed)
    kept = []
    for t in rng.sample(range(n * n), min(n * n, cap * DRAWS_PER_PAIR)):
        i, j = divmod(t, n)
        if i >= j or not disjoint(first[i][0], first[j][0]):
            continue
        made = compiled(apply_edits(tree, [(first[i][0], first[i][3]), (first[j][0], first[j][3])]), filename)
        if made is None or made[1] in programs:
            continue
        programs.add(made[1])
        kept.append((i, j, made[0]))
        if len(kept) == cap:
            break
    out = []
    for i, j, text in sorted(kept):
        a, b = first[i][1], first[j][1]
        kind = "%s (line %d) + %s (line %d)" % (first[i][2], getattr(a, "lineno", 0), first[j][2], getattr(b, "lineno", 0))
        out.append((getattr(a, "lineno", 0), kind, text))
    return out


# --- alternative-algorithm operators: node -> [(kind, replacement)] -------


def sorting_call(node, names):
    """`sorted`/`min`/`max` called as builtins or `.sort` as a method, among `names`."""
    name = call_name(node)
    if name not in names:
        return None
    return name if isinstance(node.func, ast.Attribute) == (name == "sort") else None


def call_name(node):
    """`f` for `f(...)`, `m` for `x.m(...)`, else None."""
    if not isinstance(node, ast.Call):
        return None
    if isinstance(node.func, ast.Name):
        return node.func.id
    return node.func.attr if isinstance(node.func, ast.Attribute) else None


def plus_folded(expr, k):
    """`expr + k`, folded into a trailing `± constant` (`mid - 1` + 1 is `mid`)."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)) and isinstance(expr.right, ast.Constant) \
            and type(expr.right.value) is int:
        c = (expr.right.value if isinstance(expr.op, ast.Add) else -expr.right.value) + k
        if c == 0:
            return expr.left
        return ast.BinOp(expr.left, ast.Add() if c > 0 else ast.Sub(), ast.Constant(abs(c)))
    return ast.BinOp(expr, ast.Add() if k > 0 else ast.Sub(), ast.Constant(abs(k)))


def nth_match(root, pred):
    """Index (in ast.walk order) of the first node under `root` matching
    `pred`, or None: the same index finds the same node in a deep copy."""
    for i, n in enumerate(ast.walk(root)):
        if pred(n):
            return i
    return None


def node_at(root, index):
    for i, n in enumerate(ast.walk(root)):
        if i == index:
            return n
    return None


def flippable(n):
    return isinstance(n, ast.Compare) and len(n.ops) == 1 and type(n.ops[0]) in FLIP_STRICT


def loop_bound_and_comparison(node, ctx):
    """A `for` over `range` one step too far or too short, with the first
    strict/non-strict comparison in its body flipped to match: an off-by-one
    loop "fixed" with the wrong comparison."""
    if not (isinstance(node, ast.For) and call_name(node.iter) == "range" and node.iter.args):
        return []
    body = ast.Module(body=node.body, type_ignores=[])
    at = nth_match(body, flippable)
    if at is None:
        return []
    bound = len(node.iter.args) - 1 if len(node.iter.args) < 3 else 1
    out = []
    for k in (1, -1):
        new = copy.deepcopy(node)
        new.iter.args[bound] = plus_folded(new.iter.args[bound], k)
        cmp = node_at(ast.Module(body=new.body, type_ignores=[]), at)
        old = type(cmp.ops[0])
        cmp.ops = [FLIP_STRICT[old]()]
        out.append(("loop bound %+d with comparison %s -> %s" % (k, old.__name__, FLIP_STRICT[old].__name__), new))
    return out


def while_bound_and_update(node, ctx):
    """A `while lo < hi` made `lo <= hi` (or back) with the first assignment
    to `lo` or `hi` in its body moved by one to match: the two binary-search
    templates mixed up."""
    if not (isinstance(node, ast.While) and flippable(node.test)):
        return []
    names = lambda e: {n.id for n in ast.walk(e) if isinstance(n, ast.Name)}
    low, high = names(node.test.left), names(node.test.comparators[0])
    if isinstance(node.test.ops[0], (ast.Gt, ast.GtE)):
        low, high = high, low
    new_op = FLIP_STRICT[type(node.test.ops[0])]
    # A non-strict test runs one more time: the bounds must close in one
    # step more on each update, and the reverse.
    narrow = new_op in (ast.LtE, ast.GtE)
    body = ast.Module(body=node.body, type_ignores=[])
    at = nth_match(body, lambda n: isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                   and n.targets[0].id in (low | high) - (low & high))
    if at is None:
        return []
    new = copy.deepcopy(node)
    new.test.ops = [new_op()]
    update = node_at(ast.Module(body=new.body, type_ignores=[]), at)
    k = (-1 if update.targets[0].id in high else 1) * (1 if narrow else -1)
    update.value = plus_folded(update.value, k)
    return [("while %s -> %s with `%s` %+d" % (type(node.test.ops[0]).__name__, new_op.__name__, update.targets[0].id, k), new)]


def is_empty_check(e):
    """`not x`, `len(x) == 0`, `x == []`/`''`/`0`, `len(x) < 1`."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        return True
    if not (isinstance(e, ast.Compare) and len(e.ops) == 1):
        return False
    right = e.comparators[0]
    if isinstance(e.ops[0], ast.Eq):
        return isinstance(right, (ast.List, ast.Tuple)) and not right.elts or \
            isinstance(right, ast.Constant) and right.value in ("", 0) and right.value is not False
    return isinstance(e.ops[0], ast.Lt) and call_name(e.left) == "len" and isinstance(right, ast.Constant) and right.value == 1


def empty_guard(node, ctx):
    """An early exit that misses the empty input: `if not xs or …` loses
    `not xs`, `len(xs) <= 1` / `n < 2` becomes `== 1`: a recursion or loop
    without its base case for empty input."""
    if not (isinstance(node, ast.If) and node.body and isinstance(node.body[-1], (ast.Return, ast.Raise))):
        return []
    test, out = node.test, []
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        for i, v in enumerate(test.values):
            if is_empty_check(v):
                rest = test.values[:i] + test.values[i + 1:]
                new = copy.copy(node)
                new.test = rest[0] if len(rest) == 1 else ast.BoolOp(ast.Or(), rest)
                out.append(("empty-input guard: dropped `%s`" % ast.unparse(v), new))
    elif isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant) \
            and (type(test.ops[0]), test.comparators[0].value) in ((ast.LtE, 1), (ast.Lt, 2)):
        new = copy.copy(node)
        new.test = ast.Compare(test.left, [ast.Eq()], [ast.Constant(1)])
        out.append(("empty-input guard: `%s` -> `%s`" % (ast.unparse(test), ast.unparse(new.test)), new))
    return out


def float_floor_division(node, ctx):
    """`a // b` computed as `int(a / b)`: integer division through floats,
    which truncates toward zero and loses digits past 2**53."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
        return [("floor division through floats", ast.Call(ast.Name("int", ast.Load()), [ast.BinOp(node.left, ast.Div(), node.right)], []))]
    if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.FloorDiv) and isinstance(node.target, ast.Name):
        value = ast.Call(ast.Name("int", ast.Load()), [ast.BinOp(ast.Name(node.target.id, ast.Load()), ast.Div(), node.value)], [])
        return [("floor division through floats", ast.Assign([node.target], value))]
    return []


def rounding_swapped(node, ctx):
    """`int(x)` <-> `round(x)` on arithmetic, `math.floor`/`math.ceil` -> `int`:
    truncating where the statement rounds, or the reverse."""
    name = call_name(node)
    if name not in ("int", "round", "floor", "ceil") or len(node.args) != 1 or node.keywords:
        return []
    arg = node.args[0]
    if name == "int" and isinstance(node.func, ast.Name) and isinstance(arg, (ast.BinOp, ast.Call)) and call_name(arg) != "input":
        return [("int() -> round()", ast.Call(ast.Name("round", ast.Load()), [arg], []))]
    if name == "round" and isinstance(node.func, ast.Name):
        return [("round() -> int()", ast.Call(ast.Name("int", ast.Load()), [arg], []))]
    if name in ("floor", "ceil"):
        return [("%s() -> int()" % name, ast.Call(ast.Name("int", ast.Load()), [arg], []))]
    return []


def sort_key_dropped(node, ctx):
    """`sorted`/`.sort`/`min`/`max` without their `key=`: ordering by the
    whole value instead of the part the statement names."""
    if not sorting_call(node, ("sorted", "sort", "min", "max")) or not any(k.arg == "key" for k in node.keywords):
        return []
    return [("%s without key=" % call_name(node), ast.Call(node.func, node.args, [k for k in node.keywords if k.arg != "key"]))]


def sort_reversed(node, ctx):
    """`sorted`/`.sort` with `reverse` flipped: ascending where descending is
    asked, or the reverse."""
    if not sorting_call(node, ("sorted", "sort")) or (call_name(node) == "sorted" and not node.args):
        return []
    rest = [k for k in node.keywords if k.arg != "reverse"]
    was = [k for k in node.keywords if k.arg == "reverse"]
    if was and not (isinstance(was[0].value, ast.Constant) and was[0].value.value in (True, False)):
        return []
    descending = not (was and was[0].value.value)
    keywords = rest + [ast.keyword("reverse", ast.Constant(True))] if descending else rest
    return [("%s reverse=%s" % (call_name(node), descending), ast.Call(node.func, node.args, keywords))]


def neighbour_index(sub, var):
    """-1, 0 or +1 for `x[var - 1]`, `x[var]`, `x[var + 1]`; else None."""
    s = sub.slice
    if isinstance(s, ast.Name) and s.id == var:
        return 0
    if isinstance(s, ast.BinOp) and isinstance(s.left, ast.Name) and s.left.id == var and isinstance(s.right, ast.Constant) \
            and s.right.value == 1 and isinstance(s.op, (ast.Add, ast.Sub)):
        return 1 if isinstance(s.op, ast.Add) else -1
    return None


def neighbours_swapped(node, ctx):
    """In a loop over `i`, `x[i]` <-> `x[i + 1]` (or `x[i - 1]`) throughout
    its body: each pair of neighbours compared the wrong way round."""
    if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name)):
        return []
    var = node.target.id
    body = ast.Module(body=node.body, type_ignores=[])
    seen = {}
    for n in ast.walk(body):
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and neighbour_index(n, var) is not None:
            seen.setdefault(ast.unparse(n.value), set()).add(neighbour_index(n, var))
    out = []
    for seq, offsets in sorted(seen.items()):
        for other in sorted(offsets - {0}):
            if 0 not in offsets:
                continue
            new = copy.deepcopy(node)
            for n in ast.walk(ast.Module(body=new.body, type_ignores=[])):
                if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and ast.unparse(n.value) == seq:
                    at = neighbour_index(n, var)
                    if at in (0, other):
                        n.slice = ast.Name(var, ast.Load()) if at == other else ast.BinOp(
                            ast.Name(var, ast.Load()), ast.Add() if other > 0 else ast.Sub(), ast.Constant(1))
            out.append(("neighbours swapped: %s[%s] <-> %s[%s %s 1]" % (seq, var, seq, var, "+" if other > 0 else "-"), new))
    return out


def is_extreme_start(e):
    """`float('-inf')`, `float('inf')`, `math.inf`, `-math.inf`, `x[0]`."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        e = e.operand
    if call_name(e) == "float" and len(e.args) == 1 and isinstance(e.args[0], ast.Constant):
        return str(e.args[0].value).lstrip("+-").lower() in ("inf", "infinity")
    if isinstance(e, ast.Attribute) and e.attr == "inf":
        return True
    return isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Constant) and e.slice.value == 0


def accumulator_from_zero(node, ctx):
    """An accumulator (a name a loop updates) started at 0 instead of
    `-inf`/`inf` or the first element: a maximum that is wrong when every
    value is negative."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id in ctx["loop_assigned"] and is_extreme_start(node.value)):
        return []
    return [("accumulator starts at 0 instead of `%s`" % ast.unparse(node.value), ast.Assign(node.targets, ast.Constant(0)))]


def max_min_swapped(node, ctx):
    """`max` <-> `min`: the largest taken where the smallest is asked, or the reverse."""
    name = call_name(node)
    if name not in ("max", "min") or not isinstance(node.func, ast.Name):
        return []
    other = "min" if name == "max" else "max"
    return [("%s -> %s" % (name, other), ast.Call(ast.Name(other, ast.Load()), node.args, node.keywords))]


def split_whitespace(node, ctx):
    """`s.split()` <-> `s.split(' ')`: runs of blanks, tabs and leading or
    trailing spaces split differently."""
    if call_name(node) != "split" or not isinstance(node.func, ast.Attribute) or node.keywords:
        return []
    if not node.args:
        return [("split() -> split(' ')", ast.Call(node.func, [ast.Constant(" ")], []))]
    if len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value == " ":
        return [("split(' ') -> split()", ast.Call(node.func, [], []))]
    return []


CHAR_CLASSES = {"isalpha": "isalnum", "isalnum": "isalpha", "isdigit": "isnumeric", "isnumeric": "isdigit",
                "isdecimal": "isdigit"}


def char_class_swapped(node, ctx):
    """`isalpha` <-> `isalnum`, `isdigit` <-> `isnumeric`: a character class
    one size too wide or too narrow."""
    name = call_name(node)
    if name not in CHAR_CLASSES or not isinstance(node.func, ast.Attribute) or node.args:
        return []
    func = ast.Attribute(node.func.value, CHAR_CLASSES[name], ast.Load())
    return [("%s -> %s" % (name, CHAR_CLASSES[name]), ast.Call(func, [], []))]


def abs_dropped(node, ctx):
    """`abs(x)` -> `x`: a distance or difference taken with its sign."""
    if call_name(node) == "abs" and isinstance(node.func, ast.Name) and len(node.args) == 1:
        return [("abs dropped", node.args[0])]
    return []


def case_dropped(node, ctx):
    """`s.lower()`/`s.upper()`/`s.casefold()` -> `s`: letters compared with their case."""
    if call_name(node) in ("lower", "upper", "casefold") and isinstance(node.func, ast.Attribute) and not node.args:
        return [("%s() dropped" % call_name(node), node.func.value)]
    return []


ALTERNATIVES = [loop_bound_and_comparison, while_bound_and_update, empty_guard, float_floor_division,
                rounding_swapped, sort_key_dropped, sort_reversed, neighbours_swapped, accumulator_from_zero,
                max_min_swapped, split_whitespace, char_class_swapped, abs_dropped, case_dropped]


def loop_assigned(tree):
    """Names assigned inside a `for` or `while` body anywhere in `tree`."""
    out = set()
    for loop in ast.walk(tree):
        if isinstance(loop, (ast.For, ast.While)):
            for n in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
                if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                    out |= {t.id for t in targets if isinstance(t, ast.Name)}
    return out


def alternatives(tree, filename, skip, whole_program, programs):
    """Every alternative-algorithm mutant, site by site in source order."""
    ctx = {"loop_assigned": loop_assigned(tree)}
    out = []
    for path, node, field in sites(tree, set(skip), whole_program):
        for op in ALTERNATIVES:
            for kind, new in op(node, ctx):
                made = compiled(apply_edits(tree, [(path, new)]), filename)
                if made is None or made[1] in programs:
                    continue
                programs.add(made[1])
                out.append((getattr(node, "lineno", 0), kind, made[0]))
    return out


def wrong_programs(source, filename, skip, whole_program, seed, cap):
    tree = parse_solution(source, filename)
    original, first, programs = first_order(tree, filename, skip, whole_program)
    # Each set is left out only where it repeats the reference, a
    # first-order mutant or itself, not the other set.
    pairs = higher_order(tree, filename, first, set(programs), seed, cap)
    alts = alternatives(tree, filename, skip, whole_program, set(programs))
    shape = lambda found: [{"kind": k, "line": line, "source": text, "diff": unified(original, text)} for line, k, text in found]
    return {"higher_order": shape(pairs), "alternative": shape(alts)}


def wrong_programs_answer(req):
    """The answer to a `wrong_programs` request (serve.py's schema)."""
    return wrong_programs(req["solution"], req["file"], req["skip"], req["whole_program"], req["seed"], req["cap"])
