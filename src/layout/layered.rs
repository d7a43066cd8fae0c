//! One layered drawing, top to bottom: the phases in sequence (cycle
//! breaking, ranking, dummy chains with label nodes, crossing reduction,
//! back edges moved outside, Brandes–Köpf or the compact placement, rank
//! bands) and the edge paths through them. Works on
//! plain sizes; shapes, clusters and directions are the caller's business.

use super::Point;
use super::graph::{LEdge, LGraph, LNode};
use super::order::{self, Layers};
use super::problem::{Pin, Problem, Solution};
use super::{cycles, position, rank, relax};

/// Lays out `p` top to bottom.
pub fn solve(p: &Problem) -> Solution {
    let n = p.sizes.len();
    if n == 0 {
        return Solution::default();
    }
    // 1. Cycle breaking on the real graph (self-loops are the caller's).
    let nodes: Vec<LNode> = p.sizes.iter().map(|&(w, h)| LNode { w, h, dummy: false }).collect();
    let (mut reversed, below) = cycles::break_cycles(p, &nodes);
    // 2. Ranking with doubled lengths: the odd ranks between real ranks hold
    // edge labels, as in dagre/mermaid (rank separation is halved to match).
    let mut oriented: Vec<LEdge> = p
        .edges
        .iter()
        .zip(&reversed)
        .map(|(e, &r)| {
            let (from, to) = if r { (e.to, e.from) } else { (e.from, e.to) };
            LEdge { from, to, minlen: 2 * e.minlen.max(1) }
        })
        .collect();
    // Chain links take one raw rank (no label rank between segments).
    let links: Vec<(usize, usize)> = p.chains.iter().flat_map(|c| c.windows(2).map(|w| (w[0], w[1]))).collect();
    let mut ranked = oriented.clone();
    ranked.extend(links.iter().map(|&(from, to)| LEdge { from, to, minlen: 1 }));
    ranked.extend(below.iter().map(|&(from, to)| LEdge { from, to, minlen: 2 }));
    let g = LGraph::new(nodes, ranked);
    let mut ranks = rank::rank(&g);
    let side_port = pin_ranks(&g, p, &mut ranks);
    // Pinning may turn an edge upwards: draw it as a back edge instead.
    for (e, rev) in oriented.iter_mut().zip(reversed.iter_mut()) {
        if ranks[e.from] > ranks[e.to] {
            std::mem::swap(&mut e.from, &mut e.to);
            *rev = !*rev;
        }
    }
    // 3. Dummy chains: one node per intermediate rank; the middle one is the
    // label node, sized like the label.
    let mut sizes: Vec<(f32, f32)> = p.sizes.clone();
    let mut dummy = vec![false; n];
    let mut rank_of: Vec<usize> = ranks.iter().map(|&r| r as usize).collect();
    let mut chains: Vec<Vec<usize>> = Vec::with_capacity(oriented.len());
    let mut label_node: Vec<Option<usize>> = vec![None; oriented.len()];
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in oriented.iter().enumerate() {
        let (r0, r1) = (rank_of[e.from], rank_of[e.to]);
        let mid = (r0 + r1) / 2;
        let mut chain = vec![e.from];
        for r in r0 + 1..r1 {
            let size = match p.edges[i].label {
                Some(s) if r == mid => s,
                _ => (0.0, 0.0),
            };
            sizes.push(size);
            dummy.push(true);
            rank_of.push(r);
            down.push(Vec::new());
            up.push(Vec::new());
            let d = sizes.len() - 1;
            if r == mid && p.edges[i].label.is_some() {
                label_node[i] = Some(d);
            }
            chain.push(d);
        }
        chain.push(e.to);
        for w in chain.windows(2) {
            down[w[0]].push(w[1]);
            up[w[1]].push(w[0]);
        }
        chains.push(chain);
    }
    let mut in_chain_of: Vec<Option<usize>> = vec![None; sizes.len()];
    for (k, c) in p.chains.iter().enumerate() {
        for &v in c {
            in_chain_of[v] = Some(k);
        }
    }
    let chains_ranked = links.iter().all(|&(a, b)| rank_of[b] == rank_of[a] + 1);
    for &(a, b) in &links {
        if rank_of[b] == rank_of[a] + 1 {
            down[a].push(b);
            up[b].push(a);
        }
    }
    let total = sizes.len();
    let nlayers = rank_of.iter().copied().max().unwrap_or(0) + 1;
    // 4. Crossing reduction.
    let mut layers = Layers { layers: order::init_order(&rank_of, &down, nlayers), up, down };
    let crossings = order::order(&mut layers, total);
    // Back edges swing round the outside, as in mermaid, where that costs
    // no crossings.
    let back: Vec<&[usize]> =
        chains.iter().zip(&reversed).filter(|(c, r)| **r && c.len() > 2).map(|(c, _)| &c[1..c.len() - 1]).collect();
    let mut crossings = order::push_outside(&mut layers, &back, &rank_of, crossings);
    // Edges leaving a block through its side: what they lead to goes on
    // that side of the block, else they would cut back through it.
    let side_starts = side_legs(p, &reversed, &chains, &in_chain_of, DrawnEnd::Source);
    // Edges entering a block through its side (a side entry port below
    // the segment they left): what they come from goes on that side too.
    let side_ends = side_legs(p, &reversed, &chains, &in_chain_of, DrawnEnd::Target);
    if !side_starts.is_empty() {
        order::pull_to_side(&mut layers, &side_starts, &in_chain_of, &p.chains, &rank_of, false);
    }
    if !side_ends.is_empty() {
        order::pull_to_side(&mut layers, &side_ends, &in_chain_of, &p.chains, &rank_of, true);
    }
    // Side exit ports go to an end of their layer (the side their edge
    // leaves a block segment on, else the nearer one), so the leg out to
    // the cluster's side passes no node of their band.
    // A side entry port goes on the side of the exit that leads round to
    // it (exits first: `below` ties the entry's item to the exit's).
    let mut side: Vec<Option<bool>> = vec![None; n];
    let entry_last = |v: &usize| matches!(p.pins[*v], Pin::Before(_));
    let mut ports: Vec<usize> = (0..n).filter(|&v| side_port[v]).collect();
    ports.sort_by_key(entry_last);
    for v in ports {
        let layer = &mut layers.layers[rank_of[v]];
        let i = layer.iter().position(|&u| u == v).unwrap_or(0);
        let exit_side = match p.pins[v] {
            Pin::Before(t) => {
                let spacers = below.iter().filter(|b| b.1 == t).map(|b| b.0);
                let exits: Vec<usize> =
                    spacers.flat_map(|sp| below.iter().filter(move |b| b.1 == sp).map(|b| b.0)).collect();
                (0..n)
                    .find(|&x| matches!(p.pins[x], Pin::After(u) if exits.contains(&u)) && side[x].is_some())
                    .and_then(|x| side[x])
            }
            _ => None,
        };
        let nearer = 2 * i + 1 >= layer.len();
        let right = side_starts.iter().find(|s| s.1 == v).map_or(exit_side.unwrap_or(nearer), |s| s.2);
        layer.remove(i);
        if right {
            layer.push(v);
        } else {
            layer.insert(0, v);
        }
        side[v] = Some(right);
    }
    if side_port.iter().any(|&b| b) || !side_starts.is_empty() || !side_ends.is_empty() {
        let mut pos = order::positions(&layers.layers, total);
        if !side_starts.is_empty() || !side_ends.is_empty() {
            let fixed: Vec<bool> =
                (0..total).map(|v| in_chain_of[v].is_some() || side_port.get(v).copied().unwrap_or(false)).collect();
            order::untangle(&mut layers, &mut pos, &fixed);
        }
        crossings = order::crossings(&layers, &pos);
    }
    // 5. Coordinates: x by Brandes–Köpf, y by rank bands.
    let widths: Vec<f32> = sizes.iter().map(|s| s.0).collect();
    let in_chain: Vec<bool> = (0..total).map(|v| in_chain_of.get(v).is_some_and(Option::is_some)).collect();
    let sp = position::Spacing {
        width: &widths,
        dummy: &dummy,
        chain: &in_chain,
        node_sep: p.node_sep,
        edge_sep: p.edge_sep,
    };
    let xs = x_coords(&layers, &sp);
    let sides: Vec<(usize, usize, bool)> = side_starts.iter().chain(&side_ends).copied().collect();
    let chains_ok = chains_ranked
        && chains_clear(&layers, &links, &side_ends, &rank_of, &xs)
        && sides_kept(&layers.layers, &sides, &in_chain_of, &p.chains, &rank_of);
    let mut band_h = vec![0f32; nlayers];
    let mut occupied = vec![false; nlayers];
    for v in 0..total {
        band_h[rank_of[v]] = band_h[rank_of[v]].max(sizes[v].1);
        occupied[rank_of[v]] = true;
    }
    // Band centre per rank; empty ranks take no room.
    let mut band_y = vec![0f32; nlayers];
    let mut bands = Vec::new();
    let mut band_ix = vec![0usize; nlayers];
    let mut y = 0f32;
    let mut first = true;
    for r in 0..nlayers {
        if !occupied[r] {
            band_y[r] = y;
            continue;
        }
        if !first {
            y += p.rank_sep / 2.0;
        }
        first = false;
        band_y[r] = y + band_h[r] / 2.0;
        band_ix[r] = bands.len();
        bands.push((y, y + band_h[r]));
        y += band_h[r];
    }
    let height = y;
    let min_x = (0..total).map(|v| xs[v] - widths[v] / 2.0).fold(f32::INFINITY, f32::min);
    let max_x = (0..total).map(|v| xs[v] + widths[v] / 2.0).fold(f32::NEG_INFINITY, f32::max);
    let at = |v: usize| Point { x: xs[v] - min_x, y: band_y[rank_of[v]] };
    let top = |v: usize| band_y[rank_of[v]] - band_h[rank_of[v]] / 2.0;
    let bottom = |v: usize| band_y[rank_of[v]] + band_h[rank_of[v]] / 2.0;
    // 6. Paths: vertical through every band (where nodes live), diagonal
    // only in the gaps between bands (where nothing lives).
    let mut paths = Vec::with_capacity(chains.len());
    for (i, chain) in chains.iter().enumerate() {
        let mut pts = Vec::with_capacity(chain.len() * 2 + 2);
        let (s, t) = (chain[0], chain[chain.len() - 1]);
        let (sdx, tdx) =
            if reversed[i] { (p.edges[i].to_dx, p.edges[i].from_dx) } else { (p.edges[i].from_dx, p.edges[i].to_dx) };
        let (ps, pt) = (Point { x: at(s).x + sdx, y: at(s).y }, Point { x: at(t).x + tdx, y: at(t).y });
        // A side exit of a block leaves level with its first dummy (the
        // segment below the one it is attached to, where the port is) and
        // runs straight across to it: that dummy is the block's neighbour.
        let side_exit = chain.len() > 1 && side_starts.iter().any(|&(u, d, _)| u == s && d == chain[1]);
        if side_exit && chain.len() == 2 {
            // Straight across to an exit port of this level.
            pts.push(Point { x: ps.x, y: pt.y });
            pts.push(pt);
            paths.push(if reversed[i] { pts.into_iter().rev().collect() } else { pts });
            continue;
        }
        // A side entry comes down to its last dummy (level with the entry
        // port, one segment above the one it is attached to) and runs
        // straight across into the block's side there.
        let last = chain.len().saturating_sub(2);
        let side_entry = chain.len() > 2 && side_ends.iter().any(|&(u, d, _)| u == t && d == chain[last]);
        let (lo, hi) = (if side_exit { 2 } else { 1 }, if side_entry { last } else { chain.len() - 1 });
        if side_exit {
            pts.push(Point { x: ps.x, y: at(chain[1]).y });
            pts.push(at(chain[1]));
            if !(side_entry && last == 1) {
                pts.push(Point { x: at(chain[1]).x, y: bottom(chain[1]) });
            }
        } else {
            pts.push(ps);
            pts.push(Point { x: ps.x, y: bottom(s) });
        }
        for &d in chain.get(lo..hi).unwrap_or(&[]) {
            pts.push(Point { x: at(d).x, y: top(d) });
            pts.push(Point { x: at(d).x, y: bottom(d) });
        }
        if side_entry {
            // Its only dummy is just below the source: straight down and
            // across (via the dummy's x it would zigzag).
            let d = chain[last];
            if last == 1 && !side_exit {
                pts.truncate(1);
                pts.push(Point { x: ps.x, y: at(d).y });
            } else if last > 1 {
                pts.push(Point { x: at(d).x, y: top(d) });
                pts.push(at(d));
            }
            pts.push(Point { x: pt.x, y: at(d).y });
        } else {
            pts.push(Point { x: pt.x, y: top(t) });
            pts.push(pt);
        }
        let mut pts = simplify(pts);
        if reversed[i] {
            pts.reverse();
        }
        paths.push(pts);
    }
    Solution {
        centers: (0..n).map(at).collect(),
        paths,
        labels: label_node.iter().map(|d| d.map(at)).collect(),
        width: (max_x - min_x).max(0.0),
        height,
        crossings,
        bands,
        band_of: (0..n).map(|v| band_ix[rank_of[v]]).collect(),
        side,
        chains_ok,
    }
}

