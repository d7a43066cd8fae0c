//! Problem metadata: the `[meta]` table of a problem's `problem.toml` and its
//! `description.md` (the statement shown in the text-only condition).
//!
//! Only `[meta]` is read here; the other tables of `problem.toml` (signature,
//! constraints, seeds) belong to test generation and are ignored, so the two
//! can evolve separately.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use flowbench_problem::dir::{File, ProblemDir, ReadError};

/// The authored spec file holding `[meta]`.
pub const PROBLEM_TOML: &str = File::Spec.name();
/// The problem statement in Markdown.
pub const DESCRIPTION: &str = File::Description.name();

/// Subsets every bank knows, in Table 1 order. Others are allowed (a bank
/// may add its own, e.g. `geometry`) and sort after these by name.
pub const BUILTIN_SUBSETS: [&str; 3] = ["basic", "algorithm", "math"];

/// Who and where a problem comes from, and how it is classified.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    /// Human title, e.g. "Greatest common divisor".
    pub title: String,
    /// `basic` | `algorithm` | `math`, or a bank's own subset name.
    pub subset: String,
    pub difficulty: Difficulty,
    /// Where the problem comes from ("original", a URL, a book).
    pub source: String,
    /// Licence of the statement and solution (SPDX id, e.g. `MIT`).
    pub licence: String,
    /// The problem this one is a variant of (`flowbench variants`), by
    /// directory name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_of: Option<String>,
    /// How the variant differs: `constants` or `logic`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_kind: Option<String>,
}

/// Code-Vision's three difficulty levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    pub fn as_str(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

/// A problem's `problem.toml` `[meta]` or its description that cannot be
/// used; each names the file. (The I/O error is in the message, not a
/// cause: callers show their chain of causes, which is this message.)
#[derive(Debug, thiserror::Error)]
pub enum ProblemFileError {
    #[error("reading {}: {error}", .path.display())]
    Unreadable { path: PathBuf, error: std::io::Error },
    /// `[meta]` is wrong; the message starts with `:line:col: ` when known.
    #[error("{}{error}", .path.display())]
    Meta { path: PathBuf, error: MetaError },
    #[error("{}: the description is empty", .path.display())]
    EmptyDescription { path: PathBuf },
}

impl From<ReadError> for ProblemFileError {
    fn from(ReadError { path, error }: ReadError) -> ProblemFileError {
        ProblemFileError::Unreadable { path, error }
    }
}

/// `[meta]` of the problem's `problem.toml`; errors name the file, and for
/// TOML errors the line and column.
pub fn read_meta(problem: &ProblemDir) -> Result<Meta, ProblemFileError> {
    let text = problem.required(File::Spec)?;
    parse_meta(text).map_err(|error| ProblemFileError::Meta { path: problem.file(File::Spec), error })
}

/// What is wrong with a `problem.toml`'s `[meta]`; the message follows
/// the file's name (it starts with `:line:col: ` when the place is known).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetaError {
    /// Not TOML, at 1-based `line`:`column`.
    #[error(":{line}:{column}: {message}")]
    Toml { line: usize, column: usize, message: String },
    /// Not TOML, nowhere in particular.
    #[error(": {0}")]
    TomlNowhere(String),
    #[error(": missing [meta] table")]
    MissingTable,
    /// A field missing, unknown or of the wrong type (TOML's message).
    #[error(": [meta]: {0}")]
    Fields(String),
    #[error(": [meta]: {0}")]
    Invalid(InvalidMeta),
}

/// A `[meta]` that reads but says nothing usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidMeta {
    #[error("`title` is empty")]
    EmptyTitle,
    #[error(
        "`subset` {subset:?} must be a lowercase name ([a-z][a-z0-9_-]*), e.g. one of {}",
        BUILTIN_SUBSETS.join(", ")
    )]
    SubsetName { subset: String },
    /// `source` or `licence`.
    #[error("`{field}` is empty")]
    Empty { field: &'static str },
}

/// [`read_meta`] on text; the error starts with `:line:col: ` when known.
pub fn parse_meta(text: &str) -> Result<Meta, MetaError> {
    let doc: toml::Table = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    let table = doc.get("meta").ok_or(MetaError::MissingTable)?;
    let meta: Meta =
        table.clone().try_into().map_err(|e: toml::de::Error| MetaError::Fields(e.message().to_string()))?;
    validate(&meta).map_err(MetaError::Invalid)?;
    Ok(meta)
}

fn toml_error(text: &str, e: &toml::de::Error) -> MetaError {
    match e.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            MetaError::Toml { line, column, message: e.message().to_string() }
        }
        None => MetaError::TomlNowhere(e.message().to_string()),
    }
}

