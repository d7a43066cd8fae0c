//! `dist/manifest.json` and `dist/summary.json` as a reader of a built
//! benchmark needs them: the version that built it, its styles, subsets,
//! Table 1 and each problem's test counts and mutation score. The bank
//! writes the full files (`bank::dist`, `bank::summary`); fields not named
//! here are ignored, so a reader keeps working when the bank adds one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Why a dist's manifest or summary cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("reading {}", file.display())]
    Read {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a flowbench dist manifest: {source}", file.display())]
    Parse {
        file: PathBuf,
        #[source]
        source: serde_json::Error,
    },
}

/// A problem of the bank's source that the bank does not hold (a rebuild
/// that found no reference, chart or tests for it), and why. Whoever
/// assembled the bank knows this, not the build: `build --left-out FILE`
/// carries it into the manifest, so the dist (and an export's card) says
/// what it leaves out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeftOut {
    /// The problem's id in its source (e.g. `Algorithm/two-sum`).
    pub task_id: String,
    pub reason: String,
}

/// Why a left-out list cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum LeftOutError {
    #[error("reading {}", file.display())]
    Read {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{line}: not a left-out problem ({{\"task_id\": …, \"reason\": …}}): {source}", file.display())]
    Parse {
        file: PathBuf,
        line: usize,
        #[source]
        source: serde_json::Error,
    },
}

/// Reads a left-out list: one JSON object a line, blank lines skipped.
pub fn read_left_out(file: &Path) -> Result<Vec<LeftOut>, LeftOutError> {
    let text = std::fs::read_to_string(file).map_err(|source| LeftOutError::Read { file: file.into(), source })?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|source| LeftOutError::Parse { file: file.into(), line: i + 1, source })
        })
        .collect()
}

/// One style of the build: its id (`dist/images/<id>/`) and its name.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct StyleName {
    pub id: String,
    #[serde(default)]
    pub name: String,
}

/// The build options a reader reports.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Options {
    pub deny_warnings: bool,
    pub time_limit_s: f64,
    pub styles: Vec<StyleName>,
    #[serde(default)]
    pub weak_sandbox: Option<String>,
}

/// One row of Table 1 (`difficulty` is `all` in a total row).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Table1Row {
    pub subset: String,
    pub difficulty: String,
    pub problems: usize,
    pub avg_tests: f64,
    pub avg_nodes: f64,
    pub avg_edges: f64,
}

/// `dist/manifest.json`, as read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Manifest {
    pub flowbench_version: String,
    pub options: Options,
    /// Style ids in build order; the first is the records' primary image.
    pub styles: Vec<String>,
    /// Subset name → its record file (`dist/`-relative).
    pub subsets: BTreeMap<String, String>,
    pub problems: usize,
    pub built: usize,
    pub failed: Vec<String>,
    /// Problems of the bank's source that were never in the bank, with why
    /// (`build --left-out`); empty when the bank is its whole source.
    #[serde(default)]
    pub left_out: Vec<LeftOut>,
    pub table1: Vec<Table1Row>,
    /// SHA-256 of every artefact, by `dist/`-relative path.
    pub artefacts: BTreeMap<String, String>,
}

/// A problem's test counts by kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct TestCounts {
    #[serde(default)]
    pub typical: usize,
    #[serde(default)]
    pub edge: usize,
    #[serde(default)]
    pub large: usize,
}

/// One problem's line of `dist/summary.json`, as read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ProblemSummary {
    pub name: String,
    pub ok: bool,
    #[serde(default)]
    pub tests: TestCounts,
    #[serde(default)]
    pub mutation_score: Option<f64>,
    #[serde(default)]
    pub mutation_score_at_least: Option<f64>,
    /// Lint warnings and errors, rendered.
    #[serde(default)]
    pub diagnostics: Vec<String>,
    /// Why a failed problem was not built: its first error (absent in
    /// dists built before it was recorded).
    #[serde(default)]
    pub failure: Option<String>,
}

/// `dist/summary.json`, as read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Summary {
    pub problems: usize,
    pub ok: usize,
    pub reports: Vec<ProblemSummary>,
}

/// Reads `dist/manifest.json`.
pub fn read_manifest(dist: &Path) -> Result<Manifest, ManifestError> {
    read_json(&dist.join("manifest.json"))
}

/// Reads `dist/summary.json`.
pub fn read_summary(dist: &Path) -> Result<Summary, ManifestError> {
    read_json(&dist.join("summary.json"))
}

fn read_json<T: serde::de::DeserializeOwned>(file: &Path) -> Result<T, ManifestError> {
    let text = std::fs::read_to_string(file).map_err(|source| ManifestError::Read { file: file.into(), source })?;
    serde_json::from_str(&text).map_err(|source| ManifestError::Parse { file: file.into(), source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_left_out_list_reads_its_lines_and_names_a_bad_one() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("left-out.jsonl");
        std::fs::write(&file, "{\"task_id\": \"MATH/7\", \"reason\": \"no reference\"}\n\n").unwrap();
        let read = read_left_out(&file).unwrap();
        assert_eq!(read, vec![LeftOut { task_id: "MATH/7".into(), reason: "no reference".into() }]);
        std::fs::write(&file, "{\"task_id\": \"a\", \"reason\": \"b\"}\n{\"task\": \"c\"}\n").unwrap();
        let err = read_left_out(&file).unwrap_err().to_string();
        assert!(err.contains("left-out.jsonl:2:"), "{err}");
    }
}
