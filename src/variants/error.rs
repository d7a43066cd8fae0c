//! What can go wrong making variants: a failure of the machine or of the
//! files, never a verdict on a candidate (that is [`super::prove::Unproven`]
//! or [`super::screen::Rejected`]). Each message is the one the CLI prints
//! after the problem's directory.

use std::path::PathBuf;

use crate::author::ReadError;
use crate::judge::run::SandboxFailure;

/// An error of a phase `variants` calls (`testgen`'s generation and
/// sandbox runs, `bank`'s spec reader), kept whole: its message and its
/// chain of causes are shown as that phase wrote them. Those phases still
/// report untyped errors; [`VariantError::phase`] takes any error type, so
/// their callers here need no change when they return typed ones.
pub type PhaseError = anyhow::Error;

#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// A step of another phase failed (see [`PhaseError`]).
    #[error(transparent)]
    Phase(PhaseError),
    #[error(transparent)]
    Rename(#[from] super::rename::RenameError),
    #[error("removing {}", .path.display())]
    Remove {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("creating {}", .path.display())]
    Create {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("writing {}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("reading {}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
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
    #[error("{}: drawing the variant: {error}", .target.display())]
    Draw { target: PathBuf, error: ReadError },
}

impl VariantError {
    /// Wraps another phase's error (whatever its type) as [`VariantError::Phase`].
    pub fn phase(error: impl Into<PhaseError>) -> VariantError {
        VariantError::Phase(error.into())
    }

    /// A failure of the machine rather than of the variant: somewhere in
    /// the chain of causes, the sandbox could not run a job.
    pub fn is_machine_failure(&self) -> bool {
        match self {
            VariantError::Phase(e) => machine_failure(e),
            _ => false,
        }
    }
}

/// Whether a [`SandboxFailure`] is in `error`'s chain of causes.
pub fn machine_failure(error: &PhaseError) -> bool {
    error.chain().any(|e| e.is::<SandboxFailure>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_phases_error_keeps_its_message_and_causes() {
        let phase = anyhow::Error::new(SandboxFailure("worker died".into())).context("running the candidate");
        let error = VariantError::phase(phase);
        assert_eq!(error.to_string(), "running the candidate");
        assert_eq!(format!("{:#}", anyhow::Error::new(error)), "running the candidate: sandbox: worker died");
    }

    #[test]
    fn a_sandbox_failure_anywhere_in_the_chain_is_the_machines() {
        let deep = anyhow::Error::new(SandboxFailure("worker died".into())).context("a").context("b");
        assert!(VariantError::phase(deep).is_machine_failure());
        assert!(VariantError::phase(SandboxFailure("bare".into())).is_machine_failure());
        let io = std::io::Error::other("disk full");
        assert!(!VariantError::Write { path: "x".into(), source: io }.is_machine_failure());
        assert!(!VariantError::phase(anyhow::anyhow!("sandbox: lookalike text")).is_machine_failure());
    }
}
