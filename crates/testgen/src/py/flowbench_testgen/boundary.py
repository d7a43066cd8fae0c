# Boundary inputs: where a *different* wrong
# program goes wrong, not a mutant of the reference. Mutants of the
# reference only move the reference's own boundaries; a model's program
# puts `<` for `<=` against another quantity, or breaks on a value class the
# reference never special-cases. Two families:
#
# - relations between parameters, and between a parameter and a quantity
#   derived from another (a length, the closest gap between elements, a
#   sum, the largest element): inputs on both sides of equality and at it;
#   two sequences equal, one a prefix of the other, one empty and the other
#   not;
# - value classes of numbers: primes and prime powers, 10^k +- 1, values
#   where float and integer arithmetic part ways, huge numeric strings;
# - sorted sequences with a run of equal values inside (a plateau): a
#   program that tests monotony or counts runs with `<` for `<=` breaks
#   there, and sorted random draws seldom hold equal neighbours;
# - an integer equal to the sum of the first two or the last two elements
#   of a list (a pair search's first and last pairs).
#
# Drawn from their own seeded generator (`boundary_inputs` is given a fresh
# Gen seeded with the request's seed ^ BOUNDARY_SEED), so the inputs
# generated before them stay as they were.
import copy
import math
import string

from .values import charset

BOUNDARY_SEED = 0x2545F491

# Primes, prime powers and 10^k +- 1 up to 10^4, cheap for any reference
# (smaller ones, powers of two and their neighbours are gen.py's
# SMALL_EDGES). Values near a bounded parameter's maximum are added per
# parameter (`near_limit`).
INT_CLASSES = [97, 997, 1009, 7919, 1024, 2187, 9409, 999, 1001, 9999, 10001, -1001]
# Where float arithmetic surprises: 0.1 + 0.2 != 0.3, round-half-to-even,
# integers float cannot tell apart from their neighbours.
FLOAT_CLASSES = [0.1, 0.2, 0.3, 1.5, 2.5, -2.5, 0.5 + 1e-9, 1e-7, 2.0 ** 53, 1e16 + 2.0]
# Numeric strings far beyond 64-bit and float range.
DIGIT_STRINGS = [("huge number", "9" * 40), ("power of ten", "1" + "0" * 40),
                 ("power of ten + 1", "1" + "0" * 39 + "1"), ("leading zeros", "0007")]
# Unbounded integers where int and float part ways (2^53 + 1 is the first
# integer a float cannot hold).
FLOAT_PARTING = [2 ** 53 + 1, 10 ** 16 + 1]
# 2 * (10^9 + 7): cheap to factor with a square-root bound, hours without
# one (2^53 + 1's largest factor, 2.8 * 10^13, is too far even with it).
LARGE_PRIME_FACTOR = 2 * (10 ** 9 + 7)


def is_prime(n):
    """Deterministic Miller-Rabin, exact below 3.3 * 10^24."""
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def near_limit(lo, hi):
    """Value classes at a bounded parameter's top: the largest prime, the
    largest prime square and power of two, and 10^k +- 1 for the largest
    10^k, each at most `hi` (and at least `lo`)."""
    if hi is None or hi < 20 or hi > 10 ** 18:
        return []
    out = []
    p = hi
    while p > max(lo or 2, 2) and not is_prime(p) and hi - p < 2000:
        p -= 1
    if is_prime(p):
        out.append(p)
    q = int(math.isqrt(hi))
    while q > 2 and not is_prime(q):
        q -= 1
    if q > 2:
        out.append(q * q)
    out.append(1 << (hi.bit_length() - 1))
    ten = 10 ** (len(str(hi)) - 1)
    out += [ten - 1, ten, ten + 1]
    return [v for v in out if lo is None or v >= lo]


def kind_of(t):
    return t["of"]["k"] if t["k"] == "opt" else t["k"]


def numeric_items(t):
    """Whether a parameter of type `t` is a list/tuple/set of numbers."""
    return kind_of(t) in ("list", "tuple", "set") and "items" not in t and t.get("of", {}).get("k") in ("int", "float")


def sized(t):
    return kind_of(t) in ("str", "list", "tuple", "set", "dict") and "items" not in t


