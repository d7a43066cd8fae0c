//! `dist/manifest.json` and `dist/summary.json` as a reader of a built
//! benchmark needs them: the version that built it, its styles, subsets,
//! Table 1 and each problem's test counts and mutation score. The bank
//! writes the full files (`bank::dist`, `bank::summary`); fields not named
//! here are ignored, so a reader keeps working when the bank adds one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

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
