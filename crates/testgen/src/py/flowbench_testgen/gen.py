# Type- and constraint-aware input generators. Every choice comes from one
# seeded random.Random, so a seed gives the same inputs byte for byte.
import string

from .signature import SpecError
from .values import CHARSETS, bound, charset, count_of, element_constraints, length, one_of, same_len_of, satisfies

SMALL = 1000


class Gen:
    def __init__(self, params, spec, rng):
        self.params = params  # [(name, type tree)]
        self.cons = {n: spec.get("params", {}).get(n, {}) for n, _ in params}
        self.relations = spec.get("relations", [])
        self.rng = rng
        self.large_len = [int(bound(x, "large_len")) for x in spec.get("large_len", [10**4, 3 * 10**4, 10**5])]
        self.order = self._order()
        # The rungs of unbounded large integers: `large_magnitudes` when
        # `tests gen` lowers them for a reference too slow for the default.
        self.magnitudes = [int(bound(x, "large_magnitudes")) for x in spec.get("large_magnitudes", LARGE_MAGNITUDES)]
        self.ladder = 0  # next rung of self.magnitudes

    # ---- ordering and relations ------------------------------------------------
    def _order(self):
        names = [n for n, _ in self.params]
        deps = {}
        for n in names:
            c = self.cons[n]
            d = [c[k] for k in ("nodes", "often_in") if isinstance(c.get(k), str)]
            d += [same_len_of(c)[0]] if same_len_of(c) else []
            for x in d:
                if x not in names:
                    raise SpecError("parameter `%s` refers to `%s`, which is not a parameter" % (n, x))
            deps[n] = d
        self.deps = deps
        done, out = set(), []
        while len(out) < len(names):
            ready = [n for n in names if n not in done and all(x in done for x in deps[n])]
            if not ready:
                raise SpecError("parameters refer to each other in a cycle: %s" % ", ".join(n for n in names if n not in done))
            for n in ready:
                done.add(n)
                out.append(n)
        return out

    def relations_hold(self, args):
        return all(relation_holds(r, args) for r in self.relations)

    def types(self):
        return dict(self.params)

    # ---- whole inputs ------------------------------------------------------------
    def args(self, mode, size, overrides=None):
        """A dict of arguments, or None when the relations cannot be met."""
        overrides = overrides or {}
        for _ in range(40):
            args = {}
            for n in self.order:
                if n in overrides:
                    v = overrides[n]
                    args[n] = v(args) if callable(v) else v
                else:
                    args[n] = self.value(self.types()[n], self.cons[n], mode, size, args)
            if self.relations_hold(args):
                return args
        return None

    # ---- single values -------------------------------------------------------------
    def int_range(self, c):
        lo, hi = bound(c.get("min"), "min"), bound(c.get("max"), "max")
        allowed = one_of(c)
        if allowed is not None:
            lo = allowed[0] if lo is None else max(lo, allowed[0])
            hi = allowed[-1] if hi is None else min(hi, allowed[-1])
        if lo is not None and hi is not None and lo > hi:
            raise SpecError("min %s is above max %s" % (lo, hi))
        return lo, hi

    def scalar(self, t, c, mode, args):
        among = self.often_among(c, mode, args)
        if among and self.rng.random() < 0.5:
            return self.rng.choice(list(among))
        return self.scalar_drawer(t, c, mode)()

    def often_among(self, c, mode, args):
        """The drawn value `often_in` names, which a scalar is then taken
        from half the time (not in large inputs); None otherwise."""
        ref = c.get("often_in")
        return args.get(ref) if ref and mode != "large" else None

    def scalar_drawer(self, t, c, mode):
        """A function drawing one bool, int or float for `scalar` (past its
        `often_in`), the constraints read once: a large list's 10^5
        elements pay for the reading once, not once each."""
        r = self.rng
        k = t["k"]
        if k == "bool":
            return lambda: r.random() < 0.5
        allowed = one_of(c)
        if allowed is not None:
            # Large inputs take the largest values allowed.
            among = allowed[-max(1, len(allowed) // 4):] if mode == "large" else allowed
            return lambda: r.choice(among)
        lo, hi = self.int_range(c)
        if k == "float":
            flo = float(lo) if lo is not None else -1e6
            fhi = float(hi) if hi is not None else 1e6
            if mode == "large":
                return lambda: r.choice([flo, fhi, r.uniform(fhi - (fhi - flo) / 10, fhi)])
            wlo, whi = (max(flo, -100.0), min(fhi, 100.0)) if max(flo, -100.0) <= min(fhi, 100.0) else (flo, fhi)
            return lambda: round(r.uniform(wlo, whi), r.choice([1, 2, 3, 6]))
        # int
        if mode == "large":
            return lambda: self.large_int(lo, hi)
        wlo = max(lo, -SMALL) if lo is not None else -SMALL
        whi = min(hi, SMALL) if hi is not None else SMALL
        if wlo > whi:  # the domain lies outside the small window
            wlo, whi = lo, min(hi, lo + 2 * SMALL) if hi is not None else lo + 2 * SMALL
        wide = lo is not None and hi is not None and hi - lo > 2 * SMALL
        nlo, nhi = (max(wlo, -10), min(whi, 10)) if max(wlo, -10) <= min(whi, 10) else (wlo, whi)
        # `randint(a, b)` is `a + _randbelow(b - a + 1)`: the same draws
        # without its argument checks, once per element.
        below, rand = r._randbelow, r.random

        def small():
            if wide and rand() < 0.3:
                return r.randint(lo, hi)
            return wlo + below(whi - wlo + 1) if rand() < 0.7 else nlo + below(nhi - nlo + 1)
        return small

    def large_int(self, lo, hi):
        """Unbounded: a ladder of magnitudes, so a reference that loops `n`
        times still gets large inputs it finishes (the others time out and
        are dropped) and one that does not gets huge ones."""
        r = self.rng
        mag = self.magnitudes[self.ladder % len(self.magnitudes)]
        self.ladder += 1
        far = r.randint(mag // 2, mag)
        if hi is None and lo is None:
            return r.choice([1, -1]) * far
        if hi is None:
            return lo + far
        if lo is None:
            return hi - far
        top = max(lo, hi - max(6, (hi - lo) // 4))
        return r.choice([hi, lo, r.randint(top, hi), r.randint(top, hi)])

    def size_for(self, c, mode, size, hi_default):
        lo, hi = length(c, 0, None)
        hi = hi_default if hi is None and mode != "large" else hi
        if mode == "large":
            n = size
        else:
            n = lo + size
        if hi is not None:
            n = min(n, hi)
        return max(n, lo)

    def length_for(self, c, mode, size, args):
        """A str's or list's length: `same_len`'s count when the parameter
        it names is drawn, else one for the mode and size."""
        ref = same_len_of(c)
        count = count_of(args.get(ref[0])) if ref else None
        if count is not None:
            return max(0, count + ref[1])
        return self.size_for(c, mode, size, 10**9)

    def value(self, t, c, mode, size, args):
        r = self.rng
        k = t["k"]
        if k == "opt":
            if mode == "typical" and r.random() < 0.1:
                return None
            return self.value(t["of"], c, mode, size, args)
        if k == "any":
            return self.value({"k": "int"}, c, mode, size, args)
        if k in ("int", "float", "bool"):
            return self.scalar(t, c, mode, args)
        if k == "str":
            if "pattern" in c:
                return self.from_pattern(c, {"large": "large"}.get(mode, "random"), size)
            return self.text(c, self.length_for(c, mode, size, args))
        if k == "tuple" and "items" in t:
            items = c.get("items") if isinstance(c.get("items"), list) else [{}] * len(t["items"])
            return tuple(self.value(it, ic, mode, size, args) for it, ic in zip(t["items"], items))
        if k == "dict":
            n = self.size_for(c, mode, size, 10**9)
            kc, vc = c.get("keys", {}), c.get("values", {})
            out = {}
            # Keys repeat once their space runs out (short strings over a few
            # characters): a thousand repeats in a row end the draw, which
            # would otherwise make 3n keys for a dict that stopped growing.
            repeats = 0
            for _ in range(n * 3):
                if len(out) >= n or repeats > 1000:
                    break
                key = self.value(t["key"], kc, "typical", min(size, 8), args)
                repeats = repeats + 1 if key in out else 0
                out[key] = self.value(t["val"], vc, mode, min(size, 8), args)
            return out
        if c.get("graph"):
            return self.graph(t, c, mode, size, args)
        # list, set, variadic tuple
        items = self.sequence(t["of"], c, mode, self.length_for(c, mode, size, args), args)
        if k == "set":
            return set(items)
        if k == "tuple":
            return tuple(items)
        return items

    def many(self, t, c, mode, size, args, n):
        """`n` draws of `value(t, c, mode, size, args)`: the same values from
        the same random stream, with a scalar's or a string's constraints
        read once for all `n` (a large input's elements are most of the
        generator's time)."""
        if n <= 0:
            return []
        k = t["k"]
        if k == "any":
            t, k = {"k": "int"}, "int"
        if k in ("int", "float", "bool") and not self.often_among(c, mode, args):
            draw = self.scalar_drawer(t, c, mode)
            return [draw() for _ in range(n)]
        if k == "str" and "pattern" not in c:
            length, chars = self.length_for(c, mode, size, args), charset(c)
            return [self.text_of(chars, c, length) for _ in range(n)]
        return [self.value(t, c, mode, size, args) for _ in range(n)]

    def text(self, c, n):
        return self.text_of(charset(c), c, n)

    def text_of(self, chars, c, n):
        r = self.rng
        if c.get("distinct"):  # "all letters in word are distinct"
            return "".join(r.sample(chars, min(n, len(chars))))
        shape = r.random()
        if shape < 0.6 or n < 2:
            return self.draw(chars, n)
        if shape < 0.75:  # mirrored: palindromes and near-palindromes
            half = self.draw(chars, n // 2)
            return half + ("".join(r.choice(chars)) if n % 2 else "") + half[::-1]
        if shape < 0.85:
            return r.choice(chars) * n
        if shape < 0.95:
            unit = "".join(r.choice(chars) for _ in range(r.randint(1, 3)))
            return (unit * n)[:n]
        return "".join(sorted(r.choice(chars) for _ in range(n)))

    def draw(self, chars, n):
        """`n` characters of `chars`, each `rng.choice(chars)`: the same
        draws, without a method call per character (`choice` is
        `seq[_randbelow(len(seq))]`)."""
        pick, m = self.rng._randbelow, len(chars)
        return "".join([chars[pick(m)] for _ in range(n)])

    def from_pattern(self, c, how, size):
        """A string `pattern` (a regular expression) matches in full. `how`
        picks repeat counts, alternatives and characters: "random" (an
        unbounded repeat up to `size` more than its minimum), "large" (bounded
        repeats at their maximum, unbounded ones `size` more) or one of
        PATTERN_EDGES."""
        r = self.rng
        groups = {}

        def reps(lo, hi):
            unbounded = hi == _sre_c.MAXREPEAT
            if how == "random":
                # A wide bounded repeat (`{1,50000}`) grows with the size as
                # an unbounded one does: drawn across its whole range, every
                # typical input would be tens of thousands long.
                wide = unbounded or hi - lo > PATTERN_WIDE_REPEAT
                return r.randint(lo, min(hi, lo + size)) if wide else r.randint(lo, hi)
            if how in ("large", "longest"):
                return lo + (size if how == "large" else 8) if unbounded else hi
            want = {"one each": 1, "two each": 2, "repeated": 6, "repeated, last choices": 6}.get(how, 0)
            return max(lo, want if unbounded else min(hi, want))

        def pick(options):
            if how.endswith("last choices"):
                return options[-1]
            if how in ("shortest", "repeated"):
                return options[0]
            return r.choice(options)

        def emit(tree, out):
            for op, av in tree:
                if op == _sre_c.LITERAL:
                    out.append(chr(av))
                elif op == _sre_c.NOT_LITERAL:
                    out.append(pick([ch for ch in PATTERN_ANY if ord(ch) != av]))
                elif op == _sre_c.ANY:
                    out.append(pick(PATTERN_ANY))
                elif op == _sre_c.IN:
                    out.append(pick(class_chars(av, c["pattern"])))
                elif op == _sre_c.BRANCH:
                    emit(pick(av[1]), out)
                elif op == _sre_c.SUBPATTERN:
                    start = len(out)
                    emit(av[-1], out)
                    if av[0] is not None:
                        groups[av[0]] = "".join(out[start:])
                elif op in PATTERN_REPEATS:
                    lo, hi, sub = av
                    for _ in range(reps(lo, hi)):
                        emit(sub, out)
                elif op == _sre_c.GROUPREF:
                    out.append(groups.get(av, ""))
                elif op != _sre_c.AT:  # anchors add nothing
                    raise SpecError("pattern `%s`: %s is not supported" % (c["pattern"], str(op).lower()))
            return out

        return "".join(emit(parsed_pattern(c["pattern"]), []))

    def sequence(self, et, c, mode, n, args):
        r = self.rng
        ec = element_constraints(c)
        matrix = et["k"] in ("list", "tuple") and ("cols" in c or c.get("square"))
        if c.get("permutation") is not None and not matrix:
            base = int(c.get("permutation") or 0)
            p = list(range(base, base + n))
            r.shuffle(p)
            return p
        if "cols" in c and et["k"] in ("list", "tuple"):
            cl, ch = length({"len": c["cols"]}, 0, None)
            width = r.randint(cl, min(ch, cl + max(size_cap(mode), 1)))
            ec = dict(ec, len=width)
        if matrix and c.get("square"):
            ec = dict(ec, len=n)
        if matrix and c.get("permutation") is not None:
            # The cells, row by row, hold a permutation of base, base + 1, ...
            base, width = int(c.get("permutation") or 0), int(ec["len"])
            p = list(range(base, base + n * width))
            r.shuffle(p)
            rows = [p[i * width:(i + 1) * width] for i in range(n)]
            return [tuple(row) for row in rows] if et["k"] == "tuple" else rows
        if c.get("index") is not None and et["k"] in ("int", "any"):
            # Each element indexes the list ("0 <= nums[i] < n"): base..base + n - 1.
            base = int(c.get("index") or 0)
            lo, hi = self.int_range(ec)
            ec = dict(ec, min=base if lo is None else max(lo, base), max=base + n - 1 if hi is None else min(hi, base + n - 1))
        allowed = one_of(ec) if et["k"] in ("int", "any") else None
        if c.get("distinct") and allowed is not None:
            items = r.sample(allowed, min(n, len(allowed)))
        elif c.get("distinct") and et["k"] == "int":
            lo, hi = self.int_range(ec)
            lo = lo if lo is not None else (-SMALL if mode != "large" else -(10**18))
            hi = hi if hi is not None else (SMALL if mode != "large" else 10**18)
            if hi - lo + 1 < n:
                n = hi - lo + 1
            if mode != "large" and hi - lo > max(4 * n, 2 * SMALL):
                lo, hi = max(lo, -max(4 * n, SMALL)), min(hi, max(4 * n, SMALL))
            items = r.sample(range(lo, hi + 1), n)
        else:
            inner = min(8, max(1, n)) if mode != "large" else 8
            shape = r.random()
            if shape < 0.55 or n < 2:
                items = self.many(et, ec, mode, inner, args, n)
            elif shape < 0.7:
                pool = self.many(et, ec, mode, inner, args, r.randint(1, 3))
                items = [r.choice(pool) for _ in range(n)]  # duplicates
            elif shape < 0.8:
                half = self.many(et, ec, mode, inner, args, n // 2)
                items = half + ([self.value(et, ec, mode, inner, args)] if n % 2 else []) + half[::-1]
            elif shape < 0.9:
                items = sorted_if(self.many(et, ec, mode, inner, args, n), reverse=r.random() < 0.5)
            else:
                items = [self.value(et, ec, mode, inner, args)] * n
            if c.get("distinct"):
                seen, out = set(), []
                for x in items:
                    if repr(x) not in seen:
                        seen.add(repr(x))
                        out.append(x)
                items = out
        if c.get("sorted"):
            items = sorted_if(items, reverse=c.get("sorted") == "desc")
        return items

    def graph(self, t, c, mode, size, args):
        r = self.rng
        nodes = c.get("nodes", 8)
        n = count_of(args[nodes]) if isinstance(nodes, str) else int(bound(nodes, "nodes"))
        if not isinstance(n, int) or n < 0:
            return []
        base = int(c.get("base", 0))
        directed, tree = bool(c.get("directed")), bool(c.get("tree"))
        connected = tree or bool(c.get("connected"))
        # randrange(k) for k > 0 is exactly _randbelow(k), the same draws
        # without its argument checks: large graphs make millions of them.
        below = getattr(r, "_randbelow", r.randrange)
        edges = []
        if connected and n > 1:
            order = list(range(n))
            r.shuffle(order)
            edges = [(order[below(i)], order[i]) for i in range(1, n)]
        if not tree and n > 1:
            lo, hi = length(c, len(edges), None)
            most = n * (n - 1) // (1 if directed else 2)
            want = min(most, r.randint(max(lo, len(edges)), hi if hi is not None else len(edges) + n))
            have = {(a, b) for a, b in edges} | ({(b, a) for a, b in edges} if not directed else set())
            for _ in range(want * 4):
                if len(edges) >= want:
                    break
                a, b = below(n), below(n)
                if a != b and (a, b) not in have:
                    have.add((a, b))
                    if not directed:
                        have.add((b, a))
                    edges.append((a, b))
        weighted = c.get("weighted")
        as_tuple = t["of"]["k"] == "tuple"
        if weighted:
            w_lo, w_hi = int(bound(weighted[0], "weighted")), int(bound(weighted[1], "weighted"))
            # randint(lo, hi) is lo + randrange(hi - lo + 1): the same draws.
            weight = (lambda: w_lo + below(w_hi - w_lo + 1)) if w_hi >= w_lo else (lambda: r.randint(w_lo, w_hi))
            out = [(a + base, b + base, weight()) for a, b in edges]
        else:
            out = [(a + base, b + base) for a, b in edges]
        return out if as_tuple else [list(e) for e in out]

    # ---- edge values -----------------------------------------------------------------
    def edges(self, name):
        """(label, value or function of the arguments so far) per edge case."""
        t, c = self.types()[name], self.cons[name]
        k = t["k"]
        out = []
        if k == "opt":
            out.append(("None", None))
            t = t["of"]
            k = t["k"]
        if k == "bool":
            return out + [("False", False), ("True", True)]
        if k in ("int", "float"):
            lo, hi = self.int_range(c)
            cands = [lo, hi] + ([lo + 1] if lo is not None else []) + ([hi - 1] if hi is not None else []) + SMALL_EDGES
            if k == "float":
                cands = [float(x) for x in cands if x is not None] + [0.5, -0.5, 1e-9]
            seen = []
            for v in cands:
                if v is not None and v not in seen and (lo is None or v >= lo) and (hi is None or v <= hi):
                    seen.append(v)
                    out.append(("%s=%r" % (name, v), v))
            ref = c.get("often_in")
            if ref:
                def pick(which):
                    def f(args):
                        xs = sorted(args.get(ref) or [0])
                        return {"first": xs[0], "last": xs[-1], "middle": xs[len(xs) // 2], "below": xs[0] - 1, "above": xs[-1] + 1}[which]
                    return f
                out += [("%s %s of %s" % (name, w, ref), pick(w)) for w in ("first", "last", "middle", "below", "above")]
            return out
        if k == "str":
            lo, hi = length(c, 0, None)
            chars = charset(c)
            cands = [("empty", ""), ("one char", chars[0]), ("one char (last)", chars[-1]),
                     ("all equal", chars[0] * 5), ("two chars", chars[:2]), ("two equal", chars[-1] * 2),
                     ("mixed case", "".join(ch.upper() if i % 2 else ch for i, ch in enumerate(chars[:6]))),
                     ("mirrored", chars[:3] + chars[:3][::-1]), ("sorted", "".join(sorted(chars[:6]))),
                     ("reversed", "".join(sorted(chars[:6], reverse=True))),
                     ("alternating", (chars[:2] * 4)[:8]), ("opened and closed", chars[0] * 3 + chars[-1] * 3),
                     ("closed and opened", chars[-1] * 3 + chars[0] * 3), ("three chars", chars[:3])]
            ws = [ch for ch in chars if ch.isspace()]
            if ws:
                cands += [("whitespace only", "".join(ws)), ("padded", ws[0] + chars[0] + ws[0])]
                # Runs of 1, 2 and 3 blanks at either end and inside: code
                # that counts a run (collapse, strip, split) differs by length.
                word = [ch for ch in chars if not ch.isspace()] or chars
                for n in (1, 2, 3):
                    cands += [("%d blanks leading" % n, ws[0] * n + word[0] + word[-1]),
                              ("%d blanks trailing" % n, word[0] + word[-1] + ws[0] * n)]
                cands.append(("blank runs 1, 2, 3", word[0] + ws[0] + word[-1] + ws[0] * 2 + word[0] + ws[0] * 3 + word[-1]))
            uni = [ch for ch in chars if ord(ch) > 127]
            if uni:
                cands.append(("unicode", "".join(uni[:6])))
            if hi is not None and hi <= 1000:
                cands.append(("longest", (chars * (hi // len(chars) + 1))[:hi]))
            if lo:
                cands.append(("shortest", (chars * (lo // len(chars) + 1))[:lo]))
            if "pattern" in c:
                out += [("%s %s" % (name, how), (lambda how: lambda args: self.from_pattern(c, how, 4))(how)) for how in PATTERN_EDGES]
            return out + [(l, v) for l, v in cands if satisfies(v, t, c)]
        if k in ("list", "set", "tuple") and "items" not in t:
            lo, hi = length(c, 0, None)
            et, ec = t["of"], element_constraints(c)
            def seq(shape):
                def f(args):
                    r = self.rng
                    if c.get("graph"):
                        # A tree or connected graph keeps its shape: "empty"
                        # is then the sparsest graph allowed.
                        sparse = shape in ("empty", "single", "tree-like")
                        if shape == "empty" and not (c.get("tree") or c.get("connected")):
                            return []
                        return self.graph(t, dict(c, tree=bool(c.get("tree")) or sparse and shape != "empty"), "typical", 4, args)
                    ref = same_len_of(c)
                    if ref:
                        n = max(0, (count_of(args.get(ref[0])) or 0) + ref[1])
                    else:
                        n = {"empty": 0, "single": 1, "pair": 2}.get(shape, 6)
                        n = max(lo, n if hi is None else min(hi, n))
                    items = self.sequence(et, c, "typical", n, args)
                    if shape == "ascending":
                        items = sorted_if(items)
                    elif shape == "descending":
                        items = sorted_if(items, reverse=True)
                    elif shape == "all equal" and items and not c.get("distinct"):
                        items = [items[0]] * len(items)
                    elif shape == "duplicates" and len(items) > 1 and not c.get("distinct"):
                        items[-1] = items[0]
                    elif shape in ("at min", "at max") and et["k"] in ("int", "float"):
                        lo_v, hi_v = self.int_range(ec)
                        v = lo_v if shape == "at min" else hi_v
                        if v is not None and not c.get("distinct"):
                            items = [v if r.random() < 0.5 else x for x in items]
                    if c.get("sorted"):
                        items = sorted_if(items, reverse=c.get("sorted") == "desc")
                    if k == "set":
                        return set(items)
                    return tuple(items) if k == "tuple" else items
                return f
            shapes = ["empty", "single", "pair", "ascending", "descending", "all equal", "duplicates", "at min", "at max", "tree-like"]
            return out + [("%s %s" % (name, s), seq(s)) for s in shapes]
        if k == "tuple" and "items" in t:
            return out + self.item_edges(name, t, c)
        if k == "dict":
            def sized(n):
                return lambda args: self.value(t, dict(c, len=n), "typical", n, args)
            return out + [("%s empty" % name, {}), ("%s single" % name, sized(1)), ("%s pair" % name, sized(2)),
                          ("%s three" % name, sized(3)), ("%s five" % name, sized(5))]
        return out + [("%s typical" % name, lambda args: self.value(t, c, "typical", 3, args))]

    def item_edges(self, name, t, c):
        """A fixed-size tuple's edges: each item at each of its own edge
        values, the other items typical."""
        items_c = c.get("items") if isinstance(c.get("items"), list) else [{}] * len(t["items"])
        sub = Gen([("item%d" % i, it) for i, it in enumerate(t["items"])],
                  {"params": {"item%d" % i: ic for i, ic in enumerate(items_c)}}, self.rng)
        out = []
        for i in range(len(t["items"])):
            for label, v in sub.edges("item%d" % i):
                def whole(args, i=i, v=v):
                    row = sub.args("typical", 3, {"item%d" % i: v}) or {}
                    return tuple(row.get("item%d" % j) for j in range(len(t["items"])))
                out.append(("%s[%d] %s" % (name, i, label.split("=", 1)[-1]), whole))
        return out


# ---- strings from a regular expression ------------------------------------------------
try:
    from re import _constants as _sre_c, _parser as _sre
except ImportError:  # Python < 3.11
    import sre_constants as _sre_c
    import sre_parse as _sre

PATTERN_REPEATS = [op for op in (_sre_c.MAX_REPEAT, _sre_c.MIN_REPEAT, getattr(_sre_c, "POSSESSIVE_REPEAT", None)) if op is not None]
# What `.` and a negated class choose from.
PATTERN_ANY = [ch for ch in CHARSETS["printable"] if ch != "\n"]
# Edge strings of a pattern: every repeat at its minimum, or six times, with
# the first (or last) alternatives and characters; each repeat once or twice;
# bounded repeats at their maximum.
# Bounded repeats wider than this grow with the input's size, as unbounded
# ones do; narrower ones (`{0,14}` digits) are drawn across their range.
PATTERN_WIDE_REPEAT = 64
PATTERN_EDGES = ["shortest", "shortest, last choices", "one each", "two each", "repeated", "repeated, last choices", "longest"]
_PATTERNS = {}


def relation_holds(relation, args):
    """Whether a relation of the spec (`len(a) == len(b)`, `k <= n`)
    holds for the arguments; one that raises does not hold."""
    env = {"len": len, "sum": sum, "min": min, "max": max, "abs": abs, "sorted": sorted, "set": set,
           "all": all, "any": any, "range": range, "int": int, "str": str, "zip": zip}
    try:
        # The arguments are globals, not locals: a generator expression
        # (`all(int(ch) <= limit for ch in s)`) sees only the globals.
        return bool(eval(relation, dict(env, **args, __builtins__={})))
    except Exception:
        return False


def parsed_pattern(p):
    if not isinstance(p, str):
        raise SpecError("pattern must be a regular expression (a string), not %r" % (p,))
    if p not in _PATTERNS:
        try:
            _PATTERNS[p] = _sre.parse(p)
        except Exception as e:
            raise SpecError("pattern `%s` does not parse: %s" % (p, e))
    return _PATTERNS[p]


def class_chars(items, pattern):
    """The characters a `[...]` class (or `\\d`, `\\w`, `\\s`) matches, sorted."""
    cats = {_sre_c.CATEGORY_DIGIT: string.digits, _sre_c.CATEGORY_WORD: string.ascii_letters + string.digits + "_",
            _sre_c.CATEGORY_SPACE: " \t\n"}
    nots = {_sre_c.CATEGORY_NOT_DIGIT: _sre_c.CATEGORY_DIGIT, _sre_c.CATEGORY_NOT_WORD: _sre_c.CATEGORY_WORD,
            _sre_c.CATEGORY_NOT_SPACE: _sre_c.CATEGORY_SPACE}
    chars, negate = set(), False
    for op, av in items:
        if op == _sre_c.NEGATE:
            negate = True
        elif op == _sre_c.LITERAL:
            chars.add(chr(av))
        elif op == _sre_c.RANGE:
            chars.update(chr(x) for x in range(av[0], av[1] + 1))
        elif op == _sre_c.CATEGORY and av in cats:
            chars.update(cats[av])
        elif op == _sre_c.CATEGORY and av in nots:
            chars.update(ch for ch in PATTERN_ANY if ch not in cats[nots[av]])
        else:
            raise SpecError("pattern `%s`: %s in a class is not supported" % (pattern, str(op).lower()))
    out = sorted(ch for ch in PATTERN_ANY if ch not in chars) if negate else sorted(chars)
    if not out:
        raise SpecError("pattern `%s`: a class matches no character" % pattern)
    return out


LARGE_MAGNITUDES = [10**3, 10**4, 10**5, 10**6, 10**9, 10**18, 10**30]

# Small integers where special cases live: signs, the first primes and
# squares, powers of two and their neighbours, decimal boundaries.
SMALL_EDGES = [0, 1, -1, 2, 3, 4, 5, 7, 8, 9, 10, -10, 11, 12, 15, 16, 17, 25, 31, 32, 33, 63, 64, 99, 100, 101, -2, -100, 1000]


def size_cap(mode):
    return 8 if mode != "large" else 100


def sorted_if(items, reverse=False):
    try:
        return sorted(items, reverse=reverse)
    except TypeError:
        return items
