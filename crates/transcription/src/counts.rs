//! The counts a transcription is scored by, from the two node matchings.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use flowbench_author::graph::Branch;

use super::chart::View;
use super::labels::relaxed_match;
use super::matching::{Mode, match_nodes};

/// What was there and what was found. Every score is a ratio of these.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub nodes_source: usize,
    pub nodes_transcribed: usize,
    /// Nodes matched with equal normalised labels.
    pub nodes_matched_strict: usize,
    /// Nodes matched with similar labels (edit similarity ≥ 0.85).
    pub nodes_matched: usize,
    pub edges_source: usize,
    pub edges_transcribed: usize,
    /// Source edges whose matched ends are joined in the transcription.
    pub edges_matched: usize,
    /// (source label, edge label, target label) triples found, strict.
    pub triples_matched_strict: usize,
    /// The same, every part relaxed.
    pub triples_matched_relaxed: usize,
    /// Yes/No edges leaving a source decision.
    pub branches_total: usize,
    /// Those whose matched decision leaves by the same branch to the
    /// matched target.
    pub branches_correct: usize,
    pub back_edges_total: usize,
    pub back_edges_found: usize,
    pub subgraphs_total: usize,
    /// Source subgraphs drawn as one transcribed subgraph holding exactly
    /// the matched nodes.
    pub subgraphs_recovered: usize,
}

/// A source chart prepared once for scoring many transcriptions of it.
#[derive(Debug, Clone)]
pub struct Source {
    pub view: View,
    back_edges: Vec<usize>,
}

impl Source {
    pub fn new(view: View) -> Source {
        let back_edges = view.back_edges();
        Source { view, back_edges }
    }

    /// Counts for a transcription that read nothing.
    pub fn nothing_read(&self) -> Counts {
        Counts {
            nodes_source: self.view.len(),
            edges_source: self.view.edges.len(),
            branches_total: self.branch_edges().count(),
            back_edges_total: self.back_edges.len(),
            subgraphs_total: self.subgraphs().count(),
            ..Counts::default()
        }
    }

    /// The counts of `transcribed` against this source.
    pub fn count(&self, transcribed: &View) -> Counts {
        let relaxed = match_nodes(&self.view, transcribed, Mode::Relaxed);
        let strict = match_nodes(&self.view, transcribed, Mode::Strict);
        let found = self.edges_found(transcribed, &relaxed, |_, _| true);
        let mut counts = self.nothing_read();
        counts.nodes_transcribed = transcribed.len();
        counts.nodes_matched = relaxed.iter().flatten().count();
        counts.nodes_matched_strict = strict.iter().flatten().count();
        counts.edges_transcribed = transcribed.edges.len();
        counts.edges_matched = found.iter().filter(|f| f.is_some()).count();
        counts.triples_matched_strict = self.edges_found(transcribed, &strict, |a, b| a == b).iter().flatten().count();
        counts.triples_matched_relaxed =
            self.edges_found(transcribed, &relaxed, relaxed_match).iter().flatten().count();
        counts.branches_correct = self.branch_edges().filter(|&i| self.branch_kept(transcribed, &relaxed, i)).count();
        counts.back_edges_found = self.back_edges.iter().filter(|&&i| found[i].is_some()).count();
        counts.subgraphs_recovered = self.subgraphs().filter(|s| recovered(s, transcribed, &relaxed)).count();
        counts
    }

    /// Source edge indices that are a decision's Yes/No branch.
    fn branch_edges(&self) -> impl Iterator<Item = usize> + '_ {
        let v = &self.view;
        (0..v.edges.len()).filter(|&i| {
            let e = &v.edges[i];
            e.branch != Branch::Next && e.from.is_some_and(|f| v.decision[f])
        })
    }

    fn subgraphs(&self) -> impl Iterator<Item = &Vec<usize>> {
        self.view.subgraphs.iter().filter(|s| !s.is_empty())
    }

    /// For each source edge, the transcribed edge standing for it (one
    /// each): same matched ends and labels agreeing by `labels`.
    pub(super) fn edges_found(
        &self,
        transcribed: &View,
        matched: &[Option<usize>],
        labels: impl Fn(&str, &str) -> bool,
    ) -> Vec<Option<usize>> {
        let mut by_ends: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        for (i, e) in transcribed.edges.iter().enumerate() {
            if let (Some(f), Some(t)) = (e.from, e.to) {
                by_ends.entry((f, t)).or_default().push(i);
            }
        }
        let mut used = vec![false; transcribed.edges.len()];
        let mut found = Vec::with_capacity(self.view.edges.len());
        for e in &self.view.edges {
            let ends = e.from.and_then(|f| matched[f]).zip(e.to.and_then(|t| matched[t]));
            let pick = ends.and_then(|ends| {
                by_ends.get(&ends)?.iter().copied().find(|&i| !used[i] && labels(&e.label, &transcribed.edges[i].label))
            });
            if let Some(i) = pick {
                used[i] = true;
            }
            found.push(pick);
        }
        found
    }

    fn branch_kept(&self, transcribed: &View, matched: &[Option<usize>], edge: usize) -> bool {
        let e = &self.view.edges[edge];
        let ends = e.from.and_then(|f| matched[f]).zip(e.to.and_then(|t| matched[t]));
        ends.is_some_and(|(f, t)| {
            transcribed.edges.iter().any(|x| x.from == Some(f) && x.to == Some(t) && x.branch == e.branch)
        })
    }
}

/// Whether a source subgraph's nodes, all matched, form exactly one
/// transcribed subgraph.
fn recovered(members: &[usize], transcribed: &View, matched: &[Option<usize>]) -> bool {
    let Some(mut mapped) = members.iter().map(|&m| matched[m]).collect::<Option<Vec<usize>>>() else {
        return false;
    };
    mapped.sort_unstable();
    transcribed.subgraphs.iter().any(|s| {
        let mut s = s.clone();
        s.sort_unstable();
        s == mapped
    })
}
