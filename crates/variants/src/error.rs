//! What can go wrong making variants: a failure of the machine or of the
//! files, never a verdict on a candidate (that is [`super::prove::Unproven`]
//! or [`super::screen::Rejected`]). Each message, with its causes
//! (`flowbench_support::chain`), is the one the CLI prints after the
//! problem's directory.

use std::path::PathBuf;

use flowbench_support::FileError;

use flowbench_author::ReadError;
use flowbench_bank::spec::SpecInputError;
use flowbench_judge::run::SandboxFailure;
use flowbench_testgen::tests_file::TestsFileError;

#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// The original's or the variant's `problem.toml`, `problem.json` or
    /// `solution.py`, as `tests gen` reads them (`bank::spec`).
    #[error(transparent)]
    SpecInput(#[from] SpecInputError),
    /// A `tests.jsonl` that cannot be read or written.
    #[error(transparent)]
    TestsFile(#[from] TestsFileError),
    /// A step of test generation (the mutants) failed on the original.
    #[error(transparent)]
    Generation(#[from] flowbench_testgen::Error),
    /// The sandbox could not run a job: the machine, not the variant.
    #[error(transparent)]
    Sandbox(#[from] SandboxFailure),
    #[error(transparent)]
    Rename(#[from] super::rename::RenameError),
    #[error(transparent)]
    File(#[from] FileError),
    /// A file read with no context of its own (the carried tests' `problem.json`).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("reading {}", .path.display())]
    JsonFile {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("{}: not a JSON object", .path.display())]
    NotAnObject { path: PathBuf },
    #[error("reading {}", .path.display())]
    Spec {
        path: PathBuf,
        #[source]
        source: toml::de::Error,
    },
    #[error("{}: [meta] is not a table", .path.display())]
    MetaNotATable { path: PathBuf },
    #[error("writing problem.toml")]
    SpecText(#[source] toml::ser::Error),
    /// A whole program's carried test whose input or answer is not text.
    #[error("{}: {error}", .path.display())]
    StdioTests { path: PathBuf, error: flowbench_bank::stdio::NotText },
    #[error("{}: drawing the variant: {error}", .target.display())]
    Draw { target: PathBuf, error: ReadError },
}

impl VariantError {
    /// A failure of the machine rather than of the variant: the sandbox
    /// could not run a job (directly, or inside test generation).
    pub fn is_machine_failure(&self) -> bool {
        matches!(self, VariantError::Sandbox(_) | VariantError::Generation(flowbench_testgen::Error::Sandbox(_)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flowbench_support::chain;

    #[test]
    fn another_phases_error_keeps_its_message_and_causes() {
        let missing = SpecInputError::NoSpec { dir: "problems/gcd".into() };
        let error = VariantError::from(missing);
        assert_eq!(
            chain(&error),
            "problems/gcd: no problem.toml; write one (see problems/README.md) to generate tests"
        );
        let io = std::io::Error::other("disk full");
        let error = VariantError::from(FileError::writing(std::path::Path::new("x/problem.json"))(io));
        assert_eq!(chain(&error), "writing x/problem.json: disk full");
    }

    #[test]
    fn a_sandbox_failure_is_the_machines_wherever_it_came_from() {
        assert!(VariantError::from(SandboxFailure("bare".into())).is_machine_failure());
        let in_generation = flowbench_testgen::Error::Sandbox(SandboxFailure("worker died".into()));
        assert!(VariantError::from(in_generation).is_machine_failure());
        let io = std::io::Error::other("disk full");
        assert!(!VariantError::from(FileError::writing(std::path::Path::new("x"))(io)).is_machine_failure());
        let helper = flowbench_testgen::Error::Encode {
            what: "the request",
            error: serde_json::from_str::<u8>("x").unwrap_err(),
        };
        assert!(!VariantError::from(helper).is_machine_failure());
    }
}
