//! `tests gen` for one problem: candidates from the helper, each run twice
//! through the reference in the sandbox, dropped by reason, deduplicated,
//! checked against the floors.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value as Json;

use flowbench_exec::{CallStyle, Limits};
use flowbench_problem::compare::{CompareOptions, DEFAULT_FLOAT_TOLERANCE, values_equal};
use flowbench_problem::problem::{Category, TestCase};
use flowbench_problem::sandbox::{Sandbox, SandboxFailure};
use flowbench_problem::value::Value;

use super::Error;
use super::python::{GenerateAnswer, GenerateRequest, GeneratedInputs, HelperError};
use super::reference::{OPS_PER_SECOND, Run, run_all, wrap};
use super::spec::{SPEC_FILE, TestSpec};
use super::tests_file::{GeneratedTest, Header};

/// Everything `tests gen` reads for one problem.
#[derive(Debug, Clone)]
pub struct GenInput {
    /// Problem directory (names files in messages).
    pub dir: PathBuf,
    pub solution: String,
    pub spec: TestSpec,
    /// The spec file's text and the original tests' file text, for the stamp.
    pub spec_text: String,
    pub originals_text: String,
    /// Hand-written tests, validated like generated ones.
    pub originals: Vec<TestCase>,
    pub entry_point: String,
    pub call_style: CallStyle,
    /// The statement's Constraints section (empty when there is none or
    /// the domain is not inferred): bounds the inferred domain.
    pub constraints: String,
}

/// A candidate input before validation.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub category: Category,
    pub args: Vec<Json>,
    pub how: String,
    /// The original test's expected value, when it has one.
    pub expected: Option<Json>,
    /// Why the input lies beyond the statement, when the generator drew it
    /// from a widened domain ([`GeneratedTest::widened`]).
    pub widened: Option<String>,
}

/// What the helper read and made.
#[derive(Debug, Clone)]
pub struct Candidates {
    pub has_valid: bool,
    /// Generated inputs that broke the spec's constraints (never run).
    pub outside_spec: usize,
    /// Where each parameter's domain came from (see [`Header::domains`]).
    pub domains: BTreeMap<String, String>,
    pub list: Vec<Candidate>,
}

/// The result of generating one problem's tests.
#[derive(Debug, Clone)]
pub struct Generated {
    pub header: Header,
    pub tests: Vec<GeneratedTest>,
    /// Wrapped reference source (solution + `valid` check), reused by scoring.
    pub has_valid: bool,
    /// Floors not met, each with the reason; empty when the tests may ship.
    pub floor_errors: Vec<String>,
    /// Large inputs not run because a smaller one's time predicted a
    /// timeout (counted as timeouts in the header).
    pub predicted_timeouts: usize,
    /// The spec these tests were made with, when [`generate`] narrowed the
    /// problem's own (the later steps, strengthening and scoring, use it).
    pub narrowed: Option<TestSpec>,
}

impl GenInput {
    fn solution_path(&self) -> PathBuf {
        self.dir.join("solution.py")
    }

    /// Runs one phase of this problem's work; `FLOWBENCH_TIMINGS=1` prints
    /// its wall time (`timing <dir> <phase> <ms>`), so a slow problem can be
    /// attributed to its helper calls, validation, kill searches or pools.
    pub fn phase<T>(&self, name: &str, f: impl FnOnce() -> T) -> T {
        if !flowbench_support::timings::enabled() {
            return f();
        }
        flowbench_support::timings::time(&format!("{} {name}", self.dir.display()), f)
    }
}

/// What to ask the helper for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// The tests' candidates (typical, edge, large, mutations of the seeds).
    Tests,
    /// A larger random set, `scale` times the usual size: scoring's, to
    /// spot equivalent mutants, or the mutant-guided step's.
    Pool { scale: usize },
    /// Large inputs alone, at the spec's (lowered) sizes.
    Large,
}

/// Asks the helper for candidates (a whole program with a `gen.py` and no
/// `[stdin] format`: that generator, in the sandbox).
pub fn candidates(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    wanted: Wanted,
    seed: u64,
) -> Result<Candidates, Error> {
    let mut found = match generator(input) {
        Some(script) => super::generator_script::candidates(sandbox, input, &script, wanted, seed)?,
        None => helper_candidates(python, input, wanted, seed)?,
    };
    if wanted == Wanted::Tests {
        let originals = input.originals.iter().enumerate().map(|(i, t)| Candidate {
            category: t.category,
            args: t.args.clone(),
            how: format!("original test {}", i + 1),
            expected: Some(t.expected.clone()),
            widened: None,
        });
        found.list.splice(0..0, originals);
    }
    Ok(found)
}

/// A whole program's `gen.py`, when it has one and no `[stdin] format`.
pub fn generator(input: &GenInput) -> Option<std::path::PathBuf> {
    let has_format = input.spec.stdin.as_ref().is_some_and(|s| s.format.is_some());
    (input.entry_point == super::reference::PROGRAM && !has_format)
        .then(|| super::generator_script::path(&input.dir))
        .flatten()
}

/// The generated candidates the Python helper makes.
fn helper_candidates(python: &Path, input: &GenInput, wanted: Wanted, seed: u64) -> Result<Candidates, Error> {
    let file = input.solution_path().display().to_string();
    let request = GenerateRequest {
        solution: &input.solution,
        file,
        entry_point: &input.entry_point,
        call_style: match input.call_style {
            CallStyle::Function => "function",
            CallStyle::SolutionMethod => "solution_method",
        },
        seed,
        spec: serde_json::to_value(&input.spec).map_err(|error| Error::Encode { what: "the spec", error })?,
        originals: input.originals.iter().map(|t| &t.args).collect(),
        mode: match wanted {
            Wanted::Tests => "gen",
            Wanted::Pool { .. } => "pool",
            Wanted::Large => "large",
        },
        scale: match wanted {
            Wanted::Pool { scale } => scale,
            Wanted::Tests | Wanted::Large => 1,
        },
        stdin_format: stdin_format(input)?,
        statement: &input.constraints,
        known_key: None,
    };
    let answer = cached_answer(python, request).map_err(|e| Error::from_helper(&input.dir, e))?;
    let list = answer
        .candidates
        .into_iter()
        .map(|c| Candidate { category: c.category, args: c.args, how: c.how, expected: None, widened: c.widened })
        .collect();
    Ok(Candidates { has_valid: answer.has_valid, outside_spec: answer.outside_spec, domains: answer.domains, list })
}

/// Generator answers recently given, by their request without the solution
/// (and its path): each with the helper's key, a digest of everything the
/// generator read. A problem's variants (`variants`) change the reference's
/// body only, so their candidates and pools are the original's: the helper
/// then reads the signature, finds the same key and answers "same" instead
/// of drawing the same inputs again (on a graph problem, seconds each).
struct AnswerCache {
    recent: std::collections::VecDeque<(String, String, GeneratedInputs)>,
}

