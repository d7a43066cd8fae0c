//! Horizontal coordinates by Brandes–Köpf: four vertical alignments
//! (up/down × left/right) of nodes with their median neighbours into blocks,
//! each compacted against a block graph of separation constraints, then
//! aligned to the narrowest and balanced (mean of the two middle values).
//! Inner segments (dummy–dummy edges) win conflicts so long edges run
//! straight. Port of dagre's `position/bk.js`, with vectors for its maps.

use super::order::Layers;

/// Separation inputs: node widths, which nodes are dummies, and the gaps.
pub struct Spacing<'a> {
    pub width: &'a [f32],
    pub dummy: &'a [bool],
    /// Segments of a cluster block spanning several ranks: links between
    /// them are inner segments, like dummy chains, so the block stays
    /// straight (empty when there are none).
    pub chain: &'a [bool],
    pub node_sep: f32,
    pub edge_sep: f32,
}

impl Spacing<'_> {
    /// Minimum distance between the centres of neighbours `a` and `b`.
    pub(crate) fn sep(&self, a: usize, b: usize) -> f32 {
        let ga = if self.dummy[a] { self.edge_sep } else { self.node_sep };
        let gb = if self.dummy[b] { self.edge_sep } else { self.node_sep };
        self.width[a] / 2.0 + ga / 2.0 + gb / 2.0 + self.width[b] / 2.0
    }
}

/// Is `u`–`v` an inner segment (dummy–dummy or a cluster chain link)?
fn inner(dummy: &[bool], chain: &[bool], u: usize, v: usize) -> bool {
    (dummy[u] && dummy[v]) || (chain.get(u).copied().unwrap_or(false) && chain.get(v).copied().unwrap_or(false))
}

/// Marks edges (by upper, lower node) that cross an inner segment: those
/// are the ones alignment must not use. Returns a per-node list of the
/// conflicting partners, sorted for binary search.
fn type1_conflicts(l: &Layers, pos: &[usize], dummy: &[bool], chain: &[bool]) -> Vec<Vec<usize>> {
    let n = pos.len();
    let mut conflicts: Vec<Vec<usize>> = vec![Vec::new(); n];
    for w in l.layers.windows(2) {
        let (prev, layer) = (&w[0], &w[1]);
        let mut k0 = 0usize;
        let mut scan = 0usize;
        for (i, &v) in layer.iter().enumerate() {
            let upper = l.up[v].iter().copied().find(|&u| inner(dummy, chain, u, v));
            let k1 = upper.map_or(prev.len(), |u| pos[u]);
            if upper.is_some() || i + 1 == layer.len() {
                for &s in &layer[scan..=i] {
                    for &u in &l.up[s] {
                        let p = pos[u];
                        if (p < k0 || k1 < p) && !inner(dummy, chain, u, s) {
                            conflicts[u].push(s);
                            conflicts[s].push(u);
                        }
                    }
                }
                scan = i + 1;
                k0 = k1;
            }
        }
    }
    for c in &mut conflicts {
        c.sort_unstable();
        c.dedup();
    }
    conflicts
}

/// One alignment: `layers` already in sweep order (reversed for bottom-up
/// and/or right-to-left), `nbrs` the neighbours in the previous layer.
fn align(
    layers: &[Vec<usize>],
    nbrs: &[Vec<usize>],
    pos: &[usize],
    conflicts: &[Vec<usize>],
    chain: &[bool],
) -> (Vec<usize>, Vec<usize>) {
    let in_chain = |v: usize| chain.get(v).copied().unwrap_or(false);
    let n = pos.len();
    let mut root: Vec<usize> = (0..n).collect();
    let mut align: Vec<usize> = (0..n).collect();
    let mut ws: Vec<usize> = Vec::new();
    for layer in layers {
        let mut prev_idx: isize = -1;
        for &v in layer {
            ws.clear();
            // A block segment aligns with the next segment only.
            // A block segment aligns with the next segment only, and nothing
            // else with a segment.
            match nbrs[v].iter().copied().find(|&w| in_chain(v) && in_chain(w)) {
                Some(w) => ws.push(w),
                None => ws.extend(nbrs[v].iter().copied().filter(|&w| !in_chain(w))),
            }
            if ws.is_empty() {
                continue;
            }
            ws.sort_by_key(|&w| pos[w]);
            ws.dedup();
            let mp = (ws.len() - 1) as f32 / 2.0;
            for &w in &ws[(mp.floor() as usize)..=(mp.ceil() as usize)] {
                if align[v] == v && prev_idx < pos[w] as isize && conflicts[v].binary_search(&w).is_err() {
                    align[w] = v;
                    root[v] = root[w];
                    align[v] = root[v];
                    prev_idx = pos[w] as isize;
                }
            }
        }
    }
    (root, align)
}

