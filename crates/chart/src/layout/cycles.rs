//! Cycle breaking for one layered drawing: which of a `Problem`'s edges are
//! drawn reversed, with cluster blocks (chains of segments) counted as one
//! item and the caller's `forward` edges turned back where they close no
//! cycle.

use super::acyclic;
use super::graph::{LEdge, LGraph, LNode};
use super::problem::Problem;

/// Cycle breaking: per edge, whether it is drawn reversed, and the `below`
/// constraints kept. A chain counts as one node, its head, so cycles
/// through a block are broken outside it, as for one item; reversed
/// `below` constraints are dropped. Then each edge the caller marks
/// `forward` (one leaving a block at a segment and coming back into it
/// lower down, beside it) goes forwards again if the real graph, chain
/// links included, stays acyclic that way.
pub(super) fn break_cycles(p: &Problem, nodes: &[LNode]) -> (Vec<bool>, Vec<(usize, usize)>) {
    let (n, ne) = (nodes.len(), p.edges.len());
    let mut head: Vec<usize> = (0..n).collect();
    for c in &p.chains {
        for &v in c {
            head[v] = c[0];
        }
    }
    let edges = p.edges.iter().map(|e| (e.from, e.to)).chain(p.below.iter().copied());
    let edges = edges.map(|(a, b)| LEdge { from: head[a], to: head[b], minlen: 1 }).collect();
    let mut rev = acyclic::back_edges(&LGraph::new(nodes.to_vec(), edges));
    let below: Vec<(usize, usize)> =
        p.below.iter().zip(&rev[ne..]).filter(|&(&(a, b), &r)| !r && head[a] != head[b]).map(|(&b, _)| b).collect();
    rev.truncate(ne);
    let acyclic_with = |rev: &[bool]| {
        let oriented = p.edges.iter().zip(rev).map(|(e, &r)| if r { (e.to, e.from) } else { (e.from, e.to) });
        let links = p.chains.iter().flat_map(|c| c.windows(2).map(|w| (w[0], w[1])));
        acyclic_edges(n, oriented.chain(links).chain(below.iter().copied()))
    };
    // All together first (parallel edges into one port flip as one), then
    // one by one.
    let flipped: Vec<usize> = p.forward.iter().copied().filter(|&k| rev[k]).collect();
    if flipped.is_empty() {
        return (rev, below);
    }
    let mut all = rev.clone();
    for &k in &flipped {
        all[k] = false;
    }
    if acyclic_with(&all) {
        return (all, below);
    }
    for &k in &flipped {
        rev[k] = false;
        if !acyclic_with(&rev) {
            rev[k] = true;
        }
    }
    (rev, below)
}

/// Is the directed graph on `n` nodes with these edges acyclic (Kahn)?
fn acyclic_edges(n: usize, edges: impl Iterator<Item = (usize, usize)>) -> bool {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indeg = vec![0usize; n];
    for (a, b) in edges {
        out[a].push(b);
        indeg[b] += 1;
    }
    let mut ready: Vec<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    let mut seen = 0;
    while let Some(v) = ready.pop() {
        seen += 1;
        for &w in &out[v] {
            indeg[w] -= 1;
            if indeg[w] == 0 {
                ready.push(w);
            }
        }
    }
    seen == n
}