/// Answers kept: every problem in flight (one per thread) asks for its
/// tests' candidates, a pool or two and the lowered large inputs in turn.
const CACHED_ANSWERS: usize = 16;

fn answer_cache() -> &'static std::sync::Mutex<AnswerCache> {
    static CACHE: std::sync::OnceLock<std::sync::Mutex<AnswerCache>> = std::sync::OnceLock::new();
    CACHE.get_or_init(|| std::sync::Mutex::new(AnswerCache { recent: Default::default() }))
}

/// The generator's answer to `request`, from the cache when the helper
/// says the key is the one an earlier answer had.
fn cached_answer(python: &Path, mut request: GenerateRequest) -> Result<GeneratedInputs, HelperError> {
    let without_solution = GenerateRequest { solution: "", file: String::new(), ..request.clone() };
    let rest =
        format!("{}\u{0}{}", python.display(), serde_json::to_string(&without_solution).map_err(HelperError::Request)?);
    let lock = || answer_cache().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let known = lock().recent.iter().find(|(r, _, _)| *r == rest).map(|(_, k, a)| (k.clone(), a.clone()));
    request.known_key = known.as_ref().map(|(key, _)| key.clone());
    let answer = match super::python::generate(python, request)? {
        GenerateAnswer::SameAsKnown { key } => {
            return match known {
                Some((known_key, cached)) if key == known_key => Ok(cached),
                _ => Err(HelperError::SameAsUnknown),
            };
        }
        GenerateAnswer::Generated(answer) => answer,
    };
    if let Some(key) = &answer.key {
        let mut cache = lock();
        cache.recent.retain(|(r, _, _)| *r != rest);
        if cache.recent.len() == CACHED_ANSWERS {
            cache.recent.pop_front();
        }
        cache.recent.push_back((rest, key.clone(), answer.clone()));
    }
    Ok(answer)
}

/// A whole program's parsed `[stdin] format` (null for a function), with
/// errors naming the spec file's line.
fn stdin_format(input: &GenInput) -> Result<Json, Error> {
    if input.entry_point != super::reference::PROGRAM {
        return Ok(Json::Null);
    }
    let parsed = super::stdin_format::from_spec(&input.dir.join(SPEC_FILE), &input.spec, &input.spec_text)?;
    serde_json::to_value(parsed).map_err(|error| Error::Encode { what: "the stdin format", error })
}

/// Per-call limit while validating.
pub fn validate_limits(spec: &TestSpec) -> Limits {
    let t = Duration::from_secs_f64(spec.validate_time_limit_s.filter(|t| t.is_finite() && *t > 0.0).unwrap_or(2.0));
    Limits { wall: t, cpu: t }
}

/// How the problem's values are compared (its float tolerance and compare
/// mode): validating tests, killing mutants and judging compare alike, so
/// a mutant that only reorders a set-like result is no kill.
pub fn compare_options(spec: &TestSpec) -> CompareOptions {
    CompareOptions {
        float_tolerance: spec.float_tolerance.unwrap_or(DEFAULT_FLOAT_TOLERANCE),
        strict_types: false,
        mode: spec.compare_mode,
    }
}

/// Whether a run's value is the expected one (exactly, or under the
/// problem's float tolerance).
pub fn same(a: &Json, b: &Json, opts: &CompareOptions) -> bool {
    a == b || matches!((Value::decode(a), Value::decode(b)), (Ok(x), Ok(y)) if values_equal(&x, &y, opts))
}

/// Generates, validates and selects one problem's tests. An imported
/// problem (`infer_domain`) whose reference raises on most inputs and so
/// misses a floor is tried again with its string parameters made of the
/// words its examples show ([`TestSpec::words_from_examples`]); the
/// better of the two is kept, and `narrowed` says when it is the second.
pub fn generate(python: &Path, sandbox: &dyn Sandbox, input: &GenInput) -> Result<Generated, Error> {
    generate_reusing(python, sandbox, input, &HashMap::new())
}

/// [`generate`], where `known` already holds a run of the reference on
/// some non-large inputs (by [`args_key`]; `variants`' screen ran the
/// variant on the original's tests): that run is the first of the two
/// validation makes of such an input, so only the second is made. Used
/// only when the solution has no `valid()` (the screen calls the entry
/// point directly, validation through it).
pub fn generate_reusing(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    known: &HashMap<String, Run>,
) -> Result<Generated, Error> {
    let first = generate_within(python, sandbox, input, known);
    // Raising on inputs beyond the examples counts too: a reference that
    // knows only the examples' words raises on every widened string.
    let raising = |reason: &str| matches!(reason, "raised" | "beyond_examples");
    let raised_most = |g: &Generated| main_drop(&g.header.dropped).is_some_and(raising);
    let retry = match &first {
        Ok(g) => !g.floor_errors.is_empty() && raised_most(g),
        Err(Error::EveryInputDropped(d)) => raising(&d.reason),
        Err(_) => false,
    };
    if !retry || !input.spec.infer_domain || input.spec.words_from_examples {
        return first;
    }
    let mut words = input.clone();
    words.spec.words_from_examples = true;
    let second = input.phase("words from the examples", || generate_within(python, sandbox, &words, known));
    match (first, second) {
        (Ok(a), Ok(mut b)) if b.floor_errors.len() < a.floor_errors.len() || b.tests.len() > a.tests.len() => {
            b.narrowed = Some(words.spec);
            Ok(b)
        }
        (Err(_), Ok(mut b)) => {
            b.narrowed = Some(words.spec);
            Ok(b)
        }
        (first, _) => first,
    }
}

/// The main reason candidates were dropped (duplicates aside).
fn main_drop(dropped: &BTreeMap<String, usize>) -> Option<&str> {
    dropped.iter().filter(|(r, _)| *r != "duplicate").max_by_key(|(_, n)| **n).map(|(r, _)| r.as_str())
}

