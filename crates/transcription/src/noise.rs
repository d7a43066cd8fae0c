//! Seeded misreadings of a chart, for the `noisy-transcriber` stand-in and
//! the tests that check each one costs exactly what it should.
//!
//! Each [`Edit`] is one mistake a reader of the picture makes: an arrow
//! missed, the Yes and No of a decision swapped, a box misread, a step of a
//! helper (subgraph) skipped. [`noisy`] picks one applicable edit from a
//! seed, so a sample records what was done to it.

use serde::{Deserialize, Serialize};

use flowbench_author::graph::{Branch, branch_of};
use flowbench_chart::mermaid::{Edge, Flowchart};

/// What a misread box is read as: like no label a chart holds.
pub const MISREAD: &str = "(illegible)";

/// One misreading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "kebab-case")]
pub enum Edit {
    /// The edge `from --> to` (the first one between them) is missed.
    DropEdge { from: String, to: String },
    /// The Yes and No edges leaving `decision` have their labels swapped.
    SwapBranches { decision: String },
    /// `node`'s label is read as [`MISREAD`].
    RenameNode { node: String },
    /// `node`, a subgraph member with one way in and one way out, is
    /// skipped: its predecessor is joined to its successor.
    DropSubgraphStep { node: String },
}

impl Edit {
    /// The edit's kind, as serialized.
    pub fn kind(&self) -> &'static str {
        match self {
            Edit::DropEdge { .. } => "drop-edge",
            Edit::SwapBranches { .. } => "swap-branches",
            Edit::RenameNode { .. } => "rename-node",
            Edit::DropSubgraphStep { .. } => "drop-subgraph-step",
        }
    }
}

/// Every edit that applies to `chart`, grouped by kind, in chart order.
pub fn applicable(chart: &Flowchart) -> Vec<Edit> {
    let node = |id: &str| chart.nodes.iter().any(|n| n.id == id);
    let mut out: Vec<Edit> = chart
        .edges
        .iter()
        .filter(|e| node(&e.from) && node(&e.to))
        .map(|e| Edit::DropEdge { from: e.from.clone(), to: e.to.clone() })
        .collect();
    out.dedup();
    out.extend(
        chart.nodes.iter().filter(|n| swappable(chart, &n.id)).map(|n| Edit::SwapBranches { decision: n.id.clone() }),
    );
    out.extend(chart.nodes.iter().map(|n| Edit::RenameNode { node: n.id.clone() }));
    out.extend(
        chart.nodes.iter().filter(|n| skippable(chart, &n.id)).map(|n| Edit::DropSubgraphStep { node: n.id.clone() }),
    );
    out
}

/// One edit chosen by `seed` (and the edited chart); `None` when nothing
/// applies (an empty chart).
pub fn noisy(chart: &Flowchart, seed: u64) -> Option<(Flowchart, Edit)> {
    let edits = applicable(chart);
    // Pick the kind first, so each kind is as likely whatever the counts.
    let mut kinds: Vec<&str> = edits.iter().map(Edit::kind).collect();
    kinds.dedup();
    let mut rng = fastrand::Rng::with_seed(seed);
    let kind = *kinds.get(rng.usize(..kinds.len().max(1)))?;
    let of_kind: Vec<&Edit> = edits.iter().filter(|e| e.kind() == kind).collect();
    let edit = of_kind[rng.usize(..of_kind.len())].clone();
    Some((apply(chart, &edit), edit))
}

/// `chart` with `edit` made.
pub fn apply(chart: &Flowchart, edit: &Edit) -> Flowchart {
    let mut out = chart.clone();
    match edit {
        Edit::DropEdge { from, to } => {
            if let Some(i) = out.edges.iter().position(|e| &e.from == from && &e.to == to) {
                out.edges.remove(i);
            }
        }
        Edit::SwapBranches { decision } => {
            let leaving: Vec<usize> = (0..out.edges.len()).filter(|&i| &out.edges[i].from == decision).collect();
            if let [a, b] = leaving[..] {
                let label = out.edges[a].label.take();
                out.edges[a].label = out.edges[b].label.replace(label.unwrap_or_default());
            }
        }
        Edit::RenameNode { node } => {
            if let Some(n) = out.nodes.iter_mut().find(|n| &n.id == node) {
                n.label = MISREAD.into();
            }
        }
        Edit::DropSubgraphStep { node } => skip(&mut out, node),
    }
    out
}

/// A decision left by exactly a Yes and a No edge, to different targets.
fn swappable(chart: &Flowchart, id: &str) -> bool {
    let leaving: Vec<&Edge> = chart.edges.iter().filter(|e| e.from == id).collect();
    let [a, b] = leaving[..] else { return false };
    let branches = [branch_of(a.label.as_deref()), branch_of(b.label.as_deref())];
    a.to != b.to && branches.contains(&Branch::Yes) && branches.contains(&Branch::No)
}

/// A subgraph member with one edge in and one edge out, no self loop.
fn skippable(chart: &Flowchart, id: &str) -> bool {
    let inside = chart.subgraphs.iter().any(|s| s.members.iter().any(|m| m == id));
    let ins = chart.edges.iter().filter(|e| e.to == id).count();
    let outs: Vec<&Edge> = chart.edges.iter().filter(|e| e.from == id).collect();
    inside && ins == 1 && outs.len() == 1 && outs[0].to != id
}

/// Removes `id`, joining its one predecessor to its one successor with
/// the incoming edge (its label kept: a branch still leads somewhere).
fn skip(chart: &mut Flowchart, id: &str) {
    let Some(out_edge) = chart.edges.iter().position(|e| e.from == id) else { return };
    let successor = chart.edges.remove(out_edge).to;
    if let Some(in_edge) = chart.edges.iter_mut().find(|e| e.to == id) {
        in_edge.to = successor;
    }
    chart.nodes.retain(|n| n.id != id);
    for s in &mut chart.subgraphs {
        s.members.retain(|m| m != id);
    }
}
