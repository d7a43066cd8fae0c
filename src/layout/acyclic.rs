//! Cycle breaking: a depth-first search in node order reverses every edge
//! that closes a cycle (points to a node still on the stack). Linear time,
//! deterministic, and it keeps the author's "forward" edges forward because
//! nodes are visited in first-appearance order, as dagre does.

use super::graph::LGraph;

/// Returns, per edge, whether it must be reversed to make `g` acyclic.
/// Self-loops are reported as reversed-irrelevant (`false`): callers remove
/// them before layering.
pub fn back_edges(g: &LGraph) -> Vec<bool> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        OnStack,
        Done,
    }
    let n = g.len();
    let mut state = vec![State::New; n];
    let mut reversed = vec![false; g.edges.len()];
    // Explicit stack of (node, next out-edge position) so deep chains (a
    // 10,000-node path) cannot overflow the call stack.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    // Start from true sources (in node order) so a chart's entry node is
    // not made to look like the end of a loop, then cover the rest.
    let has_in = |v: usize| g.in_edges[v].iter().any(|&e| g.edges[e].from != v);
    let roots = (0..n).filter(|&v| !has_in(v)).chain((0..n).filter(|&v| has_in(v)));
    for root in roots {
        if state[root] != State::New {
            continue;
        }
        state[root] = State::OnStack;
        stack.push((root, 0));
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if let Some(&e) = g.out_edges[v].get(*k) {
                *k += 1;
                let w = g.edges[e].to;
                if w == v {
                    continue;
                }
                match state[w] {
                    State::New => {
                        state[w] = State::OnStack;
                        stack.push((w, 0));
                    }
                    State::OnStack => reversed[e] = true,
                    State::Done => {}
                }
            } else {
                state[v] = State::Done;
                stack.pop();
            }
        }
    }
    reversed
}

#[cfg(test)]
mod tests {
    use super::super::graph::{LEdge, LNode};
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> LGraph {
        let nodes = vec![LNode { w: 1.0, h: 1.0, dummy: false }; n];
        LGraph::new(nodes, edges.iter().map(|&(from, to)| LEdge { from, to, minlen: 1 }).collect())
    }

    #[test]
    fn dag_untouched() {
        let g = graph(4, &[(0, 1), (1, 2), (0, 2), (2, 3)]);
        assert_eq!(back_edges(&g), vec![false; 4]);
    }

    #[test]
    fn cycle_broken_at_closing_edge() {
        let g = graph(3, &[(0, 1), (1, 2), (2, 0)]);
        assert_eq!(back_edges(&g), vec![false, false, true]);
    }

    #[test]
    fn sources_start_the_search() {
        // 3 is the entry into the cycle 0→1→2→0: searching from it first
        // cuts the cycle at 0→1, so 3→1→2→0 reads downwards.
        let g = graph(4, &[(0, 1), (1, 2), (2, 0), (3, 1)]);
        assert_eq!(back_edges(&g), vec![true, false, false, false]);
    }

    #[test]
    fn result_is_acyclic_on_dense_cycles() {
        let mut edges = Vec::new();
        for a in 0..6 {
            for b in 0..6 {
                if a != b {
                    edges.push((a, b));
                }
            }
        }
        let g = graph(6, &edges);
        let rev = back_edges(&g);
        // Acyclic iff a topological order exists once reversed edges flip.
        let mut indeg = [0; 6];
        let flipped: Vec<(usize, usize)> = edges.iter().zip(&rev).map(|(&(a, b), &r)| if r { (b, a) } else { (a, b) }).collect();
        for &(_, b) in &flipped {
            indeg[b] += 1;
        }
        let mut queue: Vec<usize> = (0..6).filter(|&v| indeg[v] == 0).collect();
        let mut seen = 0;
        while let Some(v) = queue.pop() {
            seen += 1;
            for &(a, b) in &flipped {
                if a == v {
                    indeg[b] -= 1;
                    if indeg[b] == 0 {
                        queue.push(b);
                    }
                }
            }
        }
        assert_eq!(seen, 6);
    }
}
