//! Cycle breaking. Only edges inside a strongly connected component can
//! lie on a cycle, so edges between components are never reversed. Inside
//! a component, nodes are read in first-appearance order starting from the
//! component's entry (its first node reached from outside), and every edge
//! pointing backwards in that order is reversed. Authors write flowcharts
//! top-down, so this reverses the loops' closing edges; a depth-first
//! search (dagre's) instead enters nested loops from whichever node it
//! reaches first and then reverses forward edges, stretching the ranking
//! (random200 went from 28 to 48 ranks that way). Reading order alone
//! also reverses edges that close no cycle (a node declared before the
//! decision leading to it); in components of a flowchart's size those
//! point forwards again. Linear time for the reading, one search of the
//! component per reversed edge after.

use super::graph::LGraph;

/// Strongly connected components (Tarjan, iterative so a 10,000-node chain
/// cannot overflow the stack): component id per node.
pub fn components(g: &LGraph) -> Vec<usize> {
    let n = g.len();
    const NONE: usize = usize::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![NONE; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut call: Vec<(usize, usize)> = Vec::new();
    let (mut next, mut ncomp) = (0usize, 0usize);
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        call.push((root, 0));
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = call.last_mut() {
            if let Some(&e) = g.out_edges[v].get(*k) {
                *k += 1;
                let w = g.edges[e].to;
                if index[w] == NONE {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}

/// Returns, per edge, whether it must be reversed to make `g` acyclic.
/// Self-loops are never reversed: callers remove them before layering.
pub fn back_edges(g: &LGraph) -> Vec<bool> {
    let n = g.len();
    let comp = components(g);
    // Entry of each component: its first node with an edge from outside
    // (a source component has none and starts at its first node).
    let mut entry = vec![usize::MAX; n];
    for e in &g.edges {
        if comp[e.from] != comp[e.to] {
            let c = comp[e.to];
            entry[c] = entry[c].min(e.to);
        }
    }
    // Reading order inside a component: from the entry on, then wrapping
    // round to the nodes declared before it.
    let key = |v: usize| {
        let start = entry[comp[v]];
        (start != usize::MAX && v < start, v)
    };
    let mut rev: Vec<bool> =
        g.edges.iter().map(|e| e.from != e.to && comp[e.from] == comp[e.to] && key(e.from) > key(e.to)).collect();
    // Reading order also reverses edges that close no cycle: a decision's
    // second exit into a node declared before it (`I -- No --> K`, then
    // `J -- No --> K` below `I -- Yes --> J`) would be drawn upwards, K
    // above the decision leading to it. Each such edge points forwards
    // again unless its head reaches its tail in the graph as oriented.
    // Only in components of a flowchart's size: in a large tangle of
    // loops (random graphs) it lengthens the ranking a lot (a generated
    // 1,000-node chart drew 36 % more pixels) and each search is long.
    let mut size = vec![0usize; n];
    for &c in &comp {
        size[c] += 1;
    }
    let mut seen = vec![usize::MAX; n];
    let mut stack = Vec::new();
    for k in 0..g.edges.len() {
        if !rev[k] || size[comp[g.edges[k].from]] > MAX_FORWARD_COMPONENT {
            continue;
        }
        let (from, to) = (g.edges[k].from, g.edges[k].to);
        // Does `to` reach `from` without edge k?
        stack.clear();
        stack.push(to);
        seen[to] = k;
        let mut cycle = false;
        while let Some(v) = stack.pop() {
            if v == from {
                cycle = true;
                break;
            }
            let outs = g.out_edges[v].iter().filter(|&&e| !rev[e]).map(|&e| g.edges[e].to);
            let ins = g.in_edges[v].iter().filter(|&&e| rev[e] && e != k).map(|&e| g.edges[e].from);
            for w in outs.chain(ins) {
                if comp[w] == comp[to] && seen[w] != k {
                    seen[w] = k;
                    stack.push(w);
                }
            }
        }
        if !cycle {
            rev[k] = false;
        }
    }
    rev
}

/// Largest strongly connected component whose edges closing no cycle are
/// pointed forwards again.
const MAX_FORWARD_COMPONENT: usize = 100;

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
    fn loop_entered_from_the_side_keeps_its_forward_edges() {
        // A depth-first search along the edge list reaches the loop 1→2→3→1
        // at 3 (via 4) and would reverse 2→3; reading order reverses 3→1.
        let g = graph(5, &[(0, 4), (4, 3), (3, 1), (0, 1), (1, 2), (2, 3)]);
        assert_eq!(back_edges(&g), vec![false, false, true, false, false, false]);
    }

    #[test]
    fn an_edge_closing_no_cycle_points_forwards() {
        // Loop 0→1→3→0; 1→2→3 too, but 2 is declared after 3 (as a
        // decision's second exit often is): 2→3 points backwards in
        // reading order yet closes no cycle, so it stays forwards.
        let g = graph(4, &[(0, 1), (1, 3), (1, 2), (2, 3), (3, 0)]);
        assert_eq!(back_edges(&g), vec![false, false, false, false, true]);
    }

    #[test]
    fn edges_between_components_stay() {
        // 2→1 points backwards in node order but lies on no cycle.
        let g = graph(3, &[(0, 2), (2, 1)]);
        assert_eq!(back_edges(&g), vec![false, false]);
        assert_eq!(
            components(&graph(3, &[(0, 1), (1, 0), (1, 2)]))
                .iter()
                .filter(|&&c| c == components(&graph(3, &[(0, 1), (1, 0), (1, 2)]))[0])
                .count(),
            2
        );
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
        let flipped: Vec<(usize, usize)> =
            edges.iter().zip(&rev).map(|(&(a, b), &r)| if r { (b, a) } else { (a, b) }).collect();
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
