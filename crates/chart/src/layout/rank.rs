//! Layer assignment: longest path from the sources, then tightening passes
//! that move every node whose out-edges outnumber its in-edges (sources
//! especially) down next to its successors, and the reverse, until stable. This approximates dagre's
//! network-simplex ranking (short edges, compact drawing) in linear time.

use super::graph::LGraph;

/// Topological order of an acyclic `g` (Kahn's algorithm, ties by index).
pub fn topo_order(g: &LGraph) -> Vec<usize> {
    let n = g.len();
    let mut indeg: Vec<usize> = (0..n).map(|v| g.in_edges[v].len()).collect();
    let mut queue: std::collections::VecDeque<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(v) = queue.pop_front() {
        order.push(v);
        for &e in &g.out_edges[v] {
            let w = g.edges[e].to;
            indeg[w] -= 1;
            if indeg[w] == 0 {
                queue.push_back(w);
            }
        }
    }
    order
}

/// Ranks of an acyclic `g` (no self-loops), smallest rank 0, respecting
/// every edge's `minlen`.
pub fn rank(g: &LGraph) -> Vec<i32> {
    let order = topo_order(g);
    let mut rank = vec![0i32; g.len()];
    for &v in &order {
        for &e in &g.in_edges[v] {
            let ed = &g.edges[e];
            rank[v] = rank[v].max(rank[ed.from] + ed.minlen as i32);
        }
    }
    // Tightening by local moves until stable: moving `v` one rank down
    // lengthens its in-edges and shortens its out-edges, so a node with more
    // out- than in-edges goes as far down as its successors allow, one with
    // more in-edges as far up as its predecessors allow. Each move lowers
    // the total edge length, so this converges; passes are capped.
    for _pass in 0..16 {
        let mut moved = false;
        for &v in order.iter().rev().chain(order.iter()) {
            let (ins, outs) = (g.in_edges[v].len(), g.out_edges[v].len());
            if outs > ins {
                let max = g.out_edges[v]
                    .iter()
                    .map(|&e| rank[g.edges[e].to] - g.edges[e].minlen as i32)
                    .min()
                    .unwrap_or(rank[v]);
                if max > rank[v] {
                    rank[v] = max;
                    moved = true;
                }
            } else if ins > outs {
                let min = g.in_edges[v]
                    .iter()
                    .map(|&e| rank[g.edges[e].from] + g.edges[e].minlen as i32)
                    .max()
                    .unwrap_or(rank[v]);
                if min < rank[v] {
                    rank[v] = min;
                    moved = true;
                }
            }
        }
        if !moved {
            break;
        }
    }
    if g.len() >= BALANCE_MIN_NODES {
        balance(g, &mut rank);
    }
    let min = rank.iter().copied().min().unwrap_or(0);
    for r in &mut rank {
        *r -= min;
    }
    rank
}

/// Small charts keep dagre's ranks (a node right below its decision, as
/// mermaid draws it); balancing pays off where width is the problem.
const BALANCE_MIN_NODES: usize = 100;

/// Gansner et al.'s balancing: a node with as many in- as out-edges costs
/// the same on any rank between its neighbours, so it goes to the one with
/// the least node width already on it. Wide ranks make wide drawings
/// (random1000's widest rank held 14 real nodes). Steps keep the ranks'
/// parity: every `minlen` is even when edge labels take the odd ranks.
fn balance(g: &LGraph, rank: &mut [i32]) {
    let step = if g.edges.iter().all(|e| e.minlen % 2 == 0) { 2 } else { 1 };
    let lo = rank.iter().copied().min().unwrap_or(0);
    let hi = rank.iter().copied().max().unwrap_or(0);
    let mut load = vec![0f32; (hi - lo + 1) as usize];
    for (v, &r) in rank.iter().enumerate() {
        load[(r - lo) as usize] += g.nodes[v].w;
    }
    for v in 0..g.len() {
        let (ins, outs) = (g.in_edges[v].len(), g.out_edges[v].len());
        if ins != outs || ins == 0 {
            continue;
        }
        let from =
            g.in_edges[v].iter().map(|&e| rank[g.edges[e].from] + g.edges[e].minlen as i32).max().unwrap_or(rank[v]);
        let to =
            g.out_edges[v].iter().map(|&e| rank[g.edges[e].to] - g.edges[e].minlen as i32).min().unwrap_or(rank[v]);
        let mut best = rank[v];
        let mut r = from;
        while r <= to {
            if (r - rank[v]) % step == 0 && load[(r - lo) as usize] + g.nodes[v].w < load[(best - lo) as usize] {
                best = r;
            }
            r += 1;
        }
        if best != rank[v] {
            load[(rank[v] - lo) as usize] -= g.nodes[v].w;
            load[(best - lo) as usize] += g.nodes[v].w;
            rank[v] = best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::graph::{LEdge, LNode};
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize, u32)]) -> LGraph {
        let nodes = vec![LNode { w: 1.0, h: 1.0, dummy: false }; n];
        LGraph::new(nodes, edges.iter().map(|&(from, to, minlen)| LEdge { from, to, minlen }).collect())
    }

    #[test]
    fn respects_minlen() {
        let g = graph(3, &[(0, 1, 2), (1, 2, 1), (0, 2, 1)]);
        let r = rank(&g);
        assert_eq!(r, vec![0, 2, 3]);
    }

    #[test]
    fn sources_pulled_down_next_to_their_target() {
        // 0→1→2→3 and a lone source 4→3: 4 belongs right above 3.
        let g = graph(5, &[(0, 1, 1), (1, 2, 1), (2, 3, 1), (4, 3, 1)]);
        let r = rank(&g);
        assert_eq!(r[4], 2);
    }

    #[test]
    fn sinks_stay_close_to_their_source() {
        // 0→1→2→3 and 0→4: 4 must sit right below 0, not at the bottom.
        let g = graph(5, &[(0, 1, 1), (1, 2, 1), (2, 3, 1), (0, 4, 1)]);
        assert_eq!(rank(&g)[4], 1);
    }
}