/// Compacts blocks left (in sweep order): longest path on the block graph,
/// then pull blocks right as far as their successors allow.
fn compact(layers: &[Vec<usize>], root: &[usize], sp: &Spacing, reverse: bool) -> Vec<f32> {
    let n = root.len();
    // Block graph: edge root(u) → root(v) for every left neighbour u of v,
    // stored as flat adjacency arrays (CSR): two allocations, not 2n.
    let mut edges: Vec<(usize, usize, f32)> = Vec::with_capacity(n);
    for layer in layers {
        for w in layer.windows(2) {
            let (u, v) = (w[0], w[1]);
            let s = if reverse { sp.sep(v, u) } else { sp.sep(u, v) };
            edges.push((root[u], root[v], s));
        }
    }
    let csr = |key: fn(&(usize, usize, f32)) -> usize, other: fn(&(usize, usize, f32)) -> usize| {
        let mut start = vec![0usize; n + 1];
        for e in &edges {
            start[key(e) + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut adj = vec![(0usize, 0f32); edges.len()];
        for e in &edges {
            let k = key(e);
            adj[fill[k]] = (other(e), e.2);
            fill[k] += 1;
        }
        (start, adj)
    };
    let (s_start, succ) = csr(|e| e.0, |e| e.1);
    let (p_start, pred) = csr(|e| e.1, |e| e.0);
    // Topological order of roots (Kahn).
    let mut indeg: Vec<usize> = (0..n).map(|v| p_start[v + 1] - p_start[v]).collect();
    let mut topo: Vec<usize> = (0..n).filter(|&v| root[v] == v && indeg[v] == 0).collect();
    let mut head = 0;
    while head < topo.len() {
        let r = topo[head];
        head += 1;
        for &(s, _) in &succ[s_start[r]..s_start[r + 1]] {
            indeg[s] -= 1;
            if indeg[s] == 0 {
                topo.push(s);
            }
        }
    }
    let mut xs = vec![0f32; n];
    for &r in &topo {
        xs[r] = pred[p_start[r]..p_start[r + 1]].iter().map(|&(p, s)| xs[p] + s).fold(0.0, f32::max);
    }
    for &r in topo.iter().rev() {
        let min = succ[s_start[r]..s_start[r + 1]].iter().map(|&(s, sep)| xs[s] - sep).fold(f32::INFINITY, f32::min);
        if min.is_finite() && min > xs[r] {
            xs[r] = min;
        }
    }
    (0..n).map(|v| xs[root[v]]).collect()
}

/// Brandes–Köpf x-coordinates (centres) for every node of the layering.
pub fn x_coords(l: &Layers, sp: &Spacing) -> Vec<f32> {
    let n = sp.width.len();
    let mut base_pos = vec![0usize; n];
    for layer in &l.layers {
        for (i, &v) in layer.iter().enumerate() {
            base_pos[v] = i;
        }
    }
    let conflicts = type1_conflicts(l, &base_pos, sp.dummy, sp.chain);
    let mut results: Vec<Vec<f32>> = Vec::with_capacity(4);
    for vert in [false, true] {
        for horiz_right in [false, true] {
            let mut layers: Vec<Vec<usize>> = l.layers.clone();
            if vert {
                layers.reverse();
            }
            if horiz_right {
                for layer in &mut layers {
                    layer.reverse();
                }
            }
            let mut pos = vec![0usize; n];
            for layer in &layers {
                for (i, &v) in layer.iter().enumerate() {
                    pos[v] = i;
                }
            }
            let nbrs = if vert { &l.down } else { &l.up };
            let (root, _align) = align(&layers, nbrs, &pos, &conflicts, sp.chain);
            let mut xs = compact(&layers, &root, sp, horiz_right);
            if horiz_right {
                for x in &mut xs {
                    *x = -*x;
                }
            }
            results.push(xs);
        }
    }
    balance(results, sp.width)
}

/// Aligns the four results to the narrowest one and takes, per node, the
/// mean of the two median candidates.
fn balance(results: Vec<Vec<f32>>, width: &[f32]) -> Vec<f32> {
    let n = width.len();
    let extent = |xs: &[f32]| {
        let lo = (0..n).map(|v| xs[v] - width[v] / 2.0).fold(f32::INFINITY, f32::min);
        let hi = (0..n).map(|v| xs[v] + width[v] / 2.0).fold(f32::NEG_INFINITY, f32::max);
        (lo, hi)
    };
    let mut smallest = 0;
    let mut best_w = f32::INFINITY;
    for (i, xs) in results.iter().enumerate() {
        let (lo, hi) = extent(xs);
        if hi - lo < best_w {
            best_w = hi - lo;
            smallest = i;
        }
    }
    let (t_lo, t_hi) = extent(&results[smallest]);
    let aligned: Vec<Vec<f32>> = results
        .iter()
        .enumerate()
        .map(|(i, xs)| {
            let (lo, hi) = extent(xs);
            let delta = if i % 2 == 0 { t_lo - lo } else { t_hi - hi };
            xs.iter().map(|x| x + delta).collect()
        })
        .collect();
    (0..n)
        .map(|v| {
            let mut c = [aligned[0][v], aligned[1][v], aligned[2][v], aligned[3][v]];
            c.sort_by(f32::total_cmp);
            (c[1] + c[2]) / 2.0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layers(layers: Vec<Vec<usize>>, edges: &[(usize, usize)], n: usize) -> Layers {
        Layers::from_edges(layers, edges, n)
    }

    fn no_overlap(l: &Layers, xs: &[f32], w: &[f32], gap: f32) {
        for layer in &l.layers {
            for p in layer.windows(2) {
                let (a, b) = (p[0], p[1]);
                assert!(xs[b] - xs[a] >= (w[a] + w[b]) / 2.0 + gap - 1e-3, "{a} {b} {xs:?}");
            }
        }
    }

    #[test]
    fn chain_is_straight() {
        let l = layers(vec![vec![0], vec![1], vec![2]], &[(0, 1), (1, 2)], 3);
        let w = [100.0, 40.0, 60.0];
        let xs = x_coords(&l, &Spacing { width: &w, dummy: &[false; 3], chain: &[], node_sep: 50.0, edge_sep: 20.0 });
        assert_eq!(xs[0], xs[1]);
        assert_eq!(xs[1], xs[2]);
    }

    #[test]
    fn fork_is_centred_and_separated() {
        let l = layers(vec![vec![0], vec![1, 2]], &[(0, 1), (0, 2)], 3);
        let w = [60.0, 60.0, 60.0];
        let xs = x_coords(&l, &Spacing { width: &w, dummy: &[false; 3], chain: &[], node_sep: 50.0, edge_sep: 20.0 });
        no_overlap(&l, &xs, &w, 50.0);
        assert!((xs[0] - (xs[1] + xs[2]) / 2.0).abs() < 1e-3, "{xs:?}");
    }

    #[test]
    fn wide_layers_never_overlap() {
        let l = layers(
            vec![vec![0, 1, 2], vec![3, 4, 5, 6], vec![7]],
            &[(0, 3), (0, 4), (1, 5), (2, 6), (3, 7), (6, 7), (2, 4)],
            8,
        );
        let w = [30.0, 80.0, 10.0, 50.0, 50.0, 5.0, 120.0, 40.0];
        let dummy = [false, false, true, false, false, true, false, false];
        let xs = x_coords(&l, &Spacing { width: &w, dummy: &dummy, chain: &[], node_sep: 50.0, edge_sep: 20.0 });
        no_overlap(&l, &xs, &w, 20.0);
    }
}
