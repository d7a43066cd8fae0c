//! A file that could not be read or written, and a chain of causes shown
//! on one line.
//!
//! Every phase names the file and the step in the same words ("reading
//! X", "writing X", …) with the system's error as the cause; [`FileError`]
//! is that message once, so the phases' error enums carry it instead of
//! repeating one variant per step.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// What was being done to the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAction {
    Read,
    Write,
    Create,
    Remove,
    Open,
}

impl fmt::Display for FileAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileAction::Read => "reading",
            FileAction::Write => "writing",
            FileAction::Create => "creating",
            FileAction::Remove => "removing",
            FileAction::Open => "opening",
        })
    }
}

/// `reading X` (or writing, creating, …), caused by the system's error.
#[derive(Debug, thiserror::Error)]
#[error("{action} {}", path.display())]
pub struct FileError {
    pub action: FileAction,
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

impl FileError {
    /// `action` on `path` failed with `source`.
    pub fn new(action: FileAction, path: &Path, source: io::Error) -> FileError {
        FileError { action, path: path.to_path_buf(), source }
    }

    /// For `map_err`: reading `path` failed.
    pub fn reading(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
        move |source| FileError::new(FileAction::Read, path, source)
    }

    /// For `map_err`: writing `path` failed.
    pub fn writing(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
        move |source| FileError::new(FileAction::Write, path, source)
    }

    /// For `map_err`: creating the directory `path` failed.
    pub fn creating(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
        move |source| FileError::new(FileAction::Create, path, source)
    }

    /// For `map_err`: removing `path` failed.
    pub fn removing(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
        move |source| FileError::new(FileAction::Remove, path, source)
    }
}

/// `error` and its causes on one line, joined by `": "` (what the command
/// line prints for an error, for phases that put an error into a report).
pub fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut shown = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        shown.push_str(": ");
        shown.push_str(&e.to_string());
        cause = e.source();
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_step_and_the_file_with_the_cause_after() {
        let e = FileError::writing(Path::new("dist/a.png"))(io::Error::other("disk full"));
        assert_eq!(e.to_string(), "writing dist/a.png");
        assert_eq!(chain(&e), "writing dist/a.png: disk full");
        let e = FileError::new(FileAction::Create, Path::new("out"), io::Error::other("denied"));
        assert_eq!(chain(&e), "creating out: denied");
    }

    #[test]
    fn a_transparent_wrapper_is_shown_once() {
        #[derive(Debug, thiserror::Error)]
        enum Outer {
            #[error(transparent)]
            File(#[from] FileError),
        }
        let e = Outer::from(FileError::reading(Path::new("x"))(io::Error::other("gone")));
        assert_eq!(chain(&e), "reading x: gone");
    }
}
