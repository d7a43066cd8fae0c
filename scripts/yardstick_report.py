"""Assembles OUT/problems.jsonl (the shipped suites, as `build` ships them),
OUT/problems.full.jsonl (every generated test) and OUT/report.md for
humaneval-yardstick.sh."""
import json
import os
import re
import sys

# Generated tests hold integers far beyond 4300 digits.
sys.set_int_max_str_digits(0)

out, seconds = sys.argv[1], int(sys.argv[2])
root = os.path.join(out, "problems")


orig, gen, errors = {}, {}, {}
for line in open(os.path.join(out, "gen.err")):
    if line.startswith("error: "):
        found = re.search(r"problems/([^/ ():]+)", line)
        name = found.group(1) if found else "?"
        errors.setdefault(name, line[len("error: "):].strip())
# `tests score` (humaneval-yardstick.sh's second step): per problem and
# suite, the first-order, higher-order and alternative-algorithm figures.
SUITES = {"problem.json": "original", "tests.jsonl": "generated"}
diff_scores = {}
score_path = os.path.join(out, "score.jsonl")
if os.path.exists(score_path):
    for line in open(score_path):
        v = json.loads(line)
        if "problem" in v and v.get("tests") in SUITES:
            diff_scores[(v["problem"], SUITES[v["tests"]])] = v
score_seconds = None
if os.path.exists(os.path.join(out, "score.seconds")):
    score_seconds = int(open(os.path.join(out, "score.seconds")).read().strip() or 0)
rows, names, lines, full_lines, drops_total = [], [], [], [], {}
shipped_total = 0
# Problems by where their parameters' domains came from (the header's
# `domains`): a hand spec for any parameter, else the statement's words
# (docstring) for any, else the original examples (infer_domain's
# fallback) for any, else the signature's types alone.
by_source = {}


def domain_source(domains):
    sources = {v.split("+")[0] for v in domains.values()}
    if not domains:
        return "no tests"
    if "spec" in sources:
        return "hand spec"
    if "docstring" in sources:
        return "docstring"
    return "examples fallback" if "examples" in sources else "signature only"


_decoder = json.JSONDecoder()


def split_test(line):
    """A tests.jsonl line as (its small fields, the raw JSON of its args and
    of its expected value). The large inputs run to megabytes: their text is
    copied, not decoded and encoded again (that took ten seconds)."""
    start = line.index(',"args":') + len(',"args":')
    _, end = _decoder.raw_decode(line, start)
    assert line.startswith(',"expected":', end), "tests.jsonl: args then expected"
    value_start = end + len(',"expected":')
    _, value_end = _decoder.raw_decode(line, value_start)
    rest = json.loads(line[:start - len(',"args":')] + line[value_end:])
    return rest, line[start:end], line[value_start:value_end]


def native_line(problem, suite):
    """The problem as a native record with `suite` as its tests. Each test
    keeps its purpose: its category, and why its input lies beyond the
    statement when it does (the judge's classes)."""
    tests = []
    for fields, args, expected in suite:
        extra = {"category": fields["category"]}
        if fields.get("widened"):
            extra["widened"] = fields["widened"]
        tests.append('{"args":' + args + ',"expected":' + expected + "," + json.dumps(extra, ensure_ascii=False)[1:])
    rest = {k: v for k, v in problem.items() if k not in ("tests", "reference_time_s")}
    rest["reference_time_s"] = max(fields["reference_time_s"] for fields, _, _ in suite)
    return json.dumps(rest, ensure_ascii=False)[:-1] + ',"tests":[' + ",".join(tests) + "]}"


for name in sorted(os.listdir(root), key=lambda n: (len(n), n)):
    d = os.path.join(root, name)
    problem = json.load(open(os.path.join(d, "problem.json")))
    tests_path = os.path.join(d, "tests.jsonl")
    header, tests = {}, []
    if os.path.exists(tests_path):
        with open(tests_path) as f:
            header = json.loads(f.readline())
            tests = [split_test(l) for l in f if l.strip()]
        for suite, into in ((tests, full_lines), ([t for t in tests if t[0].get("shipped", True)], lines)):
            into.append(native_line(problem, suite))
        shipped_total += sum(1 for t in tests if t[0].get("shipped", True))
    # `tests gen --score` scored both suites against the same mutants.
    if header.get("mutation"):
        gen[name] = header["mutation"]
    if header.get("originals_mutation"):
        orig[name] = header["originals_mutation"]
    source = domain_source(header.get("domains", {}))
    by_source[source] = by_source.get(source, 0) + 1
    for k, v in header.get("dropped", {}).items():
        drops_total[k] = drops_total.get(k, 0) + v
    names.append(name)
    rows.append((problem["task_id"], len(tests), header.get("dropped", {}), orig.get(name), gen.get(name), errors.get(name)))