/// [`generate_reusing`] with the spec as it is.
fn generate_within(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    known: &HashMap<String, Run>,
) -> Result<Generated, Error> {
    let cands = input.phase("candidates", || candidates(python, sandbox, input, Wanted::Tests, input.spec.seed))?;
    let source = wrap(&input.solution, &input.entry_point, input.call_style, cands.has_valid);
    let none = HashMap::new();
    let known = if cands.has_valid { &none } else { known };
    let mut validated =
        input.phase("validate", || validate_reusing(sandbox, &source, &input.spec, cands.list, known))?;
    let large_lowered = input.phase("lower large", || lower_large(python, sandbox, input, &source, &mut validated))?;
    let Validated { kept, mut dropped, first_raised } = validated;
    if cands.outside_spec > 0 {
        dropped.insert("outside_spec".into(), cands.outside_spec);
    }
    // Whether a large input timed out or was predicted to (and not run)
    // depends on the machine's load; the header counts both as timeouts so
    // that it stays the same, and the summary line tells them apart.
    let not_run = dropped.remove("too_slow").unwrap_or(0);
    if not_run > 0 {
        *dropped.entry("timeout".into()).or_default() += not_run;
    }
    let where_ = format!("{} ({})", input.dir.display(), input.solution_path().display());
    if kept.is_empty() {
        let (reason, count) = dropped.iter().max_by_key(|(_, n)| **n).map(|(r, n)| (r.clone(), *n)).unwrap_or_default();
        return Err(EveryInputDropped { place: where_, reason, count, dropped }.into());
    }
    let mut header = Header {
        stamp: super::tests_file::stamp(&input.solution, &input.spec_text, &input.originals_text),
        seed: input.spec.seed,
        dropped,
        domains: cands.domains,
        large_lowered,
        disputed: input.spec.dropped_tests.clone(),
        ..Header::default()
    };
    for t in &kept {
        match t.category {
            Category::Typical => header.typical += 1,
            Category::Edge => header.edge += 1,
            Category::Large => header.large += 1,
        }
    }
    let f = input.spec.floors;
    let mut floor_errors = Vec::new();
    for (name, have, floor) in
        [("typical", header.typical, f.typical), ("edge", header.edge, f.edge), ("large", header.large, f.large)]
    {
        if have < floor {
            floor_errors.push(format!(
                "{where_}: only {have} {name} tests, the floor is {floor} (dropped: {}); {}",
                show_counts(&header.dropped),
                what_to_do(&header.dropped, first_raised.as_ref(), &input.entry_point)
            ));
        }
    }
    floor_errors.extend(lost_results(&header.dropped).map(|why| format!("{where_}: {why}")));
    Ok(Generated {
        header,
        tests: kept,
        has_valid: cands.has_valid,
        floor_errors,
        predicted_timeouts: not_run,
        narrowed: None,
    })
}

/// No candidate input survived validation: a typed error, because
/// [`generate_reusing`] retries with other words when the reason is that
/// the reference raised on all of them.
#[derive(Debug)]
pub struct EveryInputDropped {
    /// The problem directory and its solution file.
    place: String,
    /// The main reason inputs were dropped (`raised`, `invalid`, `timeout`…).
    reason: String,
    /// How many inputs were dropped for it.
    count: usize,
    dropped: BTreeMap<String, usize>,
}

impl std::fmt::Display for EveryInputDropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why = match self.reason.as_str() {
            "invalid" => "valid() rejects every input",
            "raised" => "the reference raises on every input",
            "timeout" | "too_slow" => "the reference times out on every input",
            _ => "every input was dropped",
        };
        let total: usize = self.dropped.values().sum();
        write!(
            f,
            "{}: {why} ({} of {total} candidates; dropped {})",
            self.place,
            self.count,
            show_counts(&self.dropped)
        )
    }
}

impl std::error::Error for EveryInputDropped {}

/// What a person can do about a floor not met, from the main reason inputs
/// were dropped: where the reference raised, the first such input and its
/// error show which part of the inputs' domain it does not accept.
fn what_to_do(dropped: &BTreeMap<String, usize>, first_raised: Option<&(Vec<Json>, String)>, entry: &str) -> String {
    match (main_drop(dropped), first_raised) {
        (Some("raised"), Some((args, why))) => {
            let shown: Vec<String> = args
                .iter()
                .map(|a| Value::decode(a).map_or_else(|_| a.to_string(), |v| v.repr_truncated(60)))
                .collect();
            format!(
                "the reference raised on inputs it was given, e.g. {entry}({}): {}; its domain is narrower than the \
                 inputs tried: state it in problem.toml ([params.NAME] bounds, charset, pattern, relations) or with a valid() in the solution",
                shown.join(", "),
                why.lines().next().unwrap_or_default()
            )
        }
        (Some("timeout"), _) => {
            "the reference is too slow for these inputs: lower their bounds or large_len in problem.toml, or raise validate_time_limit_s".into()
        }
        (Some("invalid"), _) => "valid() rejects most inputs: loosen it or state the domain in [params.NAME]".into(),
        _ => "loosen the constraints or raise [counts] in problem.toml".into(),
    }
}

/// Why a suite cannot show what the reference does: it returned something
/// that is not plain data on some inputs, which were dropped (a reference
/// returning a regex match object kept only its `None` cases).
fn lost_results(dropped: &BTreeMap<String, usize>) -> Option<String> {
    let n = dropped.get("unencodable")?;
    Some(format!(
        "the reference returned a value that is not plain data (a match object, a custom class, …) on {n} inputs, \
         so no suite can show those results; return a plain value (str, int, list, dict, …) from the solution"
    ))
}

/// Why a finished suite cannot judge anything: every test expects the same
/// value, so a program returning it passes them all.
pub fn constant_suite(tests: &[GeneratedTest]) -> Option<String> {
    let first = &tests.first()?.expected;
    if tests.len() < 2 || tests.iter().any(|t| &t.expected != first) {
        return None;
    }
    Some(format!(
        "every one of the {} tests expects {first}: a program that only returns it would pass; \
         widen the inputs (problem.toml's [params]) so the reference's answers vary",
        tests.len()
    ))
}

/// Smaller sizes for large inputs, tried in turn (largest first) when the
/// reference times out or raises on the default ones (10^4–10^5 elements,
/// integers up to 10^30): list/string lengths, then integer magnitudes.
/// The smallest rung still reaches a recursive Fibonacci's limit, and a
/// cubic loop's.
const LOWERED_LARGE: [(&[u64], &[u64]); 4] = [
    (&[1_000, 2_000, 3_000], &[100, 300, 1_000, 3_000, 10_000]),
    (&[200, 300, 500], &[30, 50, 100, 200, 300]),
    (&[50, 80, 100], &[15, 20, 25, 20, 15]),
    (&[10, 15, 20], &[8, 10, 12, 10, 8]),
];

/// When fewer large tests than the floor survive validation, searches down
/// [`LOWERED_LARGE`] for the largest sizes the reference handles within the
/// limit, adding the large tests each rung yields until the floor is met.
/// Returns what was lowered, for the header (`None`: nothing was needed, or
/// no rung helped).
fn lower_large(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    source: &str,
    validated: &mut Validated,
) -> Result<Option<String>, Error> {
    let floor = input.spec.floors.large;
    let count = |kept: &[GeneratedTest]| kept.iter().filter(|t| t.category == Category::Large).count();
    if count(&validated.kept) >= floor || input.spec.counts.large == 0 {
        return Ok(None);
    }
    let mut seen: HashSet<String> = validated.kept.iter().map(|t| args_key(&t.args)).collect();
    let mut lowered = None;
    for (lens, mags) in LOWERED_LARGE {
        let mut lower = input.clone();
        lower.spec.large_len = lens.iter().map(|&n| toml::Value::Integer(n as i64)).collect();
        lower.spec.large_magnitudes = mags.iter().map(|&n| toml::Value::Integer(n as i64)).collect();
        // Twice the candidates: small magnitudes repeat more often, and an
        // unbounded sign makes half of them negative.
        lower.spec.counts.large = 2 * input.spec.counts.large;
        let cands = candidates(python, sandbox, &lower, Wanted::Large, input.spec.seed)?;
        let fresh: Vec<Candidate> = cands.list.into_iter().filter(|c| seen.insert(args_key(&c.args))).collect();
        let more = validate(sandbox, source, &input.spec, fresh)?;
        if !more.kept.is_empty() && lowered.is_none() {
            // The largest rung that yielded: an upper bound of every size kept.
            lowered = Some((lens[lens.len() - 1], mags.iter().max().copied().unwrap_or(0)));
        }
        validated.absorb(more);
        if count(&validated.kept) >= floor {
            break;
        }
    }
    Ok(lowered.map(|(len, mag)| {
        format!("lengths ≤ {len}, unbounded integers ≤ {mag}: the reference timed out or raised at the default sizes")
    }))
}