def boundary_inputs(g):
    """(label, args) per boundary input of the problem (see the top)."""
    out = []
    for name, t in g.params:
        out += value_classes(g, name, t)
    for i, (p, tp) in enumerate(g.params):
        for q, tq in g.params:
            if p != q:
                out += relations(g, p, tp, q, tq, i)
    # Drawn last, so that the inputs above stay as they were before these
    # were added (the bank's tests are compared against a fresh run).
    for name, t in g.params:
        out += large_prime_factor(g, name, t)
    for p, tp in g.params:
        for q, tq in g.params:
            if p != q and free(g, p) and free(g, q) and kind_of(tq) == "float" and numeric_items(tp) \
                    and tp["of"]["k"] == "float":
                out.append(("%s = the closest gap in %s, exactly" % (q, p), adjusted(g, exact_gap(p, q))))
    for name, t in g.params:
        out += plateaus(g, name, t)
    for p, tp in g.params:
        for q, tq in g.params:
            if p != q and free(g, p) and free(g, q) and kind_of(tq) == "int" and numeric_items(tp):
                for what, pair in (("the first two", lambda xs: xs[:2]), ("the last two", lambda xs: xs[-2:])):
                    label = "%s = the sum of %s of %s" % (q, what, p)
                    value_of = (lambda p, pair: lambda a: pair_sum(pair(list(a[p]))))(p, pair)
                    out.append((label, adjusted(g, setter(q, value_of))))
    return [(label, args) for label, args in out if args is not None]


# A plateau input: the first value, a run of three equal values, then at
# least two more, each different from its neighbours outside the run.
PLATEAU_LEN = 8


def plateaus(g, name, t):
    """`name` sorted ascending and descending with a run of three equal
    values inside; none for sequences whose elements must differ, graphs
    and elements without an order."""
    c = g.cons[name]
    if kind_of(t) not in ("list", "tuple") or "items" in t or c.get("distinct") or c.get("graph") \
            or not free(g, name):
        return []
    out = []
    for reverse in (False, True):
        for _ in range(5):
            args = g.args("typical", PLATEAU_LEN)
            xs = list(args[name]) if args is not None and isinstance(args.get(name), (list, tuple)) else []
            try:
                xs.sort(reverse=reverse)
            except TypeError:
                return []
            steps = [x for i, x in enumerate(xs) if i == 0 or x != xs[i - 1]]
            if len(steps) < 4 or len(xs) < 6:
                continue
            # The length kept: the first value, the run, then the rest.
            run = [steps[0]] + [copy.deepcopy(steps[1]) for _ in range(3)] + steps[2:]
            run += [copy.deepcopy(steps[-1]) for _ in range(len(xs) - len(run))]
            args[name] = type(args[name])(run[:len(xs)])
            if g.relations_hold(args):
                label = "%s %s with a run of equal values" % (name, "descending" if reverse else "ascending")
                out.append((label, args))
                break
    return out


def large_prime_factor(g, name, t):
    """An unbounded integer with a prime factor near 10^9: a square-root
    bounded search (trial division, a divisor loop) meets it in 30,000
    steps, one that runs to the factor itself does not finish."""
    if kind_of(t) != "int" or g.int_range(g.cons[name])[1] is not None:
        return []
    v = LARGE_PRIME_FACTOR
    return [("%s=%r (value class)" % (name, v), g.args("typical", 4, {name: v}))]


def value_classes(g, name, t):
    k, c = kind_of(t), g.cons[name]
    values = []
    if k == "int":
        lo, hi = g.int_range(c)
        values = INT_CLASSES + near_limit(lo, hi) + (FLOAT_PARTING if hi is None else [])
    elif k == "float":
        values = FLOAT_CLASSES
    elif k == "str" and "pattern" not in c and set(charset(c)) <= set(string.digits):
        return [("%s %s" % (name, label), g.args("typical", 4, {name: v})) for label, v in DIGIT_STRINGS]
    seen, out = set(), []
    for v in values:
        if v not in seen:
            seen.add(v)
            out.append(("%s=%r (value class)" % (name, v), g.args("typical", 4, {name: v})))
    return out


def free(g, name):
    """Whether `name` can be set after the others are drawn: no parameter's
    shape follows it (a graph's `nodes`, `same_len`, `often_in`) and its
    own follows none."""
    return not g.deps.get(name) and not any(name in d for d in g.deps.values())


def adjusted(g, fix):
    """Typical arguments changed by `fix` (which returns False when the
    drawn arguments cannot take the change), the spec's relations still
    holding; None when no draw does."""
    for _ in range(20):
        args = g.args("typical", 4)
        if args is not None and fix(args) is not False and g.relations_hold(args):
            return args
    return None


def setter(target, value_of):
    def fix(args):
        v = value_of(args)
        if v is None:
            return False
        args[target] = v
    return fix


