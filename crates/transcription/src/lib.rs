//! Scoring a model's transcription of a flowchart image (its Mermaid)
//! against the source chart, on the graph: did the model *read* the chart
//! right, whatever it then codes? The perception half of the ablation's
//! perception-versus-reasoning attribution.
//!
//! Data flow: reply text → [`flowbench_author::review::extract_mermaid`] →
//! `check --fix`'s forgiving path ([`flowbench_chart::mermaid::fix`]) →
//! [`flowbench_chart::mermaid::Flowchart`] → [`chart::View`] → [`counts::Counts`]
//! against the source's view → [`Score`] (F1s and accuracies). The
//! executable score ([`execute`]) reads the transcription back into Python
//! (`chart2py`) and runs the problem's tests through the judge.
//!
//! # How it works
//!
//! Labels are compared normalised ([`labels`]: case, whitespace, quotes,
//! `<br>`, entity codes): *strict* is equality, *relaxed* FlowGen's edit
//! similarity ≥ 0.85. Nodes are matched one-to-one ([`matching`]) among the
//! label-compatible pairs, preferring the assignment that reproduces most
//! edges, so renamed ids and reordered statements change nothing. Edges
//! match when their matched ends are joined; *triples* (source label, edge
//! label, target label) also need the edge labels to agree, under the same
//! mode. Branches, back edges (depth-first on the source) and subgraphs are
//! counted on the relaxed matching. A reply that holds no chart, or one
//! that does not parse after the fixes, scores zero with the reason kept.

pub mod chart;
pub mod counts;
pub mod execute;
pub mod labels;
pub mod matching;
pub mod noise;
pub mod samples;
pub mod unmatched;

use serde::{Deserialize, Serialize};

use flowbench_chart::mermaid::fix::fix_with;
use flowbench_chart::mermaid::{Flowchart, ParseOptions};

pub use counts::{Counts, Source};

/// Replies longer than this are refused unread (a runaway generation; the
/// fixer re-parses per round, so size bounds the time one reply may take).
pub const MAX_REPLY_CHARS: usize = 100_000;

/// Transcriptions with more nodes than this are refused: no bank chart
/// comes near it, and matching is quadratic in the node counts.
pub const MAX_NODES: usize = 2_000;

/// mermaid's edge limit, raised: a transcription is scored, not drawn.
const MAX_EDGES: usize = 4 * MAX_NODES;

/// One transcription's score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// Whether a flowchart was read from the reply.
    pub parsed: bool,
    /// Why not, or what was refused (`None` when it parsed).
    pub reason: Option<String>,
    /// `check --fix` rewrites applied before it parsed.
    pub fixes: usize,
    pub node_f1: f64,
    pub node_f1_strict: f64,
    pub edge_f1: f64,
    pub triple_f1_strict: f64,
    pub triple_f1_relaxed: f64,
    /// Yes/No edges kept right; `None` when the chart has no decision.
    pub branch_accuracy: Option<f64>,
    pub back_edges_found: usize,
    pub back_edges_total: usize,
    /// Subgraphs recovered; `None` when the chart has none.
    pub subgraph_recovery: Option<f64>,
    /// Whether `chart2py` of the transcription passes the problem's tests;
    /// `None` when not run (or not runnable: see `execution`).
    pub executes: Option<bool>,
    /// The executable score's verdict or why there is none.
    pub execution: Option<String>,
    #[serde(flatten)]
    pub counts: Counts,
}

impl Score {
    /// The score of `counts`; `reason` says why nothing parsed.
    pub fn from_counts(counts: Counts, parsed: bool, reason: Option<String>, fixes: usize) -> Score {
        let c = &counts;
        Score {
            parsed,
            reason,
            fixes,
            node_f1: f1(c.nodes_matched, c.nodes_source, c.nodes_transcribed),
            node_f1_strict: f1(c.nodes_matched_strict, c.nodes_source, c.nodes_transcribed),
            edge_f1: f1(c.edges_matched, c.edges_source, c.edges_transcribed),
            triple_f1_strict: f1(c.triples_matched_strict, c.edges_source, c.edges_transcribed),
            triple_f1_relaxed: f1(c.triples_matched_relaxed, c.edges_source, c.edges_transcribed),
            branch_accuracy: ratio(c.branches_correct, c.branches_total),
            back_edges_found: c.back_edges_found,
            back_edges_total: c.back_edges_total,
            subgraph_recovery: ratio(c.subgraphs_recovered, c.subgraphs_total),
            executes: None,
            execution: None,
            counts,
        }
    }
}