/// An edge's leg beside a block: `(segment, next, right)`, the block
/// segment the edge leaves (or enters) through its side, the node next to it
/// on the edge's drawn path, and whether that side is the right one.
type SideLeg = (usize, usize, bool);

/// Which end of an edge, as drawn (downwards).
#[derive(Clone, Copy, PartialEq, Eq)]
enum DrawnEnd {
    Source,
    Target,
}

/// The edges attached at drawn end `end` to the side of a block segment (a
/// chain member, at an offset of about half its width), as [`SideLeg`]s. A
/// target's leg needs a dummy before it: an edge straight from the rank
/// above has no leg beside the block.
fn side_legs(
    p: &Problem,
    reversed: &[bool],
    paths: &[Vec<usize>],
    in_chain_of: &[Option<usize>],
    end: DrawnEnd,
) -> Vec<SideLeg> {
    let mut legs = Vec::new();
    for ((e, &rev), path) in p.edges.iter().zip(reversed).zip(paths) {
        // The problem's `from` is the drawn source unless the edge is reversed.
        let at_from = (end == DrawnEnd::Source) != rev;
        let (v, dx) = if at_from { (e.from, e.from_dx) } else { (e.to, e.to_dx) };
        let next = match end {
            DrawnEnd::Source => path.get(1),
            DrawnEnd::Target => path.len().checked_sub(2).filter(|&k| k > 0).map(|k| &path[k]),
        };
        if let Some(&next) = next
            && in_chain_of[v].is_some()
            && dx.abs() > 1e-3
            && dx.abs() >= p.sizes[v].0 / 2.0 - 0.5
        {
            legs.push((v, next, dx > 0.0));
        }
    }
    legs
}

