//! Rustc-style diagnostics for parse errors and lints, rendered with ariadne.
//!
//! Every command that reports a problem in a Mermaid file (`parse`, `check`,
//! `fmt`, `render`, `build`) goes through [`render`] / [`render_diagnostic`], so
//! errors look the same everywhere: file, line and column, the source line
//! with a caret, what was expected, and a hint for the known LLM pitfalls.
//! Output has no colour codes, so it is stable in logs and snapshots.

use std::ops::Range;

use ariadne::{CharSet, Config, IndexType, Label, Report, ReportKind, Source};

use super::ParseError;
use super::hint::hint;

/// How serious a diagnostic is; decides `check`'s exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// A located problem, independent of how it is printed.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Short stable code (`parse`, `P01`, `unreachable`, …) shown in brackets.
    pub code: String,
    pub message: String,
    /// Byte range in the source (may be empty).
    pub span: Range<usize>,
    /// Text under the caret.
    pub label: String,
    /// Further located remarks (e.g. where the likely cause is).
    pub extra: Vec<(Range<usize>, String)>,
    pub help: Option<String>,
    pub notes: Vec<String>,
}

/// Render a parse error of `source` (read from `path`) as text.
pub fn render(path: &str, source: &str, err: &ParseError) -> String {
    render_diagnostic(path, source, &from_parse_error(source, err))
}

/// Turn a parse error into a [`Diagnostic`], attaching the pitfall hint.
pub fn from_parse_error(source: &str, err: &ParseError) -> Diagnostic {
    let label = match err.expected.as_slice() {
        [] => "unexpected input here".to_string(),
        [one] => format!("expected {one}"),
        many => {
            let shown: Vec<&str> = many.iter().take(8).map(String::as_str).collect();
            let more = if many.len() > 8 { ", …" } else { "" };
            format!("expected one of {}{more}", shown.join(", "))
        }
    };
    if let Some(u) = super::unclosed::blame(source, err) {
        return unclosed_shape(source, err, &label, u);
    }
    let mut d = Diagnostic {
        severity: Severity::Error,
        code: "parse".into(),
        message: err.message.clone(),
        span: err.span.start..err.span.end,
        label,
        extra: Vec::new(),
        help: None,
        notes: Vec::new(),
    };
    if let Some(f) = hint(source, err) {
        if !f.span.contains(&err.span.start) && f.span != d.span {
            d.extra.push((f.span.clone(), "likely cause".into()));
        }
        d.code = f.pitfall.into();
        d.help = Some(f.help);
        let fix = if !f.edits.is_empty() {
            "; `flowbench check --fix` rewrites it"
        } else if super::fix_dangling::drop_dangling_link(source, err, &super::parse).is_some() {
            "; `flowbench check --fix` drops the incomplete link and keeps its text in a `%%` comment: add the target"
        } else {
            ""
        };
        d.notes.push(format!("a common mistake in LLM-written Mermaid (pitfall {}){fix}", f.pitfall));
    }
    d
}

/// The diagnostic for a shape left open at the end of its line: located at
/// the opener, with the place mermaid gave up as a second label.
fn unclosed_shape(source: &str, err: &ParseError, expected: &str, u: super::unclosed::Unclosed) -> Diagnostic {
    let (line, col) = line_col(source, u.open.start);
    let (err_line, err_col) = line_col(source, err.span.start);
    Diagnostic {
        severity: Severity::Error,
        code: u.finding.pitfall.into(),
        message: format!("missing `{}`: the `{}` at {line}:{col} is never closed", u.closer, u.opener),
        span: u.open.clone(),
        label: format!("this `{}` needs a `{}` before the end of its line", u.opener, u.closer),
        extra: vec![(
            err.span.start..err.span.end,
            format!("so mermaid reads on to here as its label, then fails: {expected}"),
        )],
        help: Some(u.finding.help),
        notes: vec![
            format!("mermaid's error at {err_line}:{err_col}: {}", err.message),
            format!(
                "a common mistake in LLM-written Mermaid (pitfall {}); `flowbench check --fix` closes the shape",
                u.finding.pitfall
            ),
        ],
    }
}

/// Render any diagnostic as text (no colour, ASCII art).
pub fn render_diagnostic(path: &str, source: &str, d: &Diagnostic) -> String {
    let clamp = |r: &Range<usize>| widen(source, r);
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let span = clamp(&d.span);
    let config = Config::default().with_color(false).with_char_set(CharSet::Ascii).with_index_type(IndexType::Byte);
    let mut report = Report::build(kind, (path, span.clone()))
        .with_config(config)
        .with_code(&d.code)
        .with_message(&d.message)
        .with_label(Label::new((path, span)).with_message(&d.label).with_order(0));
    for (i, (r, msg)) in d.extra.iter().enumerate() {
        let order = i32::try_from(i + 1).unwrap_or(i32::MAX);
        report = report.with_label(Label::new((path, clamp(r))).with_message(msg).with_order(order));
    }
    if let Some(h) = &d.help {
        report = report.with_help(h);
    }
    for n in &d.notes {
        report = report.with_note(n);
    }
    let mut buf = Vec::new();
    if report.finish().write((path, Source::from(source)), &mut buf).is_err() {
        // Writing to a Vec cannot fail; keep a plain fallback regardless.
        let (line, col) = line_col(source, d.span.start);
        return format!("{path}:{line}:{col}: {}\n", d.message);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(source: &str, at: usize) -> (usize, usize) {
    let at = floor_boundary(source, at.min(source.len()));
    let before = &source[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Clamp a range to the source and char boundaries; an empty range is
/// widened to one character so the caret is drawn (at the end of input, the
/// last character).
fn widen(source: &str, r: &Range<usize>) -> Range<usize> {
    let mut start = floor_boundary(source, r.start.min(source.len()));
    let mut end = floor_boundary(source, r.end.min(source.len())).max(start);
    if start == end {
        if start == source.len() {
            start = source.trim_end().len();
            start = floor_boundary(source, start.saturating_sub(1));
        }
        end = source[start..].chars().next().map_or(start, |c| start + c.len_utf8());
    }
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mermaid::Span;

    fn err(source: &str, at: usize, expected: &[&str]) -> ParseError {
        let (line, col) = line_col(source, at);
        ParseError {
            span: Span { start: at, end: at + 1, line: line as u32, col: col as u32 },
            message: "unexpected `(`".into(),
            expected: expected.iter().map(|s| s.to_string()).collect(),
            kind: Default::default(),
            found: None,
        }
    }

    #[test]
    fn renders_location_caret_expected_and_pitfall_hint() {
        let src = "flowchart TD\n  B[Provisioner (Terraform + Helm)] --> C\n";
        let at = src.find('(').unwrap_or(0);
        let out = render("chart.mmd", src, &err(src, at, &["`]`", "text"]));
        assert!(out.contains("chart.mmd:2:"), "{out}");
        assert!(out.contains("expected one of `]`, text"), "{out}");
        assert!(out.contains("B[\"Provisioner (Terraform + Helm)\"]"), "{out}");
        assert!(out.contains('^') || out.contains('-'), "{out}");
        assert!(!out.contains('\u{1b}'), "no colour codes: {out}");
    }

    #[test]
    fn empty_span_at_end_of_input_is_drawn() {
        let src = "flowchart TD\n  A -->";
        let out = render("x.mmd", src, &err(src, src.len(), &["a node"]));
        assert!(out.contains("x.mmd:2:"), "{out}");
        assert!(out.contains("a link needs a node on both sides"), "{out}");
    }
}
