//! Compact x-coordinates for large layerings: minimise the horizontal
//! stretch of all edges, Σ ω·(x_u − x_v)², subject to the layer order and
//! the node separations. Brandes–Köpf keeps every long edge perfectly
//! straight; on charts with hundreds of long edges those vertical blocks
//! push each other sideways across the whole height (random200: 10,000 px
//! wide for layers at most ~2,500 px wide, dagre itself gives 8,500 px).
//! Here a long edge may bend a little instead. The quadratic is minimised
//! exactly one layer at a time (a weighted isotonic regression solved by
//! pool-adjacent-violators, O(layer)), sweeping down and up; each sweep is
//! linear, and a fixed sweep cap keeps the whole phase linear.

use super::order::Layers;
use super::position::Spacing;

/// Edge weights as in dot's coordinate phase: dummy chains pull hardest,
/// so long edges stay nearly straight.
fn weight(dummy: &[bool], a: usize, b: usize) -> f32 {
    match (dummy[a], dummy[b]) {
        (true, true) => 8.0,
        (false, false) => 1.0,
        _ => 2.0,
    }
}

/// Most sweeps (one down and one up pass each) before stopping. The width
/// is settled after a few; later sweeps only straighten edges slightly
/// (random1000: total edge length −4 % from 10 to 80 sweeps).
const MAX_SWEEPS: usize = 12;
/// Stop once no node moved more than this in a sweep.
const SETTLED: f32 = 0.25;

/// Places one layer: centres as close (in the weighted least-squares sense)
/// to `target` as the separations allow, keeping the order.
fn place_layer(layer: &[usize], target: &[(f32, f32)], sp: &Spacing, xs: &mut [f32]) {
    // Offsets make the separations vanish: with y_i = x_i − off_i the
    // constraint is just y non-decreasing.
    let mut off = Vec::with_capacity(layer.len());
    let mut acc = 0f32;
    for (i, &v) in layer.iter().enumerate() {
        if i > 0 {
            acc += sp.sep(layer[i - 1], v);
        }
        off.push(acc);
    }
    // Pool adjacent violators: blocks of (weight, weighted sum, length).
    let mut blocks: Vec<(f32, f32, usize)> = Vec::with_capacity(layer.len());
    for (i, &(w, t)) in target.iter().enumerate() {
        blocks.push((w, w * (t - off[i]), 1));
        while blocks.len() >= 2 {
            let (w1, s1, n1) = blocks[blocks.len() - 1];
            let (w0, s0, n0) = blocks[blocks.len() - 2];
            if s0 / w0 <= s1 / w1 {
                break;
            }
            blocks.pop();
            let last = blocks.len() - 1;
            blocks[last] = (w0 + w1, s0 + s1, n0 + n1);
        }
    }
    let mut i = 0;
    for (w, s, n) in blocks {
        let y = s / w;
        for _ in 0..n {
            xs[layer[i]] = y + off[i];
            i += 1;
        }
    }
}

/// Refines `xs` (any order-respecting start, e.g. packed layers) in place.
pub fn relax(l: &Layers, sp: &Spacing, xs: &mut [f32]) {
    // Neighbours with their weights in flat arrays (CSR): the sweeps visit
    // every edge dozens of times, and nested vectors cost a cache miss each.
    let n = xs.len();
    let mut start = Vec::with_capacity(n + 1);
    let mut adj: Vec<(u32, f32)> = Vec::new();
    start.push(0);
    for v in 0..n {
        adj.extend(l.up[v].iter().chain(&l.down[v]).map(|&u| (u as u32, weight(sp.dummy, u, v))));
        start.push(adj.len());
    }
    let mut target: Vec<(f32, f32)> = Vec::new();
    let mut before: Vec<f32> = Vec::new();
    let nl = l.layers.len();
    for _sweep in 0..MAX_SWEEPS {
        let mut moved = 0f32;
        for r in (0..nl).chain((0..nl).rev()) {
            let layer = &l.layers[r];
            target.clear();
            for &v in layer {
                let (mut w, mut s) = (0f32, 0f32);
                for &(u, k) in &adj[start[v]..start[v + 1]] {
                    w += k;
                    s += k * xs[u as usize];
                }
                // A node with no neighbours stays where it is (lightly).
                if w == 0.0 {
                    target.push((1e-3, xs[v]));
                } else {
                    target.push((w, s / w));
                }
            }
            before.clear();
            before.extend(layer.iter().map(|&v| xs[v]));
            place_layer(layer, &target, sp, xs);
            for (&v, &b) in layer.iter().zip(&before) {
                moved = moved.max((xs[v] - b).abs());
            }
        }
        if moved < SETTLED {
            break;
        }
    }
}

/// Every layer packed at minimum separation and centred on 0.
pub fn packed(l: &Layers, sp: &Spacing) -> Vec<f32> {
    let mut xs = vec![0f32; sp.width.len()];
    for layer in &l.layers {
        let mut acc = 0f32;
        for (i, &v) in layer.iter().enumerate() {
            if i > 0 {
                acc += sp.sep(layer[i - 1], v);
            }
            xs[v] = acc;
        }
        for &v in layer {
            xs[v] -= acc / 2.0;
        }
    }
    xs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layers(layers: Vec<Vec<usize>>, edges: &[(usize, usize)], n: usize) -> Layers {
        Layers::from_edges(layers, edges, n)
    }

    fn solve(l: &Layers, w: &[f32], dummy: &[bool]) -> Vec<f32> {
        let sp = Spacing { width: w, dummy, chain: &[], node_sep: 50.0, edge_sep: 20.0 };
        let mut xs = packed(l, &sp);
        relax(l, &sp, &mut xs);
        for layer in &l.layers {
            for p in layer.windows(2) {
                assert!(xs[p[1]] - xs[p[0]] >= sp.sep(p[0], p[1]) - 1e-3, "{xs:?}");
            }
        }
        xs
    }

    #[test]
    fn chain_is_straight() {
        let l = layers(vec![vec![0], vec![1], vec![2]], &[(0, 1), (1, 2)], 3);
        let xs = solve(&l, &[100.0, 40.0, 60.0], &[false; 3]);
        assert!((xs[0] - xs[1]).abs() < 0.5 && (xs[1] - xs[2]).abs() < 0.5, "{xs:?}");
    }

    #[test]
    fn parent_centred_over_children() {
        let l = layers(vec![vec![0], vec![1, 2]], &[(0, 1), (0, 2)], 3);
        let xs = solve(&l, &[60.0; 3], &[false; 3]);
        assert!((xs[0] - (xs[1] + xs[2]) / 2.0).abs() < 0.5, "{xs:?}");
        assert!((xs[2] - xs[1] - 110.0).abs() < 0.5, "children packed: {xs:?}");
    }

    #[test]
    fn pav_pools_violators() {
        // Both targets at 0 but they must be 110 apart: split evenly.
        let l = layers(vec![vec![0, 1]], &[], 2);
        let sp = Spacing { width: &[60.0, 60.0], dummy: &[false, false], chain: &[], node_sep: 50.0, edge_sep: 20.0 };
        let mut xs = vec![0.0; 2];
        place_layer(&l.layers[0], &[(1.0, 0.0), (1.0, 0.0)], &sp, &mut xs);
        assert_eq!(xs, vec![-55.0, 55.0]);
    }
}