fn validate(meta: &Meta) -> Result<(), InvalidMeta> {
    if meta.title.trim().is_empty() {
        return Err(InvalidMeta::EmptyTitle);
    }
    if !is_subset_name(&meta.subset) {
        return Err(InvalidMeta::SubsetName { subset: meta.subset.clone() });
    }
    for (field, value) in [("source", &meta.source), ("licence", &meta.licence)] {
        if value.trim().is_empty() {
            return Err(InvalidMeta::Empty { field });
        }
    }
    Ok(())
}

/// Subset names become file names (`dist/<subset>.jsonl`), hence the rule.
pub fn is_subset_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

/// Sort key putting the built-in subsets first, in their order.
pub fn subset_order(subset: &str) -> (usize, &str) {
    (BUILTIN_SUBSETS.iter().position(|s| *s == subset).unwrap_or(BUILTIN_SUBSETS.len()), subset)
}

/// The problem's `description.md`, which must not be blank.
pub fn read_description(problem: &ProblemDir) -> Result<String, ProblemFileError> {
    let text = problem.required(File::Description)?;
    if text.trim().is_empty() {
        return Err(ProblemFileError::EmptyDescription { path: problem.file(File::Description) });
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "[meta]\ntitle = \"GCD\"\nsubset = \"math\"\ndifficulty = \"easy\"\nsource = \"original\"\nlicence = \"MIT\"\n\n[signature]\nwhatever = 1\n";

    #[test]
    fn reads_meta_and_ignores_other_tables() {
        let m = parse_meta(GOOD).expect("meta");
        assert_eq!((m.subset.as_str(), m.difficulty), ("math", Difficulty::Easy));
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = parse_meta(&GOOD.replace("\"easy\"", "\"trivial\"")).unwrap_err();
        assert!(matches!(&e, MetaError::Fields(m) if m.contains("trivial") || m.contains("variant")), "{e}");
        let e = parse_meta(&GOOD.replace("licence = \"MIT\"\n", "")).unwrap_err();
        assert!(matches!(&e, MetaError::Fields(m) if m.contains("licence")), "{e}");
        let e = parse_meta(&GOOD.replace("\"math\"", "\"Math Problems\"")).unwrap_err();
        assert_eq!(e, MetaError::Invalid(InvalidMeta::SubsetName { subset: "Math Problems".into() }));
        assert!(e.to_string().starts_with(": [meta]: `subset` \"Math Problems\" must be a lowercase name"), "{e}");
        let e = parse_meta(&GOOD.replace("licence = \"MIT\"", "licence = \" \"")).unwrap_err();
        assert_eq!(e.to_string(), ": [meta]: `licence` is empty");
        let e = parse_meta("[meta]\ntitle = \n").unwrap_err();
        assert!(matches!(e, MetaError::Toml { line: 2, .. }), "{e}");
        assert!(e.to_string().starts_with(":2:"), "{e}");
        assert_eq!(parse_meta("[other]\n"), Err(MetaError::MissingTable));
        assert_eq!(MetaError::MissingTable.to_string(), ": missing [meta] table");
        let e = parse_meta(&GOOD.replace("[signature]", "colour = 1\n[signature]")).unwrap_err();
        assert!(matches!(&e, MetaError::Fields(m) if m.contains("colour")), "{e}");
    }

    #[test]
    fn file_errors_name_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (toml, description) = (dir.path().join(PROBLEM_TOML), dir.path().join(DESCRIPTION));
        let missing = read_meta(&ProblemDir::read(dir.path())).unwrap_err();
        assert!(matches!(&missing, ProblemFileError::Unreadable { path, .. } if *path == toml), "{missing}");
        assert!(missing.to_string().starts_with(&format!("reading {}: ", toml.display())), "{missing}");
        std::fs::write(&toml, "[other]\n").expect("write");
        let wrong = read_meta(&ProblemDir::read(dir.path())).unwrap_err();
        assert!(matches!(&wrong, ProblemFileError::Meta { error: MetaError::MissingTable, .. }), "{wrong}");
        assert_eq!(wrong.to_string(), format!("{}: missing [meta] table", toml.display()));
        std::fs::write(&description, " \n").expect("write");
        let empty = read_description(&ProblemDir::read(dir.path())).unwrap_err();
        assert!(matches!(&empty, ProblemFileError::EmptyDescription { path } if *path == description), "{empty}");
        assert_eq!(empty.to_string(), format!("{}: the description is empty", description.display()));
    }

    #[test]
    fn builtin_subsets_sort_first() {
        let mut v = vec!["geometry", "math", "basic", "algorithm"];
        v.sort_by_key(|s| subset_order(s));
        assert_eq!(v, ["basic", "algorithm", "math", "geometry"]);
    }
}
