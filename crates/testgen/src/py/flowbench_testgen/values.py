# Value helpers shared by the generators:
# the tagged-JSON encoding of the judge (docs/guide/judging.md "Values and comparison"),
# bound parsing, charsets and the constraint check used on mutated seeds.
import math
import re
import string

from .signature import SpecError

_BOUND = re.compile(r"^\s*(-?)\s*(\d+)\s*(?:\*\*\s*(\d+))?\s*([+-]\s*\d+)?\s*$")


_BOUNDS = {}


def bound(v, what):
    """An int/float bound: a number, or text like "-10**9" or "10**18 + 7"."""
    if v is None or isinstance(v, (int, float)) and not isinstance(v, bool):
        return v
    if isinstance(v, str) and v in _BOUNDS:
        # Read once per text: a large list reads its elements' bounds
        # once per element.
        return _BOUNDS[v]
    if isinstance(v, str):
        m = _BOUND.match(v)
        if m:
            sign, base, exp, add = m.groups()
            n = int(base) ** int(exp) if exp else int(base)
            n = -n if sign else n
            _BOUNDS[v] = n + (int(add.replace(" ", "")) if add else 0)
            return _BOUNDS[v]
    raise SpecError("%s: `%r` is not a number or `a**b` expression" % (what, v))


CHARSETS = {
    "lower": string.ascii_lowercase,
    "upper": string.ascii_uppercase,
    "alpha": string.ascii_letters,
    "digits": string.digits,
    "alnum": string.ascii_letters + string.digits,
    "binary": "01",
    "vowels": "aeiouAEIOU",
    "ascii": string.ascii_letters + string.digits + string.punctuation + " ",
    "printable": string.ascii_letters + string.digits + string.punctuation + " \t\n",
    "unicode": string.ascii_letters + string.digits + " .,!?\t\n" + "ÀÁàáéÉßøΩπλжЖ中文字😀ñÑü",
}


_CHARSETS_GIVEN = {}


def charset(c):
    name = c.get("charset", "printable")
    if name in CHARSETS:
        return CHARSETS[name]
    if isinstance(name, str) and name:
        # Once per text, not once per string drawn.
        if name not in _CHARSETS_GIVEN:
            _CHARSETS_GIVEN[name] = "".join(sorted(set(name), key=name.index))
        return _CHARSETS_GIVEN[name]
    raise SpecError("charset `%r` is neither a name (%s) nor a non-empty string" % (name, ", ".join(CHARSETS)))


def encode(x):
    """Python value -> tagged JSON value (sets sorted for determinism)."""
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        if math.isnan(x):
            return {"__float__": "nan"}
        if math.isinf(x):
            return {"__float__": "inf" if x > 0 else "-inf"}
        return x
    if isinstance(x, list):
        return [encode(v) for v in x]
    if isinstance(x, tuple):
        return {"__tuple__": [encode(v) for v in x]}
    if isinstance(x, (set, frozenset)):
        tag = "__set__" if isinstance(x, set) else "__frozenset__"
        return {tag: [encode(v) for v in sorted(x, key=repr)]}
    if isinstance(x, dict):
        if all(isinstance(k, str) for k in x) and not (len(x) == 1 and next(iter(x)) in _TAGS):
            return {k: encode(v) for k, v in x.items()}
        return {"__dict__": [[encode(k), encode(v)] for k, v in x.items()]}
    raise SpecError("cannot encode a %s" % type(x).__name__)


_TAGS = ("__tuple__", "__set__", "__frozenset__", "__dict__", "__float__", "__bytes__")


def decode(v):
    if isinstance(v, list):
        return [decode(x) for x in v]
    if isinstance(v, dict):
        if len(v) == 1:
            (tag, inner), = v.items()
            if tag == "__tuple__":
                return tuple(decode(x) for x in inner)
            if tag == "__set__":
                return set(decode(x) for x in inner)
            if tag == "__frozenset__":
                return frozenset(decode(x) for x in inner)
            if tag == "__dict__":
                return {decode(k): decode(x) for k, x in inner}
            if tag == "__float__":
                return float(inner)
        return {k: decode(x) for k, x in v.items()}
    return v


def scalar_check(t, c):
    """For an int, float, str or unannotated (`any`) type, a predicate
    telling whether one value fits it and the constraints `c`, read once (a
    large input holds 10^5 values under the same constraints); None for
    other types."""
    k = t["k"]
    if k == "any":
        # An unannotated value is drawn as an int: an int is held to the
        # int constraints (`min`, `one_of`) the spec gives it.
        fits_int = scalar_check({"k": "int"}, c)
        return lambda value: fits_int(value) if isinstance(value, int) and not isinstance(value, bool) else True
    if k in ("int", "float"):
        lo, hi = bound(c.get("min"), "min"), bound(c.get("max"), "max")
        nonfinite = c.get("nonfinite", False)
        allowed = one_of(c)
        allowed = None if allowed is None else frozenset(allowed)

        def fits(value):
            ok = isinstance(value, int) and not isinstance(value, bool) if k == "int" else isinstance(value, (int, float)) and not isinstance(value, bool)
            return ok and (lo is None or value >= lo) and (hi is None or value <= hi) and (
                k == "int" or math.isfinite(value) or nonfinite) and (allowed is None or value in allowed)
        return fits
    if k == "str":
        lo, hi = length(c, 0, None)
        chars = frozenset(charset(c))
        has_pattern, pattern = "pattern" in c, c.get("pattern")

        distinct = bool(c.get("distinct"))

        def fits(value):
            return isinstance(value, str) and lo <= len(value) and (hi is None or len(value) <= hi) and chars.issuperset(value) and (
                not has_pattern or re.fullmatch(pattern, value) is not None) and (not distinct or len(set(value)) == len(value))
        return fits
    return None


