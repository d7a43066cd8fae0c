//! A problem directory read once.
//!
//! A bank problem is a directory of small files (`problem.json`,
//! `problem.toml`, `solution.py`, `flowchart.mmd`, `description.md`, a
//! whole program's `gen.py`). Several phases need the same files: the bank's
//! loader, test generation's spec and stamp, the metadata of the dist. Each
//! reading them itself meant `problem.json` was read three times per build,
//! and a file edited between two reads could give one build two versions of
//! it. [`ProblemDir::read`] reads every file once; the phases take their text
//! from it.

use std::io;
use std::path::{Path, PathBuf};

/// A file a problem directory may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum File {
    /// `problem.json`: the native problem (entry point, call style, tests).
    Problem,
    /// `problem.toml`: test generation's settings and `[meta]`.
    Spec,
    /// `solution.py`: the reference solution.
    Solution,
    /// `flowchart.mmd`: the chart (a directory without one is no problem).
    Flowchart,
    /// `description.md`: the statement.
    Description,
    /// `gen.py`: a whole program's input generator.
    Generator,
}

impl File {
    const ALL: [File; 6] =
        [File::Problem, File::Spec, File::Solution, File::Flowchart, File::Description, File::Generator];

    /// The file's name inside the directory.
    pub const fn name(self) -> &'static str {
        match self {
            File::Problem => "problem.json",
            File::Spec => "problem.toml",
            File::Solution => "solution.py",
            File::Flowchart => "flowchart.mmd",
            File::Description => "description.md",
            File::Generator => "gen.py",
        }
    }
}

/// A file of a problem directory that could not be read (for a file the
/// caller requires, also a missing one). The I/O error is part of the
/// message, not a cause, so a chain printed with `{:#}` says it once.
#[derive(Debug, thiserror::Error)]
#[error("reading {}: {error}", path.display())]
pub struct ReadError {
    pub path: PathBuf,
    pub error: io::Error,
}

/// The texts of a problem directory's files, each read once. A missing file
/// is `None` until a caller requires it; any other failure to read one is
/// kept, and reported by whichever caller asks for that file, so a problem
/// whose optional `description.md` is unreadable fails only where the
/// description is needed.
#[derive(Debug)]
pub struct ProblemDir {
    path: PathBuf,
    /// Indexed like [`File::ALL`].
    texts: Vec<io::Result<String>>,
}

impl ProblemDir {
    /// Reads every known file of `path`.
    pub fn read(path: &Path) -> ProblemDir {
        let texts = File::ALL.iter().map(|f| std::fs::read_to_string(path.join(f.name()))).collect();
        ProblemDir { path: path.to_path_buf(), texts }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The directory's name (the problem's name in the bank).
    pub fn name(&self) -> String {
        self.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    }

    /// The path of the directory's `file`.
    pub fn file(&self, file: File) -> PathBuf {
        self.path.join(file.name())
    }

    /// The text of `file`, `None` when the directory has none.
    pub fn optional(&self, file: File) -> Result<Option<&str>, ReadError> {
        match self.text(file) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(self.error(file, e)),
        }
    }

    /// The text of `file`, which the caller cannot do without.
    pub fn required(&self, file: File) -> Result<&str, ReadError> {
        self.text(file).as_deref().map_err(|e| self.error(file, e))
    }

    fn text(&self, file: File) -> &io::Result<String> {
        // The variants are declared in `File::ALL`'s order.
        &self.texts[file as usize]
    }

    /// The error for `file`; io::Error is not Clone, so a copy with the same
    /// kind and message (what the user reads) is made.
    fn error(&self, file: File, e: &io::Error) -> ReadError {
        ReadError { path: self.file(file), error: io::Error::new(e.kind(), e.to_string()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_read_once_and_missing_ones_are_none_until_required() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join(File::Solution.name()), "def f():\n    return 1\n").expect("write");
        let problem = ProblemDir::read(dir.path());
        // Edited after the read: the phases still see one version.
        std::fs::write(dir.path().join(File::Solution.name()), "changed").expect("write");
        assert_eq!(problem.required(File::Solution).expect("solution"), "def f():\n    return 1\n");
        assert!(problem.optional(File::Description).expect("no error").is_none());
        let missing = problem.required(File::Flowchart).expect_err("required");
        assert_eq!(missing.path, dir.path().join(File::Flowchart.name()));
        let shown = missing.to_string();
        assert!(
            shown.starts_with(&format!("reading {}: ", dir.path().join(File::Flowchart.name()).display())),
            "{shown}"
        );
        assert!(shown.contains("No such file or directory"), "{shown}");
    }

    #[test]
    fn an_unreadable_optional_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        // A directory where a file is expected cannot be read as text.
        std::fs::create_dir(dir.path().join(File::Description.name())).expect("mkdir");
        let problem = ProblemDir::read(dir.path());
        let e = problem.optional(File::Description).expect_err("unreadable");
        assert_eq!(e.path, dir.path().join(File::Description.name()));
    }
}
