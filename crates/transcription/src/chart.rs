//! One chart as the scorer sees it: nodes with normalised labels and a
//! decision flag, edges between node indices with normalised labels.

use std::collections::HashMap;

use flowbench_author::graph::{Branch, branch_of, depth_first};
use flowbench_chart::mermaid::{Flowchart, Shape};

use super::labels::normalise;

/// A chart reduced to what a transcription can get right or wrong.
#[derive(Debug, Clone)]
pub struct View {
    /// Normalised node labels, in model order.
    pub labels: Vec<String>,
    /// Whether each node is a decision (a diamond, or two or more exits:
    /// the rule `author::graph::kind` uses, so lost shapes still count).
    pub decision: Vec<bool>,
    /// Edges; an end at a subgraph (not a node) is `None` and never matches.
    pub edges: Vec<ViewEdge>,
    /// Subgraphs as the node indices directly inside them.
    pub subgraphs: Vec<Vec<usize>>,
}

#[derive(Debug, Clone)]
pub struct ViewEdge {
    pub from: Option<usize>,
    pub to: Option<usize>,
    /// Normalised label (empty when there is none).
    pub label: String,
    /// The branch the label names (`Yes`/`No`), `Next` for any other.
    pub branch: Branch,
}

impl View {
    pub fn new(chart: &Flowchart) -> View {
        let index: HashMap<&str, usize> = chart.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
        let edges: Vec<ViewEdge> = chart
            .edges
            .iter()
            .map(|e| ViewEdge {
                from: index.get(e.from.as_str()).copied(),
                to: index.get(e.to.as_str()).copied(),
                label: e.label.as_deref().map(normalise).unwrap_or_default(),
                branch: branch_of(e.label.as_deref()),
            })
            .collect();
        let mut out_degree = vec![0usize; chart.nodes.len()];
        for e in &edges {
            if let Some(f) = e.from {
                out_degree[f] += 1;
            }
        }
        View {
            labels: chart.nodes.iter().map(|n| normalise(&n.label)).collect(),
            decision: chart
                .nodes
                .iter()
                .zip(&out_degree)
                .map(|(n, &d)| matches!(n.shape, Shape::Diam | Shape::Hex) || d >= 2)
                .collect(),
            edges,
            subgraphs: chart
                .subgraphs
                .iter()
                .map(|s| s.members.iter().filter_map(|m| index.get(m.as_str()).copied()).collect())
                .collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Successor lists (node → edge indices leaving it).
    pub fn out_edges(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.len()];
        for (i, e) in self.edges.iter().enumerate() {
            if let Some(f) = e.from {
                out[f].push(i);
            }
        }
        out
    }

    /// The indices of the edges that close cycles: depth-first from the
    /// nodes nothing enters (in order), then from any node left unvisited.
    pub fn back_edges(&self) -> Vec<usize> {
        let mut succ = vec![Vec::new(); self.len()];
        let mut entered = vec![false; self.len()];
        for e in &self.edges {
            if let (Some(f), Some(t)) = (e.from, e.to) {
                succ[f].push(t);
                entered[t] = true;
            }
        }
        let roots: Vec<usize> = (0..self.len()).filter(|&n| !entered[n]).chain(0..self.len()).collect();
        let (_, back) = depth_first(&succ, &roots);
        (0..self.edges.len())
            .filter(|&i| matches!((self.edges[i].from, self.edges[i].to), (Some(f), Some(t)) if back.contains(&(f, t))))
            .collect()
    }
}
