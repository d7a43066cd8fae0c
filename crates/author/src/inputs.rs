//! Inputs for running a chart when nobody gave tests: made from the
//! solution itself, so that `check --against solution.py chart.mmd` decides
//! by behaviour with nothing else beside the files.
//!
//! # How it works
//!
//! The test generator's `shapes` helper (`flowbench-testgen`'s
//! `shapes.py`: parse only, never running the solution) reads each
//! parameter of the entry point: an annotation fixes its type; otherwise
//! it ranks shapes of the catalogue below ([`SHAPES`]) by the parameter's
//! uses (indexing, `len`, arithmetic, `.split()`,
//! `p[i][j]`, `for a, b in p`, …), its name, a default's literal, and the
//! words of the chart's Input node; it also returns the docstring's examples
//! (`>>> f(3, [1, 2])`). Every combination of the best-ranked shapes is
//! *probed*: `flowbench-testgen`'s generator (the `tests gen` one) makes a
//! few typical inputs of it, the reference runs on all of them in the
//! sandbox at once, and the combination the reference answers most often
//! without raising wins (ties: the better-ranked). Its typical, edge and
//! (small) large inputs are then generated, the examples added, and the
//! reference's answers are the expected outputs; inputs it raises on or
//! does not finish are dropped. [`Found::origin`] says where the shapes came
//! from, for the report.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use serde_json::Value as Json;

use flowbench_exec::{CallStyle, Limits};
use flowbench_problem::problem::Category;
use flowbench_problem::sandbox::{Sandbox, SandboxFailure};
use flowbench_support::timings::time;
use flowbench_testgen::python::{
    GenerateAnswer, GenerateRequest, HELPER_PYTHON, HelperError, ParamShapes, ShapesAnswer, ShapesRequest,
};
use flowbench_testgen::reference::{Run, run_all, wrap};
use flowbench_testgen::spec::{Counts, TestSpec};

use super::expr::{Tok, tokenize};
use super::reader::Program;

