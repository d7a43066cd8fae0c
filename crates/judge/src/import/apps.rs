//! APPS, TACO and MMCode records → native problems.
//!
//! A record holds `question`, `input_output` (a JSON object, or that object
//! as a JSON string, as APPS and TACO ship it: `{"inputs": [...],
//! "outputs": [...]}`, optionally `fn_name`), and optionally `solutions`
//! (a list, or a list as a JSON string), `difficulty`, `url`,
//! `starter_code`, and an id (`task_id`, `problem_id` or `id`). A record
//! with `fn_name` (in `input_output` or beside it) is call-based and
//! becomes a `function` problem (`solution_method` when the starter code
//! declares `class Solution`); the others become `stdio` problems. A record
//! that does not read is reported with its line and skipped; the others are
//! kept.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::native::InvalidTest;
use crate::problem::{Category, Compare, Problem, TestCase};
use crate::problems_file::{Diagnostic, LineError, LoadedProblem, json_object};
use crate::stdio::problem::StdioStyle;
use crate::stdio::{InvalidStdioProblem, StdioProblem, StdioTest};
use flowbench_exec::CallStyle;

/// An APPS-style file that cannot be read (a bad record is skipped).
#[derive(Debug, thiserror::Error)]
#[error("reading {}", path.display())]
pub struct AppsFileError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// Why a record is skipped.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error(transparent)]
    Line(#[from] LineError),
    /// What is wrong with the record `task_id` (`line-N` when it has no id).
    #[error("{task_id}: {fault}")]
    Record { task_id: String, fault: RecordFault },
}

/// What is wrong with a record whose id is known.
#[derive(Debug, thiserror::Error)]
pub enum RecordFault {
    /// `input_output` or `solutions` holds text that is not JSON.
    #[error("`{field}` does not parse as JSON: {error}")]
    EmbeddedJson { field: &'static str, error: serde_json::Error },
    #[error("no `input_output`")]
    NoInputOutput,
    #[error("`input_output` is not an object")]
    InputOutputNotAnObject,
    /// `input_output.inputs` or `.outputs` is there but no list.
    #[error("`input_output.{0}` is not a list")]
    NotAList(&'static str),
    #[error("`input_output` has no `{0}`")]
    MissingList(&'static str),
    #[error("{inputs} inputs but {outputs} outputs")]
    Unpaired { inputs: usize, outputs: usize },
    #[error("`input_output` has no tests")]
    NoTests,
    #[error("`solutions` is not a list")]
    SolutionsNotAList,
    /// Test `number` (1-based): its `input` or `output` stream is neither
    /// text nor a list of lines.
    #[error("test {number}: the {stream} is neither text nor a list of lines")]
    NotText { number: usize, stream: &'static str },
    #[error("test {number}: a call-based input is not a list of arguments")]
    NotArguments { number: usize },
    /// The stdio problem made from the record does not judge.
    #[error(transparent)]
    Stdio(#[from] InvalidStdioProblem),
    /// The function problem made from the record does not judge.
    #[error(transparent)]
    Tests(#[from] InvalidTest),
}

/// One imported problem in the native format the judge reads.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Native {
    /// A call-based record (`fn_name`).
    Function(Problem),
    /// A whole program reading stdin.
    Stdio(StdioProblem),
}

impl Native {
    pub fn task_id(&self) -> &str {
        match self {
            Native::Function(p) => &p.task_id,
            Native::Stdio(p) => &p.task_id,
        }
    }
}

/// A record as imported: the native problem and what a bank directory
/// keeps besides (the statement and the reference solutions).
#[derive(Debug, Clone, PartialEq)]
pub struct AppsProblem {
    pub native: Native,
    pub question: Option<String>,
    pub solutions: Vec<String>,
}

/// Everything a file gave: the problems read and the records skipped.
#[derive(Debug, Clone, Default)]
pub struct AppsImport {
    pub problems: Vec<AppsProblem>,
    pub skipped: Vec<Diagnostic>,
}

/// Reads every record of an APPS-style JSONL file; only an unreadable file
/// is an error.
pub fn read_apps(path: &Path) -> Result<AppsImport, AppsFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| AppsFileError { path: path.to_path_buf(), source })?;
    let mut out = AppsImport::default();
    let mut seen = std::collections::BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let skip = |message: String| Diagnostic { file: path.to_path_buf(), line: i + 1, message };
        match parse_record(line, i + 1) {
            Ok(p) if !seen.insert(p.native.task_id().to_string()) => {
                out.skipped.push(skip(format!("duplicate task id {:?}; keeping the first", p.native.task_id())));
            }
            Ok(p) => out.problems.push(p),
            Err(e) => out.skipped.push(skip(e.to_string())),
        }
    }
    Ok(out)
}

/// One record; `line` names it when it has no id.
fn parse_record(line: &str, number: usize) -> Result<AppsProblem, RecordError> {
    let record = json_object(line)?;
    let task_id = task_id(&record).unwrap_or_else(|| format!("line-{number}"));
    let named = |fault: RecordFault| RecordError::Record { task_id: task_id.clone(), fault };
    let io = embedded_json(&record, "input_output").map_err(named)?.ok_or_else(|| named(RecordFault::NoInputOutput))?;
    let Value::Object(io) = io else { return Err(named(RecordFault::InputOutputNotAnObject)) };
    let inputs = array(&io, "inputs").map_err(named)?;
    let outputs = array(&io, "outputs").map_err(named)?;
    if inputs.len() != outputs.len() {
        return Err(named(RecordFault::Unpaired { inputs: inputs.len(), outputs: outputs.len() }));
    }
    if inputs.is_empty() {
        return Err(named(RecordFault::NoTests));
    }
    let text = |name: &str| record.get(name).and_then(Value::as_str).map(str::to_string);
    let solutions = match embedded_json(&record, "solutions").map_err(named)? {
        None => Vec::new(),
        Some(Value::Array(list)) => list.into_iter().filter_map(|s| s.as_str().map(str::to_string)).collect(),
        Some(_) => return Err(named(RecordFault::SolutionsNotAList)),
    };
    let fn_name = io.get("fn_name").or_else(|| record.get("fn_name")).and_then(Value::as_str);
    let meta = Meta {
        task_id: task_id.clone(),
        starter_code: text("starter_code").unwrap_or_default(),
        difficulty: text("difficulty"),
        url: text("url"),
        question: text("question"),
    };
    let native = match fn_name {
        Some(name) => function_problem(meta, name, inputs, outputs),
        None => stdio_problem(meta, inputs, outputs),
    }
    .map_err(named)?;
    Ok(AppsProblem { native, question: text("question"), solutions })
}

/// The fields every imported problem keeps.
struct Meta {
    task_id: String,
    starter_code: String,
    difficulty: Option<String>,
    url: Option<String>,
    question: Option<String>,
}

/// `task_id`, else `problem_id`, else `id` (a string or a number).
fn task_id(record: &Map<String, Value>) -> Option<String> {
    ["task_id", "problem_id", "id"].iter().find_map(|k| match record.get(*k) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    })
}

/// A field holding JSON, or JSON text (APPS and TACO store both
/// `input_output` and `solutions` as strings); `None` when absent or empty.
fn embedded_json(record: &Map<String, Value>, name: &'static str) -> Result<Option<Value>, RecordFault> {
    match record.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => {
            serde_json::from_str(s).map(Some).map_err(|error| RecordFault::EmbeddedJson { field: name, error })
        }
        Some(v) => Ok(Some(v.clone())),
    }
}