/// Is each side edge's next node on its side of the block's segment in
/// that layer?
fn sides_kept(
    layers: &[Vec<usize>],
    starts: &[(usize, usize, bool)],
    in_chain_of: &[Option<usize>],
    chains: &[Vec<usize>],
    rank_of: &[usize],
) -> bool {
    starts.iter().all(|&(u, d, right)| {
        let Some(k) = in_chain_of[u] else { return true };
        let layer = &layers[rank_of[d]];
        let Some(seg) = chains[k].iter().copied().find(|&v| rank_of[v] == rank_of[d]) else { return true };
        let (pd, ps) = (layer.iter().position(|&v| v == d), layer.iter().position(|&v| v == seg));
        matches!((pd, ps), (Some(pd), Some(ps)) if (pd > ps) == right)
    })
}

/// Are the chain links all vertical and crossed by no other edge between
/// their two layers? (A crossing edge would cut through the block; a side
/// entry's last leg into a segment runs across beside it instead.)
fn chains_clear(
    layers: &Layers,
    links: &[(usize, usize)],
    side_ends: &[(usize, usize, bool)],
    rank_of: &[usize],
    xs: &[f32],
) -> bool {
    if links.is_empty() {
        return true;
    }
    let pos = order::positions(&layers.layers, xs.len());
    links.iter().all(|&(a, b)| {
        (xs[a] - xs[b]).abs() < 1e-3
            && layers.layers[rank_of[a]].iter().all(|&u| {
                u == a
                    || layers.down[u].iter().all(|&w| {
                        let entry = w == b && side_ends.iter().any(|&(t, d, _)| t == b && d == u);
                        entry || ((pos[u] < pos[a]) == (pos[w] < pos[b]) && w != b)
                    })
            })
    })
}