/// The shapes a parameter may be probed as: a name (what the report says)
/// and the `[params.X]` table `tests gen` reads.
pub const SHAPES: &[(&str, &str)] = &[
    ("ints", r#"type = "List[int]""#),
    ("int", r#"type = "int""#),
    (
        "str",
        r#"type = "str"
charset = "lower""#,
    ),
    (
        "nat",
        r#"type = "int"
min = 0
max = 40"#,
    ),
    (
        "strs",
        r#"type = "List[str]"
charset = "lower""#,
    ),
    (
        "text",
        r#"type = "str"
charset = "abc  de""#,
    ),
    (
        "digits",
        r#"type = "str"
charset = "digits"
len = [1, 12]"#,
    ),
    (
        "pairs",
        r#"type = "List[List[int]]"
elem_len = 2
min = 0
max = 20"#,
    ),
    (
        "grid",
        r#"type = "List[List[int]]"
len = [1, 6]
cols = [1, 6]
min = 0
max = 9"#,
    ),
    (
        "bitgrid",
        r#"type = "List[List[int]]"
len = [1, 6]
cols = [1, 6]
min = 0
max = 1"#,
    ),
    ("floats", r#"type = "List[float]""#),
    ("float", r#"type = "float""#),
    ("bool", r#"type = "bool""#),
    (
        "brackets",
        r#"type = "str"
charset = "()[]{}""#,
    ),
    (
        "nats",
        r#"type = "List[int]"
min = 0
max = 20"#,
    ),
];

/// How many of a parameter's best-ranked shapes are probed.
const PER_PARAM: usize = 3;
/// Most combinations probed (best-ranked first).
const COMBINATIONS: usize = 8;
/// Typical inputs per probed combination.
const PROBES: usize = 6;
/// Most inputs a chart is run on.
const MOST_INPUTS: usize = 60;

/// Limits of one call of the reference (or the chart) on a made input: the
/// inputs are small, so a call past a quarter of a second is a runaway.
/// Agreement is decided on the inputs the reference finishes within it;
/// a larger limit only makes each input it cannot finish cost more (a
/// comprehension over `range(2**53)` runs to the clock's backstop).
pub fn call_limits() -> Limits {
    Limits { wall: Duration::from_millis(250), cpu: Duration::from_millis(250) }
}

/// Inputs made, with the reference's answers.
#[derive(Debug, Clone)]
pub struct Found {
    /// Argument lists (the judge's tagged JSON), the reference's value and
    /// what it cost (seconds of the call's limit, counted).
    pub tests: Vec<(Vec<Json>, Json, f64)>,
    /// Where the parameters' shapes came from (`annotations`, `docstring
    /// examples`, `probing: nums as ints`…).
    pub origin: String,
    /// Inputs dropped because the reference raised or did not finish.
    pub dropped: usize,
}

/// Why no inputs could be made: said in the report, the evidence staying
/// structural.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoInputs {
    /// The solution's signature cannot be read or generated for.
    #[error("{0}")]
    Signature(String),
    /// The reference raised (or ran out of time) on every input tried.
    #[error("the reference raised or did not finish on every input tried ({0})")]
    AllRaised(String),
    /// The entry is a method of a class other than `Solution`, or a whole
    /// program: no call style runs it.
    #[error("{0}")]
    NotCallable(String),
}

/// What went wrong making inputs.
#[derive(Debug, thiserror::Error)]
pub enum InputsError {
    #[error(transparent)]
    None(#[from] NoInputs),
    /// The sandbox failed (never a verdict on the code).
    #[error("sandbox: {0}")]
    Sandbox(#[from] SandboxFailure),
}

/// How the entry point is called: by name, or as a `Solution` method.
pub fn call_style(program: &Program) -> Result<CallStyle, NoInputs> {
    match program.entry.method.as_deref() {
        None => Ok(CallStyle::Function),
        Some("Solution") => Ok(CallStyle::SolutionMethod),
        Some(other) => Err(NoInputs::NotCallable(format!(
            "`{}` is a method of class `{other}`; only functions and `Solution` methods are run",
            program.entry.qual
        ))),
    }
}

/// Makes inputs for `program`'s entry point (`source`: the solution text;
/// `hints`: per parameter, the chart's words about it; `problem`: the
/// problem's own `problem.toml`, when the solution has one) and runs the
/// reference on them.
///
/// The problem's spec says what the statement allows (`width` at least 1,
/// the relations every input keeps) and its seeds: a parameter it
/// describes is generated as it says, and only the others are guessed.
/// Without it, a chart would be run on inputs the problem excludes, where
/// the reference may loop or raise and its answers mean nothing.
pub fn find_inputs(
    program: &Program,
    source: &str,
    hints: &BTreeMap<String, String>,
    problem: Option<&TestSpec>,
    sandbox: &dyn Sandbox,
) -> Result<Found, InputsError> {
    let style = call_style(program)?;
    if program.entry.name == "__main__" {
        return Err(NoInputs::NotCallable("a whole program reads standard input; no call to make".into()).into());
    }
    let read = time("inputs shapes", || read_shapes(source, &program.entry.qual, hints))?;
    let reference = wrap(source, &program.entry.name, style, false);
    let described = |p: &ParamShapes| problem.is_some_and(|s| described_fully(s, p));
    let open: Vec<&ParamShapes> =
        read.params.iter().filter(|p| !p.given && !described(p) && read.examples.is_empty()).collect();
    let combos = combinations(&open);
    let generator = Generator { program, source, style, examples: &read.examples };
    let extra_characters = literal_characters(source);
    let base = Base { problem, params: &read.params, extra_characters: &extra_characters };
    let (chosen, origin) = if combos.len() <= 1 {
        let origin = if problem.is_some() {
            "the problem's problem.toml".to_owned()
        } else if read.params.iter().all(|p| p.given) {
            "annotations".to_owned()
        } else if !read.examples.is_empty() {
            "docstring examples".to_owned()
        } else {
            format!("shapes {}", describe(&open, combos.first().map_or(&[][..], |c| &c[..])))
        };
        (combos.into_iter().next().unwrap_or_default(), origin)
    } else {
        let prober = Prober { generator: &generator, base: &base, open: &open, reference: &reference, sandbox };
        let best = time("inputs probe", || prober.best(&combos))?;
        let within = if problem.is_some() { " within the problem's problem.toml" } else { "" };
        let origin = format!("probing the reference{within}: {}", describe(&open, &combos[best]));
        (combos[best].clone(), origin)
    };
    let spec = base.spec_for(&open, &chosen, Counts { typical: 16, large: 2, mutations: 6 });
    let mut inputs: Vec<Vec<Json>> = read.examples.clone();
    inputs.extend(problem.map(|s| s.seeds.clone()).unwrap_or_default());
    let given = inputs.len();
    inputs.extend(time("inputs generate", || generator.generate(&spec))?.into_iter().map(|(_, args)| args));
    dedup(&mut inputs);
    let mut inputs = spread(inputs, given.min(MOST_INPUTS), MOST_INPUTS);
    let derived = derived_inputs(&inputs);
    let related = related_inputs(&inputs, tests_for_lists(source));
    inputs.extend(spread(derived, 0, MOST_DERIVED));
    inputs.extend(spread(related, 0, MOST_RELATED));
    dedup(&mut inputs);
    // Shortest first: the first counterexample is the smallest.
    inputs.sort_by_cached_key(|args| serde_json::to_string(args).map_or(0, |s| s.len()));
    let runs = time("inputs reference", || run_all(sandbox, &reference, &inputs, call_limits()))?;
    let total = inputs.len();
    let tests: Vec<(Vec<Json>, Json, f64)> = inputs
        .into_iter()
        .zip(runs)
        .filter_map(|(args, run)| match run {
            Run::Value(v, cost) => Some((args, v, cost.seconds())),
            _ => None,
        })
        .collect();
    if tests.is_empty() {
        return Err(NoInputs::AllRaised(origin).into());
    }
    Ok(Found { dropped: total - tests.len(), tests, origin })
}

/// What the generator needs besides a spec.
struct Generator<'a> {
    program: &'a Program,
    source: &'a str,
    style: CallStyle,
    examples: &'a [Vec<Json>],
}

impl Generator<'_> {
    /// `tests gen`'s candidates for `spec`: (category, arguments).
    fn generate(&self, spec: &TestSpec) -> Result<Vec<(Category, Vec<Json>)>, NoInputs> {
        let spec_json = serde_json::to_value(spec).map_err(|e| NoInputs::Signature(format!("encoding a spec: {e}")))?;
        let request = GenerateRequest {
            solution: self.source,
            file: "solution.py".into(),
            entry_point: &self.program.entry.name,
            call_style: match self.style {
                CallStyle::Function => "function",
                CallStyle::SolutionMethod => "solution_method",
            },
            seed: spec.seed,
            spec: spec_json,
            originals: self.examples.iter().collect(),
            mode: "gen",
            scale: 1,
            stdin_format: Json::Null,
            statement: "",
            known_key: None,
        };
        match flowbench_testgen::python::generate(Path::new(HELPER_PYTHON), request) {
            Ok(GenerateAnswer::Generated(g)) => Ok(g.candidates.into_iter().map(|c| (c.category, c.args)).collect()),
            Ok(GenerateAnswer::SameAsKnown { .. }) => {
                Err(NoInputs::Signature("the generator answered no inputs".into()))
            }
            Err(HelperError::Spec(message)) => Err(NoInputs::Signature(message)),
            Err(e) => Err(NoInputs::Signature(e.to_string())),
        }
    }
}

/// What probing a combination of shapes takes: the reference run on a
/// few typical inputs made for it.
struct Prober<'a> {
    generator: &'a Generator<'a>,
    base: &'a Base<'a>,
    open: &'a [&'a ParamShapes],
    reference: &'a str,
    sandbox: &'a dyn Sandbox,
}

impl Prober<'_> {
    /// Index of the combination whose typical inputs the reference answers
    /// most often without raising (the first of the best: they are ranked).
    fn best(&self, combos: &[Vec<usize>]) -> Result<usize, InputsError> {
        let share = |(a, t): (usize, usize)| if t == 0 { 0.0 } else { a as f64 / t as f64 };
        // The best-ranked combination alone first: when the reference
        // answers all its inputs, no later one can do better, and most
        // probes end here.
        let mut counts = self.counts(&combos[..1])?;
        if share(counts[0]) < 1.0 {
            counts.extend(self.counts(&combos[1..])?);
        }
        let best = counts.iter().map(|&c| share(c)).fold(0.0, f64::max);
        if best == 0.0 {
            return Err(NoInputs::AllRaised(format!("probed {} combination(s) of shapes", combos.len())).into());
        }
        Ok(counts.iter().position(|&c| share(c) == best).unwrap_or(0))
    }

    /// (answered, tried) per combination.
    fn counts(&self, combos: &[Vec<usize>]) -> Result<Vec<(usize, usize)>, InputsError> {
        let mut inputs = Vec::new();
        let mut owner = Vec::new();
        for (k, combo) in combos.iter().enumerate() {
            let spec = self.base.spec_for(self.open, combo, Counts { typical: PROBES, large: 0, mutations: 0 });
            // A combination the generator refuses (a constraint its type
            // cannot take) is simply not a candidate.
            let Ok(made) = self.generator.generate(&spec) else { continue };
            for (_, args) in made.into_iter().filter(|(c, _)| *c == Category::Typical).take(PROBES) {
                inputs.push(args);
                owner.push(k);
            }
        }
        let runs = run_all(self.sandbox, self.reference, &inputs, call_limits())?;
        // An empty list or string is answered whatever its elements would
        // have been: only inputs with something in them tell shapes apart.
        let mut counts = vec![(0usize, 0usize); combos.len()];
        for ((k, run), args) in owner.into_iter().zip(runs).zip(&inputs) {
            if args.iter().any(is_empty) {
                continue;
            }
            counts[k].1 += 1;
            counts[k].0 += usize::from(matches!(run, Run::Value(..)));
        }
        Ok(counts)
    }
}

/// Whether the problem's spec says what a parameter is by itself: it names
/// a type (an annotated parameter's type the generator reads itself).
fn described_fully(spec: &TestSpec, p: &ParamShapes) -> bool {
    spec.params.get(&p.name).is_some_and(|t| t.contains_key("type"))
}

/// What every generated spec starts from: the problem's `problem.toml`,
/// when there is one, and the parameters as the shapes helper read them.
struct Base<'a> {
    problem: Option<&'a TestSpec>,
    params: &'a [ParamShapes],
    /// See [`literal_characters`].
    extra_characters: &'a str,
}

