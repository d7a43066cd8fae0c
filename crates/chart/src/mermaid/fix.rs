//! `check --fix`: rewrite the common LLM mistakes into Mermaid that mermaid
//! accepts and that means what the writer meant.
//!
//! The rewrites are the edits of the pitfall findings ([`super::pitfall`]),
//! applied in rounds (a fix can uncover the next mistake, e.g. splitting a
//! header line exposes the statements behind it) until none is left; then
//! statements the parser still rejects for semantic reasons (`linkStyle` index
//! out of range) are dropped, and so is a link with no target (its text kept
//! in a comment, the change reported as lossy: see [`super::fix_dangling`]).
//! Every change is reported with its position and the affected lines before
//! and after.

use std::ops::Range;

use super::diagnostic::line_col;
use super::hint::hint;
use super::pitfall::{Edit, Finding, findings};
use super::{Flowchart, ParseError};

/// One applied rewrite.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// 1-based position of the change in the text it was applied to.
    pub line: usize,
    pub col: usize,
    /// Pitfall id (`P01`…) or `semantic` for dropped statements.
    pub pitfall: String,
    /// True when the original was valid Mermaid that meant something else
    /// (a ⚠ pitfall); false when it was an error.
    pub silent: bool,
    /// True when the rewrite could not keep everything the text said (a
    /// link with no target is dropped): the user must finish it by hand.
    /// What was dropped stays in the text as a `%%` comment.
    pub lossy: bool,
    /// The affected lines before and after.
    pub before: String,
    pub after: String,
}

/// Result of [`fix_with`].
#[derive(Debug, Clone, PartialEq)]
pub struct Fixed {
    pub text: String,
    pub changes: Vec<Change>,
}

const MAX_ROUNDS: usize = 40;

/// Fix `source`, using `parse` to decide what is broken: while the parser
/// rejects the text, the pitfall nearest the error (the one its diagnostic
/// hints at) is rewritten; then the silent pitfalls (valid text that means
/// something else) are rewritten everywhere. Text the parser accepts is only
/// touched by silent-pitfall fixes.
pub fn fix_with(source: &str, parse: &dyn Fn(&str) -> Result<Flowchart, ParseError>) -> Fixed {
    let mut text = source.to_string();
    let mut changes = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..MAX_ROUNDS {
        let Err(err) = parse(&text) else { break };
        let finding = hint(&text, &err).filter(|f| !f.edits.is_empty());
        let change = match finding {
            Some(f) => {
                let (next, mut applied) = apply_round(&text, std::slice::from_ref(&f));
                text = next;
                applied.pop()
            }
            None => drop_semantic_failure(&mut text, &err).or_else(|| {
                let (next, change) = super::fix_dangling::drop_dangling_link(&text, &err, parse)?;
                text = next;
                Some(change)
            }),
        };
        let Some(change) = change else { break };
        changes.push(change);
        if !seen.insert(text.clone()) {
            break;
        }
    }
    for _ in 0..MAX_ROUNDS {
        let fs: Vec<Finding> = findings(&text).into_iter().filter(|f| f.silent && !f.edits.is_empty()).collect();
        let (next, mut applied) = apply_round(&text, &fs);
        if fs.is_empty() || next == text {
            break;
        }
        changes.append(&mut applied);
        text = next;
    }
    Fixed { text, changes }
}

/// Apply all non-overlapping findings of one round; a finding whose edits
/// overlap an earlier one waits for the next round.
fn apply_round(text: &str, fs: &[Finding]) -> (String, Vec<Change>) {
    let mut taken: Vec<Edit> = Vec::new();
    let mut changes = Vec::new();
    for f in fs {
        let fresh: Vec<&Edit> = f.edits.iter().filter(|e| !taken.contains(e)).collect();
        let clash = fresh.iter().any(|e| taken.iter().any(|t| overlaps(&t.range, &e.range)));
        if clash || fresh.is_empty() {
            continue;
        }
        taken.extend(fresh.iter().map(|e| (*e).clone()));
        changes.push(describe(text, f));
    }
    taken.sort_by_key(|e| (e.range.start, e.range.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for e in &taken {
        out.push_str(&text[at..e.range.start]);
        out.push_str(&e.text);
        at = e.range.end;
    }
    out.push_str(&text[at..]);
    (out, changes)
}

/// Two ranges overlap, or are the same insertion point.
fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    (a.start < b.end && b.start < a.end) || (a.start == b.start && (a.is_empty() || b.is_empty()))
}

/// The lines a finding touches, before and after its own edits.
fn describe(text: &str, f: &Finding) -> Change {
    let lo = f.edits.iter().map(|e| e.range.start).min().unwrap_or(f.span.start);
    let hi = f.edits.iter().map(|e| e.range.end).max().unwrap_or(f.span.end);
    let start = text[..lo].rfind('\n').map_or(0, |p| p + 1);
    let end = text[hi..].find('\n').map_or(text.len(), |p| hi + p);
    let mut edits = f.edits.clone();
    edits.sort_by_key(|e| e.range.start);
    let mut after = String::new();
    let mut at = start;
    for e in &edits {
        after.push_str(&text[at..e.range.start.max(at)]);
        after.push_str(&e.text);
        at = e.range.end.max(at);
    }
    after.push_str(&text[at.min(end)..end]);
    let (line, col) = line_col(text, f.span.start);
    Change {
        line,
        col,
        pitfall: f.pitfall.to_string(),
        silent: f.silent,
        lossy: false,
        before: text[start..end].trim().to_string(),
        after: after.trim().to_string(),
    }
}

/// Drop a `linkStyle` statement the parser rejects (an index past the last
/// edge styles nothing, so dropping it keeps the chart's meaning).
fn drop_semantic_failure(text: &mut String, err: &ParseError) -> Option<Change> {
    let at = err.span.start.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |p| p + 1);
    let end = text[at..].find('\n').map_or(text.len(), |p| at + p + 1);
    let line = &text[start..end];
    if !line.trim_start().starts_with("linkStyle") {
        return None;
    }
    let (l, c) = line_col(text, start);
    let change = Change {
        line: l,
        col: c,
        pitfall: "semantic".into(),
        silent: false,
        lossy: false,
        before: line.trim().to_string(),
        after: String::new(),
    };
    text.replace_range(start..end, "");
    Some(change)
}

/// Fix `source` with the crate's parser.
pub fn fix(source: &str) -> Fixed {
    fix_with(source, &super::parse)
}