fn array(io: &Map<String, Value>, name: &'static str) -> Result<Vec<Value>, RecordFault> {
    match io.get(name) {
        Some(Value::Array(a)) => Ok(a.clone()),
        Some(_) => Err(RecordFault::NotAList(name)),
        None => Err(RecordFault::MissingList(name)),
    }
}

/// A standard input or output: a string, or (as some TACO records have it)
/// a list of lines.
fn stream_text(value: &Value, stream: &'static str, i: usize) -> Result<String, RecordFault> {
    match value {
        Value::String(s) => Ok(s.clone()),
        Value::Array(lines) if lines.iter().all(Value::is_string) => {
            let lines: Vec<&str> = lines.iter().filter_map(Value::as_str).collect();
            Ok(lines.join("\n") + "\n")
        }
        _ => Err(RecordFault::NotText { number: i + 1, stream }),
    }
}

fn stdio_problem(meta: Meta, inputs: Vec<Value>, outputs: Vec<Value>) -> Result<Native, RecordFault> {
    let mut tests = Vec::with_capacity(inputs.len());
    for (i, (input, output)) in inputs.iter().zip(&outputs).enumerate() {
        tests.push(StdioTest {
            stdin: stream_text(input, "input", i)?,
            stdout: stream_text(output, "output", i)?,
            category: Category::Typical,
        });
    }
    let problem = StdioProblem {
        task_id: meta.task_id,
        call_style: StdioStyle::Stdio,
        tests,
        checker: None,
        checker_program: None,
        float_tolerance: None,
        time_limit_s: None,
        reference_time_s: None,
        question: meta.question,
        starter_code: meta.starter_code,
        subset: None,
        difficulty: meta.difficulty,
        url: meta.url,
    };
    // The judge must be able to read what is written.
    problem.clone().prepare()?;
    Ok(Native::Stdio(problem))
}

