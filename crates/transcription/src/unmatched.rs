//! What the scorer could not match, for showing: the source nodes and
//! edges the transcription misses and the transcribed ones with no source
//! counterpart, under the relaxed matching (the one triple F1 and the
//! read-right rule use). Indices are the charts' own node and edge orders.

use serde::Serialize;

use super::Source;
use super::chart::View;
use super::labels::relaxed_match;
use super::matching::{Mode, match_nodes};

/// Unmatched node and edge indices on both sides.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Unmatched {
    pub source_nodes: Vec<usize>,
    /// Source edges whose triple (ends and label, relaxed) was not found.
    pub source_edges: Vec<usize>,
    pub transcribed_nodes: Vec<usize>,
    pub transcribed_edges: Vec<usize>,
}

impl Source {
    /// What `transcribed` leaves unmatched against this source.
    pub fn unmatched(&self, transcribed: &View) -> Unmatched {
        let matched = match_nodes(&self.view, transcribed, Mode::Relaxed);
        let found = self.edges_found(transcribed, &matched, relaxed_match);
        let mut node_used = vec![false; transcribed.len()];
        matched.iter().flatten().for_each(|&t| node_used[t] = true);
        let mut edge_used = vec![false; transcribed.edges.len()];
        found.iter().flatten().for_each(|&t| edge_used[t] = true);
        let unused = |used: &[bool]| (0..used.len()).filter(|&i| !used[i]).collect();
        Unmatched {
            source_nodes: (0..matched.len()).filter(|&i| matched[i].is_none()).collect(),
            source_edges: (0..found.len()).filter(|&i| found[i].is_none()).collect(),
            transcribed_nodes: unused(&node_used),
            transcribed_edges: unused(&edge_used),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_renamed_node_and_its_edges_are_unmatched_on_both_sides() {
        let source =
            flowbench_chart::mermaid::parse("flowchart TD\n  A[start] --> B[x = 1] --> C[return x]\n").expect("parses");
        let read =
            flowbench_chart::mermaid::parse("flowchart TD\n  P[start] --> Q[y = 2] --> R[return x]\n").expect("parses");
        let u = Source::of(&source).unmatched(&View::new(&read));
        assert_eq!(
            u,
            Unmatched {
                source_nodes: vec![1],
                source_edges: vec![0, 1],
                transcribed_nodes: vec![1],
                transcribed_edges: vec![0, 1]
            }
        );
        assert_eq!(Source::of(&source).unmatched(&View::new(&source)), Unmatched::default());
    }
}