/// An input's identity (its arguments' JSON text): duplicates are dropped
/// by it, and verdicts and mutant-killing candidates are kept by it.
pub fn args_key(args: &[Json]) -> String {
    serde_json::to_string(args).unwrap_or_default()
}

/// `invalid 3, raised 1` for messages.
pub fn show_counts(counts: &BTreeMap<String, usize>) -> String {
    if counts.is_empty() {
        return "none".into();
    }
    counts.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", ")
}

/// Each input's first run, large inputs by rounds of growing size: a large
/// input that is at least as large, argument by argument, as one that
/// timed out, or that the reference's growth from such a smaller one's cost
/// puts past the limit (from a cost of at least a tenth of the limit), is
/// not run (`true` in the second list; its run says `TimedOut`). Large
/// inputs come at sizes 10^4, 3·10^4 and 10^5, so a quadratic reference
/// would otherwise spend the whole limit on every larger one. The growth is
/// linear, or as steep as two measured sizes show ([`growth`]) when that
/// puts the input past twice the limit. A cost is in seconds of the limit
/// ([`super::reference::Cost::seconds`]): counted operations, so the same
/// inputs are run on any load.
///
/// A typical or edge input far larger than the others (a value class's
/// 2^53 + 1 beside two-digit numbers, [`outsized`]) runs after them, the
/// smallest such alone first: when it times out, those at least as large
/// are not run either. Before, all ran in the first round: on the
/// HumanEval yardstick nine problems whose reference loops up to its
/// number spent a runaway's limit on each of 2 · (10^9 + 7), 2^53 + 1 and
/// 10^16 + 1.
///
/// Where every argument is an integer, the counted operations of the
/// inputs already run also predict by the integers' values ([`by_value`]):
/// a reference that loops up to its number grows with the value, which a
/// ladder 959, 9103, 77664, 766191 shows, while its digits (the size
/// above) barely change. An input that this puts past twice its limit is
/// not run either: on the HumanEval yardstick each such 945622018 cost a
/// runaway's limit, on four problems, and each outsized probe one more.
///
/// A large input predicted to take a quarter of the limit or more
/// ([`PROBED_FROM`]) runs before the others at least as large as it
/// (argument by argument): they wait for its verdict, and are not run when
/// it times out. Its prediction is linear unless two timed sizes show
/// more, and a quadratic reference in C is predicted low: on the HumanEval
/// yardstick HumanEval-70's `strange_sort_list` (0.75 s at 10^4 elements,
/// predicted 2.25 s of clock at 3·10^4) ran two such inputs together, each
/// to twice the limit.
///
/// Typical and edge inputs get a quarter of the limit: they are small, and
/// one the reference needs that long for is a runaway (a power of huge
/// operands); on the HumanEval yardstick no kept one took over a sixth of
/// the limit, while each runaway cost the whole of it. A quarter, because a
/// runaway in C runs to twice its limit ([`super::reference::WALL_BACKSTOP`]):
/// with half, those runaways took the yardstick from under 3 minutes to
/// 216 s.
fn first_runs(
    sandbox: &dyn Sandbox,
    source: &str,
    inputs: &[Vec<Json>],
    large: &[bool],
    limits: Limits,
) -> Result<(Vec<Run>, Vec<bool>), SandboxFailure> {
    let sizes: Vec<Vec<usize>> = inputs.iter().map(|args| args.iter().map(work_size).collect()).collect();
    let values: Vec<Option<Vec<f64>>> = inputs.iter().map(|args| integer_values(args)).collect();
    let total = |i: usize| sizes[i].iter().sum::<usize>().max(1) as f64;
    let mut runs = vec![Run::NotRun; inputs.len()];
    let mut skipped = vec![false; inputs.len()];
    let mut pending: Vec<usize> = (0..inputs.len()).filter(|&i| large[i]).collect();
    pending.sort_by(|&a, &b| total(a).total_cmp(&total(b)));
    let mut deferred = outsized(&sizes, large);
    // The first round: every other input but the outsized ones, and the
    // smallest large ones.
    let mut round: Vec<usize> = (0..inputs.len()).filter(|&i| !large[i] && !deferred.contains(&i)).collect();
    let cap = limits.wall.as_secs_f64();
    let quarter = Limits { wall: limits.wall / 4, cpu: limits.cpu / 4 };
    let quarter_cap = quarter.wall.as_secs_f64();
    // Whether the values of `i`'s integers put it past twice `cap`.
    let runs_away = |runs: &[Run], i: usize, cap: f64| by_value(&values, runs, i).is_some_and(|s| s >= 2.0 * cap);
    let at_most = |j: usize, i: usize| sizes[j].iter().zip(&sizes[i]).all(|(a, b)| a <= b);
    let (mut rounds, mut probe) = (0, None);
    loop {
        let measured: Vec<(usize, f64)> = (0..inputs.len())
            .filter(|&j| large[j])
            .filter_map(|j| match &runs[j] {
                Run::Value(_, cost) => Some((j, cost.seconds())),
                _ => None,
            })
            .collect();
        let exponent = growth(&measured, &total, &at_most, cap);
        let smallest = pending.first().map(|&i| total(i));
        let (now, later): (Vec<usize>, Vec<usize>) =
            pending.iter().partition(|&&i| smallest.is_some_and(|s| total(i) <= s * 2.0));
        pending = later;
        let (mut probes, mut waiting) = (Vec::new(), Vec::new());
        for i in now {
            // The time this input takes at least, from every measured large
            // input it is at least as large as.
            let predicted = (0..inputs.len())
                .filter(|&j| large[j] && j != i && at_most(j, i))
                .filter_map(|j| match &runs[j] {
                    Run::TimedOut => Some(f64::INFINITY),
                    // Only a time well above the noise of a call's timing
                    // (a few ms) predicts one hundreds of times as large.
                    // Growth steeper than linear is measured, so noisy:
                    // it must put the input past twice the limit. On the
                    // HumanEval yardstick a linear reference (HumanEval-32)
                    // measured under load once fitted 1.6, which put its
                    // 10^5 input (1 s) past the limit and its large tests
                    // under the floor.
                    Run::Value(_, cost) if cost.seconds() >= cap / 10.0 => {
                        let (t, ratio) = (cost.seconds(), total(i) / total(j));
                        Some((t * ratio).max(t * ratio.powf(exponent) / 2.0))
                    }
                    _ => None,
                })
                .fold(0.0, f64::max);
            let near_limit = predicted >= cap / PROBED_FROM;
            if predicted >= cap || runs_away(&runs, i, cap) {
                (runs[i], skipped[i]) = (Run::TimedOut, true);
            } else if near_limit && probes.iter().any(|&j| at_most(j, i)) {
                // A smaller or equal input near the limit runs first: should
                // it time out, this one is not run at all.
                waiting.push(i);
            } else {
                if near_limit {
                    probes.push(i);
                }
                round.push(i);
            }
        }
        pending.splice(0..0, waiting);
        // The outsized inputs: the smallest alone in the second round, the
        // rest in the third, but for those at least as large as it when it
        // timed out.
        if rounds == 1 && !deferred.is_empty() {
            let first = deferred.remove(0);
            if runs_away(&runs, first, quarter_cap) {
                (runs[first], skipped[first]) = (Run::TimedOut, true);
            } else {
                round.push(first);
            }
            probe = Some(first);
        } else if rounds >= 2 {
            let timed_out = probe.filter(|&j| matches!(runs[j], Run::TimedOut));
            for i in std::mem::take(&mut deferred) {
                if timed_out.is_some_and(|j| at_most(j, i)) || runs_away(&runs, i, quarter_cap) {
                    (runs[i], skipped[i]) = (Run::TimedOut, true);
                } else {
                    round.push(i);
                }
            }
        }
        rounds += 1;
        if round.is_empty() && pending.is_empty() && deferred.is_empty() {
            break;
        }
        let (big, small): (Vec<usize>, Vec<usize>) = round.drain(..).partition(|&i| large[i]);
        let run = |ids: &[usize], limits: Limits| {
            run_all(sandbox, source, &ids.iter().map(|&i| inputs[i].clone()).collect::<Vec<_>>(), limits)
        };
        let (big_runs, small_runs) = rayon::join(|| run(&big, limits), || run(&small, quarter));
        for (i, r) in big.into_iter().zip(big_runs?).chain(small.into_iter().zip(small_runs?)) {
            runs[i] = r;
        }
    }
    Ok((runs, skipped))
}

