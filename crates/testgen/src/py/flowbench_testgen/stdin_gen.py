# Standard inputs of whole-program problems:
# generated from the input format of problem.toml's `[stdin] format`,
# which flowbench has parsed and checked (stdin_format.rs) and sends as
# statements: lines of fields and repeated blocks. Every choice comes from
# one seeded random.Random, so a seed gives the same inputs byte for byte.
#
# Sizes (names a row length or a grid reads) and counts (names a `repeat`
# reads) are what make an input small or large: typical inputs draw them
# small (up to 3, 6, 12 or 24), edge inputs at their minimum or just above
# it with values at their bounds, large inputs up to a budget of tokens
# (`large_len`), in two shapes: one big case, or as many cases as the
# bounds allow.
import random

from .signature import ProblemSpecError
from .values import bound, charset

# Styles of edge inputs: (sizes, values).
EDGE_STYLES = [("min", "min"), ("min", "max"), ("min", "mixed"), ("small", "min"), ("small", "max"),
               ("small", "mixed"), ("small", "equal"), ("one", "mixed")]

# What an expression may call besides the names read earlier.
EXPR_FUNCTIONS = {"min": min, "max": max, "abs": abs}


class OutsideSpec(Exception):
    """A drawn input that cannot meet the format (an empty range after
    earlier draws, too few values for `distinct`): skipped, counted."""


class StdinGen:
    def __init__(self, fmt, rng):
        self.stmts = fmt["stmts"]
        self.sizes = set(fmt["sizes"])
        self.counts = set(fmt["counts"])
        self.rng = rng

    def make(self, mode, cap=6, style=("small", "mixed"), budget=10**4, shape="few"):
        """One standard input as text."""
        self.mode, self.cap, self.style, self.shape = mode, cap, style, shape
        self.equal = {}
        out = []
        self.block(self.stmts, {}, float(budget), out)
        return "".join(out)

    def block(self, stmts, env, budget, out):
        for s in stmts:
            if s["kind"] == "repeat":
                times = self.ev(s["count"], env, s["line"])
                if times < 0:
                    raise OutsideSpec("negative repeat count")
                for _ in range(times):
                    self.block(s["body"], env, budget / max(times, 1), out)
            else:
                self.line(s, env, budget, out)

    def line(self, s, env, budget, out):
        fields = s["fields"]
        # Several sizes on one line (rows and columns) share the budget.
        sized = sum(len(f["names"]) for f in fields if f["type"] == "int" and not f["dims"]
                    and any(n in self.sizes or n in self.counts for n in f["names"]))
        share = budget ** (1.0 / max(sized, 1))
        words, rows = [], []
        for f in fields:
            w, r = self.field(f, env, share, s["line"])
            words += w
            rows += r
        # A row of no values is still a line (an empty one), as problems
        # with n = 0 print it; only a grid or matrix alone has no line of
        # its own.
        if any(f["type"] != "grid" and len(f["dims"]) < 2 for f in fields):
            out.append(" ".join(words) + "\n")
        for r in rows:
            out.append(r + "\n")

    def field(self, f, env, share, line):
        """(words on this line, whole lines) of one field."""
        lo = self.ev(f["lo"], env, line) if f["lo"] else None
        hi = self.ev(f["hi"], env, line) if f["hi"] else None
        if lo is not None and lo > hi:
            raise OutsideSpec("empty range")
        t = f["type"]
        if t == "grid":
            r, c = (self.ev(d, env, line) for d in f["dims"])
            chars = charset({"charset": f.get("charset") or "lower"})
            return [], ["".join(self.chars(chars, c, f)) for _ in range(r)]
        if t == "str":
            n = self.size(lo, hi, share, False)
            chars = charset({"charset": f.get("charset") or "lower"})
            word = "".join(self.chars(chars, n, f))
            self.bind(f, env, [word])
            return [word], []
        if not f["dims"]:
            values = []
            for name in f["names"]:
                if name in self.sizes or name in self.counts:
                    v = self.size(lo, hi, share, name in self.counts)
                else:
                    v = self.value(t, lo, hi, f)
                env[name] = v
                values.append(v)
            return [self.show(t, v, f) for v in values], []
        dims = [self.ev(d, env, line) for d in f["dims"]]
        if any(d < 0 for d in dims):
            raise OutsideSpec("negative size")
        if len(dims) == 1:
            return [self.show(t, v, f) for v in self.row(t, lo, hi, dims[0], f)], []
        return [], [" ".join(self.show(t, v, f) for v in self.row(t, lo, hi, dims[1], f)) for _ in range(dims[0])]

    def bind(self, f, env, values):
        for name, v in zip(f["names"], values):
            env[name] = v

    def ev(self, expr, env, line):
        try:
            v = eval(expr, {"__builtins__": {}}, dict(EXPR_FUNCTIONS, **env))
        except Exception as e:
            raise ProblemSpecError("[stdin] format line %d: `%s` cannot be evaluated: %s" % (line, expr, e))
        if not isinstance(v, int) or isinstance(v, bool):
            raise ProblemSpecError("[stdin] format line %d: `%s` is not an integer" % (line, expr))
        return v

    def size(self, lo, hi, share, is_count):
        """A length or a count, by the input's mode."""
        r = self.rng
        if self.mode == "typical":
            return r.randint(lo, max(lo, min(hi, self.cap)))
        if self.mode == "edge":
            sizes = self.style[0]
            if sizes == "min":
                return lo
            if sizes == "one":
                return min(hi, max(lo, 1))
            return r.randint(lo, min(hi, lo + 2))
        # Large: one big case (counts at their least) or many small ones.
        if is_count and self.shape == "few":
            return lo
        return min(hi, max(lo, int(share)))

    def value(self, t, lo, hi, f):
        r = self.rng
        key = id(f)
        if self.mode == "edge":
            values = self.style[1]
            if values == "min":
                return lo
            if values == "max":
                return hi
            if values == "equal":
                if key not in self.equal:
                    self.equal[key] = self.value_in(t, lo, hi)
                return self.equal[key]
            return r.choice([lo, hi])
        if self.mode == "typical" and r.random() < 0.5:
            # Small values half the time: repeats and ties are where
            # programs go wrong.
            a, b = max(lo, -10), min(hi, 10)
            if a <= b:
                return self.value_in(t, a, b)
        return self.value_in(t, lo, hi)

    def value_in(self, t, lo, hi):
        if t == "float":
            return self.rng.uniform(lo, hi)
        return self.rng.randint(lo, hi)

    def row(self, t, lo, hi, n, f):
        if f.get("distinct"):
            if hi - lo + 1 < n:
                raise OutsideSpec("too few values for distinct")
            if self.mode == "edge" and self.style[1] in ("min", "max"):
                out = list(range(lo, lo + n)) if self.style[1] == "min" else list(range(hi, hi - n, -1))
            else:
                out = self.rng.sample(range(lo, hi + 1), n)
        else:
            out = [self.value(t, lo, hi, f) for _ in range(n)]
        return sorted(out) if f.get("sorted") else out

    def chars(self, chars, n, f):
        r = self.rng
        if self.mode == "edge":
            values = self.style[1]
            if values == "min":
                return chars[0] * n
            if values == "max":
                return chars[-1] * n
            if values == "equal":
                c = self.equal.setdefault(id(f), r.choice(chars))
                return c * n
            return "".join(r.choice((chars[0], chars[-1])) for _ in range(n))
        return "".join(r.choice(chars) for _ in range(n))

    def show(self, t, v, f):
        if t == "float":
            return "%.*f" % (int(f.get("digits", 2)), v)
        return str(v)