/// The characters of the solution's short string literals beyond the
/// lowercase letters (`'!'` of `w.endswith('!')`, `','` of `s.split(',')`),
/// at most six: strings made of `a`–`z` alone never take the branch that
/// tests for them, so a chart that draws it wrong would go unseen.
fn literal_characters(source: &str) -> String {
    let mut found = BTreeSet::new();
    for line in source.lines() {
        for token in tokenize(line.trim()).unwrap_or_default() {
            if let Tok::Str(text) = token
                && text.chars().count() <= 4
            {
                found.extend(text.chars().filter(|c| !c.is_ascii_lowercase() && !c.is_control()));
            }
        }
    }
    found.into_iter().take(6).collect()
}

impl Base<'_> {
    /// The spec of one combination: each open parameter's shape table
    /// under the problem's constraints for it, the other parameters as the
    /// problem describes them, its relations; the counts asked, small large
    /// inputs (a chart runs slower than its code).
    fn spec_for(&self, open: &[&ParamShapes], combo: &[usize], counts: Counts) -> TestSpec {
        let own = |name: &str| self.problem.and_then(|s| s.params.get(name));
        let mut params = BTreeMap::new();
        for p in self.params {
            if let Some(table) = own(&p.name) {
                params.insert(p.name.clone(), table.clone());
            }
        }
        for (p, &s) in open.iter().zip(combo) {
            let name = &p.shapes[s];
            let Some(mut table) =
                SHAPES.iter().find(|(n, _)| n == name).and_then(|(_, t)| t.parse::<toml::Table>().ok())
            else {
                continue;
            };
            if table.get("charset").and_then(|c| c.as_str()) == Some("lower") && !self.extra_characters.is_empty() {
                let charset = format!("abcdefghijklmnopqrstuvwxyz{}", self.extra_characters);
                table.insert("charset".into(), toml::Value::String(charset));
            }
            // The problem's bounds and alphabet win over the shape's.
            table.extend(own(&p.name).cloned().unwrap_or_default());
            params.insert(p.name.clone(), table);
        }
        TestSpec {
            seed: 1,
            params,
            relations: self.problem.map(|s| s.relations.clone()).unwrap_or_default(),
            counts,
            large_len: vec![toml::Value::Integer(40), toml::Value::Integer(120)],
            large_magnitudes: vec![toml::Value::Integer(200), toml::Value::Integer(2000)],
            ..TestSpec::default()
        }
    }
}