/// The typical and edge inputs (not `large`) at least twice the median
/// one's size and at least [`OUTSIZED_LEAST`], smallest first: those
/// [`first_runs`] runs after the others.
fn outsized(sizes: &[Vec<usize>], large: &[bool]) -> Vec<usize> {
    let total = |i: usize| sizes[i].iter().sum::<usize>();
    let mut small: Vec<usize> = (0..sizes.len()).filter(|&i| !large[i]).collect();
    small.sort_by_key(|&i| (total(i), i));
    let Some(&median) = small.get(small.len() / 2) else { return Vec::new() };
    let least = (2 * total(median)).max(OUTSIZED_LEAST);
    small.into_iter().filter(|&i| total(i) >= least).collect()
}

/// Fewest size units (digits, elements, characters) of an outsized input:
/// a ten-digit number is past the reach of a loop up to it.
const OUTSIZED_LEAST: usize = 8;

/// See [`first_runs`]: inputs predicted at a quarter of the limit or more
/// are probed one at a time.
const PROBED_FROM: f64 = 4.0;

/// [`first_runs`] with the non-large inputs `known` has a run of taken
/// from it: large inputs always run here, where their times predict the
/// larger ones'.
fn first_runs_reusing(
    sandbox: &dyn Sandbox,
    source: &str,
    inputs: &[Vec<Json>],
    large: &[bool],
    limits: Limits,
    known: &HashMap<String, Run>,
) -> Result<(Vec<Run>, Vec<bool>), SandboxFailure> {
    let mut runs: Vec<Option<Run>> =
        (0..inputs.len()).map(|i| if large[i] { None } else { known.get(&args_key(&inputs[i])).cloned() }).collect();
    let rest: Vec<usize> = (0..inputs.len()).filter(|&i| runs[i].is_none()).collect();
    let mut skipped = vec![false; inputs.len()];
    if !rest.is_empty() {
        let rest_inputs: Vec<Vec<Json>> = rest.iter().map(|&i| inputs[i].clone()).collect();
        let rest_large: Vec<bool> = rest.iter().map(|&i| large[i]).collect();
        let (got, too_slow) = first_runs(sandbox, source, &rest_inputs, &rest_large, limits)?;
        for ((&i, run), slow) in rest.iter().zip(got).zip(too_slow) {
            (runs[i], skipped[i]) = (Some(run), slow);
        }
    }
    Ok((runs.into_iter().map(|r| r.unwrap_or(Run::NotRun)).collect(), skipped))
}

/// How the reference's time grows with the size of large inputs, as the
/// exponent of a power law: from the widest pair of `measured` inputs
/// (`(input, seconds)`), one at least twice the other's size and at least
/// as large argument by argument, both slow enough to time well (a
/// hundredth of the limit `cap`). Between 1 (linear, assumed without such
/// a pair) and 3. On the HumanEval yardstick a quadratic reference's
/// 10^5-element input otherwise ran to the limit after linear growth from
/// 3·10^4 elements had put it under.
fn growth(
    measured: &[(usize, f64)],
    total: &dyn Fn(usize) -> f64,
    at_most: &dyn Fn(usize, usize) -> bool,
    cap: f64,
) -> f64 {
    let timed: Vec<&(usize, f64)> = measured.iter().filter(|(_, t)| *t >= cap / 100.0).collect();
    let mut widest: Option<(f64, f64)> = None; // (size ratio, exponent)
    for &&(small, ts) in &timed {
        for &&(big, tb) in &timed {
            let ratio = total(big) / total(small);
            if ratio >= 2.0 && at_most(small, big) && widest.is_none_or(|(r, _)| ratio > r) {
                widest = Some((ratio, (tb / ts).ln() / ratio.ln()));
            }
        }
    }
    widest.map_or(1.0, |(_, e)| e.clamp(1.0, 3.0))
}

/// Fewest counted operations of a run that [`by_value`] fits: fewer are
/// too few turns of a loop to show how it grows.
const FITTED_OPS_LEAST: u64 = 1000;

