//! A reviewed list of disputed tests taken back into generation
//! (`tests gen --drop-disputed FILE`): the lines of `judge`'s
//! `RESULTS.disputed.jsonl` a benchmark author kept, each with a reason.
//! Each names a task and a test's arguments; the problem's suite never
//! ships that input again, and its `tests.jsonl` header carries the list
//! so the next generation keeps it dropped.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::tests_file::{self, DroppedTest};

/// Why a reviewed list cannot be used, with the file and line.
#[derive(Debug, thiserror::Error)]
pub enum ReviewedError {
    #[error("reading {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{line}: not a disputed test", path.display())]
    NotATest {
        path: PathBuf,
        line: usize,
        #[source]
        source: serde_json::Error,
    },
    #[error("{}:{line}: no `args` (judge with --problems so the report names each test's arguments)", path.display())]
    NoArgs { path: PathBuf, line: usize },
    #[error("{}:{line}: no `reason`: say why the test is dropped, or delete the line to keep it", path.display())]
    NoReason { path: PathBuf, line: usize },
}

/// One reviewed line: the task, the test's arguments and why it is
/// dropped (the report's other fields are left).
#[derive(Debug, Deserialize)]
struct Line {
    task_id: String,
    args: Option<Vec<serde_json::Value>>,
    #[serde(default)]
    reason: String,
}

/// The reviewed tests of a file, by task id.
#[derive(Debug, Default)]
pub struct Reviewed {
    tests: Vec<(String, DroppedTest)>,
}

impl Reviewed {
    /// Reads `path`; a line without arguments or a reason is refused,
    /// naming it.
    pub fn read(path: &Path) -> Result<Reviewed, ReviewedError> {
        let text = std::fs::read_to_string(path).map_err(|source| ReviewedError::Read { path: path.into(), source })?;
        let mut tests = Vec::new();
        for (i, text) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let (path, line) = (path.to_path_buf(), i + 1);
            let r: Line = match serde_json::from_str(text) {
                Ok(r) => r,
                Err(source) => return Err(ReviewedError::NotATest { path, line, source }),
            };
            let Some(args) = r.args else { return Err(ReviewedError::NoArgs { path, line }) };
            if r.reason.trim().is_empty() {
                return Err(ReviewedError::NoReason { path, line });
            }
            tests.push((r.task_id, DroppedTest { args, reason: r.reason }));
        }
        Ok(Reviewed { tests })
    }

    /// The tests dropped for the problem in `dir` (named `name`, or by its
    /// `problem.json`'s task id): the reviewed lines naming it, then those
    /// its current `tests.jsonl` lists, each input once.
    pub fn dropped_for(&self, dir: &Path, name: &str) -> Vec<DroppedTest> {
        let task_id = std::fs::read_to_string(dir.join("problem.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|p| p.get("task_id").and_then(|t| t.as_str()).map(str::to_string));
        let mut out: Vec<DroppedTest> = self
            .tests
            .iter()
            .filter(|(task, _)| task == name || Some(task) == task_id.as_ref())
            .map(|(_, d)| d.clone())
            .collect();
        // A stale or unreadable file has no say in what is generated; its
        // list of dropped tests still stands.
        if let Ok((header, _)) = tests_file::read(&dir.join(tests_file::TESTS)) {
            out.extend(header.disputed);
        }
        let mut seen = HashSet::new();
        out.retain(|d| seen.insert(super::generate::args_key(&d.args)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_without_args_or_reason_is_refused_naming_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("disputed.jsonl");
        let write = |text: &str| std::fs::write(&file, text).expect("write");
        write(
            "{\"task_id\": \"t\", \"args\": [1], \"reason\": \"beyond the statement\"}\n\n{\"task_id\": \"t\", \"reason\": \"x\"}\n",
        );
        let err = Reviewed::read(&file).expect_err("no args");
        assert!(matches!(err, ReviewedError::NoArgs { line: 3, .. }), "{err}");
        write("{\"task_id\": \"t\", \"args\": [1]}\n");
        assert!(matches!(Reviewed::read(&file), Err(ReviewedError::NoReason { line: 1, .. })));
        write("not json\n");
        assert!(matches!(Reviewed::read(&file), Err(ReviewedError::NotATest { line: 1, .. })));
        write(
            "{\"task_id\": \"t\", \"args\": [1], \"reason\": \"r\"}\n{\"task_id\": \"u\", \"args\": [2], \"reason\": \"r\"}\n{\"task_id\": \"t\", \"args\": [1], \"reason\": \"again\"}\n",
        );
        let reviewed = Reviewed::read(&file).expect("reads");
        let dropped = reviewed.dropped_for(dir.path(), "t");
        assert_eq!(dropped.len(), 1, "each input once: {dropped:?}");
        assert_eq!(dropped[0].args, vec![serde_json::json!(1)]);
    }
}
