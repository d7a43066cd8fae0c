//! Lints for benchmark flowcharts: warnings about charts that parse but
//! cannot be a sensible program flow.
//!
//! Definitions (documented in docs/guide/charts.md, "Lints"):
//! - a **terminal** is a node drawn as a terminal (stadium `([…])`, circle
//!   `((…))`, double circle, small/framed/filled circle) or labelled like one
//!   (first word start, begin, end, stop, finish, done, exit, return, halt);
//! - **start nodes** are nodes with no incoming and at least one outgoing
//!   edge; when some of them are terminals, only those count;
//! - an **end node** is a node with no outgoing edge.
//!
//! Invisible links (`~~~`) are layout hints and are ignored. An edge to or
//! from a subgraph counts as an edge to or from each of its members.

use std::collections::{BTreeMap, BTreeSet};

use super::diagnostic::{Diagnostic, Severity};
use super::model::{Flowchart, Shape, Span, Stroke};

/// All lint codes, for documentation and `--help`.
pub const LINTS: &[(&str, &str)] = &[
    ("unreachable", "node not reachable from the start node"),
    ("dead-end", "node without outgoing edges that is not a terminal"),
    ("decision-branches", "decision (rhombus) with fewer than two outgoing edges"),
    ("decision-label", "decision edge without a label"),
    ("no-start", "no start node (every node has an incoming edge)"),
    ("no-end", "no end node (every node has an outgoing edge)"),
    ("conflicting-label", "an id defined twice with different labels or shapes"),
    ("unknown-subgraph", "a reference that looks like a subgraph but names none"),
    ("pitfall", "text mermaid accepts but reads differently than written"),
];

const TERMINAL_WORDS: &[&str] =
    &["start", "begin", "end", "stop", "finish", "done", "exit", "return", "halt", "terminate"];

fn is_terminal(n: &super::model::Node) -> bool {
    let shaped = matches!(
        n.shape,
        Shape::Stadium | Shape::Circle | Shape::DblCirc | Shape::SmCirc | Shape::FrCirc | Shape::FCirc
    );
    let first = n.label.split(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty()).unwrap_or("").to_lowercase();
    shaped || TERMINAL_WORDS.contains(&first.as_str())
}

fn warn(code: &str, span: Span, message: String, label: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        code: code.into(),
        message,
        span: span.start..span.end,
        label,
        extra: Vec::new(),
        help: None,
        notes: Vec::new(),
    }
}