/// The counted seconds input `i` takes at least, predicted from the
/// counted operations of the inputs already run (`runs`) whose integers
/// (`values`, [`integer_values`]) are, argument by argument, at most
/// `i`'s: they are taken in increasing order of their values' sum, each at
/// least twice the one before, and the growth from each to the next is a
/// power law's exponent. The smallest exponent predicts, and only when
/// there are at least two and it is at least a half: a reference whose
/// cost jumps with its number's factors (a trial division that stops at
/// the smallest one) shows exponents far apart, or under a half, and is
/// not predicted. `None` when `i` has an argument that is not an integer,
/// or the runs do not show such growth.
fn by_value(values: &[Option<Vec<f64>>], runs: &[Run], i: usize) -> Option<f64> {
    let mine = values[i].as_ref()?;
    let sum = |v: &[f64]| v.iter().sum::<f64>();
    let mut points: Vec<(f64, f64)> = (0..runs.len())
        .filter(|&j| j != i)
        .filter_map(|j| {
            let theirs = values[j].as_ref()?;
            let ops = match &runs[j] {
                Run::Value(_, cost) => cost.ops?,
                _ => return None,
            };
            let below = theirs.len() == mine.len() && theirs.iter().zip(mine).all(|(a, b)| a <= b);
            (below && ops >= FITTED_OPS_LEAST && sum(theirs) < sum(mine)).then_some((sum(theirs), ops as f64))
        })
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut ladder: Vec<(f64, f64)> = Vec::new();
    for p in points {
        if ladder.last().is_none_or(|last| p.0 >= 2.0 * last.0) {
            ladder.push(p);
        }
    }
    let exponents: Vec<f64> = ladder.windows(2).map(|w| (w[1].1 / w[0].1).ln() / (w[1].0 / w[0].0).ln()).collect();
    let exponent = exponents.iter().copied().fold(f64::INFINITY, f64::min);
    if exponents.len() < 2 || exponent < 0.5 {
        return None;
    }
    let &(value, ops) = ladder.last()?;
    Some(ops * (sum(mine) / value).powf(exponent) / OPS_PER_SECOND)
}

/// Every argument's absolute value (at least 1) when all of them are
/// integers: what a loop up to a number grows with.
fn integer_values(args: &[Json]) -> Option<Vec<f64>> {
    args.iter()
        .map(|arg| match arg {
            Json::Number(n) if n.is_i64() || n.is_u64() => n.as_f64().map(|v| v.abs().max(1.0)),
            _ => None,
        })
        .collect()
}

/// An argument's size for predicting the reference's time: a number's
/// digits, a string's length, a container's elements (a list of 10^4 huge
/// numbers is as large as one of 10^4 small ones).
fn work_size(arg: &Json) -> usize {
    fn element(v: &Json) -> usize {
        match v {
            Json::Array(_) | Json::Object(_) => work_size(v),
            Json::String(s) => s.chars().count().max(1),
            _ => 1,
        }
    }
    match arg {
        Json::Array(items) => items.iter().map(element).sum(),
        // A tagged value ({"__tuple__": [...]}) or a dict: its values.
        Json::Object(map) => map.values().map(element).sum(),
        Json::String(s) => s.chars().count(),
        other => other.to_string().len(),
    }
}

/// What validation kept and dropped.
#[derive(Debug, Clone, Default)]
pub struct Validated {
    pub kept: Vec<GeneratedTest>,
    /// Candidates dropped, by reason.
    pub dropped: BTreeMap<String, usize>,
    /// The first candidate the reference raised on, with its error: what a
    /// person needs to see to narrow the domain.
    pub first_raised: Option<(Vec<Json>, String)>,
}

impl Validated {
    /// Adds a later validation's tests, drops and first raise to these.
    fn absorb(&mut self, later: Validated) {
        self.kept.extend(later.kept);
        for (reason, n) in later.dropped {
            *self.dropped.entry(reason).or_default() += n;
        }
        self.first_raised = self.first_raised.take().or(later.first_raised);
    }
}

/// Runs every candidate twice and keeps those with one plain, repeatable
/// result (and, for original tests, the result they expect).
pub fn validate(
    sandbox: &dyn Sandbox,
    source: &str,
    spec: &TestSpec,
    candidates: Vec<Candidate>,
) -> Result<Validated, SandboxFailure> {
    validate_reusing(sandbox, source, spec, candidates, &HashMap::new())
}

