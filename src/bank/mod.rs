//! The problem bank: a directory of problems, each a flowchart, a reference
//! solution and native tests (see `problems/README.md`), and `build`, which
//! turns the bank into benchmark artefacts.
//!
//! This phase sits after `mermaid`, `render` and `judge` in the pipeline and
//! only calls into them.

pub mod build;
pub mod import;
pub mod spec;

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::judge::problem::Problem;

/// One problem directory, read but not yet checked.
#[derive(Debug, Clone)]
pub struct BankProblem {
    /// Directory name; also the output directory name.
    pub name: String,
    pub dir: PathBuf,
    pub flowchart: String,
    pub solution: String,
    pub problem: Problem,
}

/// File names inside a problem directory.
pub const FLOWCHART: &str = "flowchart.mmd";
pub const SOLUTION: &str = "solution.py";
pub const PROBLEM: &str = "problem.json";

/// Problem directories under `root` in name order (so builds are
/// deterministic). A directory without `flowchart.mmd` is not a problem.
pub fn problem_dirs(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(root).with_context(|| format!("reading problem bank {}", root.display()))? {
        let path = entry?.path();
        if path.join(FLOWCHART).is_file() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}

/// Reads one problem directory; errors name the file (and, for JSON, the
/// line and column).
pub fn load(dir: &Path) -> anyhow::Result<BankProblem> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
    };
    let problem_text = read(PROBLEM)?;
    let problem: Problem = serde_json::from_str(&problem_text).map_err(|e| {
        anyhow::anyhow!("{}:{}:{}: {}", dir.join(PROBLEM).display(), e.line(), e.column(), e)
    })?;
    Ok(BankProblem {
        name: dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        dir: dir.to_path_buf(),
        flowchart: read(FLOWCHART)?,
        solution: read(SOLUTION)?,
        problem,
    })
}
