//! Crossing reduction on a proper layered graph (every edge spans one rank):
//! a depth-first initial order, then alternating down/up barycenter sweeps
//! with an adjacent-swap transpose pass, keeping the best order seen. The
//! crossing count between two layers is the inversion count of the edges'
//! lower ends sorted by upper end, computed with an accumulator (Fenwick)
//! tree in O(E log V) (Barth, Jünger, Mutzel).

/// A proper layered graph's adjacency by node: upper and lower neighbours,
/// one entry per edge (multi-edges repeat).
#[derive(Debug, Clone, Default)]
pub struct Layers {
    pub layers: Vec<Vec<usize>>,
    pub up: Vec<Vec<usize>>,
    pub down: Vec<Vec<usize>>,
}

impl Layers {
    /// Layers over `n` nodes with adjacency built from `(upper, lower)`
    /// edges; tests of every ordering and positioning phase start here.
    #[cfg(test)]
    pub(crate) fn from_edges(layers: Vec<Vec<usize>>, edges: &[(usize, usize)], n: usize) -> Layers {
        let mut up = vec![Vec::new(); n];
        let mut down = vec![Vec::new(); n];
        for &(a, b) in edges {
            down[a].push(b);
            up[b].push(a);
        }
        Layers { layers, up, down }
    }
}

/// Initial order: depth-first from each node of the first layers, in index
/// order, appending nodes to their layer when first reached; neighbours end
/// up close, which gives the sweeps a good start.
pub fn init_order(rank: &[usize], down: &[Vec<usize>], nlayers: usize) -> Vec<Vec<usize>> {
    let n = rank.len();
    let mut layers = vec![Vec::new(); nlayers];
    let mut seen = vec![false; n];
    let mut by_rank: Vec<usize> = (0..n).collect();
    by_rank.sort_by_key(|&v| rank[v]);
    let mut stack = Vec::new();
    for &start in &by_rank {
        if seen[start] {
            continue;
        }
        stack.push(start);
        while let Some(v) = stack.pop() {
            if seen[v] {
                continue;
            }
            seen[v] = true;
            layers[rank[v]].push(v);
            for &w in down[v].iter().rev() {
                if !seen[w] {
                    stack.push(w);
                }
            }
        }
    }
    layers
}

