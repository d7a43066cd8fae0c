//! A shape left open at the end of its line (`C{is it empty?` with no `}`).
//!
//! Mermaid's label text may span lines, so it reads the following lines as
//! more of the label and fails only at the next shape character (`|`, `(`,
//! `[`, …) or at the end of the text: the error points at a later line and
//! its pitfalls (parentheses in a label there), not at the missing closer.
//! [`blame`] finds such a shape behind a parse error, so the diagnostic can
//! point at the opener and `check --fix` can close the shape on its line.

use super::pitfall::{Edit, Finding, split_lines};
use super::scan::{Tok, scan, text_closer};
use super::{ErrorKind, ParseError, ParseOptions};

/// An unclosed shape that explains a parse error.
#[derive(Debug, Clone, PartialEq)]
pub struct Unclosed {
    /// The opener (`{`, `([`, …) as a byte range of the source.
    pub open: std::ops::Range<usize>,
    pub opener: String,
    pub closer: &'static str,
    /// The pitfall finding: its help and the edit closing the shape.
    pub finding: Finding,
}

/// The shape left open at the end of its line that `err` is the
/// consequence of, if any: mermaid read from the opener to the error
/// without meeting the closer, and closing the shape on its line lets the
/// parser get past the error's position.
pub fn blame(source: &str, err: &ParseError) -> Option<Unclosed> {
    if err.kind != ErrorKind::Syntax {
        return None;
    }
    let at = err.span.start.min(source.len());
    candidates(source).into_iter().find(|u| {
        let line_end = source[u.open.end..].find('\n').map_or(source.len(), |p| u.open.end + p);
        line_end <= at && !source[u.open.end..at].contains(u.closer) && gets_past(source, u, at)
    })
}

/// Every shape left open at the end of a statement line.
fn candidates(source: &str) -> Vec<Unclosed> {
    let mut out = Vec::new();
    let mut header_seen = false;
    for l in split_lines(source) {
        let t = l.text.trim();
        if t.is_empty() || t.starts_with("%%") {
            continue;
        }
        if !std::mem::replace(&mut header_seen, true) {
            continue;
        }
        let first = t.split(|c: char| c.is_whitespace() || c == ';').next().unwrap_or("");
        let followed_by_link = t[first.len()..].trim_start().starts_with(['-', '=', '<', '.']);
        let keyword = ["style", "linkStyle", "classDef", "class", "click", "direction", "end", "}"].contains(&first)
            || first.starts_with("acc");
        if keyword && !followed_by_link {
            continue;
        }
        let lead = l.text.len() - l.text.trim_start().len();
        let skip = if first == "subgraph" && !followed_by_link { lead + first.len() } else { 0 };
        let text = &l.text[skip..];
        let Some(Tok::Node { id, shape: Some(s) }) = scan(text).pop() else { continue };
        let opener = &text[s.open.clone()];
        let Some(closer) = text_closer(opener) else { continue };
        if !s.close.is_empty() {
            continue;
        }
        let base = l.start + skip;
        let open = base + s.open.start..base + s.open.end;
        // Before a trailing `;` (which mermaid would otherwise read as label text).
        let content = text[s.content.clone()].trim_end();
        let kept = content.trim_end_matches(';').trim_end();
        let kept = if kept.is_empty() { content } else { kept };
        let insert = base + s.content.start + kept.len();
        let node = &text[id.start..s.content.start + kept.len()];
        let help = format!(
            "`{opener}` opens a shape that is never closed, so mermaid reads the next lines as its label: \
             close it on its line, `{node}{closer}`"
        );
        let finding = Finding {
            pitfall: "P02",
            span: open.clone(),
            help,
            edits: vec![Edit { range: insert..insert, text: closer.to_string() }],
            silent: false,
        };
        out.push(Unclosed { open, opener: opener.to_string(), closer, finding });
    }
    out
}

/// Whether the text with the shape closed parses, or fails only after the
/// old error's (shifted) position: then the open shape was the error.
fn gets_past(source: &str, u: &Unclosed, at: usize) -> bool {
    let Some(edit) = u.finding.edits.first() else { return false };
    let closed = format!("{}{}{}", &source[..edit.range.start], edit.text, &source[edit.range.end..]);
    let opts = ParseOptions { max_edges: usize::MAX, ..ParseOptions::default() };
    match super::parse_with(&closed, &opts) {
        Ok(_) => true,
        Err(e) => e.span.start > at + edit.text.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blamed(text: &str) -> Option<Unclosed> {
        let err = crate::mermaid::parse(text).err()?;
        blame(text, &err)
    }

    #[test]
    fn an_open_diamond_is_blamed_and_closed_on_its_line() {
        let text = "flowchart TD\n    C{s empty?\n    C -->|Yes| D[return (x)]\n";
        let u = blamed(text).expect("blamed");
        assert_eq!((u.open.start, u.closer), (text.find('{').unwrap_or(0), "}"));
        let e = &u.finding.edits[0];
        assert_eq!(e.range.start, text.find("?\n").unwrap_or(0) + 1);
        let u = blamed("flowchart TD\n  A --> B([go;\n  B --> C\n").expect("blamed");
        assert_eq!((u.opener.as_str(), u.closer, u.finding.help.contains("`B([go])`")), ("([", "])", true));
    }

    #[test]
    fn multi_line_labels_and_other_errors_are_not_blamed() {
        // A label continued on the next line and closed there is valid
        // mermaid; the error after it is not the opener's.
        assert!(blamed("flowchart TD\n  A[one\n  two] --> B(x(y))\n").is_none());
        // The error is on the opener's own line: a shape character inside.
        assert!(blamed("flowchart TD\n  A[f(x) --> B\n").is_none());
        // Closing does not get past the error: the link has no target.
        assert!(blamed("flowchart TD\n  A[one\n  B -->\n").is_none());
    }
}