/// Brandes–Köpf (dagre's placement: straight long edges, aligned chains)
/// unless its drawing comes out much wider than the compact placement of
/// [`relax`], as it does once many long edges interleave (large charts).
fn x_coords(layers: &Layers, sp: &position::Spacing) -> Vec<f32> {
    let bk = position::x_coords(layers, sp);
    let extent = |xs: &[f32]| {
        let lo = xs.iter().zip(sp.width).map(|(x, w)| x - w / 2.0).fold(f32::INFINITY, f32::min);
        let hi = xs.iter().zip(sp.width).map(|(x, w)| x + w / 2.0).fold(f32::NEG_INFINITY, f32::max);
        hi - lo
    };
    let mut qp = relax::packed(layers, sp);
    // No placement is narrower than the widest packed layer: when
    // Brandes–Köpf is close to that, the compact placement cannot win.
    let bk_w = extent(&bk);
    if bk_w <= WIDER * extent(&qp) {
        return bk;
    }
    relax::relax(layers, sp, &mut qp);
    if bk_w > WIDER * extent(&qp) { qp } else { bk }
}

/// How much wider than the compact placement Brandes–Köpf may be.
const WIDER: f32 = 1.5;

/// Moves pinned nodes to the first/last rank, `After` ports one rank below
/// their item and `Before` ports one above (their edges only get longer or
/// are the port's own, so the ranking stays feasible). Returns which nodes became side ports.
fn pin_ranks(g: &LGraph, p: &Problem, ranks: &mut [i32]) -> Vec<bool> {
    let mut side = vec![false; g.len()];
    if p.pins.iter().all(|&pin| pin == Pin::Free) {
        return side;
    }
    let free = |v: usize| p.pins.get(v).is_none_or(|&pin| pin == Pin::Free);
    let lo = (0..g.len()).filter(|&v| free(v)).map(|v| ranks[v]).min().unwrap_or(0);
    let hi = (0..g.len()).filter(|&v| free(v)).map(|v| ranks[v]).max().unwrap_or(0);
    for (v, pin) in p.pins.iter().enumerate() {
        match *pin {
            Pin::Top => ranks[v] = lo - 2,
            Pin::Bottom => ranks[v] = hi + 2,
            Pin::After(u) if free(u) && ranks[u] + 1 < hi => {
                ranks[v] = ranks[u] + 1;
                side[v] = true;
            }
            Pin::After(_) => ranks[v] = hi + 2,
            Pin::Before(u) if free(u) && ranks[u] - 1 > lo => {
                ranks[v] = ranks[u] - 1;
                side[v] = true;
            }
            Pin::Before(_) => ranks[v] = lo - 2,
            Pin::Free => {}
        }
    }
    let min = ranks.iter().copied().min().unwrap_or(0);
    for r in ranks.iter_mut() {
        *r -= min;
    }
    side
}