/// Number of crossings between consecutive layers `north` and `south`.
pub fn crossings_between(north: &[usize], south: &[usize], down: &[Vec<usize>], pos: &[usize]) -> u64 {
    let _ = south;
    let mut ends: Vec<(usize, usize)> = Vec::new();
    for &v in north {
        for &w in &down[v] {
            ends.push((pos[v], pos[w]));
        }
    }
    ends.sort_unstable();
    let size = south.len().max(1);
    let mut tree = vec![0u64; size + 1];
    let mut count = 0u64;
    for (k, &(_, s)) in ends.iter().enumerate() {
        // Edges already inserted with a lower end strictly right of `s`.
        let mut i = s + 1;
        let mut le = 0u64;
        while i > 0 {
            le += tree[i];
            i &= i - 1;
        }
        count += k as u64 - le;
        let mut i = s + 1;
        while i <= size {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    count
}

/// Total crossings of the whole layering.
pub fn crossings(l: &Layers, pos: &[usize]) -> u64 {
    l.layers.windows(2).map(|w| crossings_between(&w[0], &w[1], &l.down, pos)).sum()
}

/// Index of every node within its layer.
pub fn positions(layers: &[Vec<usize>], n: usize) -> Vec<usize> {
    let mut pos = vec![0; n];
    for layer in layers {
        for (i, &v) in layer.iter().enumerate() {
            pos[v] = i;
        }
    }
    pos
}

/// Reorders one layer by the barycentre of its neighbours' positions;
/// nodes without neighbours keep their slot (dagre's rule). Ties keep
/// their order, or reverse it with `bias_right` (dagre alternates the two,
/// which lets the sweeps escape an order they keep reproducing).
fn sort_layer(layer: &mut [usize], nbrs: &[Vec<usize>], pos: &[usize], bias_right: bool) {
    let mut keyed: Vec<(f32, usize, usize)> = Vec::new();
    let mut fixed: Vec<Option<usize>> = vec![None; layer.len()];
    for (i, &v) in layer.iter().enumerate() {
        let ns = &nbrs[v];
        if ns.is_empty() {
            fixed[i] = Some(v);
        } else {
            let sum: usize = ns.iter().map(|&w| pos[w]).sum();
            keyed.push((sum as f32 / ns.len() as f32, i, v));
        }
    }
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(if bias_right { b.1.cmp(&a.1) } else { a.1.cmp(&b.1) }));
    let mut it = keyed.into_iter();
    for (i, slot) in layer.iter_mut().enumerate() {
        *slot = match fixed[i] {
            Some(v) => v,
            None => it.next().map_or(*slot, |k| k.2),
        };
    }
}

/// Swaps adjacent nodes of every layer while that lowers the crossings
/// with both neighbouring layers; bounded passes keep it near-linear.
fn transpose(l: &mut Layers, pos: &mut [usize]) {
    untangle(l, pos, &[]);
}

/// [`transpose`] that never moves a `fixed` node: after [`pull_to_side`]
/// has put what a block's side edges lead to beside it (keeping their
/// order, which may have been chosen with the block elsewhere), two
/// neighbours that now cross (a decision's Yes and No) swap back.
pub fn untangle(l: &mut Layers, pos: &mut [usize], fixed: &[bool]) {
    for _pass in 0..4 {
        let mut improved = false;
        for r in 0..l.layers.len() {
            for i in 1..l.layers[r].len() {
                let (u, v) = (l.layers[r][i - 1], l.layers[r][i]);
                if fixed.get(u).copied().unwrap_or(false) || fixed.get(v).copied().unwrap_or(false) {
                    continue;
                }
                let (c_uv, c_vu) = pair_crossings(l, pos, u, v);
                if c_vu < c_uv {
                    l.layers[r].swap(i - 1, i);
                    pos[u] = i;
                    pos[v] = i - 1;
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
    }
}

/// Crossings among the edges of `u` and `v` alone with `u` left of `v`, and
/// with them swapped.
fn pair_crossings(l: &Layers, pos: &[usize], u: usize, v: usize) -> (u64, u64) {
    let mut uv = 0;
    let mut vu = 0;
    for adj in [&l.up, &l.down] {
        for &a in &adj[u] {
            for &b in &adj[v] {
                let (pa, pb) = (pos[a], pos[b]);
                if pa > pb {
                    uv += 1;
                }
                if pb > pa {
                    vu += 1;
                }
            }
        }
    }
    (uv, vu)
}

/// Layerings up to this size (nodes incl. dummies) get several starts.
const RESTART_MAX_NODES: usize = 2_000;

/// Minimises crossings in place; returns the final crossing count. Small
/// layerings are swept from several starts (the depth-first order, its
/// mirror, each with both tie biases) and the best result is kept, first
/// found winning ties, so the outcome stays deterministic.
pub fn order(l: &mut Layers, n: usize) -> u64 {
    let edges: usize = l.down.iter().map(Vec::len).sum();
    // Transpose is quadratic in degree; skip it on very large graphs.
    let use_transpose = edges <= 20_000;
    let small = n <= RESTART_MAX_NODES;
    let start = l.layers.clone();
    let mut best: Option<(u64, Vec<Vec<usize>>)> = None;
    let starts: &[(bool, bool)] =
        if small { &[(false, false), (true, false), (false, true), (true, true)] } else { &[(false, false)] };
    for &(mirror, bias) in starts {
        l.layers = start.clone();
        if mirror {
            l.layers.iter_mut().for_each(|layer| layer.reverse());
        }
        let c = if small { sweeps(l, n, use_transpose, bias, 32, 8) } else { sweeps(l, n, use_transpose, bias, 24, 4) };
        if best.as_ref().is_none_or(|(bc, _)| c < *bc) {
            best = Some((c, l.layers.clone()));
        }
        if c == 0 {
            break;
        }
    }
    let (c, layers) = best.expect("at least one start");
    l.layers = layers;
    c
}

/// Alternating down/up barycentre sweeps with transposition from the
/// current order, tie bias flipping every second sweep from `bias`; at
/// most `max_sweeps`, stopping after `patience` sweeps without improvement and leaves the best order
/// seen in `l`. Returns its crossing count.
fn sweeps(l: &mut Layers, n: usize, use_transpose: bool, bias: bool, max_sweeps: usize, patience: usize) -> u64 {
    let mut pos = positions(&l.layers, n);
    let mut best = l.layers.clone();
    let mut best_c = crossings(l, &pos);
    let mut since_best = 0;
    for it in 0..max_sweeps {
        if best_c == 0 || since_best >= patience {
            break;
        }
        let bias_right = bias ^ (it % 4 >= 2);
        if it % 2 == 0 {
            for r in 1..l.layers.len() {
                sort_layer(&mut l.layers[r], &l.up, &pos, bias_right);
                for (i, &v) in l.layers[r].iter().enumerate() {
                    pos[v] = i;
                }
            }
        } else {
            for r in (0..l.layers.len().saturating_sub(1)).rev() {
                sort_layer(&mut l.layers[r], &l.down, &pos, bias_right);
                for (i, &v) in l.layers[r].iter().enumerate() {
                    pos[v] = i;
                }
            }
        }
        if use_transpose {
            transpose(l, &mut pos);
        }
        let c = crossings(l, &pos);
        if c < best_c {
            best_c = c;
            best = l.layers.clone();
            since_best = 0;
        } else {
            since_best += 1;
        }
    }
    l.layers = best;
    best_c
}

/// Most chains tried by [`push_outside`]: each try recounts all crossings.
const OUTSIDE_MAX_CHAINS: usize = 64;
/// Largest layering (nodes incl. dummies) [`push_outside`] works on.
const OUTSIDE_MAX_NODES: usize = 5_000;

/// Moves each chain of dummies (a back edge's inner nodes) to the left or
/// right end of its layers, the side nearer its current place first, when
/// that adds no crossing; returns the new crossing count. Crossing
/// reduction alone leaves loops running between the nodes they skip.
pub fn push_outside(l: &mut Layers, chains: &[&[usize]], rank: &[usize], mut best: u64) -> u64 {
    let n = rank.len();
    if chains.is_empty() || chains.len() > OUTSIDE_MAX_CHAINS || n > OUTSIDE_MAX_NODES {
        return best;
    }
    let mut pos = positions(&l.layers, n);
    for chain in chains {
        let right = chain.iter().map(|&d| 2 * pos[d] + 1).sum::<usize>()
            >= chain.iter().map(|&d| l.layers[rank[d]].len()).sum::<usize>();
        for to_right in [right, !right] {
            let mut trial = l.layers.clone();
            for &d in chain.iter() {
                let layer = &mut trial[rank[d]];
                layer.retain(|&v| v != d);
                if to_right {
                    layer.push(d);
                } else {
                    layer.insert(0, d);
                }
            }
            let trial_pos = positions(&trial, n);
            let c: u64 = trial.windows(2).map(|w| crossings_between(&w[0], &w[1], &l.down, &trial_pos)).sum();
            if c <= best {
                best = c;
                l.layers = trial;
                pos = trial_pos;
                break;
            }
        }
    }
    best
}

/// Moves what a block's side edges lead to onto that side of the block:
/// from each `(segment, first node, right)`, the nodes reached downwards
/// (`upward`: upwards, for edges entering the block through its side)
/// in layers the block spans go right after (or right before) its segment
/// there, keeping their order. Crossing reduction sees a block's segments as
/// points and would put them on either side.
pub fn pull_to_side(
    l: &mut Layers,
    starts: &[(usize, usize, bool)],
    in_chain_of: &[Option<usize>],
    chains: &[Vec<usize>],
    rank: &[usize],
    upward: bool,
) {
    for &(u, first, right) in starts {
        let Some(k) = in_chain_of[u] else { continue };
        let seg_at = |r: usize| chains[k].iter().copied().find(|&v| rank[v] == r);
        let mut reached = vec![first];
        let mut seen = std::collections::BTreeSet::from([first]);
        let mut i = 0;
        while i < reached.len() {
            let v = reached[i];
            i += 1;
            for &w in if upward { &l.up[v] } else { &l.down[v] } {
                if in_chain_of[w].is_none() && seg_at(rank[w]).is_some() && seen.insert(w) {
                    reached.push(w);
                }
            }
        }
        let mut by_layer: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
        for &v in &reached {
            if seg_at(rank[v]).is_some() {
                by_layer.entry(rank[v]).or_default().push(v);
            }
        }
        for (r, moved) in by_layer {
            let Some(seg) = seg_at(r) else { continue };
            let layer = &mut l.layers[r];
            let keep: Vec<usize> = layer.iter().copied().filter(|v| !moved.contains(v)).collect();
            let mut ordered: Vec<usize> = layer.iter().copied().filter(|v| moved.contains(v)).collect();
            let at = keep.iter().position(|&v| v == seg).map_or(keep.len(), |p| if right { p + 1 } else { p });
            let mut out = keep[..at].to_vec();
            out.append(&mut ordered);
            out.extend_from_slice(&keep[at..]);
            *layer = out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layers(layers: Vec<Vec<usize>>, edges: &[(usize, usize)], n: usize) -> Layers {
        Layers::from_edges(layers, edges, n)
    }

    #[test]
    fn counts_crossings() {
        // 0,1 above 2,3 with 0→3 and 1→2: one crossing; 0→2,0→3,1→2: one.
        let l = layers(vec![vec![0, 1], vec![2, 3]], &[(0, 3), (1, 2)], 4);
        assert_eq!(crossings(&l, &positions(&l.layers, 4)), 1);
        let l = layers(vec![vec![0, 1], vec![2, 3]], &[(0, 2), (0, 3), (1, 2)], 4);
        assert_eq!(crossings(&l, &positions(&l.layers, 4)), 1);
        let l = layers(vec![vec![0, 1, 2], vec![3, 4, 5]], &[(0, 5), (1, 4), (2, 3)], 6);
        assert_eq!(crossings(&l, &positions(&l.layers, 6)), 3);
    }

    #[test]
    fn untangle_swaps_crossed_neighbours_but_not_fixed_ones() {
        // 0 above 1, 2 (Yes/No labels) above 3, 4 with 1→4, 2→3 crossed;
        // 5 is a fixed block segment beside them.
        let mut l = layers(vec![vec![0], vec![1, 2, 5], vec![3, 4]], &[(0, 1), (0, 2), (1, 4), (2, 3)], 6);
        let mut pos = positions(&l.layers, 6);
        untangle(&mut l, &mut pos, &[false, false, false, false, false, true]);
        assert_eq!(crossings(&l, &pos), 0);
        assert_eq!(l.layers[1][2], 5, "the fixed node keeps its place");
        let mut l = layers(vec![vec![0], vec![1, 2], vec![3, 4]], &[(0, 1), (0, 2), (1, 4), (2, 3)], 5);
        let mut pos = positions(&l.layers, 5);
        untangle(&mut l, &mut pos, &[false, true, true, true, true]);
        assert_eq!(l.layers, vec![vec![0], vec![1, 2], vec![3, 4]], "fixed nodes never move");
    }

    #[test]
    fn untangles_a_twisted_ladder() {
        let mut l = layers(
            vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7, 8]],
            &[(0, 5), (1, 4), (2, 3), (3, 8), (4, 7), (5, 6)],
            9,
        );
        assert_eq!(order(&mut l, 9), 0);
    }

    #[test]
    fn back_edge_chain_goes_outside() {
        // 0→1→2→3 straight, back edge 3→0 drawn upwards through dummies 4
        // and 5 that start left of the nodes they skip: with no crossing
        // to pay, they move to the layer end.
        let mut l = layers(
            vec![vec![0], vec![4, 1], vec![5, 2], vec![3]],
            &[(0, 1), (1, 2), (2, 3), (0, 4), (4, 5), (5, 3)],
            6,
        );
        let c = push_outside(&mut l, &[&[4, 5]], &[0, 1, 2, 3, 1, 2], 0);
        assert_eq!(c, 0);
        assert!(l.layers[1][0] == 4 || l.layers[1][1] == 4);
        assert_eq!(l.layers[1].iter().position(|&v| v == 4), l.layers[2].iter().position(|&v| v == 5));
    }

    #[test]
    fn init_order_is_depth_first() {
        let down = vec![vec![2, 3], vec![3], vec![], vec![]];
        let layers = init_order(&[0, 0, 1, 1], &down, 2);
        assert_eq!(layers, vec![vec![0, 1], vec![2, 3]]);
    }
}