for name, suites in (("problems.jsonl", lines), ("problems.full.jsonl", full_lines)):
    with open(os.path.join(out, name), "w") as f:
        f.write("".join(l + "\n" for l in suites))


def fmt(s):
    return "%.3f" % s["score"] if s else "—"


def total(scores_by):
    k = sum(s["killed"] for s in scores_by.values())
    live = sum(s["mutants"] - s["equivalent"] for s in scores_by.values())
    return k / live if live else 1.0


def pooled(sets):
    """killed / live over `sets` (each mutants, equivalent, killed), as text."""
    k = sum(s["killed"] for s in sets)
    live = sum(s["mutants"] - s["equivalent"] for s in sets)
    return "%.3f (%d of %d killed)" % (k / live if live else 1.0, k, live)


def set_score(problem, suite, key):
    v = diff_scores.get((problem, suite))
    s = v and (v if key == "first_order" else v.get(key))
    return "%.3f" % s["score"] if s else "—"


def differential_lines():
    """The three scores, pooled over the problems `tests score` scored both ways."""
    both_ways = sorted({p for p, _ in diff_scores if (p, "original") in diff_scores and (p, "generated") in diff_scores})
    if not both_ways:
        return ["Differential strength: not scored (no OUT/score.jsonl)."]
    out = ["Differential strength over the problems `tests score` scored both ways (%d; higher-order: pairs of "
           "first-order mutants at disjoint sites, a seeded sample of at most 60 a problem; alternative-algorithm: "
           "operators imitating a whole wrong approach; likely-equivalent ones not counted)%s:" % (
               len(both_ways), "" if score_seconds is None else ", %d s" % score_seconds)]
    for key, label in (("first_order", "first-order"), ("higher_order", "higher-order"), ("alternative", "alternative-algorithm")):
        per = {suite: [diff_scores[(p, suite)] if key == "first_order" else diff_scores[(p, suite)].get(key)
                       for p in both_ways] for suite in ("original", "generated")}
        out.append("- %s: HumanEval's own tests %s, generated %s." % (
            label, pooled([s for s in per["original"] if s]), pooled([s for s in per["generated"] if s])))
    return out


both = [r for r in rows if r[3] and r[4]]
weaker = [r for r in both if r[3]["score"] < 1 and r[4]["score"] <= r[3]["score"]]
md = ["# HumanEval yardstick", "",
      "%d problems; %d with generated tests; %d tests in all, %d of them shipped (%.1f a problem; `problems.jsonl`"
      " holds the shipped suites, `problems.full.jsonl` every test); %d s." % (
          len(rows), len(lines), sum(r[1] for r in rows), shipped_total, shipped_total / max(len(lines), 1), seconds), "",
      "Mutation score over the problems scored both ways (%d): HumanEval's own tests %.3f, generated %.3f." % (
          len(both), total({r[0]: r[3] for r in both}), total({r[0]: r[4] for r in both})),
      "Problems where HumanEval's own score is below 1 and the generated tests do no better: %d%s." % (
          len(weaker), (" (" + ", ".join(r[0] for r in weaker) + ")") if weaker else ""),
      "Problems by domain source: " + ", ".join("%s %d" % kv for kv in sorted(by_source.items())) + ".",
      "Drops by reason: " + (", ".join("%s %d" % kv for kv in sorted(drops_total.items())) or "none") + ".", ""] + \
    differential_lines() + ["",
      "Scores per problem: first-order (from `tests gen --score-originals`), then higher-order (HO) and "
      "alternative-algorithm (alt) from `tests score`, each for HumanEval's own tests / the generated ones.", "",
      "| problem | generated | dropped | mutants | equivalent | HumanEval's score | generated score | HO HumanEval | HO generated | alt HumanEval | alt generated | error |",
      "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
for (task, n, dropped, o, g, err), name in zip(rows, names):
    s = g or o
    md.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        task, n, ", ".join("%s %d" % kv for kv in sorted(dropped.items())), s["mutants"] if s else "—",
        s["equivalent"] if s else "—", fmt(o), fmt(g), set_score(name, "original", "higher_order"),
        set_score(name, "generated", "higher_order"), set_score(name, "original", "alternative"),
        set_score(name, "generated", "alternative"), (err or "").replace("|", "\\|")[:160]))
open(os.path.join(out, "report.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md[:next(i for i, l in enumerate(md) if l.startswith("| problem"))]))
