//! Why a step of test generation failed: one enum for the steps that run
//! the helpers and the sandbox (generate, strengthen, score, the
//! differential sets, a suite), each variant with what it failed on.
//! `tests_file` and `stdin_format` return their own narrower errors, and
//! `kill` and `reference` only ever [`SandboxFailure`].

use std::path::PathBuf;

use flowbench_problem::sandbox::SandboxFailure;

use super::generate::EveryInputDropped;
use super::python::HelperError;
use super::spec::SpecError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The problem's `problem.toml` is at fault (read here, or by the helper).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A helper call about the problem in `dir` failed (the solution at
    /// fault, or the helper itself).
    #[error("{}: {error}", .dir.display())]
    Helper { dir: PathBuf, error: HelperError },
    /// The sandbox could not run a job: the machine, not the code.
    #[error(transparent)]
    Sandbox(#[from] SandboxFailure),
    /// Validation kept no candidate input.
    #[error(transparent)]
    EveryInputDropped(#[from] EveryInputDropped),
    /// A whole program's `gen.py` could not be read.
    #[error("reading {}: {error}", .script.display())]
    ReadGenerator { script: PathBuf, error: std::io::Error },
    /// A whole program's `gen.py` failed on one of its seeds.
    #[error("{}: seed {seed} ({category}): {why}", .script.display())]
    GeneratorFailed { script: PathBuf, seed: u64, category: &'static str, why: String },
    /// `what` could not be encoded as JSON for a helper request.
    #[error("{error}")]
    Encode { what: &'static str, error: serde_json::Error },
}

impl Error {
    /// The helper's error about the problem in `dir`: a fault in its
    /// `problem.toml` becomes a [`SpecError`] naming that file, any other
    /// names the directory.
    pub fn from_helper(dir: &std::path::Path, error: HelperError) -> Error {
        match error {
            HelperError::Spec(message) => {
                Error::Spec(SpecError { path: dir.join(super::spec::SPEC_FILE), line: None, message })
            }
            error => Error::Helper { dir: dir.to_path_buf(), error },
        }
    }
}