/// [`validate`] where `known` holds a first run of some non-large inputs
/// (see [`generate_reusing`]).
fn validate_reusing(
    sandbox: &dyn Sandbox,
    source: &str,
    spec: &TestSpec,
    candidates: Vec<Candidate>,
    known: &HashMap<String, Run>,
) -> Result<Validated, SandboxFailure> {
    let mut dropped: BTreeMap<String, usize> = BTreeMap::new();
    // Inputs a reviewer dropped are never validated again.
    let mut seen: HashSet<String> = spec.dropped_tests.iter().map(|d| args_key(&d.args)).collect();
    let disputed = seen.clone();
    let mut unique = Vec::new();
    for c in candidates {
        let key = args_key(&c.args);
        if disputed.contains(&key) {
            *dropped.entry("disputed".into()).or_default() += 1;
        } else if seen.insert(key) {
            unique.push(c);
        } else {
            *dropped.entry("duplicate".into()).or_default() += 1;
        }
    }
    let inputs: Vec<Vec<Json>> = unique.iter().map(|c| c.args.clone()).collect();
    let limits = validate_limits(spec);
    let large: Vec<bool> = unique.iter().map(|c| c.category == Category::Large).collect();
    let (first, too_slow) = first_runs_reusing(sandbox, source, &inputs, &large, limits, known)?;
    // Only a value needs a second run (to show it repeats): running a
    // timeout or a crash again would only cost time.
    let repeat: Vec<usize> = (0..inputs.len()).filter(|&i| matches!(first[i], Run::Value(..))).collect();
    let rerun: Vec<Vec<Json>> = repeat.iter().map(|&i| inputs[i].clone()).collect();
    let mut again = first.clone();
    for (i, run) in repeat.into_iter().zip(run_all(sandbox, source, &rerun, limits)?) {
        again[i] = run;
    }
    let opts = compare_options(spec);
    let mut kept = Vec::new();
    let mut first_raised = None;
    for (((c, a), b), skipped) in unique.into_iter().zip(first).zip(again).zip(too_slow) {
        // An input beyond what the examples show (`widened`) that the
        // reference raises on lies outside the reference's domain: its drop
        // says so (a widened input is a guess; raising on it is no fault).
        let beyond = c.widened.is_some() && matches!(a, Run::Raised(_));
        if let (Run::Raised(why), None) = (&a, &first_raised) {
            first_raised = Some((c.args.clone(), why.clone()));
        }
        let reason = match (&a, &b) {
            _ if skipped => "too_slow",
            _ if beyond => "beyond_examples",
            (Run::Value(x, ta), Run::Value(y, tb)) => {
                if !same(x, y, &opts) {
                    "nondeterministic"
                } else if c.expected.as_ref().is_some_and(|e| !same(x, e, &opts)) {
                    "wrong_expected"
                } else {
                    let t = ta.wall.min(tb.wall).as_secs_f64();
                    kept.push(GeneratedTest {
                        category: c.category,
                        args: c.args,
                        expected: x.clone(),
                        reference_time_s: (t * 1e6).round() / 1e6,
                        reference_ops: ta.ops.zip(tb.ops).map(|(a, b)| a.min(b)),
                        how: c.how,
                        widened: c.widened,
                        shipped: true,
                    });
                    continue;
                }
            }
            (Run::Invalid, _) | (_, Run::Invalid) => "invalid",
            (Run::TimedOut, _) | (_, Run::TimedOut) => "timeout",
            (Run::Unencodable(_), _) | (_, Run::Unencodable(_)) => "unencodable",
            (Run::Value(..), _) | (_, Run::Value(..)) => "nondeterministic",
            _ => "raised",
        };
        *dropped.entry(reason.into()).or_default() += 1;
    }
    Ok(Validated { kept, dropped, first_raised })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::Cost;
    use serde_json::json;

    fn request<'a>(solution: &'a str, known_key: Option<&str>) -> GenerateRequest<'a> {
        GenerateRequest {
            solution,
            file: "p/solution.py".into(),
            entry_point: "f",
            call_style: "function",
            seed: 3,
            spec: serde_json::to_value(TestSpec::default()).expect("a spec"),
            originals: Vec::new(),
            mode: "gen",
            scale: 1,
            stdin_format: Json::Null,
            statement: "",
            known_key: known_key.map(str::to_string),
        }
    }

    /// A job that completed with these calls' outcomes.
    fn completed(calls: Vec<flowbench_exec::CallOutcome>) -> flowbench_exec::Outcome {
        flowbench_exec::Outcome {
            status: flowbench_exec::Status::Completed,
            calls,
            runs: vec![],
            stdout: String::new(),
            stderr: String::new(),
            wall: Duration::from_millis(1),
        }
    }

    /// A completed job answering each of `job`'s calls (its first argument)
    /// with `answer`'s value.
    fn answer_each(job: &flowbench_exec::Job, answer: impl Fn(&Json) -> Json) -> flowbench_exec::Outcome {
        let flowbench_exec::Job::Calls { calls, .. } = job else { panic!("only calls") };
        let calls = calls
            .texts()
            .iter()
            .map(|text| flowbench_exec::CallOutcome {
                status: flowbench_exec::Status::Completed,
                value: Some(answer(&serde_json::from_str::<Json>(text).expect("a call")["args"][0])),
                unencodable: None,
                wall: Duration::from_micros(5),
            })
            .collect();
        completed(calls)
    }

    /// Answers every call with its first argument, counting the calls.
    struct Echo(std::sync::atomic::AtomicUsize);

    impl Sandbox for Echo {
        fn run_job(&self, job: &flowbench_exec::Job) -> flowbench_exec::Outcome {
            answer_each(job, |arg| {
                self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                json!(["ok", arg])
            })
        }
    }

    /// A known first run replaces validation's first run of that input and
    /// only that one: the second run still happens and still judges it (a
    /// known value the second run contradicts drops the input).
    #[test]
    fn validation_reuses_a_known_first_run_and_still_runs_the_second() {
        let candidate = |n: i64| Candidate {
            category: Category::Typical,
            args: vec![json!(n)],
            how: format!("n = {n}"),
            expected: None,
            widened: None,
        };
        let known: HashMap<String, Run> = [
            (args_key(&[json!(2)]), Run::Value(json!(2), Cost::wall(Duration::from_micros(5)))),
            (args_key(&[json!(3)]), Run::Value(json!(4), Cost::wall(Duration::from_micros(5)))),
        ]
        .into();
        let sandbox = Echo(Default::default());
        let spec = TestSpec::default();
        let got = validate_reusing(&sandbox, "", &spec, (1..=4).map(candidate).collect(), &known).expect("validated");
        let kept: Vec<&Json> = got.kept.iter().map(|t| &t.expected).collect();
        assert_eq!(kept, [&json!(1), &json!(2), &json!(4)]);
        assert_eq!(got.dropped.get("nondeterministic"), Some(&1), "{:?}", got.dropped);
        // First runs of 1 and 4, second runs of all four.
        assert_eq!(sandbox.0.load(std::sync::atomic::Ordering::SeqCst), 6);
    }

    /// Echoes its argument, but a number of ten digits or more runs past
    /// its cap (a loop up to it); records every argument it was given.
    struct LoopsUpTo(std::sync::Mutex<Vec<Json>>);

    impl Sandbox for LoopsUpTo {
        fn run_job(&self, job: &flowbench_exec::Job) -> flowbench_exec::Outcome {
            answer_each(job, |arg| {
                self.0.lock().expect("unpoisoned").push(arg.clone());
                if arg.to_string().len() >= 10 { json!(["over"]) } else { json!(["ok", arg]) }
            })
        }
    }

    /// Numbers far larger than the other inputs run after them, the
    /// smallest first: once it runs away, the larger ones are not run.
    /// (Large inputs have rounds of their own: the two here, of similar
    /// sizes, run together.)
    #[test]
    fn an_outsized_input_that_runs_away_spares_the_larger_ones() {
        let edge: [i64; 8] = [1, 2, 3, 12, 45, 10_000_000_000_000_001, 2_000_000_014, 9_007_199_254_740_993];
        let large: [i64; 2] = [40_000_000_000, 3_000_000_000];
        let candidate = |category, n: i64| Candidate {
            category,
            args: vec![json!(n)],
            how: format!("{n}"),
            expected: None,
            widened: None,
        };
        let candidates = (edge.iter().map(|&n| candidate(Category::Edge, n)))
            .chain(large.iter().map(|&n| candidate(Category::Large, n)))
            .collect();
        let sandbox = LoopsUpTo(Default::default());
        let got = validate(&sandbox, "", &TestSpec::default(), candidates).expect("validated");
        let kept: Vec<&Json> = got.kept.iter().map(|t| &t.expected).collect();
        assert_eq!(kept, [&json!(1), &json!(2), &json!(3), &json!(12), &json!(45)]);
        assert_eq!(got.dropped.get("timeout"), Some(&3), "{:?}", got.dropped);
        assert_eq!(got.dropped.get("too_slow"), Some(&2), "{:?}", got.dropped);
        let mut asked = sandbox.0.lock().expect("unpoisoned").clone();
        asked.sort_by_key(|a| a.as_i64());
        let runaways: Vec<&Json> = asked.iter().filter(|a| a.to_string().len() >= 10).collect();
        let expected = [json!(2_000_000_014), json!(3_000_000_000_i64), json!(40_000_000_000_i64)];
        assert_eq!(runaways, expected.iter().collect::<Vec<_>>(), "of the outsized inputs, only the smallest runs");
        // Five values run twice, the three runaways once.
        assert_eq!(asked.len(), 13);
    }

    /// A counted reference whose cost is `cost(n)` operations for its
    /// number `n`, past its cap beyond ten million (two seconds' worth);
    /// records every argument it was given.
    struct Counted {
        cost: fn(i64) -> u64,
        asked: std::sync::Mutex<Vec<i64>>,
    }

    impl Sandbox for Counted {
        fn run_job(&self, job: &flowbench_exec::Job) -> flowbench_exec::Outcome {
            answer_each(job, |arg| {
                let n = arg.as_i64().expect("an integer");
                self.asked.lock().expect("unpoisoned").push(n);
                let ops = (self.cost)(n);
                if ops > 10_000_000 { json!(["over"]) } else { json!(["ok", arg, ops]) }
            })
        }
    }

    /// The numbers validation asks `cost`'s reference for, sorted and
    /// without repeats, of typical inputs up to 45, the outsized edge
    /// inputs 2·(10^9 + 7) and 10^16 + 1, and the magnitude ladder of
    /// large ones up to 945622018.
    fn asked_with(cost: fn(i64) -> u64) -> Vec<i64> {
        let typical: [i64; 5] = [1, 2, 3, 12, 45];
        let edge: [i64; 2] = [2_000_000_014, 10_000_000_000_000_001];
        let large: [i64; 5] = [959, 9103, 77664, 766191, 945622018];
        let candidate = |category, n: &i64| Candidate {
            category,
            args: vec![json!(n)],
            how: format!("{n}"),
            expected: None,
            widened: None,
        };
        let candidates = (typical.iter().map(|n| candidate(Category::Typical, n)))
            .chain(edge.iter().map(|n| candidate(Category::Edge, n)))
            .chain(large.iter().map(|n| candidate(Category::Large, n)))
            .collect();
        let sandbox = Counted { cost, asked: Default::default() };
        validate(&sandbox, "", &TestSpec::default(), candidates).expect("validated");
        let mut asked = sandbox.asked.into_inner().expect("unpoisoned");
        asked.sort_unstable();
        asked.dedup();
        asked
    }

    /// A reference that loops up to its number shows it on the large
    /// ladder's counted operations, which put 945622018 and the outsized
    /// edge inputs past the limit unrun; one whose cost follows the digits,
    /// or jumps with the number's smallest factor, has every input run.
    #[test]
    fn a_loop_up_to_the_number_is_predicted_from_the_ladder_by_value() {
        let small = [1, 2, 3, 12, 45];
        let ladder = [959, 9103, 77664, 766191];
        let mut sorted: Vec<i64> =
            small.iter().chain(&ladder).copied().chain([945622018, 2_000_000_014, 10_000_000_000_000_001]).collect();
        sorted.sort_unstable();
        let linear = asked_with(|n| n as u64);
        assert_eq!(linear, [&small[..], &ladder[..]].concat(), "the runaways are predicted, not run");
        let digits = asked_with(|n| 1000 * n.to_string().len() as u64);
        assert_eq!(digits, sorted, "a cost by digits predicts nothing");
        let smallest_factor = asked_with(|n| (2..).find(|d| n % d == 0 || d * d > n).map_or(1, |d| 1000 * d as u64));
        assert_eq!(smallest_factor, sorted, "a cost by factors predicts nothing");
    }

    /// A reference quadratic in C (HumanEval-70's `strange_sort_list`): its
    /// count grows with a list's length, its clock with the square, 0.75 s
    /// at 10^4 elements; a call past the job's clock limit times out.
    /// Records the length of every list it was given.
    struct QuadraticInC(std::sync::Mutex<Vec<usize>>);

    impl Sandbox for QuadraticInC {
        fn run_job(&self, job: &flowbench_exec::Job) -> flowbench_exec::Outcome {
            let flowbench_exec::Job::Calls { calls, limits, .. } = job else { panic!("only calls") };
            let calls = calls
                .texts()
                .iter()
                .map(|text| {
                    let call: Json = serde_json::from_str(text).expect("a call");
                    let n = call["args"][0].as_array().expect("a list").len();
                    self.0.lock().expect("unpoisoned").push(n);
                    let wall = Duration::from_secs_f64(0.75 * (n as f64 / 1e4).powi(2));
                    let timed_out = wall > limits.wall;
                    flowbench_exec::CallOutcome {
                        status: if timed_out {
                            flowbench_exec::Status::TimedOut
                        } else {
                            flowbench_exec::Status::Completed
                        },
                        value: (!timed_out).then(|| json!(["ok", n, n])),
                        unencodable: None,
                        wall: wall.min(limits.wall),
                    }
                })
                .collect();
            completed(calls)
        }
    }

    /// Of two large inputs of one size predicted near the limit, one runs
    /// first; when it times out the other is not run, nor a larger one.
    #[test]
    fn a_large_input_near_the_limit_is_probed_before_its_equals() {
        let candidate = |(k, n): (usize, &usize)| Candidate {
            category: Category::Large,
            args: vec![json!(vec![k; *n])],
            how: format!("size {n}"),
            expected: None,
            widened: None,
        };
        let sizes = [2_500, 10_000, 10_000, 30_000, 30_000, 100_000];
        let sandbox = QuadraticInC(Default::default());
        let got = validate(&sandbox, "", &TestSpec::default(), sizes.iter().enumerate().map(candidate).collect())
            .expect("validated");
        let kept: Vec<&Json> = got.kept.iter().map(|t| &t.expected).collect();
        assert_eq!(kept, [&json!(2_500), &json!(10_000), &json!(10_000)]);
        assert_eq!(got.dropped.get("timeout"), Some(&1), "{:?}", got.dropped);
        assert_eq!(got.dropped.get("too_slow"), Some(&2), "{:?}", got.dropped);
        let asked = sandbox.0.into_inner().expect("unpoisoned");
        assert_eq!(asked.iter().filter(|&&n| n == 30_000).count(), 1, "one of the two runs: {asked:?}");
        assert!(!asked.contains(&100_000), "{asked:?}");
    }

    /// The generator's key covers what it reads: a changed body keeps it
    /// (and the helper answers "same" to it), a changed signature does
    /// not; the answer given from the cache is the one the helper gives.
    #[test]
    fn the_candidates_key_follows_the_signature_not_the_body() {
        let python = Path::new("python3");
        let original = "def f(n: int) -> int:\n    return n + 1\n";
        let body = "def f(n: int) -> int:\n    return n - 1\n";
        let signature = "def f(n: list[int]) -> int:\n    return len(n)\n";
        let generated = |answer| match answer {
            GenerateAnswer::Generated(inputs) => inputs,
            GenerateAnswer::SameAsKnown { key } => panic!("\"same as {key}\" to a request with no key"),
        };
        let ask = |request| super::super::python::generate(python, request).expect("an answer");
        let first = generated(ask(request(original, None)));
        let key = first.key.clone().expect("a function's answer has a key");
        assert!(!first.candidates.is_empty());
        assert_eq!(ask(request(body, Some(&key))), GenerateAnswer::SameAsKnown { key: key.clone() });
        let other = generated(ask(request(signature, Some(&key))));
        assert!(other.key.is_some_and(|k| k != key), "a new signature, new inputs");
        let fresh = generated(ask(request(body, None)));
        cached_answer(python, request(original, None)).expect("an answer");
        assert_eq!(cached_answer(python, request(body, None)).expect("an answer"), fresh);
        assert_eq!(fresh.candidates, first.candidates);
    }
}