/// Drops repeated points and middle points of straight runs.
pub fn simplify(pts: Vec<Point>) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::with_capacity(pts.len());
    for p in pts {
        if out.last().is_some_and(|q| (q.x - p.x).abs() < 1e-3 && (q.y - p.y).abs() < 1e-3) {
            continue;
        }
        if out.len() >= 2 {
            let (a, b) = (out[out.len() - 2], out[out.len() - 1]);
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
            if cross.abs() < 1e-3 && (b.x - a.x) * (p.x - b.x) + (b.y - a.y) * (p.y - b.y) >= 0.0 {
                out.pop();
            }
        }
        out.push(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::problem::PEdge;

    fn problem(sizes: Vec<(f32, f32)>, edges: &[(usize, usize)]) -> Problem {
        Problem {
            pins: vec![Pin::Free; sizes.len()],
            sizes,
            edges: edges
                .iter()
                .map(|&(from, to)| PEdge { from, to, minlen: 1, label: None, from_dx: 0.0, to_dx: 0.0 })
                .collect(),
            chains: Vec::new(),
            below: Vec::new(),
            forward: Vec::new(),
            node_sep: 50.0,
            rank_sep: 50.0,
            edge_sep: 20.0,
        }
    }

    #[test]
    fn chain_ranks_are_50_apart() {
        let s = solve(&problem(vec![(60.0, 54.0); 3], &[(0, 1), (1, 2)]));
        assert_eq!(s.centers[0].y, 27.0);
        assert_eq!(s.centers[1].y, 27.0 + 54.0 + 50.0);
        assert_eq!(s.paths[0].len(), 2);
        assert_eq!(s.crossings, 0);
    }

    #[test]
    fn label_sits_on_middle_rank() {
        let mut p = problem(vec![(60.0, 54.0); 2], &[(0, 1)]);
        p.edges[0].label = Some((40.0, 24.0));
        let s = solve(&p);
        let l = s.labels[0].expect("label placed");
        assert!(l.y > s.centers[0].y + 27.0 && l.y < s.centers[1].y - 27.0);
        assert_eq!(s.centers[1].y - s.centers[0].y, 54.0 + 25.0 + 24.0 + 25.0);
    }

    #[test]
    fn back_edge_path_runs_from_source_to_target() {
        let s = solve(&problem(vec![(60.0, 54.0); 3], &[(0, 1), (1, 2), (2, 0)]));
        let back = &s.paths[2];
        assert_eq!(back[0], s.centers[2]);
        assert_eq!(*back.last().unwrap(), s.centers[0]);
        // It detours beside the middle node rather than through it.
        assert!(back.iter().any(|p| (p.x - s.centers[1].x).abs() > 30.0));
    }

    #[test]
    fn pins_go_to_the_ends() {
        let mut p = problem(vec![(10.0, 10.0); 4], &[(0, 1), (1, 2), (3, 1)]);
        p.pins[3] = Pin::Bottom;
        let s = solve(&p);
        assert!(s.centers[3].y > s.centers[2].y);
    }
}
