//! The bench an ablation runs against: a built `dist/` directory (records
//! with images and Mermaid text) or a plain problems JSONL (native or
//! Code-Vision's `problems.jsonl`, judged without images).

use std::path::{Path, PathBuf};

use flowbench_bank::dist_record::{DistError, DistRecord, problem_set, read_dist};
use flowbench_judge::problems_file::{Diagnostic, ProblemSet, ProblemsFileError, load_problems};

/// A bench that cannot be read: a `dist/` or a problems file.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Dist(#[from] DistError),
    #[error(transparent)]
    Problems(#[from] ProblemsFileError),
}

/// Problems to judge and, for a `dist/`, what the report shows of them.
#[derive(Debug, Clone, Default)]
pub struct Bench {
    pub problems: ProblemSet,
    /// The dist records (empty for a problems file).
    pub records: Vec<DistRecord>,
    /// The `dist/` directory, when the bench is one.
    pub dir: Option<PathBuf>,
}

/// Reads `path`: a directory is a `dist/`, a file a problems JSONL.
pub fn load_bench(path: &Path) -> Result<(Bench, Vec<Diagnostic>), BenchError> {
    if path.is_dir() {
        let (records, mut diags) = read_dist(path)?;
        let (problems, more) = problem_set(&records, path);
        diags.extend(more);
        return Ok((Bench { problems, records, dir: Some(path.to_path_buf()) }, diags));
    }
    let (problems, diags) = load_problems(path)?;
    Ok((Bench { problems, records: Vec::new(), dir: None }, diags))
}
