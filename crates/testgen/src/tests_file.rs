//! `tests.jsonl`: a problem's generated tests. The first line is a header
//! with the stamp of the solution and spec they came from (so `build` can
//! refuse stale tests) and the generation figures; every other line is one
//! validated test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use flowbench_problem::problem::Category;

/// File name inside a problem directory.
pub const TESTS: &str = "tests.jsonl";

/// The command that refreshes a problem's tests, for messages.
pub fn refresh_command(dir: &Path) -> String {
    format!("flowbench tests gen {}", dir.display())
}

/// One validated test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GeneratedTest {
    pub category: Category,
    /// Arguments in the native value encoding.
    pub args: Vec<serde_json::Value>,
    /// What the reference returned (the same on two runs).
    pub expected: serde_json::Value,
    /// The reference's wall time on this input, seconds, the faster of its
    /// two validation runs, under the operation counter (which slows it by
    /// up to two times: the judge's limit, four times this, errs long).
    /// The only field that differs between two generations with the same
    /// seed.
    pub reference_time_s: f64,
    /// The operations the reference counted on this input (a call, a loop
    /// turn, a comprehension element: `reference.rs`'s counter), fewer of
    /// its two runs. Unlike the time, the same on any machine and load, so
    /// the kill search limits a mutant by it (ten times these) and decides
    /// alike on an idle and a loaded machine. Absent in files written
    /// before it was recorded, and for whole programs (not counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_ops: Option<u64>,
    /// How the input was made (`random, size 6`, `edge: nums empty`,
    /// `original test 2`, `mutation of seed 1`, …).
    pub how: String,
    /// Why the input lies beyond what the statement and its examples say,
    /// when the generator drew it from a domain it widened past them (the
    /// judge classes a program failing only such tests `widened`, not
    /// `wrong`). Absent for every other test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub widened: Option<String>,
    /// Whether `build` puts it in the benchmark (`ship`): `false` keeps a
    /// test for scoring only. Files written before the shipped suite
    /// existed ship every test.
    #[serde(default = "shipped_by_default", skip_serializing_if = "is_shipped")]
    pub shipped: bool,
}

/// What the label of the stretched example ends with (`large: original
/// test 1 repeated 75000 times (stretched)`, `main.py`'s
/// `stretched_examples`): a test kept for the time limit alone.
pub const STRETCHED: &str = " (stretched)";

fn shipped_by_default() -> bool {
    true
}

fn is_shipped(shipped: &bool) -> bool {
    *shipped
}

/// The first line of `tests.jsonl`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// [`stamp`] of the solution, spec and original tests.
    pub stamp: String,
    pub seed: u64,
    /// Tests kept per category.
    pub typical: usize,
    pub edge: usize,
    pub large: usize,
    /// Candidates dropped, by reason (`disputed`: dropped on review, see
    /// [`Header::disputed`]; `invalid`, `raised`, `timeout`,
    /// `nondeterministic`, `unencodable`, `duplicate`, `wrong_expected`,
    /// `outside_spec`: generated but breaking a constraint, never run;
    /// `timeout` includes large inputs not run because a smaller one timed
    /// out or its time, grown, would pass the limit: which of the two
    /// happened depends on the machine's load, the header must not).
    pub dropped: BTreeMap<String, usize>,
    /// The mutation score of these tests, when `tests gen --score` measured
    /// it (the gallery and `build`'s summary show it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutation: Option<MutationSummary>,
    /// The mutation score of the problem's original (hand-written) tests
    /// against the same mutants, measured with [`Header::mutation`]: how
    /// much the generated tests add.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub originals_mutation: Option<MutationSummary>,
    /// Where each parameter's domain came from: `spec` (its `[params.X]`
    /// table), `examples` (inferred from the original tests, for imported
    /// problems), `signature` (its type alone); `+valid` when the solution's
    /// `valid()` filters inputs too.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub domains: BTreeMap<String, String>,
    /// The lowered sizes of the large tests, when the reference timed out
    /// or raised at the default ones (`tests gen` searched down for the
    /// largest it handles within the limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub large_lowered: Option<String>,
    /// `weak: …` when the reference ran with weak isolation
    /// (`--allow-weak-sandbox` and a confinement step failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weak_sandbox: Option<String>,
    /// Tests marked to ship (`ship::select`), when fewer than all: `build`
    /// puts only these in the benchmark.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shipped: Option<usize>,
    /// Tests a reviewer dropped after the crowd disputed them (`judge`'s
    /// disputed tests, given back by `tests gen --drop-disputed` or the
    /// spec's `[[dropped_tests]]`), each with the reason: never generated
    /// again, and carried over by the next `tests gen`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disputed: Vec<DroppedTest>,
}