def relations(g, p, tp, q, tq, order):
    """Boundary inputs between parameter `q` and parameter `p` (`order` is
    p's position, so each unordered pair's symmetric cases come once).
    Only free parameters (`free`) are set."""
    kq = kind_of(tq)
    out = []
    if not (free(g, p) and free(g, q)):
        return out
    if kq == "int" and sized(tp):
        for d in (0, -1, 1):
            label = "%s = len(%s)%s" % (q, p, " %+d" % d if d else "")
            out.append((label, adjusted(g, setter(q, lambda a, d=d: len(a[p]) + d))))
    if kq in ("int", "float") and numeric_items(tp):
        cast = int if kq == "int" else float
        derived = [("the closest gap in", closest_gap), ("max of", max_of), ("min of", min_of), ("sum of", sum_of)]
        for what, f in derived:
            for d in ((0, -1, 1) if kq == "int" else (0,)):
                label = "%s = %s %s%s" % (q, what, p, " %+d" % d if d else "")
                out.append((label, adjusted(g, setter(q, lambda a, f=f, d=d: shifted(f(a[p]), d, cast)))))
    if sized(tp) and sized(tq) and g.params.index((q, tq)) > order:
        out += pair_of_sized(g, p, tp, q, tq)
    return out


def shifted(v, d, cast):
    if v is None or isinstance(v, bool):
        return None
    try:
        return cast(v) + d
    except (TypeError, ValueError, OverflowError):
        return None


def closest_gap(xs):
    xs = sorted(x for x in xs if isinstance(x, (int, float)))
    gaps = [b - a for a, b in zip(xs, xs[1:])]
    return min(gaps) if gaps else None


def exact_gap(p, q):
    """The numbers put on a grid of quarters and `q` set to their closest
    gap. A float gap of arbitrary numbers is rounded (5.1 - 4.1 < 1.0), so
    `<` against `<=` is decided by rounding there; on quarters every sum
    and difference is exact, so `q` equals the gap whichever way a program
    computes it, and only the comparison decides."""
    def fix(args):
        xs = args[p]
        if not xs or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and abs(x) < 2 ** 40 for x in xs):
            return False
        on_grid = [round(x * 4) / 4 for x in xs]
        gap = closest_gap(on_grid)
        if not gap:
            return False
        args[p] = type(xs)(on_grid) if isinstance(xs, (list, tuple)) else on_grid
        args[q] = float(gap)
    return fix


def max_of(xs):
    xs = [x for x in xs if isinstance(x, (int, float))]
    return max(xs) if xs else None


def min_of(xs):
    xs = [x for x in xs if isinstance(x, (int, float))]
    return min(xs) if xs else None


def sum_of(xs):
    xs = [x for x in xs if isinstance(x, (int, float))]
    return sum(xs) if xs else None


def pair_sum(xs):
    """The sum of two integers (a pair at one end of a list: a pair search
    that starts one index late, or stops one early, misses it)."""
    xs = [x for x in xs if isinstance(x, int) and not isinstance(x, bool)]
    return sum(xs) if len(xs) == 2 else None


def pair_of_sized(g, p, tp, q, tq):
    """Two sequences (or strings) at their boundaries: equal, one the
    other's prefix, one empty and the other not, both empty."""
    empty = {"str": "", "list": [], "tuple": (), "set": set(), "dict": {}}
    out = [("%s and %s both empty" % (p, q), adjusted(g, both(p, empty[kind_of(tp)], q, empty[kind_of(tq)]))),
           ("%s empty, %s not" % (p, q), adjusted(g, emptied(p, empty[kind_of(tp)], q))),
           ("%s empty, %s not" % (q, p), adjusted(g, emptied(q, empty[kind_of(tq)], p)))]
    if tp == tq and kind_of(tp) in ("str", "list", "tuple"):
        out += [("%s equal to %s" % (q, p), adjusted(g, setter(q, lambda a: copy.deepcopy(a[p])))),
                ("%s a prefix of %s" % (q, p), adjusted(g, setter(q, lambda a: prefix(a[p])))),
                ("%s a prefix of %s" % (p, q), adjusted(g, setter(p, lambda a: prefix(a[q])))),
                ("%s one longer than %s" % (q, p), adjusted(g, setter(q, lambda a: a[p] + a[p][-1:] if a[p] else None)))]
    return out


def prefix(xs):
    return copy.deepcopy(xs[:-1]) if len(xs) > 1 else None


def both(p, vp, q, vq):
    def fix(args):
        args[p], args[q] = copy.deepcopy(vp), copy.deepcopy(vq)
    return fix


def emptied(p, vp, other):
    def fix(args):
        if not args[other]:
            return False
        args[p] = copy.deepcopy(vp)
    return fix
