# The statement's "Constraints:" section, as LeetCode-style problems write
# it (main.py applies it). The
# statement is what defines the domain: tests on inputs it forbids judge
# correct programs by what they do on invalid input, so a bound read here
# replaces what `infer_domain` guessed from the examples. Lines this reader
# does not understand are skipped: a constraint missed only leaves the
# domain as wide as before.
import re

# LeetCode's text loses superscripts: "10^9" reads "109", "2 * 10^4"
# reads "2 * 104". A bound "10k" with k in this range is read as 10^k (the
# constraints write 100 and 1000 as such; nobody bounds by 104).
LOST_EXPONENTS = range(3, 19)
# The same for powers of two, read so only in `-2^31` and `2^31 - 1`.
LOST_POWERS_OF_TWO = range(15, 65)


def stated_constraints(text, params):
    """Per parameter name, the constraints the statement's Constraints
    section states (`min`/`max`, `len`, `elem`, `charset`), and relations
    between parameters (`len(nums) == n`)."""
    lines = constraints_lines(text)
    names = {n for n, _ in params}
    types = dict(params)
    aliases = length_aliases(lines, names)
    found, relations = {}, []
    for line in lines:
        read_chain(line, names, aliases, found, relations)
        read_charset(line, names, types, found)
    return {n: c for n, c in found.items() if c}, relations


def constraints_lines(text):
    """The lines of the section after a line "Constraints:", normalised."""
    out, inside = [], False
    for raw in (text or "").splitlines():
        line = raw.replace("\u200b", "").replace("≤", "<=").replace("≥", ">=").replace("&lt;", "<").strip()
        if re.match(r"^constraints\s*:?\s*$", line, re.I):
            inside = True
            continue
        if inside and re.match(r"^(follow[- ]up|note)\b", line, re.I):
            break
        if inside and line:
            out.append(re.sub(r"^(?:[*•]|-(?=\s))\s*", "", line).rstrip(". "))
    return out


def number(term):
    """The integer a term of a bound states, or None."""
    t = term.replace(" ", "")
    m = re.fullmatch(r"(-?)(?:(\d+)\*)?(\d+)(?:\^(\d+))?([+-]\d+)?", t)
    if not m:
        return None
    sign, factor, base, exp, shift = m.groups()
    if exp is not None:
        value = int(base) ** int(exp)
    elif base.startswith("10") and len(base) > 2 and int(base[2:]) in LOST_EXPONENTS and base[2] != "0":
        value = 10 ** int(base[2:])
    elif base.startswith("2") and len(base) == 3 and int(base[1:]) in LOST_POWERS_OF_TWO and (sign or shift):
        value = 2 ** int(base[1:])
    else:
        value = int(base)
    value *= int(factor) if factor else 1
    value += int(shift) if shift else 0
    return -value if sign else value


def accessor(term, names, aliases):
    """(parameter, path) a term names: `nums` -> (nums, ()), `nums.length`
    -> (nums, ("len",)), `nums[i]` -> (nums, ("elem",)), `grid[i][j]`,
    `words[i].length`; an alias (`n` where `n == nums.length`) stands for
    what it names. None when it names no parameter."""
    t = term.replace(" ", "")
    m = re.fullmatch(r"([A-Za-z_]\w*)((?:\[[a-z]\])*)(\.length|\.size\(\))?", t)
    if not m:
        return None
    name, index, length = m.groups()
    path = ("elem",) * index.count("[") + (("len",) if length else ())
    if name in names:
        return name, path
    if name in aliases and not path:
        return aliases[name]
    return None


def length_aliases(lines, names):
    """Letters the statement defines as a parameter's length (`n ==
    nums.length`) when they are not parameters themselves."""
    aliases = {}
    for line in lines:
        pairs = re.findall(r"([A-Za-z_]\w*)\s*==\s*([A-Za-z_][\w\[\]]*\.length)", line)
        pairs += [(b, a) for a, b in re.findall(r"([A-Za-z_][\w\[\]]*\.length)\s*==\s*([A-Za-z_]\w*)\b(?!\.)", line)]
        for a, b in pairs:
            target = accessor(b, names, {})
            if a not in names and target:
                aliases[a] = target
    return aliases