/// Graph-shape lints over the model.
pub fn lint(chart: &Flowchart) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let sub_ids: BTreeSet<&str> = chart.subgraphs.iter().map(|s| s.id.as_str()).collect();
    // Members of each subgraph, nested members included.
    let members = |id: &str| -> Vec<String> {
        let mut acc = Vec::new();
        let mut stack = vec![id.to_string()];
        let mut seen = BTreeSet::new();
        while let Some(s) = stack.pop() {
            if !seen.insert(s.clone()) {
                continue;
            }
            if let Some(sg) = chart.subgraph(&s) {
                for m in &sg.members {
                    if sub_ids.contains(m.as_str()) {
                        stack.push(m.clone());
                    } else {
                        acc.push(m.clone());
                    }
                }
            }
        }
        acc
    };
    let expand = |id: &str| -> Vec<String> { if sub_ids.contains(id) { members(id) } else { vec![id.to_string()] } };
    let mut succ: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut indeg: BTreeMap<String, usize> = BTreeMap::new();
    for e in chart.edges.iter().filter(|e| e.stroke != Stroke::Invisible) {
        for f in expand(&e.from) {
            for t in expand(&e.to) {
                succ.entry(f.clone()).or_default().push(t.clone());
                *indeg.entry(t).or_default() += 1;
            }
        }
    }
    let nodes: Vec<&super::model::Node> = chart.nodes.iter().filter(|n| !sub_ids.contains(n.id.as_str())).collect();
    if nodes.is_empty() {
        return out;
    }
    let outdeg = |id: &str| succ.get(id).map_or(0, Vec::len);
    let in_of = |id: &str| indeg.get(id).copied().unwrap_or(0);
    let mut starts: Vec<&str> =
        nodes.iter().filter(|n| in_of(&n.id) == 0 && outdeg(&n.id) > 0).map(|n| n.id.as_str()).collect();
    let terminal_starts: Vec<&str> =
        starts.iter().copied().filter(|id| chart.node(id).is_some_and(is_terminal)).collect();
    if !terminal_starts.is_empty() {
        starts = terminal_starts;
    }
    if starts.is_empty() {
        out.push(warn(
            "no-start",
            nodes[0].span,
            "no start node: every node has an incoming edge".into(),
            "the chart begins here, but something links back to it".into(),
        ));
    } else {
        let mut seen: BTreeSet<&str> = starts.iter().copied().collect();
        let mut stack = starts.clone();
        while let Some(id) = stack.pop() {
            for t in succ.get(id).into_iter().flatten() {
                if seen.insert(t.as_str()) {
                    stack.push(t.as_str());
                }
            }
        }
        for n in nodes.iter().filter(|n| !seen.contains(n.id.as_str())) {
            out.push(warn(
                "unreachable",
                n.span,
                format!("node `{}` is unreachable from the start node `{}`", n.id, starts[0]),
                "no path from the start leads here".into(),
            ));
        }
    }
    if nodes.iter().all(|n| outdeg(&n.id) > 0) {
        out.push(warn(
            "no-end",
            nodes[0].span,
            "no end node: every node has an outgoing edge".into(),
            "the flow never terminates".into(),
        ));
    }
    for n in nodes.iter().filter(|n| outdeg(&n.id) == 0 && in_of(&n.id) > 0 && !is_terminal(n)) {
        out.push(warn(
            "dead-end",
            n.span,
            format!("node `{}` is a dead end but not a terminal", n.id),
            "no outgoing edge; end the flow in a terminal such as `End([End])`".into(),
        ));
    }
    for n in nodes.iter().filter(|n| matches!(n.shape, Shape::Diam)) {
        let outs: Vec<_> = chart.edges.iter().filter(|e| e.from == n.id && e.stroke != Stroke::Invisible).collect();
        if outs.len() < 2 {
            out.push(warn(
                "decision-branches",
                n.span,
                format!("decision `{}` has {} outgoing edge(s); a decision needs at least two", n.id, outs.len()),
                "decision node".into(),
            ));
        }
        for e in outs.iter().filter(|e| e.label.as_deref().is_none_or(|l| l.trim().is_empty())) {
            out.push(warn(
                "decision-label",
                e.span,
                format!("edge `{}` → `{}` leaves decision `{}` without a label", e.from, e.to, n.id),
                "label the branch, e.g. `-->|yes|`".into(),
            ));
        }
    }
    out.extend(unknown_subgraphs(chart, &sub_ids));
    out.sort_by_key(|d| (d.span.start, d.code.clone()));
    out
}

/// Edge endpoints and styled ids that match no node declaration of their
/// own but look like a subgraph: its title, or its id in another case.
fn unknown_subgraphs(chart: &Flowchart, sub_ids: &BTreeSet<&str>) -> Vec<Diagnostic> {
    let norm = |s: &str| s.to_lowercase().replace(['-', '_', ' '], "");
    let mut out = Vec::new();
    for n in &chart.nodes {
        if sub_ids.contains(n.id.as_str()) || n.label != n.id {
            continue;
        }
        let hit = chart
            .subgraphs
            .iter()
            .find(|s| s.id != n.id && (norm(&s.id) == norm(&n.id) || norm(&s.title) == norm(&n.id)));
        if let Some(s) = hit {
            let mut d = warn(
                "unknown-subgraph",
                n.span,
                format!("`{}` names no subgraph and becomes a new node", n.id),
                format!("did you mean subgraph `{}`?", s.id),
            );
            d.help = Some(format!("refer to the subgraph by its id `{}`", s.id));
            out.push(d);
        }
    }
    out
}

/// Outcome of checking one text: the model and its warnings, or the parse
/// error as a diagnostic (with its pitfall hint).
#[derive(Debug, Clone)]
pub enum Checked {
    Ok { chart: Box<Flowchart>, warnings: Vec<Diagnostic> },
    Err(Box<Diagnostic>),
}

/// Parse and lint `source`: what `flowbench check` and `build` report.
pub fn check(source: &str) -> Checked {
    check_with(source, &super::ParseOptions::default())
}

