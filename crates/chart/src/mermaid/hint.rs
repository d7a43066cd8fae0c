//! Choosing the hint for a parse error.
//!
//! Hints come from the source text, not from the parser's error alone: the
//! pitfall detector ([`super::pitfall`]) scans the whole text, and the finding
//! closest to the error wins. Mermaid (and a faithful port) often notices a
//! mistake later than where it was made — `B <-- C` fails at the end of the
//! file — so a finding on an earlier line is still a good explanation.

use super::ParseError;
use super::pitfall::{Finding, findings};

/// The most likely pitfall behind `err`, if any is recognised.
pub fn hint(source: &str, err: &ParseError) -> Option<Finding> {
    // A shape left open on an earlier line: the error's own line is not
    // to blame, whatever pitfalls it has.
    if let Some(u) = super::unclosed::blame(source, err) {
        return Some(u.finding);
    }
    let at = err.span.start.min(source.len());
    let all = findings(source);
    let line_of = |p: usize| source[..p.min(source.len())].matches('\n').count();
    let err_line = line_of(at);
    let loud = all.iter().filter(|f| !f.silent);
    // On the error's line, the one nearest the error position.
    let same_line = loud
        .clone()
        .filter(|f| line_of(f.span.start) <= err_line && line_of(f.span.end) >= err_line)
        .min_by_key(|f| distance(f, at));
    if let Some(f) = same_line {
        return Some(f.clone());
    }
    // Otherwise the last one before the error.
    if let Some(f) = loud.clone().filter(|f| f.span.start <= at).max_by_key(|f| f.span.start) {
        return Some(f.clone());
    }
    message_hint(source, err).or_else(|| loud.clone().next().cloned())
}

fn distance(f: &Finding, at: usize) -> usize {
    if f.span.contains(&at) {
        0
    } else if at < f.span.start {
        f.span.start - at
    } else {
        at - f.span.end + 1
    }
}

/// Hints that need the parser's message: semantic limits and dangling links
/// leave nothing wrong in the text to point at.
fn message_hint(source: &str, err: &ParseError) -> Option<Finding> {
    use super::ErrorKind;
    let span = err.span.start.min(source.len())..err.span.end.min(source.len());
    let make = |pitfall: &'static str, help: &str| {
        Some(Finding { pitfall, span: span.clone(), help: help.to_string(), edits: Vec::new(), silent: false })
    };
    if err.kind == ErrorKind::EdgeLimit {
        return make(
            "P17",
            "mermaid refuses charts with more than 500 edges (`maxEdges`, not configurable from the diagram): split the chart",
        );
    }
    if err.kind == ErrorKind::LinkStyleIndex {
        return make(
            "P09",
            "`linkStyle N` counts edges from 0 in definition order; N must be below the number of edges",
        );
    }
    if err.kind == ErrorKind::BadShape {
        return make(
            "P13",
            "use one of the shape names of mermaid 12.3 (lower case, `-` separated), e.g. `rect`, `diam`, `lean-r`",
        );
    }
    if err.kind == ErrorKind::NoDiagramType {
        return make(
            "P12",
            "a flowchart starts with `flowchart` or `graph` (lower case) and a direction: `flowchart TD`",
        );
    }
    if err.kind == ErrorKind::AnonymousSubgraph {
        return make("P11", "a subgraph needs an id or a title: `subgraph group1 [Title]`");
    }
    let line_start = source[..span.start].rfind('\n').map_or(0, |p| p + 1);
    let prev = source[..line_start].trim_end();
    let last_line = prev.rsplit('\n').next().unwrap_or("").trim_end();
    let dangling = [last_line, source[line_start..].lines().next().unwrap_or("").trim_end()].iter().any(|l| {
        l.ends_with("--") || l.ends_with("-->") || l.ends_with("==>") || l.ends_with('"') && l.contains(" -- ")
    });
    if dangling {
        return make("P06", "a link needs a node on both sides: `A -- text --> B`");
    }
    None
}
