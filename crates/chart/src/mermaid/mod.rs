//! The Mermaid front end: text → syntax tree → [`Flowchart`] model.
//!
//! Entry points: [`parse`] and [`parse_with`]. The pipeline copies mermaid
//! 12.3 step by step so that accept/reject verdicts and vertex/edge/subgraph
//! counts agree with it: [`preprocess`] (CRLF, frontmatter, directives,
//! comments, detection, entity encoding), [`lexer`] (jison's first-match
//! lexer), [`parser`] (the `flow.jison` grammar → [`ast`]), [`builder`]
//! (FlowDB semantics → [`Flowchart`]). Errors are [`ParseError`]s whose
//! [`Span`] points into the caller's original text.
//!
//! # How it works
//!
//! Reads Mermaid text exactly as mermaid 12.3's `mermaid.parse` does and returns a `Flowchart` (or a `ParseError`
//! whose `Span` points into the caller's original text). Four stages, each a port of the corresponding mermaid
//! step: `preprocess` (CRLF, HTML attribute quotes, YAML frontmatter, `%%{init}%%` directives, whole-line `%%`
//! comments, detection, entity encoding, `}` tidy; it keeps a compact offset map `Mapped` back to the original
//! text), `lexer` (jison's first-match lexer with its start-condition stack, each rule a small `nom` recognizer,
//! producing `Token`s), `parser` (the `flow.jison` grammar as recursive descent over tokens, producing the syntax
//! tree `ast::Document`), and `builder` (FlowDB's semantics: vertex refinement, `&` expansion, edge ids, innermost
//! subgraph membership, classes, styles, `linkStyle` by index, and FlowDB's semantic errors). `parse` hands each
//! top-level `ast::Stmt` to the builder as soon as it is parsed (`Parser::statements_each` → `Builder::stmt`), so a
//! large chart's tree never has to fit in cache and parse time grows linearly; a syntax error still wins over an
//! earlier semantic one. Limits mermaid sets through configuration (`maxEdges`, `maxTextSize`) are `ParseOptions`.
//! The accepted grammar is written down in `grammar/flowchart.ebnf`.
//!
//! Diagnostics, lints, fixes and formatting sit beside the parser and consume only its two outputs: `ParseError` →
//! `diagnostic::render` (ariadne, rustc-style, with a pitfall hint chosen by `hint` from the text-level pitfall
//! detector `pitfall`, independent of how precisely the parser locates an error); `Flowchart` → `lint` (graph
//! lints) and `fmt::format` (canonical text, `parse(fmt(x)) == parse(x)`); Mermaid text → `fix` (the detector's
//! edits, applied until the parser accepts the text; a link with no target is dropped with its text kept in a `%%`
//! comment, a `Change` marked `lossy`).

pub mod ast;
pub mod builder;
pub mod diagnostic;
mod entities;
pub mod fix;
mod fix_dangling;
pub mod fix_shape;
pub mod fmt;
mod fmt_text;
pub mod hint;
pub mod lexer;
pub mod lint;
pub mod lint_text;
pub mod model;
pub mod parser;
pub mod pitfall;
mod pitfall_stmt;
mod pitfall_tok;
pub mod preprocess;
mod scan;
pub mod shapes;
pub mod unclosed;
mod unicode;
mod yaml;

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
    /// Which stage rejected the text (diagnostics choose hints by it).
    pub kind: ErrorKind,
    /// The offending token in mermaid's terminal names (`PS`, `STR`, …) for
    /// syntax errors, so hints can match mermaid's "got 'PS'" messages.
    pub found: Option<String>,
}

/// The stage and reason of a [`ParseError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum ErrorKind {
    /// No lexer rule matches (mermaid's "Lexical error … Unrecognized text").
    Lexical,
    /// The grammar rejects a token (mermaid's "Parse error … Expecting").
    #[default]
    Syntax,
    /// The text does not start with `graph`/`flowchart`.
    NoDiagramType,
    /// Frontmatter YAML that does not load.
    Frontmatter,
    /// `@{ shape: … }` names no shape.
    BadShape,
    /// `@{ … }` is not valid YAML.
    BadYaml,
    /// `linkStyle N` with no edge N.
    LinkStyleIndex,
    /// More edges than [`ParseOptions::max_edges`].
    EdgeLimit,
    /// `subgraph` without id or title (a crash inside mermaid).
    AnonymousSubgraph,
    /// Longer than [`ParseOptions::max_text_size`].
    TextTooLarge,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.span.line, self.span.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Limits mermaid applies through its (secure) configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseOptions {
    /// mermaid's `maxEdges` (500); more edges are an error. Raise it for
    /// generated charts — mermaid itself cannot be told to from a diagram.
    pub max_edges: usize,
    /// mermaid's `maxTextSize` (50 000). `mermaid.parse` does not enforce it
    /// (only `render` does), so the default is `None`; set it to reject what
    /// mermaid would refuse to draw.
    pub max_text_size: Option<usize>,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions { max_edges: 500, max_text_size: None }
    }
}

