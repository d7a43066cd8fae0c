//! The Mermaid front end: text → syntax tree → [`Flowchart`] model.
//!
//! Entry point: [`parse`]. Errors are [`ParseError`]s carrying a [`Span`];
//! rendering them as rustc-style diagnostics, lints, `--fix` rewrites and the
//! canonical formatter are separate submodules that only consume the model or
//! the error.

pub mod model;

pub use model::*;

/// A syntax or semantic error, located in the original text.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    /// Where the error was detected (may be empty: `start == end`).
    pub span: Span,
    /// What went wrong, in mermaid's terms where it has them.
    pub message: String,
    /// Tokens or constructs that would have been accepted here.
    pub expected: Vec<String>,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.span.line, self.span.col, self.message)
    }
}

impl std::error::Error for ParseError {}

pub mod diagnostic;
pub mod fix;
pub mod fix_shape;
pub mod fmt;
mod fmt_text;
pub mod hint;
pub mod lint;
pub mod lint_text;
pub mod pitfall;
mod pitfall_stmt;
mod pitfall_tok;
mod scan;
