//! Detecting the known LLM pitfalls (`../shared/mermaid/pitfalls.md`) in
//! Mermaid *text*, broken or not.
//!
//! One detector serves two users: [`super::hint`] picks the finding nearest a
//! parse error to explain it, and [`super::fix`] applies the findings' edits.
//! Working on text rather than on the parser's error keeps both independent of
//! how precisely the parser locates an error.
//!
//! Pitfall ids follow the probes of the conformance corpus (`P01`…`P17`).

use std::collections::BTreeMap;
use std::ops::Range;

use super::pitfall_stmt;
use super::scan::{Tok, scan};

/// A text replacement (absolute byte range of the source).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub text: String,
}

/// One detected pitfall.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Corpus pitfall id, e.g. `P01`.
    pub pitfall: &'static str,
    /// The offending text.
    pub span: Range<usize>,
    /// What to do, specific to this text (shown as the diagnostic's help).
    pub help: String,
    /// The rewrite `--fix` applies; empty when no same-meaning fix exists.
    pub edits: Vec<Edit>,
    /// True for text mermaid accepts but reads differently than meant (⚠ rows
    /// of pitfalls.md); false for text mermaid rejects.
    pub silent: bool,
}

/// A source line with its absolute start offset.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'a> {
    pub text: &'a str,
    pub start: usize,
}

/// State shared across lines: renames must be the same everywhere.
#[derive(Debug, Default)]
pub(crate) struct Ctx {
    /// `words with spaces` → id chosen for them.
    pub spaced_ids: BTreeMap<String, String>,
    /// Subgraph titles with spaces → (line start of the header, title range).
    pub spaced_titles: BTreeMap<String, Range<usize>>,
    /// Ids (spaces joined with `_`) given a shape and label somewhere in the
    /// text, so a bare `My Node` elsewhere is a reference to that node and
    /// must not get a label of its own (which would replace the real one).
    pub labelled_ids: std::collections::BTreeSet<String>,
    pub next_group: usize,
}

/// All pitfalls found in `source`, in text order.
pub fn findings(source: &str) -> Vec<Finding> {
    let lines = split_lines(source);
    let mut out = Vec::new();
    let mut ctx = Ctx::default();
    for l in &lines {
        collect_titles(l, &mut ctx);
    }
    collect_labelled_ids(&lines, &mut ctx);
    let mut header_seen = false;
    let mut open_subgraphs: Vec<usize> = Vec::new();
    for l in &lines {
        let t = l.text.trim();
        if t.is_empty() {
            continue;
        }
        let l = &match comment_rule(l, &mut out) {
            Comment::Whole => continue,
            Comment::Trailing(cut) => Line { text: &l.text[..cut], start: l.start },
            Comment::None => *l,
        };
        if !header_seen {
            header_seen = true;
            pitfall_stmt::header_rule(l, &mut out);
            continue;
        }
        let first = t.split(|c: char| c.is_whitespace() || c == ';').next().unwrap_or("");
        let followed_by_link = t[first.len()..].trim_start().starts_with(['-', '=', '<', '.']);
        match first {
            "subgraph" => {
                open_subgraphs.push(l.start);
                pitfall_stmt::subgraph_rule(l, &mut ctx, &mut out);
            }
            "end" if !followed_by_link => {
                open_subgraphs.pop();
            }
            "style" | "linkStyle" | "classDef" if !followed_by_link => pitfall_stmt::style_rule(l, &mut out),
            "class" | "direction" | "accTitle" | "accDescr" | "accTitle:" | "accDescr:" | "}" if !followed_by_link => {}
            "click" if !followed_by_link => {}
            _ => pitfall_stmt::statement_rules(l, &mut ctx, &mut out),
        }
    }
    for &start in open_subgraphs.iter().rev() {
        let end = source.len();
        let sep = if source.ends_with('\n') { "" } else { "\n" };
        out.push(Finding {
            pitfall: "P11",
            span: start..line_end(source, start),
            help: "this `subgraph` is never closed: add `end` after its last statement".into(),
            edits: vec![Edit { range: end..end, text: format!("{sep}end\n") }],
            silent: false,
        });
    }
    // Rules may reach one past the last line's end (its newline).
    let n = source.len();
    for f in &mut out {
        f.span = f.span.start.min(n)..f.span.end.min(n);
        for e in &mut f.edits {
            e.range = e.range.start.min(n)..e.range.end.min(n);
        }
    }
    out.sort_by_key(|f| (f.span.start, f.span.end));
    out
}

fn line_end(source: &str, start: usize) -> usize {
    source[start..].find('\n').map_or(source.len(), |p| start + p)
}