/// Combinations of the open parameters' best shapes, best-ranked first
/// (by the sum of the ranks), at most [`COMBINATIONS`]. With no open
/// parameter: one empty combination.
fn combinations(open: &[&ParamShapes]) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = vec![Vec::new()];
    for p in open {
        let n = p.shapes.len().min(PER_PARAM);
        all = all.into_iter().flat_map(|c| (0..n).map(move |i| [c.clone(), vec![i]].concat())).collect();
    }
    all.sort_by_key(|c| c.iter().sum::<usize>());
    all.truncate(COMBINATIONS);
    all
}

/// `nums as ints, k as int`.
fn describe(open: &[&ParamShapes], combo: &[usize]) -> String {
    let parts: Vec<String> = open.iter().zip(combo).map(|(p, &s)| format!("{} as {}", p.name, p.shapes[s])).collect();
    if parts.is_empty() { "none to guess".into() } else { parts.join(", ") }
}

/// An empty list or string (or a tagged empty container).
fn is_empty(v: &Json) -> bool {
    match v {
        Json::String(s) => s.is_empty(),
        Json::Array(a) => a.is_empty(),
        Json::Object(o) => o.values().all(|x| matches!(x, Json::Array(a) if a.is_empty())),
        _ => false,
    }
}

/// At most `most` inputs: the first `keep` (examples, seeds), then the rest
/// taken evenly across their order. The generator emits its categories in
/// turn (typical, edge, boundary, large), and the boundary inputs (a target
/// equal to an element, a length) are where a chart's off-by-one shows: a
/// cut at the front would drop them.
fn spread(inputs: Vec<Vec<Json>>, keep: usize, most: usize) -> Vec<Vec<Json>> {
    if inputs.len() <= most {
        return inputs;
    }
    let (room, rest) = (most - keep, inputs.len() - keep);
    let picked: std::collections::BTreeSet<usize> = (0..room).map(|k| keep + k * rest / room).collect();
    inputs.into_iter().enumerate().filter(|(i, _)| *i < keep || picked.contains(i)).map(|(_, a)| a).collect()
}