def read_chain(line, names, aliases, found, relations):
    """`lo <= x <= hi`, `1 <= x, y <= n`, `1 <= n == nums.length <= 10^5`:
    numeric bounds on what the terms name, and relations between
    parameters' values and lengths."""
    parts = re.split(r"\s*(<=|<|==)\s*", line)
    if len(parts) < 3:
        return
    terms, ops = parts[0::2], parts[1::2]
    groups = [[accessor(x, names, aliases) for x in t.split(",")] if "," in t else [accessor(t, names, aliases)]
              for t in terms]
    values = [number(t) for t in terms]
    if all(v is None for v in values) and all(None in g for g in groups):
        return
    for i, op in enumerate(ops):
        left, right = (values[i], groups[i]), (values[i + 1], groups[i + 1])
        for (value, _), (__, group), side in ((left, right, "min"), (right, left, "max")):
            if value is None or None in group:
                continue
            strict = op == "<"
            for target in group:
                if op == "==":
                    set_bound(found, target, "min", value)
                    set_bound(found, target, "max", value)
                else:
                    set_bound(found, target, side, value + (1 if side == "min" else -1) * strict)
        if values[i] is None and values[i + 1] is None:
            for a in groups[i]:
                for b in groups[i + 1]:
                    if a and b and a != b and "elem" not in a[1] + b[1]:
                        relations.append("%s %s %s" % (python_term(a), op, python_term(b)))


def python_term(target):
    name, path = target
    return "len(%s)" % name if path == ("len",) else name


def set_bound(found, target, side, value):
    """Records `side` (min or max) at the target's path: a length becomes
    `len`, an element's bound goes under `elem`."""
    name, path = target
    c = found.setdefault(name, {})
    for step in path[:-1] if path and path[-1] == "len" else path:
        c = c.setdefault(step, {})
    if path and path[-1] == "len":
        lo, hi = c.get("len", [0, None])
        c["len"] = [max(lo, value), hi] if side == "min" else [lo, value if hi is None else min(hi, value)]
    else:
        c[side] = value if side not in c else (max if side == "min" else min)(c[side], value)


STATED_CHARSETS = [
    (r"lower[ -]?case (english )?letters? and digits|digits and lower[ -]?case", "abcdefghijklmnopqrstuvwxyz0123456789"),
    (r"(english )?lower[ -]?case (english )?letters?", "abcdefghijklmnopqrstuvwxyz"),
    (r"(english )?upper[ -]?case (english )?letters?", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    (r"only digits|of digits|digits only", "0123456789"),
]


def read_charset(line, names, types, found):
    """`s consists of only lowercase English letters`, `words[i] consists
    of …`, `s[i] is either '0' or '1'`, `consisting only of characters 'L',
    'R' and '_'`: the characters a string (or a list of strings' elements)
    may hold."""
    m = re.match(r"^([A-Za-z_]\w*)(\[i\])?\s*(?:and [A-Za-z_]\w* )?(consists?|contains?|is|are)\b(.*)$", line)
    if not m:
        return
    name, _index, _, rest = m.groups()
    targets = [name] + re.findall(r"and ([A-Za-z_]\w*)", line.split(" consist")[0])
    quoted = re.findall(r"'(.)'", rest)  # before lowering: 'L' is not 'l'
    rest = rest.lower()
    chars = None
    if quoted and re.search(r"either|only|consist|characters|of", rest):
        chars = "".join(sorted(set(quoted)))
    else:
        for pattern, charset in STATED_CHARSETS:
            if re.search(pattern, rest):
                chars = charset
                break
    if not chars:
        return
    for n in targets:
        if n not in names:
            continue
        k = types[n]["k"]
        if k == "str":  # `s consists of …` and `s[i] is …` alike
            found.setdefault(n, {})["charset"] = chars
        elif k in ("list", "tuple") and types[n].get("of", {}).get("k") == "str":
            found.setdefault(n, {}).setdefault("elem", {})["charset"] = chars