/// A test dropped on review: its arguments (native encoding) and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DroppedTest {
    pub args: Vec<serde_json::Value>,
    pub reason: String,
}

/// How strong the tests are: mutants of the reference they kill.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct MutationSummary {
    pub mutants: usize,
    pub equivalent: usize,
    pub killed: usize,
    /// killed ÷ (mutants − equivalent), or a lower bound of it (`bound`).
    pub score: f64,
    /// `"lower"` when the kill search stopped once a wanted score was
    /// proven (`score::score_at_least`): `killed` counts the kills found by
    /// then, `equivalent` the mutants set aside (neither the tests run on
    /// them nor the equivalence pool kill them), and `score` = killed ÷
    /// (mutants − equivalent) is at most the exact score, which `tests
    /// score` measures. Absent when the figures are exact.
    #[serde(default, skip_serializing_if = "Bound::is_exact")]
    pub bound: Bound,
}

impl MutationSummary {
    /// The score when exact; `None` for a lower bound.
    pub fn exact_score(&self) -> Option<f64> {
        (self.bound == Bound::Exact).then_some(self.score)
    }
}

/// Whether a [`MutationSummary`]'s score is exact or a lower bound.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    #[default]
    Exact,
    Lower,
}

impl Bound {
    fn is_exact(&self) -> bool {
        *self == Bound::Exact
    }
}