/// Most inputs derived from the made ones ([`derived_inputs`]).
const MOST_DERIVED: usize = 20;

/// Inputs the generator rarely draws but code often needs: the lists
/// sorted (a binary search, a two-pointer scan or a merge assumes it, and
/// on random lists both a right and a wrong chart answer "not found"), and
/// then a number argument replaced by the middle element of a list beside
/// it (the value a search looks for is usually there).
fn derived_inputs(inputs: &[Vec<Json>]) -> Vec<Vec<Json>> {
    let mut out = Vec::new();
    for args in inputs {
        let sorted: Vec<Json> = args.iter().map(|a| sorted_list(a).unwrap_or_else(|| a.clone())).collect();
        if sorted == *args {
            continue;
        }
        let middle = sorted.iter().find_map(|a| a.as_array().filter(|l| !l.is_empty()).map(|l| l[l.len() / 2].clone()));
        if let Some(m) = middle.filter(Json::is_i64)
            && sorted.iter().any(Json::is_i64)
        {
            let found: Vec<Json> = sorted.iter().map(|a| if a.is_i64() { m.clone() } else { a.clone() }).collect();
            out.push(found);
        }
        out.push(sorted);
    }
    out
}

/// Most inputs whose parts are made to relate ([`related_inputs`]).
const MOST_RELATED: usize = 8;

/// Whether the code asks if a value is a list (`isinstance(x, list)`):
/// then lists inside lists are inputs it expects.
fn tests_for_lists(source: &str) -> bool {
    source.split("isinstance(").skip(1).any(|call| call.split(')').next().is_some_and(|args| args.contains("list")))
}

/// Inputs where what code tests for holds, which random values almost
/// never give: each string followed by its mirror image (a palindrome),
/// a list of strings grown from its first one, so they share prefixes
/// of several lengths (a common prefix, `startswith`), and, when the code
/// tests for lists (`nested`), a list with two of its items in a list of
/// their own.
fn related_inputs(inputs: &[Vec<Json>], nested: bool) -> Vec<Vec<Json>> {
    let mirrored = |a: &Json| match a.as_str() {
        Some(s) if !s.is_empty() => Some(Json::String(format!("{s}{}", s.chars().rev().collect::<String>()))),
        _ => None,
    };
    let prefixed = |a: &Json| {
        let words: Vec<&str> = a.as_array()?.iter().map(Json::as_str).collect::<Option<_>>()?;
        let first: Vec<char> = words.first()?.chars().collect();
        if words.len() < 2 || first.is_empty() {
            return None;
        }
        // The second keeps all of the first, the third all but its last
        // character, and so on.
        let grown = words.iter().enumerate().skip(1).map(|(i, w)| {
            let kept: String = first[..first.len().saturating_sub(i - 1)].iter().collect();
            Json::String(format!("{kept}{w}"))
        });
        Some(Json::Array(std::iter::once(Json::String(words[0].to_owned())).chain(grown).collect()))
    };
    let grouped = |a: &Json| match a.as_array() {
        Some(items) if nested && items.len() >= 3 => {
            let inner = Json::Array(items[1..3].to_vec());
            Some(Json::Array([&items[..1], &[inner], &items[3..]].concat()))
        }
        _ => None,
    };
    let mut out = Vec::new();
    for make in [&mirrored as &dyn Fn(&Json) -> Option<Json>, &prefixed, &grouped] {
        for args in inputs {
            let changed: Vec<Option<Json>> = args.iter().map(make).collect();
            if changed.iter().any(Option::is_some) {
                out.push(args.iter().zip(changed).map(|(a, c)| c.unwrap_or_else(|| a.clone())).collect());
            }
        }
    }
    for near in [false, true] {
        out.extend(inputs.iter().filter_map(|args| rearranged_pair(args, near)));
    }
    out
}