/// [`check`] with explicit parser limits (`--max-edges`).
pub fn check_with(source: &str, opts: &super::ParseOptions) -> Checked {
    match super::parse_with(source, opts) {
        Ok(chart) => {
            let mut warnings = lint(&chart);
            warnings.extend(super::lint_text::lint_text(source));
            warnings.sort_by_key(|d| (d.span.start, d.code.clone()));
            Checked::Ok { chart: Box::new(chart), warnings }
        }
        Err(e) => Checked::Err(Box::new(super::diagnostic::from_parse_error(source, &e))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mermaid::model::{ArrowHead, Edge, LabelType, Node, Subgraph};

    fn node(id: &str, shape: Shape, label: &str) -> Node {
        Node::new(id, label, LabelType::Text, shape)
    }

    fn edge(from: &str, to: &str, label: Option<&str>) -> Edge {
        Edge {
            label: label.map(String::from),
            head_end: ArrowHead::Arrow,
            ..Edge::new(format!("L_{from}_{to}_0"), from, to)
        }
    }

    fn codes(chart: &Flowchart) -> Vec<String> {
        lint(chart).into_iter().map(|d| format!("{}:{}", d.code, d.message.split('`').nth(1).unwrap_or(""))).collect()
    }

    #[test]
    fn clean_chart_has_no_warnings() {
        let chart = Flowchart {
            nodes: vec![
                node("S", Shape::Stadium, "Start"),
                node("C", Shape::Diam, "x > 0?"),
                node("A", Shape::Rect, "print x"),
                node("E", Shape::Stadium, "End"),
            ],
            edges: vec![
                edge("S", "C", None),
                edge("C", "A", Some("yes")),
                edge("C", "E", Some("no")),
                edge("A", "E", None),
            ],
            ..Default::default()
        };
        assert_eq!(codes(&chart), Vec::<String>::new());
    }

    #[test]
    fn finds_unreachable_dead_end_and_bad_decision() {
        let chart = Flowchart {
            nodes: vec![
                node("S", Shape::Stadium, "Start"),
                node("C", Shape::Diam, "ok?"),
                node("A", Shape::Rect, "work"),
                node("X", Shape::Rect, "orphan"),
            ],
            edges: vec![edge("S", "C", None), edge("C", "A", None)],
            ..Default::default()
        };
        let got = codes(&chart);
        assert!(got.contains(&"dead-end:A".to_string()), "{got:?}");
        assert!(got.contains(&"unreachable:X".to_string()), "{got:?}");
        assert!(got.contains(&"decision-branches:C".to_string()), "{got:?}");
        assert!(got.iter().any(|c| c.starts_with("decision-label")), "{got:?}");
    }

    #[test]
    fn cycles_have_no_start_or_end() {
        let chart = Flowchart {
            nodes: vec![node("A", Shape::Rect, "a"), node("B", Shape::Rect, "b")],
            edges: vec![edge("A", "B", None), edge("B", "A", None)],
            ..Default::default()
        };
        let got = codes(&chart);
        assert!(got.iter().any(|c| c.starts_with("no-start")), "{got:?}");
        assert!(got.iter().any(|c| c.starts_with("no-end")), "{got:?}");
    }

    #[test]
    fn edges_to_subgraphs_reach_members_and_misnamed_subgraphs_are_flagged() {
        let chart = Flowchart {
            nodes: vec![
                node("S", Shape::Stadium, "Start"),
                node("A", Shape::Stadium, "End"),
                node("loop", Shape::Rect, "loop"),
            ],
            edges: vec![edge("S", "sg1", None), edge("S", "loop", None)],
            subgraphs: vec![Subgraph {
                id: "sg1".into(),
                title: "Loop".into(),
                label_type: LabelType::Text,
                members: vec!["A".into()],
                direction: None,
                classes: Vec::new(),
                styles: Vec::new(),
                span: Span::default(),
            }],
            ..Default::default()
        };
        let got = codes(&chart);
        assert!(!got.iter().any(|c| c.starts_with("unreachable")), "{got:?}");
        assert!(got.contains(&"unknown-subgraph:loop".to_string()), "{got:?}");
    }
}