def one_of(c):
    """`one_of = [...]`: the only values an int or float may take ("nums
    consists only of powers of two", "operations[i] is 0 or 1"), each a
    number or bound text: those within `min`/`max`, sorted (all of them
    when none is, so that a draw breaks the spec and is dropped); None when
    not given."""
    v = c.get("one_of")
    if v is None:
        return None
    if not isinstance(v, list) or not v:
        raise SpecError("one_of must be a non-empty list of numbers, not %r" % (v,))
    values = sorted(bound(x, "one_of") for x in v)
    lo, hi = bound(c.get("min"), "min"), bound(c.get("max"), "max")
    return [x for x in values if (lo is None or x >= lo) and (hi is None or x <= hi)] or values


def all_satisfy(values, t, c):
    """`all(satisfies(v, t, c) for v in values)`, scalar constraints read once."""
    fits = scalar_check(t, c)
    return all(map(fits, values)) if fits else all(satisfies(v, t, c) for v in values)


def satisfies(value, t, c):
    """Whether a value fits its type tree and the constraints `c`."""
    k = t["k"]
    if k == "opt":
        return value is None or satisfies(value, t["of"], c)
    if k == "bool":
        return isinstance(value, bool)
    if k == "str" and not isinstance(value, str):
        return False  # before reading the constraints, as always
    if k in ("int", "float", "str", "any"):
        return scalar_check(t, c)(value)
    if k in ("list", "set", "tuple"):
        kind = {"list": list, "set": set, "tuple": tuple}[k]
        if not isinstance(value, kind):
            return False
        if "items" in t:
            return len(value) == len(t["items"]) and all(satisfies(v, it, c.get("items", [{}] * len(value))[i] if isinstance(c.get("items"), list) else {}) for i, (v, it) in enumerate(zip(value, t["items"])))
        lo, hi = length(c, 0, None)
        if len(value) < lo or hi is not None and len(value) > hi:
            return False
        inner = element_constraints(c)
        matrix = t["of"]["k"] in ("list", "tuple") and all(isinstance(row, (list, tuple)) for row in value)
        if c.get("permutation") is not None:
            base = int(c.get("permutation") or 0)
            if not matrix:
                return sorted(value) == list(range(base, base + len(value)))
            # A matrix's cells hold the permutation.
            cells = [x for row in value for x in row]
            if not all(isinstance(x, int) for x in cells) or sorted(cells) != list(range(base, base + len(cells))):
                return False
        if c.get("index") is not None and not matrix:
            base = int(c.get("index") or 0)
            if not all(isinstance(x, int) and base <= x < base + len(value) for x in value):
                return False
        if c.get("square") and not (matrix and all(len(row) == len(value) for row in value)):
            return False
        if not all_satisfy(value, t["of"], inner):
            return False
        if c.get("sorted") and list(value) != sorted(value):
            return False
        if c.get("distinct") and len(set(map(repr, value))) != len(value):
            return False
        if "cols" in c and not len({len(r) for r in value}) <= 1:
            return False
        return True
    if k == "dict":
        lo, hi = length(c, 0, None)
        return isinstance(value, dict) and lo <= len(value) and (hi is None or len(value) <= hi)
    return True


def length(c, default_lo, default_hi):
    spec = c.get("len", c.get("rows"))
    if spec is None:
        return default_lo, default_hi
    if isinstance(spec, int):
        return spec, spec
    if isinstance(spec, list) and len(spec) == 2:
        return int(bound(spec[0], "len")), int(bound(spec[1], "len"))
    raise SpecError("len must be N or [min, max], not %r" % (spec,))


def count_of(v):
    """The count a `same_len` or `nodes` reference names: an int parameter
    is the count itself (`n`, with `values.length == n`), a list or string
    gives its length; None for anything else (an optional left out)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    return len(v) if isinstance(v, (str, list, tuple)) else None


def same_len_of(c):
    """`same_len = "xs"`, or "xs + 1" / "xs - 2": (parameter, offset), or None."""
    v = c.get("same_len")
    if not isinstance(v, str):
        return None
    m = re.match(r"^\s*([A-Za-z_]\w*)\s*(?:([+-])\s*(\d+))?\s*$", v)
    if not m:
        raise SpecError("same_len must name a parameter, optionally `+ N` or `- N`, not %r" % (v,))
    return m.group(1), int(m.group(3)) * (-1 if m.group(2) == "-" else 1) if m.group(2) else 0


def element_constraints(c):
    """Constraints of a container's elements: `elem = {...}` or the scalar
    keys (min, max, charset, nonfinite) given on the container itself."""
    if "elem" in c:
        return c["elem"]
    return {k: v for k, v in c.items() if k in ("min", "max", "one_of", "charset", "nonfinite")} | (
        {"len": c["cols"]} if "cols" in c else {}) | ({"len": c["elem_len"]} if "elem_len" in c else {})