/// Two sequences of one kind (strings, or lists) with the second replaced
/// by the first reversed: the same items in another order (an anagram, a
/// permutation, a rotation's test), which two random values never are;
/// `near`: with its last item then made a copy of its first, so the two
/// share items but are no rearrangement (where a test stopping early
/// answers wrong).
fn rearranged_pair(args: &[Json], near: bool) -> Option<Vec<Json>> {
    let reversed = |a: &Json| {
        let mut items: Vec<Json> = match a {
            Json::String(s) => s.chars().rev().map(|c| Json::String(c.to_string())).collect(),
            Json::Array(items) => items.iter().rev().cloned().collect(),
            _ => return None,
        };
        if items.len() < 2 {
            return None;
        }
        if near {
            let last = items.len() - 1;
            items[last] = items[0].clone();
        }
        Some(match a {
            Json::String(_) => Json::String(items.iter().filter_map(Json::as_str).collect()),
            _ => Json::Array(items),
        })
    };
    let same_kind =
        |a: &Json, b: &Json| matches!((a, b), (Json::String(_), Json::String(_)) | (Json::Array(_), Json::Array(_)));
    let first = args.iter().position(|a| reversed(a).is_some())?;
    let second = (first + 1..args.len()).find(|&j| same_kind(&args[first], &args[j]))?;
    let mut out = args.to_vec();
    out[second] = reversed(&args[first])?;
    Some(out)
}

/// A list of numbers or of strings, sorted; `None` for anything else.
fn sorted_list(arg: &Json) -> Option<Json> {
    let list = arg.as_array()?;
    let mut sorted = list.clone();
    if list.iter().all(Json::is_number) {
        sorted.sort_by(|a, b| a.as_f64().unwrap_or(0.0).total_cmp(&b.as_f64().unwrap_or(0.0)));
    } else if list.iter().all(Json::is_string) {
        sorted.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    } else {
        return None;
    }
    Some(Json::Array(sorted))
}

fn dedup(inputs: &mut Vec<Vec<Json>>) {
    let mut seen = std::collections::HashSet::new();
    inputs.retain(|a| seen.insert(serde_json::to_string(a).unwrap_or_default()));
}