def stdin_candidates(req):
    """The candidates of a whole-program problem: typical, edge and large
    standard inputs (`args` = [stdin]), plus the spec's seeds."""
    spec = req["spec"]
    g = StdinGen(req["stdin_format"], random.Random(req["seed"]))
    counts = spec.get("counts", {})
    large_len = [int(bound(x, "large_len")) for x in spec.get("large_len", [10**4, 3 * 10**4, 10**5])]
    out = []
    outside = [0]

    def emit(category, how, make):
        try:
            text = make()
        except OutsideSpec:
            outside[0] += 1
            return
        out.append({"category": category, "how": how, "args": [text]})

    def emit_large():
        for i in range(int(counts.get("large", 7))):
            budget = large_len[i % len(large_len)]
            shape = ("few", "many")[i % 2]
            emit("large", "large: %d tokens, %s cases" % (budget, shape),
                 lambda: g.make("large", budget=budget, shape=shape))

    mode = req.get("mode")
    if mode != "large":
        pool = mode == "pool"
        typical = 300 * int(req.get("scale", 1)) if pool else int(counts.get("typical", 20))
        caps = [3, 6, 12, 24]
        for i in range(typical):
            cap = caps[i % len(caps)]
            emit("typical", "random, sizes up to %d" % cap, lambda: g.make("typical", cap=cap))
        for rep in range(2):
            for style in EDGE_STYLES:
                emit("edge", "edge: %s sizes, %s values" % style, lambda: g.make("edge", style=style))
        for i, s in enumerate(spec.get("seeds", [])):
            if s and isinstance(s[0], str):
                out.append({"category": "typical", "how": "seed %d" % (i + 1), "args": [s[0]]})
    if mode in ("large", "gen", None):
        emit_large()
    # No key: a whole program's candidates are not cached (generate.rs).
    return {"generated": {"params": [["stdin", {"k": "str"}]], "has_valid": False, "candidates": out,
                          "outside_spec": outside[0], "domains": {"stdin": "spec"}, "key": None}}
