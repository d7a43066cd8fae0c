//! A built benchmark (`dist/`, read through `flowbench-dist`) exported to
//! the harnesses researchers evaluate models in, each scored by
//! `flowbench judge` (native mode, in the sandbox):
//!
//! - [`hf`]: Hugging Face datasets, one parquet file per subset with an
//!   `Image` feature, and a dataset card ([`card`]) from the manifest;
//! - [`inspect`]: an inspect_ai task (`flowbench_inspect.py`), its samples
//!   and images, with a scorer that calls the judge;
//! - [`vlmevalkit`]: a VLMEvalKit TSV (images as base64) and a dataset
//!   class whose `evaluate` calls the judge.
//!
//! The prompt text is the caller's (`Options::prompt`): the command line
//! passes the `prompts` command's templates, so an exported prompt is the
//! one `flowbench prompts` would send. [`source`] checks the dist before
//! anything is written.

use std::path::{Path, PathBuf};

use flowbench_dist::DistRecord;

pub mod card;
pub mod error;
pub mod hf;
pub mod inspect;
pub mod source;
pub mod tsv;
pub mod vlmevalkit;

pub use error::ExportError;
use error::io;
pub use source::Source;

/// The harness to export to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Hf,
    Inspect,
    Vlmevalkit,
}

/// What a prompt shows besides the starter code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// The flowchart image.
    Flowchart,
    /// The canonical Mermaid text.
    Mermaid,
    /// The description alone.
    Text,
}

impl Condition {
    pub const ALL: [Condition; 3] = [Condition::Flowchart, Condition::Mermaid, Condition::Text];

    /// The condition's name, as `prompts` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Condition::Flowchart => "flowchart",
            Condition::Mermaid => "mermaid",
            Condition::Text => "text",
        }
    }
}

/// A record's prompt text under a condition (the image, when there is
/// one, goes beside it).
pub type PromptText<'a> = &'a (dyn Fn(&DistRecord, Condition) -> String + Sync);

/// One export.
pub struct Options<'a> {
    pub dist: PathBuf,
    pub out: PathBuf,
    pub target: Target,
    /// A style id of the dist (`None`: its first).
    pub style: Option<String>,
    pub condition: Condition,
    /// Write into a non-empty `out`.
    pub force: bool,
    pub prompt: PromptText<'a>,
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    /// The files written, `out`-relative, in the order written (images
    /// counted, not listed).
    pub files: Vec<String>,
    pub rows: usize,
    pub images: usize,
    pub style: String,
}

/// Checks the dist, then writes the export into `opts.out`.
pub fn export(opts: &Options) -> Result<Exported, ExportError> {
    let source = Source::load(&opts.dist, opts.style.as_deref())?;
    prepare_out(&opts.out, opts.force)?;
    match opts.target {
        Target::Hf => hf::write(&source, opts),
        Target::Inspect => inspect::write(&source, opts),
        Target::Vlmevalkit => vlmevalkit::write(&source, opts),
    }
}

/// Refuses a non-empty `out` unless `force`, then creates it.
fn prepare_out(out: &Path, force: bool) -> Result<(), ExportError> {
    let non_empty = match std::fs::read_dir(out) {
        Ok(mut entries) => entries.next().is_some(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) => return Err(io(out)(e)),
    };
    if non_empty && !force {
        return Err(ExportError::OutNotEmpty { out: out.into() });
    }
    std::fs::create_dir_all(out).map_err(io(out))
}

/// `out/rel`, its directory created.
fn path_in(out: &Path, rel: &str) -> Result<PathBuf, ExportError> {
    let path = out.join(rel);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    Ok(path)
}

/// Writes `bytes` to `out/rel`, creating its directory.
pub(crate) fn put(out: &Path, rel: &str, bytes: &[u8]) -> Result<(), ExportError> {
    let path = path_in(out, rel)?;
    std::fs::write(&path, bytes).map_err(io(&path))
}

/// A file of `out` written line by line (its directory created).
pub(crate) struct LineFile {
    path: PathBuf,
    writer: std::io::BufWriter<std::fs::File>,
}

impl LineFile {
    pub(crate) fn create(out: &Path, rel: &str) -> Result<LineFile, ExportError> {
        let path = path_in(out, rel)?;
        let file = std::fs::File::create(&path).map_err(io(&path))?;
        Ok(LineFile { writer: std::io::BufWriter::new(file), path })
    }

    pub(crate) fn write(&mut self, text: &str) -> Result<(), ExportError> {
        use std::io::Write as _;
        self.writer.write_all(text.as_bytes()).map_err(io(&self.path))
    }

    /// One record as a line of a problems file the judge reads (`flowbench
    /// judge --problems`).
    pub(crate) fn write_record(&mut self, record: &DistRecord) -> Result<(), ExportError> {
        let line = serde_json::to_string(record).map_err(|e| io(&self.path)(e.into()))?;
        self.write(&line)?;
        self.write("\n")
    }

    pub(crate) fn finish(mut self) -> Result<(), ExportError> {
        use std::io::Write as _;
        self.writer.flush().map_err(io(&self.path))
    }
}