/// The ranked shapes of the entry's parameters, read by the test
/// generator's `shapes` helper (parse only, never running the code).
fn read_shapes(source: &str, entry: &str, hints: &BTreeMap<String, String>) -> Result<ShapesAnswer, NoInputs> {
    let request = ShapesRequest { solution: source, file: "solution.py".into(), entry, hints };
    flowbench_testgen::python::shapes(Path::new(HELPER_PYTHON), request).map_err(|e| NoInputs::Signature(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_also_tried_sorted_and_searched_for_their_middle() {
        let args = vec![serde_json::json!([5, 1, 3]), serde_json::json!(7)];
        let derived = derived_inputs(std::slice::from_ref(&args));
        assert_eq!(
            derived,
            vec![
                vec![serde_json::json!([1, 3, 5]), serde_json::json!(3)],
                vec![serde_json::json!([1, 3, 5]), serde_json::json!(7)]
            ]
        );
        // Already sorted, or not a list of numbers or strings: nothing new.
        assert!(derived_inputs(&[vec![serde_json::json!([1, 2]), serde_json::json!(0)]]).is_empty());
        assert!(derived_inputs(&[vec![serde_json::json!([[2], [1]])]]).is_empty());
    }

    #[test]
    fn strings_are_also_tried_mirrored_and_grown_from_the_first() {
        let args = vec![serde_json::json!("abc"), serde_json::json!(["flow", "er", "x"]), serde_json::json!(2)];
        let related = related_inputs(std::slice::from_ref(&args), false);
        assert_eq!(
            related,
            vec![
                vec![serde_json::json!("abccba"), serde_json::json!(["flow", "er", "x"]), serde_json::json!(2)],
                vec![serde_json::json!("abc"), serde_json::json!(["flow", "flower", "flox"]), serde_json::json!(2)],
            ]
        );
        // Nothing to relate: no input.
        assert!(related_inputs(&[vec![serde_json::json!(""), serde_json::json!([1, 2])]], false).is_empty());
        // Two strings: the second becomes the first reversed.
        let pair = vec![serde_json::json!("abc"), serde_json::json!("xy")];
        let related = related_inputs(std::slice::from_ref(&pair), false);
        assert!(related.contains(&vec![serde_json::json!("abc"), serde_json::json!("cba")]), "{related:?}");
        assert!(related.contains(&vec![serde_json::json!("abc"), serde_json::json!("cbc")]), "{related:?}");
        // Lists in a list, only for code that tests for lists.
        let flat = vec![serde_json::json!([1, 2, 3, 4])];
        assert!(related_inputs(std::slice::from_ref(&flat), false).is_empty());
        assert_eq!(related_inputs(&[flat], true), vec![vec![serde_json::json!([1, [2, 3], 4])]]);
        assert!(tests_for_lists("if isinstance(x, (list, tuple)):"));
        assert!(!tests_for_lists("if isinstance(x, int):\n    xs = list(ys)"));
    }

    #[test]
    fn short_literals_add_their_characters_to_made_strings() {
        let source = "def f(words):\n    \"\"\"Join the loud ones.\"\"\"\n    return ', '.join(w for w in words if w.endswith('!'))\n";
        assert_eq!(literal_characters(source), " !,");
        let params = [ParamShapes { name: "words".into(), shapes: vec!["strs".into()], given: false }];
        let base = Base { problem: None, params: &params, extra_characters: " !," };
        let spec = base.spec_for(&[&params[0]], &[0], Counts { typical: 1, large: 0, mutations: 0 });
        assert_eq!(spec.params["words"]["charset"].as_str(), Some("abcdefghijklmnopqrstuvwxyz !,"));
    }

    #[test]
    fn every_shape_is_a_table_the_generator_reads() {
        for (name, table) in SHAPES {
            let t: toml::Table = table.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(t.contains_key("type"), "{name}");
        }
    }

    #[test]
    fn uses_rank_the_shapes() {
        let read = read_shapes(
            "def f(words, n, grid):\n    s = words.split()\n    for i in range(n):\n        x = grid[i][i + 1]\n    return s\n",
            "f",
            &BTreeMap::new(),
        )
        .expect("read");
        let first: Vec<&str> = read.params.iter().map(|p| p.shapes[0].as_str()).collect();
        assert_eq!(first, ["str", "int", "grid"]);
    }

    #[test]
    fn a_long_list_of_inputs_is_thinned_evenly_keeping_the_given() {
        let inputs: Vec<Vec<Json>> = (0..10).map(|i| vec![Json::from(i)]).collect();
        let kept: Vec<i64> = spread(inputs.clone(), 2, 6).iter().map(|a| a[0].as_i64().unwrap_or(-1)).collect();
        assert_eq!(kept, [0, 1, 2, 4, 6, 8], "the given two, then every other one");
        assert_eq!(spread(inputs.clone(), 0, 20).len(), 10, "a short list stays whole");
        assert_eq!(spread(inputs, 6, 6).len(), 6);
    }

    #[test]
    fn combinations_come_best_first_and_capped() {
        let p =
            |n: &str| ParamShapes { name: n.into(), given: false, shapes: vec!["a".into(), "b".into(), "c".into()] };
        let (a, b, c) = (p("a"), p("b"), p("c"));
        let combos = combinations(&[&a, &b, &c]);
        assert_eq!(combos.len(), COMBINATIONS);
        assert_eq!(combos[0], [0, 0, 0]);
        assert!(combos[1].iter().sum::<usize>() == 1);
        assert_eq!(combinations(&[]), vec![Vec::<usize>::new()]);
    }
}