/// mermaid's `maxTextSize` default, for callers that want render semantics.
pub const MERMAID_MAX_TEXT_SIZE: usize = 50_000;

/// Parse a flowchart the way `mermaid.parse` (12.3) does, with mermaid's
/// default limits.
pub fn parse(text: &str) -> Result<Flowchart, ParseError> {
    parse_with(text, &ParseOptions::default())
}

/// [`parse`] with explicit limits.
pub fn parse_with(text: &str, opts: &ParseOptions) -> Result<Flowchart, ParseError> {
    let lines = LineIndex::new(text);
    if let Some(max) = opts.max_text_size
        && text.chars().count() > max
    {
        return Err(ParseError {
            span: lines.span(0, 0),
            message: format!("Maximum text size in diagram exceeded ({max} characters)"),
            expected: Vec::new(),
            kind: ErrorKind::TextTooLarge,
            found: None,
        });
    }
    let pre = preprocess::preprocess(text).map_err(|e| ParseError {
        span: lines.span(e.pos, e.pos),
        message: e.message,
        expected: if e.no_diagram { vec!["'graph' or 'flowchart'".to_string()] } else { Vec::new() },
        kind: if e.no_diagram { ErrorKind::NoDiagramType } else { ErrorKind::Frontmatter },
        found: None,
    })?;
    let code = &pre.code;
    let to_span = |r: ast::Range| -> Span {
        let s = code.orig_at(r.0 as usize);
        let e = if r.1 > r.0 { code.orig_at(r.1 as usize - 1) + 1 } else { s };
        lines.span(s, e.max(s))
    };
    let toks = lexer::Lexer::new(&code.text).tokenize().map_err(|e| {
        let s = code.orig_at(e.pos);
        let ch = text[s.min(text.len())..].chars().next();
        let end = s + ch.map_or(0, char::len_utf8);
        ParseError {
            span: lines.span(s, end),
            message: format!(
                "Lexical error: unrecognized text {}",
                ch.map_or("at end of input".to_string(), |c| format!("'{c}'"))
            ),
            expected: Vec::new(),
            kind: ErrorKind::Lexical,
            found: None,
        }
    })?;
    // Statements are applied as they are parsed (see
    // `Parser::statements_each`); a syntax error anywhere still wins over a
    // semantic one, as when the whole tree was built first.
    let mut builder = builder::Builder::new(opts.max_edges, &to_span);
    let mut sem_err = None;
    let mut p = parser::Parser::new(&toks, &code.text);
    p.header()
        .and_then(|(header, dir)| {
            builder.begin(&header, dir.as_deref());
            p.statements_each(&mut |s| {
                if sem_err.is_none()
                    && let Err(e) = builder.stmt(&s)
                {
                    sem_err = Some(e);
                }
            })
        })
        .map_err(|e| {
            let t = toks.get(e.at).copied().unwrap_or(lexer::Token { kind: lexer::Tk::End0, start: 0, end: 0 });
            let span =
                if t.kind == lexer::Tk::End0 { lines.span(text.len(), text.len()) } else { to_span((t.start, t.end)) };
            let got = if t.kind == lexer::Tk::End0 {
                "the end of the text".to_string()
            } else {
                let s = &code.text[t.start as usize..t.end as usize];
                format!("'{}' ({})", s.trim_matches(|c: char| c == ' '), t.kind.mermaid_name())
            };
            ParseError {
                span,
                message: format!("Parse error: expected {}, got {got}", e.expected.join(" or ")),
                expected: e.expected.iter().map(|s| s.to_string()).collect(),
                kind: ErrorKind::Syntax,
                found: Some(t.kind.mermaid_name().to_string()),
            }
        })?;
    if let Some(e) = sem_err {
        return Err(ParseError {
            span: to_span(e.range),
            message: e.message,
            expected: Vec::new(),
            kind: e.kind,
            found: None,
        });
    }
    let mut fc = builder.finish();
    fc.config = pre.config;
    fc.title = pre.title;
    if fc.header == Header::FlowchartElk {
        preprocess::merge(&mut fc.config, &serde_json::json!({"layout": "elk"}));
    }
    Ok(fc)
}

/// Byte offset → 1-based line and column (columns count characters).
struct LineIndex<'t> {
    text: &'t str,
    starts: Vec<usize>,
    /// The line of the previous look-up: spans are asked for in text
    /// order, so this usually answers without a binary search.
    last: std::cell::Cell<usize>,
}

impl<'t> LineIndex<'t> {
    fn new(text: &'t str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts, last: std::cell::Cell::new(1) }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        let start = floor_char(self.text, start.min(self.text.len()));
        let end = floor_char(self.text, end.min(self.text.len())).max(start);
        let hint = self.last.get();
        let line = if self.starts[hint - 1] <= start && self.starts.get(hint).is_none_or(|&next| next > start) {
            hint
        } else {
            self.starts.partition_point(|&s| s <= start).max(1)
        };
        self.last.set(line);
        let ls = self.starts[line - 1];
        let col = self.text[ls..start].chars().count() + 1;
        Span { start, end, line: line as u32, col: col as u32 }
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