/// A fingerprint of what decides the tests: solution, spec and the
/// original tests' file (FNV-1a, as `build` stamps artefacts). The spec
/// counts without its comments and its `[meta]` table, which describe the
/// problem but do not change a single test.
pub fn stamp(solution: &str, spec: &str, originals: &str) -> String {
    let spec = test_relevant_spec(spec);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in ["flowbench tests v1", solution, spec.as_str(), originals] {
        for b in part.bytes().chain([0xff]) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// The spec as canonical TOML without `[meta]`; text that does not parse
/// counts as it is (generation will report the error).
fn test_relevant_spec(spec: &str) -> String {
    match spec.parse::<toml::Table>() {
        Ok(mut table) => {
            table.remove("meta");
            toml::to_string(&table).unwrap_or_else(|_| spec.to_string())
        }
        Err(_) => spec.to_string(),
    }
}

/// Why `tests.jsonl` could not be written or read; each names the file,
/// and a line of it where one is at fault.
#[derive(Debug, thiserror::Error)]
pub enum TestsFileError {
    /// The header or a test could not be encoded.
    #[error("{error}")]
    Encode { path: PathBuf, error: serde_json::Error },
    /// The temporary file beside `path` could not be made or filled.
    #[error("{error}")]
    Temporary { path: PathBuf, error: std::io::Error },
    /// The temporary file could not be renamed to `path`.
    #[error("writing {}: {error}", .path.display())]
    Write { path: PathBuf, error: std::io::Error },
    #[error("reading {}: {error}", .path.display())]
    Read { path: PathBuf, error: std::io::Error },
    #[error("{}: empty tests file", .path.display())]
    Empty { path: PathBuf },
    /// The first line is not a header.
    #[error("{}:1:{column}: bad header: {error}", .path.display())]
    BadHeader { path: PathBuf, column: usize, error: serde_json::Error },
    /// A later line is not a test.
    #[error("{}:{line}:{column}: {error}", .path.display())]
    BadTest { path: PathBuf, line: usize, column: usize, error: serde_json::Error },
}

/// Writes header and tests, atomically (a temporary file renamed).
pub fn write(path: &Path, header: &Header, tests: &[GeneratedTest]) -> Result<(), TestsFileError> {
    use std::io::Write as _;
    let encode = |error| TestsFileError::Encode { path: path.to_path_buf(), error };
    let mut text = serde_json::to_string(header).map_err(encode)?;
    text.push('\n');
    for t in tests {
        text.push_str(&serde_json::to_string(t).map_err(encode)?);
        text.push('\n');
    }
    let temporary = |error| TestsFileError::Temporary { path: path.to_path_buf(), error };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(temporary)?;
    tmp.write_all(text.as_bytes()).map_err(temporary)?;
    tmp.persist(path).map_err(|e| TestsFileError::Write { path: path.to_path_buf(), error: e.error })?;
    Ok(())
}

/// Reads a tests file; errors name the file and line.
pub fn read(path: &Path) -> Result<(Header, Vec<GeneratedTest>), TestsFileError> {
    let text =
        std::fs::read_to_string(path).map_err(|error| TestsFileError::Read { path: path.to_path_buf(), error })?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines.next().ok_or_else(|| TestsFileError::Empty { path: path.to_path_buf() })?;
    let header: Header = serde_json::from_str(first).map_err(|error| TestsFileError::BadHeader {
        path: path.to_path_buf(),
        column: error.column(),
        error,
    })?;
    let mut tests = Vec::new();
    for (i, line) in lines {
        tests.push(serde_json::from_str(line).map_err(|error| TestsFileError::BadTest {
            path: path.to_path_buf(),
            line: i + 1,
            column: error.column(),
            error,
        })?);
    }
    Ok((header, tests))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_stamp_changes_with_inputs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(TESTS);
        let header = Header { stamp: stamp("a", "b", "c"), seed: 1, typical: 1, ..Header::default() };
        let tests = vec![GeneratedTest {
            category: Category::Edge,
            args: vec![serde_json::json!([1, 2])],
            expected: serde_json::json!(3),
            reference_time_s: 0.001,
            reference_ops: Some(12),
            how: "edge: x".into(),
            widened: None,
            shipped: false,
        }];
        write(&path, &header, &tests).unwrap();
        assert_eq!(read(&path).unwrap(), (header, tests));
        assert_ne!(stamp("a", "b", "c"), stamp("a", "b", "d"));
        assert_ne!(stamp("ab", "", "c"), stamp("a", "b", "c"));
        let spec = "seed = 1\n[params.a]\nmin = 0\n";
        let described = "# a comment\nseed = 1\n[meta]\ntitle = \"t\"\n[params.a]\nmin = 0\n";
        assert_eq!(stamp("s", spec, "o"), stamp("s", described, "o"), "comments and [meta] do not make tests stale");
        assert_ne!(stamp("s", spec, "o"), stamp("s", "seed = 2\n[params.a]\nmin = 0\n", "o"));
        std::fs::write(
            &path,
            "{\"stamp\":\"x\",\"seed\":1,\"typical\":0,\"edge\":0,\"large\":0,\"dropped\":{}}\nnot json\n",
        )
        .unwrap();
        let err = read(&path).unwrap_err();
        assert!(matches!(&err, TestsFileError::BadTest { path: p, line: 2, column: 2, .. } if *p == path), "{err:?}");
        let why = serde_json::from_str::<GeneratedTest>("not json").unwrap_err();
        assert_eq!(err.to_string(), format!("{}:2:2: {why}", path.display()));
    }
}