/// A call-based record: each input is the argument list; each output is the
/// value, which APPS wraps in a one-element list (its judge accepts either,
/// so the wrapped value is taken).
fn function_problem(meta: Meta, fn_name: &str, inputs: Vec<Value>, outputs: Vec<Value>) -> Result<Native, RecordFault> {
    let mut tests = Vec::with_capacity(inputs.len());
    for (i, (input, output)) in inputs.into_iter().zip(outputs).enumerate() {
        let Value::Array(args) = input else {
            return Err(RecordFault::NotArguments { number: i + 1 });
        };
        let expected = match output {
            Value::Array(mut one) if one.len() == 1 => one.remove(0),
            other => other,
        };
        tests.push(TestCase {
            args,
            kwargs: Map::new(),
            expected,
            category: Category::Typical,
            compare: Compare::Eq,
            widened: None,
        });
    }
    let call_style =
        if meta.starter_code.contains("class Solution") { CallStyle::SolutionMethod } else { CallStyle::Function };
    let problem = Problem {
        task_id: meta.task_id,
        entry_point: fn_name.to_string(),
        starter_code: meta.starter_code,
        call_style,
        tests,
        time_limit_s: None,
        float_tolerance: None,
        compare_mode: Default::default(),
        reference_time_s: None,
        legacy: None,
        subset: None,
        difficulty: meta.difficulty,
    };
    LoadedProblem::prepare(problem.clone())?;
    Ok(Native::Function(problem))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_encodings_of_input_output() {
        let as_text = r#"{"problem_id": 7, "question": "Add.", "input_output": "{\"inputs\": [\"1 2\\n\"], \"outputs\": [\"3\\n\"]}", "solutions": "[\"print(sum(map(int, input().split())))\"]", "difficulty": "introductory"}"#;
        let as_object = r#"{"problem_id": "x", "input_output": {"inputs": [["1", "2"]], "outputs": [["3"]]}}"#;
        let a = parse_record(as_text, 1).expect("string encoding");
        let Native::Stdio(p) = &a.native else { panic!("stdio") };
        assert_eq!((p.task_id.as_str(), p.tests[0].stdin.as_str(), p.tests[0].stdout.as_str()), ("7", "1 2\n", "3\n"));
        assert_eq!(a.solutions.len(), 1);
        let b = parse_record(as_object, 2).expect("object encoding");
        let Native::Stdio(p) = &b.native else { panic!("stdio") };
        assert_eq!((p.tests[0].stdin.as_str(), p.tests[0].stdout.as_str()), ("1\n2\n", "3\n"));
    }

    #[test]
    fn fn_name_makes_a_function_problem() {
        let line = r#"{"id": 3, "starter_code": "class Solution:\n    def twice(self, x):\n", "input_output": {"fn_name": "twice", "inputs": [[2], [[1, 2]]], "outputs": [[4], [[1, 2, 1, 2]]]}}"#;
        let Native::Function(p) = parse_record(line, 1).expect("reads").native else { panic!("function") };
        assert_eq!((p.entry_point.as_str(), p.call_style), ("twice", CallStyle::SolutionMethod));
        assert_eq!(p.tests[0].expected, serde_json::json!(4));
        assert_eq!(p.tests[1].expected, serde_json::json!([1, 2, 1, 2]));
    }

    #[test]
    fn unreadable_records_say_why() {
        let fault = |line: &str| match parse_record(line, 1).expect_err(line) {
            RecordError::Record { task_id, fault } if task_id == "1" => fault,
            other => panic!("{line}: {other:?}"),
        };
        let embedded = fault(r#"{"id": 1, "input_output": "{\"inputs\": [\"1\"]"}"#);
        assert!(matches!(embedded, RecordFault::EmbeddedJson { field: "input_output", .. }), "{embedded:?}");
        let unpaired = fault(r#"{"id": 1, "input_output": {"inputs": ["1"], "outputs": []}}"#);
        assert!(matches!(unpaired, RecordFault::Unpaired { inputs: 1, outputs: 0 }), "{unpaired:?}");
        assert!(matches!(fault(r#"{"id": 1}"#), RecordFault::NoInputOutput));
        assert!(matches!(fault(r#"{"id": 1, "input_output": {"inputs": [], "outputs": []}}"#), RecordFault::NoTests));
        let not_text = fault(r#"{"id": 1, "input_output": {"inputs": [3], "outputs": ["3"]}}"#);
        assert!(matches!(not_text, RecordFault::NotText { number: 1, stream: "input" }), "{not_text:?}");
        let not_object = parse_record("[1]", 1).expect_err("a list");
        assert!(matches!(not_object, RecordError::Line(LineError::NotAnObject)), "{not_object:?}");
        // The messages the skipped-record report shows.
        assert_eq!(unpaired.to_string(), "1 inputs but 0 outputs");
        assert_eq!(not_object.to_string(), "not a JSON object");
    }
}