/// Lines that hold statements: frontmatter, directives, `accDescr { … }`
/// blocks and lines inside multi-line quoted labels are left out.
pub(crate) fn split_lines(source: &str) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut in_frontmatter = source.starts_with("---");
    let mut first = true;
    let mut in_block = false;
    let mut open_quote = false;
    let mut in_meta = false;
    for raw in source.split_inclusive('\n') {
        let text = raw.trim_end_matches(['\n', '\r']);
        let t = text.trim();
        let odd_quotes = text.matches('"').count() % 2 == 1;
        let line_start = start;
        start += raw.len();
        let was_first = std::mem::replace(&mut first, false);
        if in_frontmatter {
            in_frontmatter = was_first || t != "---";
            continue;
        }
        if open_quote {
            // continuation of a multi-line quoted label
            open_quote = !odd_quotes;
            continue;
        }
        if in_block {
            in_block = !t.contains('}');
            continue;
        }
        if t.starts_with("%%{") {
            continue;
        }
        if in_meta {
            in_meta = !t.contains('}');
            continue;
        }
        if let Some(p) = text.rfind("@{")
            && !text[p..].contains('}')
        {
            // a multi-line `@{ … }` block: only its first line is a statement
            in_meta = true;
        }
        if t.starts_with("accDescr") && t.contains('{') && !t.contains('}') {
            in_block = true;
            continue;
        }
        if odd_quotes && !t.starts_with("%%") {
            open_quote = true;
            continue;
        }
        lines.push(Line { text, start: line_start });
    }
    lines
}

/// Fill [`Ctx::labelled_ids`] from every vertex/edge statement line, before
/// any rule runs: `check --fix` applies one fix per round, so the node's
/// labelled use may already be rewritten (`My_Node[Do stuff]`) or come later.
fn collect_labelled_ids(lines: &[Line], ctx: &mut Ctx) {
    let joined = |s: &str| s.split_whitespace().collect::<Vec<_>>().join("_");
    let statements =
        lines.iter().filter(|l| !l.text.trim().is_empty() && !l.text.trim_start().starts_with("%%")).skip(1);
    for l in statements {
        let t = l.text.trim();
        let first = t.split(|c: char| c.is_whitespace() || c == ';').next().unwrap_or("");
        let keyword = ["subgraph", "end", "style", "linkStyle", "classDef", "class", "direction", "click", "}"]
            .contains(&first)
            || first.starts_with("acc");
        if keyword && !t[first.len()..].trim_start().starts_with(['-', '=', '<', '.']) {
            continue;
        }
        let toks = scan(l.text);
        for (i, tok) in toks.iter().enumerate() {
            let Tok::Node { id, shape: Some(_) } = tok else { continue };
            ctx.labelled_ids.insert(joined(&l.text[id.clone()]));
            if let Some(Tok::Node { id: before, shape: None }) = i.checked_sub(1).and_then(|k| toks.get(k)) {
                ctx.labelled_ids.insert(joined(&l.text[before.start..id.end]));
            }
        }
    }
}

fn collect_titles(l: &Line, ctx: &mut Ctx) {
    let t = l.text.trim_start();
    let Some(rest) = t.strip_prefix("subgraph ") else { return };
    let title = rest.trim().trim_end_matches(';').trim_end();
    if title.contains(char::is_whitespace) && !title.contains(['[', '"', '(', '{']) {
        let off = l.start + (l.text.len() - t.len()) + "subgraph ".len() + (rest.len() - rest.trim_start().len());
        ctx.spaced_titles.insert(title.to_string(), off..off + title.len());
    }
}

enum Comment {
    Whole,
    /// A trailing comment starts at this byte of the line.
    Trailing(usize),
    None,
}

/// Trailing `%%` comments (P07) and bare `%%` lines.
fn comment_rule(l: &Line, out: &mut Vec<Finding>) -> Comment {
    let t = l.text.trim_start();
    let indent = &l.text[..l.text.len() - t.len()];
    if t.starts_with("%%") {
        if t.trim_end() == "%%" {
            out.push(Finding {
                pitfall: "P07",
                span: l.start..l.start + l.text.len(),
                help: "a bare `%%` line is not a comment for mermaid: it becomes a node named `%%`; write `%% text` or delete it".into(),
                edits: vec![Edit { range: l.start..l.start + l.text.len() + 1, text: String::new() }],
                silent: true,
            });
        }
        return Comment::Whole;
    }
    let q = super::scan::outside_quotes(l.text);
    let Some(p) = l.text.match_indices("%%").map(|(p, _)| p).find(|&p| q[p] && !l.text[p..].starts_with("%%{")) else {
        return Comment::None;
    };
    let code_end = l.text[..p].trim_end().len();
    let comment = l.text[p..].trim_end();
    out.push(Finding {
        pitfall: "P07",
        span: l.start + p..l.start + l.text.len(),
        help: format!("mermaid only removes whole-line comments: move `{comment}` to its own line"),
        edits: vec![
            Edit { range: l.start..l.start, text: format!("{indent}{comment}\n") },
            Edit { range: l.start + code_end..l.start + l.text.len(), text: String::new() },
        ],
        silent: false,
    });
    Comment::Trailing(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_comment_is_found() {
        let f = findings("graph TD;\n    A --> B;  %%This comment\n");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].pitfall, "P07");
    }

    #[test]
    fn missing_end_is_found() {
        let f = findings("flowchart LR\n  subgraph S\n    A --> B\n\n");
        assert!(f.iter().any(|f| f.pitfall == "P11"));
    }
}