impl Score {
    /// A line that could not be scored at all (no such task, not JSON):
    /// zero everywhere, with the reason.
    pub fn refused(reason: String) -> Score {
        Score {
            node_f1: 0.0,
            node_f1_strict: 0.0,
            edge_f1: 0.0,
            triple_f1_strict: 0.0,
            triple_f1_relaxed: 0.0,
            ..Score::from_counts(Counts::default(), false, Some(reason), 0)
        }
    }
}

/// F1 of `matched` items out of `expected` and `found`: 1 when both are
/// empty (nothing to read, nothing invented).
pub fn f1(matched: usize, expected: usize, found: usize) -> f64 {
    if expected + found == 0 { 1.0 } else { 2.0 * matched as f64 / (expected + found) as f64 }
}

fn ratio(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

impl Source {
    /// Prepares a source chart.
    pub fn of(chart: &Flowchart) -> Source {
        Source::new(chart::View::new(chart))
    }

    /// Scores a parsed transcription.
    pub fn score_chart(&self, transcribed: &Flowchart) -> Score {
        Score::from_counts(self.count(&chart::View::new(transcribed)), true, None, 0)
    }

    /// Scores a model's reply: its Mermaid read as `check --fix` reads it.
    pub fn score_reply(&self, reply: &str) -> Score {
        self.score_read(&read_reply(reply))
    }

    /// Scores what [`read_reply`] made of a reply.
    pub fn score_read(&self, read: &Result<(Flowchart, usize), Unread>) -> Score {
        match read {
            Ok((chart, fixes)) => Score { fixes: *fixes, ..self.score_chart(chart) },
            Err(reason) => Score::from_counts(self.nothing_read(), false, Some(reason.to_string()), 0),
        }
    }
}

/// Why a reply holds no flowchart to score.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unread {
    #[error("empty reply")]
    Empty,
    #[error("reply refused: longer than {MAX_REPLY_CHARS} characters")]
    TooLong,
    #[error("no Mermaid flowchart in the reply (no ```mermaid block, no flowchart header)")]
    NoMermaid,
    /// Mermaid's parse error (after the fixes), where it is in the block.
    #[error("not a flowchart mermaid reads: {line}:{column}: {message}")]
    NotAFlowchart { line: u32, column: u32, message: String },
    #[error("transcription refused: {nodes} nodes (more than {MAX_NODES})")]
    TooManyNodes { nodes: usize },
}

/// The flowchart in a reply and the number of fixes it needed, or why
/// there is none.
pub fn read_reply(reply: &str) -> Result<(Flowchart, usize), Unread> {
    if reply.trim().is_empty() {
        return Err(Unread::Empty);
    }
    if reply.chars().count() > MAX_REPLY_CHARS {
        return Err(Unread::TooLong);
    }
    let text = flowbench_author::review::extract_mermaid(reply).ok_or(Unread::NoMermaid)?;
    let opts = ParseOptions { max_edges: MAX_EDGES, ..ParseOptions::default() };
    let parse = |t: &str| flowbench_chart::mermaid::parse_with(t, &opts);
    let fixed = fix_with(&text, &parse);
    let chart = parse(&fixed.text).map_err(|e| Unread::NotAFlowchart {
        line: e.span.line,
        column: e.span.col,
        message: e.message,
    })?;
    if chart.nodes.len() > MAX_NODES {
        return Err(Unread::TooManyNodes { nodes: chart.nodes.len() });
    }
    Ok((chart, fixed.changes.len()))
}
