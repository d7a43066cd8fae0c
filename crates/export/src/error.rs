//! Why an export fails: each variant names the file (or the style, or the
//! output directory) at fault, as the command line prints it.

use std::path::PathBuf;

use flowbench_dist::DistError;
use flowbench_dist::manifest::ManifestError;
use flowbench_judge::problems_file::Diagnostic;

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Dist(#[from] DistError),
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// The dist was built by another flowbench version: its records may
    /// not mean what this version's judge reads them as.
    #[error("{}: built by flowbench {found}, this is flowbench {expected}: rebuild it (`flowbench build`)", file.display())]
    Version { file: PathBuf, found: String, expected: String },
    /// A line of a record file that is no record (file and line).
    #[error("{0}")]
    BadRecord(Diagnostic),
    #[error("{}: no records", dir.display())]
    NoRecords { dir: PathBuf },
    #[error("unknown style {style:?}: the dist has {}", styles.join(", "))]
    UnknownStyle { style: String, styles: Vec<String> },
    /// A record names no image in the chosen style, or its file is missing.
    #[error("{}: {task_id}'s image in style {style:?} is missing", file.display())]
    MissingImage { task_id: String, style: String, file: PathBuf },
    #[error("{}: not empty (pass --force to write over it)", out.display())]
    OutNotEmpty { out: PathBuf },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: writing parquet: {source}", file.display())]
    Parquet {
        file: PathBuf,
        #[source]
        source: parquet::errors::ParquetError,
    },
}

/// An I/O error on `path`.
pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ExportError {
    let path = path.into();
    move |source| ExportError::Io { path, source }
}
