//! One layered drawing, top to bottom, as a pipeline of phases, each a
//! function from the earlier phases' results to a plain struct of its own:
//! [`orient`] (cycle breaking) → [`rank_nodes`] (ranks, pinned ports) →
//! [`insert_dummies`] (one node per rank an edge passes, label nodes) →
//! [`order_layers`] (crossing reduction, back edges moved outside, what
//! leaves a block sideways pulled to that side, side ports at the layer
//! ends) → [`columns`] (Brandes–Köpf or the compact placement) →
//! [`rank_bands`] (y per rank) → [`edge_paths`]. Works on plain sizes;
//! shapes, clusters and directions are the caller's business.

use super::Point;
use super::graph::{LEdge, LGraph, LNode};
use super::order::{self, Layers};
use super::problem::{Pin, Problem, Solution};
use super::{cycles, position, rank, relax};

/// Lays out `p` top to bottom.
pub fn solve(p: &Problem) -> Solution {
    if p.sizes.is_empty() {
        return Solution::default();
    }
    let ranked = rank_nodes(p, orient(p));
    let (expanded, adjacency) = insert_dummies(p, &ranked);
    let ordered = order_layers(p, &ranked, &expanded, adjacency);
    let columns = columns(p, &expanded, &ordered.layers);
    let chains_ok = chains_ok(p, &ranked, &expanded, &ordered, &columns.x);
    let bands = rank_bands(p, &expanded);
    let placement = Placement { columns: &columns, bands: &bands, rank: &expanded.rank };
    let paths = edge_paths(p, &ranked.oriented.reversed, &expanded.paths, &ordered, &placement);
    let n = p.sizes.len();
    Solution {
        centers: (0..n).map(|v| placement.at(v)).collect(),
        paths,
        labels: expanded.label_node.iter().map(|d| d.map(|v| placement.at(v))).collect(),
        width: (columns.max_x - columns.min_x).max(0.0),
        height: bands.total,
        crossings: ordered.crossings,
        band_of: (0..n).map(|v| bands.index[expanded.rank[v]]).collect(),
        bands: bands.extents,
        side: ordered.side,
        chains_ok,
    }
}

/// The problem's nodes, as the graph algorithms take them.
fn real_nodes(p: &Problem) -> Vec<LNode> {
    p.sizes.iter().map(|&(w, h)| LNode { w, h, dummy: false }).collect()
}

/// Phase 1: which way each edge is drawn.
struct Oriented {
    /// Per problem edge, from its drawn source down to its drawn target, at
    /// twice its mermaid length: the odd ranks between real ranks hold edge
    /// labels, as in dagre/mermaid (rank separation is halved to match).
    edges: Vec<LEdge>,
    /// Per problem edge: drawn against its direction.
    reversed: Vec<bool>,
    /// The problem's `below` constraints that close no cycle.
    below: Vec<(usize, usize)>,
}

/// Cycle breaking on the real graph (self-loops are the caller's).
fn orient(p: &Problem) -> Oriented {
    let (reversed, below) = cycles::break_cycles(p, &real_nodes(p));
    let edges = p
        .edges
        .iter()
        .zip(&reversed)
        .map(|(e, &r)| {
            let (from, to) = if r { (e.to, e.from) } else { (e.from, e.to) };
            LEdge { from, to, minlen: 2 * e.minlen.max(1) }
        })
        .collect();
    Oriented { edges, reversed, below }
}

/// Phase 2: every node's rank.
struct Ranked {
    /// Phase 1's orientation, with the edges pinning turned upwards reversed.
    oriented: Oriented,
    /// Consecutive segments `(upper, lower)` of every chain.
    links: Vec<(usize, usize)>,
    /// Per node: its rank, 0 at the top.
    rank: Vec<usize>,
    /// Per node: a port pinned beside its item (see [`pin_ranks`]).
    side_port: Vec<bool>,
}

/// Ranks the oriented edges, the chain links and the `below` constraints
/// together, then pins the ports (see [`pin_ranks`]).
fn rank_nodes(p: &Problem, mut oriented: Oriented) -> Ranked {
    // Chain links take one raw rank (no label rank between segments).
    let links: Vec<(usize, usize)> = p.chains.iter().flat_map(|c| c.windows(2).map(|w| (w[0], w[1]))).collect();
    let mut ranked = oriented.edges.clone();
    ranked.extend(links.iter().map(|&(from, to)| LEdge { from, to, minlen: 1 }));
    ranked.extend(oriented.below.iter().map(|&(from, to)| LEdge { from, to, minlen: 2 }));
    let g = LGraph::new(real_nodes(p), ranked);
    let mut ranks = rank::rank(&g);
    let side_port = pin_ranks(&g, p, &mut ranks);
    // Pinning may turn an edge upwards: draw it as a back edge instead.
    for (e, rev) in oriented.edges.iter_mut().zip(oriented.reversed.iter_mut()) {
        if ranks[e.from] > ranks[e.to] {
            std::mem::swap(&mut e.from, &mut e.to);
            *rev = !*rev;
        }
    }
    Ranked { oriented, links, rank: ranks.iter().map(|&r| r as usize).collect(), side_port }
}

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

/// Phase 3: the drawing's nodes, the problem's first, then a dummy for each
/// rank an edge passes.
struct Expanded {
    /// Per node: its size (a label node's is its label's, other dummies
    /// have none), whether it is a dummy, and its rank.
    sizes: Vec<(f32, f32)>,
    dummy: Vec<bool>,
    rank: Vec<usize>,
    /// Per problem edge: the nodes it passes, drawn source to drawn target.
    paths: Vec<Vec<usize>>,
    /// Per problem edge: the dummy its label is drawn on.
    label_node: Vec<Option<usize>>,
    /// Per node: the problem chain it is a segment of.
    in_chain_of: Vec<Option<usize>>,
    /// Every chain link joins consecutive ranks.
    chains_ranked: bool,
    nlayers: usize,
}

/// Which nodes of consecutive ranks are joined: the edges' legs, then the
/// chain links that came out one rank apart.
struct Adjacency {
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
}

/// Dummy chains: one node per intermediate rank; the middle one is the
/// label node, sized like the label.
fn insert_dummies(p: &Problem, ranked: &Ranked) -> (Expanded, Adjacency) {
    let n = p.sizes.len();
    let edges = &ranked.oriented.edges;
    let mut sizes: Vec<(f32, f32)> = p.sizes.clone();
    let mut dummy = vec![false; n];
    let mut rank = ranked.rank.clone();
    let mut paths: Vec<Vec<usize>> = Vec::with_capacity(edges.len());
    let mut label_node: Vec<Option<usize>> = vec![None; edges.len()];
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in edges.iter().enumerate() {
        let (r0, r1) = (rank[e.from], rank[e.to]);
        let mid = (r0 + r1) / 2;
        let label = p.edges[i].label;
        let mut path = vec![e.from];
        for r in r0 + 1..r1 {
            let size = match label {
                Some(s) if r == mid => s,
                _ => (0.0, 0.0),
            };
            sizes.push(size);
            dummy.push(true);
            rank.push(r);
            down.push(Vec::new());
            up.push(Vec::new());
            let d = sizes.len() - 1;
            if r == mid && label.is_some() {
                label_node[i] = Some(d);
            }
            path.push(d);
        }
        path.push(e.to);
        for w in path.windows(2) {
            down[w[0]].push(w[1]);
            up[w[1]].push(w[0]);
        }
        paths.push(path);
    }
    let mut in_chain_of: Vec<Option<usize>> = vec![None; sizes.len()];
    for (k, c) in p.chains.iter().enumerate() {
        for &v in c {
            in_chain_of[v] = Some(k);
        }
    }
    let consecutive = |&(a, b): &(usize, usize)| rank[b] == rank[a] + 1;
    let chains_ranked = ranked.links.iter().all(consecutive);
    for &(a, b) in ranked.links.iter().filter(|link| consecutive(link)) {
        down[a].push(b);
        up[b].push(a);
    }
    let nlayers = rank.iter().copied().max().unwrap_or(0) + 1;
    let expanded = Expanded { sizes, dummy, rank, paths, label_node, in_chain_of, chains_ranked, nlayers };
    (expanded, Adjacency { up, down })
}

/// Phase 4: the order of the nodes within each rank.
struct Ordered {
    layers: Layers,
    crossings: u64,
    /// Edges leaving a block through its side, and entering one.
    side_starts: Vec<SideLeg>,
    side_ends: Vec<SideLeg>,
    /// Per problem node: `Some(right)` for a side port put at the right (or
    /// left) end of its layer, `None` otherwise.
    side: Vec<Option<bool>>,
}

/// Crossing reduction, then the adjustments it knows nothing of: back edges
/// round the outside, what a block's side edges lead to on that side of it,
/// side ports at the ends of their layers.
fn order_layers(p: &Problem, ranked: &Ranked, expanded: &Expanded, adjacency: Adjacency) -> Ordered {
    let (rank, total) = (&expanded.rank, expanded.sizes.len());
    let Adjacency { up, down } = adjacency;
    let mut layers = Layers { layers: order::init_order(rank, &down, expanded.nlayers), up, down };
    let crossings = order::order(&mut layers, total);
    // Back edges swing round the outside, as in mermaid, where that costs
    // no crossings.
    let reversed = &ranked.oriented.reversed;
    let back: Vec<&[usize]> = expanded
        .paths
        .iter()
        .zip(reversed)
        .filter(|(path, rev)| **rev && path.len() > 2)
        .map(|(path, _)| &path[1..path.len() - 1])
        .collect();
    let mut crossings = order::push_outside(&mut layers, &back, rank, crossings);
    // Edges leaving a block through its side: what they lead to goes on
    // that side of the block, else they would cut back through it.
    let side_starts = side_legs(p, reversed, &expanded.paths, &expanded.in_chain_of, DrawnEnd::Source);
    // Edges entering a block through its side (a side entry port below
    // the segment they left): what they come from goes on that side too.
    let side_ends = side_legs(p, reversed, &expanded.paths, &expanded.in_chain_of, DrawnEnd::Target);
    if !side_starts.is_empty() {
        order::pull_to_side(&mut layers, &side_starts, &expanded.in_chain_of, &p.chains, rank, false);
    }
    if !side_ends.is_empty() {
        order::pull_to_side(&mut layers, &side_ends, &expanded.in_chain_of, &p.chains, rank, true);
    }
    let side = place_side_ports(p, ranked, rank, &side_starts, &mut layers.layers);
    // Those moves ignored crossings: untangle what the side legs left
    // crossed (the blocks and ports stay put) and count again.
    let legs = !side_starts.is_empty() || !side_ends.is_empty();
    if ranked.side_port.iter().any(|&b| b) || legs {
        let mut pos = order::positions(&layers.layers, total);
        if legs {
            let side_port = |v: usize| ranked.side_port.get(v).copied().unwrap_or(false);
            let fixed: Vec<bool> = (0..total).map(|v| expanded.in_chain_of[v].is_some() || side_port(v)).collect();
            order::untangle(&mut layers, &mut pos, &fixed);
        }
        crossings = order::crossings(&layers, &pos);
    }
    Ordered { layers, crossings, side_starts, side_ends, side }
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

/// Side exit ports go to an end of their layer (the side their edge
/// leaves a block segment on, else the nearer one), so the leg out to
/// the cluster's side passes no node of their band.
/// A side entry port goes on the side of the exit that leads round to
/// it (exits first: `below` ties the entry's item to the exit's).
/// Returns, per problem node, `Some(right)` for a port put at the right (or
/// left) end of its layer.
fn place_side_ports(
    p: &Problem,
    ranked: &Ranked,
    rank: &[usize],
    side_starts: &[SideLeg],
    layers: &mut [Vec<usize>],
) -> Vec<Option<bool>> {
    let n = p.sizes.len();
    let below = &ranked.oriented.below;
    let mut side: Vec<Option<bool>> = vec![None; n];
    let entry_last = |v: &usize| matches!(p.pins[*v], Pin::Before(_));
    let mut ports: Vec<usize> = (0..n).filter(|&v| ranked.side_port[v]).collect();
    ports.sort_by_key(entry_last);
    for v in ports {
        let layer = &mut layers[rank[v]];
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
    side
}

/// Phase 5: the nodes' horizontal centres.
struct Columns {
    /// Per node (dummies too): x of its centre.
    x: Vec<f32>,
    /// The leftmost and rightmost box sides (the drawing starts at `min_x`).
    min_x: f32,
    max_x: f32,
}

/// x by Brandes–Köpf or the compact placement (see [`x_coords`]).
fn columns(p: &Problem, expanded: &Expanded, layers: &Layers) -> Columns {
    let widths: Vec<f32> = expanded.sizes.iter().map(|s| s.0).collect();
    let in_chain: Vec<bool> = expanded.in_chain_of.iter().map(Option::is_some).collect();
    let sp = position::Spacing {
        width: &widths,
        dummy: &expanded.dummy,
        chain: &in_chain,
        node_sep: p.node_sep,
        edge_sep: p.edge_sep,
    };
    let x = x_coords(layers, &sp);
    let min_x = x.iter().zip(&widths).map(|(x, w)| x - w / 2.0).fold(f32::INFINITY, f32::min);
    let max_x = x.iter().zip(&widths).map(|(x, w)| x + w / 2.0).fold(f32::NEG_INFINITY, f32::max);
    Columns { x, min_x, max_x }
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

/// Whether every chain came out as one block can be drawn: on consecutive
/// ranks, vertically aligned, crossed by no edge, with its side edges' next
/// nodes on their sides.
fn chains_ok(p: &Problem, ranked: &Ranked, expanded: &Expanded, ordered: &Ordered, xs: &[f32]) -> bool {
    let rank = &expanded.rank;
    let sides: Vec<SideLeg> = ordered.side_starts.iter().chain(&ordered.side_ends).copied().collect();
    expanded.chains_ranked
        && chains_clear(&ordered.layers, &ranked.links, &ordered.side_ends, rank, xs)
        && sides_kept(&ordered.layers.layers, &sides, &expanded.in_chain_of, &p.chains, rank)
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

/// Phase 6: the vertical extent of every rank.
struct Bands {
    /// Per rank: the y of its band's centre (an empty rank: of the gap it
    /// sits in) and the band's height (its tallest node).
    centre: Vec<f32>,
    height: Vec<f32>,
    /// Per rank: the index in `extents` of its band.
    index: Vec<usize>,
    /// Top and bottom of the occupied bands, in order.
    extents: Vec<(f32, f32)>,
    /// Height of the whole drawing.
    total: f32,
}

/// Rank bands as tall as their tallest node, half the rank separation
/// apart; empty ranks take no room.
fn rank_bands(p: &Problem, expanded: &Expanded) -> Bands {
    let nlayers = expanded.nlayers;
    let mut height = vec![0f32; nlayers];
    let mut occupied = vec![false; nlayers];
    for (&r, &(_, h)) in expanded.rank.iter().zip(&expanded.sizes) {
        height[r] = height[r].max(h);
        occupied[r] = true;
    }
    let mut centre = vec![0f32; nlayers];
    let mut extents = Vec::new();
    let mut index = vec![0usize; nlayers];
    let mut y = 0f32;
    let mut first = true;
    for r in 0..nlayers {
        if !occupied[r] {
            centre[r] = y;
            continue;
        }
        if !first {
            y += p.rank_sep / 2.0;
        }
        first = false;
        centre[r] = y + height[r] / 2.0;
        index[r] = extents.len();
        extents.push((y, y + height[r]));
        y += height[r];
    }
    Bands { centre, height, index, extents, total: y }
}

/// Where phases 5 and 6 put a node, in the solution's box (`x` from 0).
struct Placement<'a> {
    columns: &'a Columns,
    bands: &'a Bands,
    rank: &'a [usize],
}

impl Placement<'_> {
    fn at(&self, v: usize) -> Point {
        Point { x: self.columns.x[v] - self.columns.min_x, y: self.bands.centre[self.rank[v]] }
    }

    /// The top and bottom of `v`'s rank band.
    fn top(&self, v: usize) -> f32 {
        let r = self.rank[v];
        self.bands.centre[r] - self.bands.height[r] / 2.0
    }

    fn bottom(&self, v: usize) -> f32 {
        let r = self.rank[v];
        self.bands.centre[r] + self.bands.height[r] / 2.0
    }
}

/// Phase 7: per problem edge, its path from its source's centre to its
/// target's, vertical through every band (where nodes live), diagonal only
/// in the gaps between bands (where nothing lives).
fn edge_paths(
    p: &Problem,
    reversed: &[bool],
    nodes: &[Vec<usize>],
    ordered: &Ordered,
    at: &Placement,
) -> Vec<Vec<Point>> {
    let mut paths = Vec::with_capacity(nodes.len());
    for ((e, &rev), path) in p.edges.iter().zip(reversed).zip(nodes) {
        let (s, t) = (path[0], path[path.len() - 1]);
        let offsets = if rev { (e.to_dx, e.from_dx) } else { (e.from_dx, e.to_dx) };
        let side_exit = path.len() > 1 && ordered.side_starts.iter().any(|&(u, d, _)| u == s && d == path[1]);
        let last = path.len().saturating_sub(2);
        let side_entry = path.len() > 2 && ordered.side_ends.iter().any(|&(u, d, _)| u == t && d == path[last]);
        let mut pts = edge_path(path, offsets, side_exit, side_entry, at);
        if rev {
            pts.reverse();
        }
        paths.push(pts);
    }
    paths
}

/// The drawn path (downwards) through `nodes`, an edge's drawn source, its
/// dummies and its drawn target, attached `offsets` from the source's and
/// the target's centres.
fn edge_path(nodes: &[usize], offsets: (f32, f32), side_exit: bool, side_entry: bool, at: &Placement) -> Vec<Point> {
    let (s, t) = (nodes[0], nodes[nodes.len() - 1]);
    let ps = Point { x: at.at(s).x + offsets.0, y: at.at(s).y };
    let pt = Point { x: at.at(t).x + offsets.1, y: at.at(t).y };
    // A side exit of a block leaves level with its first dummy (the
    // segment below the one it is attached to, where the port is) and
    // runs straight across to it: that dummy is the block's neighbour.
    if side_exit && nodes.len() == 2 {
        // Straight across to an exit port of this level.
        return vec![Point { x: ps.x, y: pt.y }, pt];
    }
    // A side entry comes down to its last dummy (level with the entry
    // port, one segment above the one it is attached to) and runs
    // straight across into the block's side there.
    let last = nodes.len().saturating_sub(2);
    let (lo, hi) = (if side_exit { 2 } else { 1 }, if side_entry { last } else { nodes.len() - 1 });
    let mut pts = Vec::with_capacity(nodes.len() * 2 + 2);
    if side_exit {
        let first = nodes[1];
        pts.push(Point { x: ps.x, y: at.at(first).y });
        pts.push(at.at(first));
        if !(side_entry && last == 1) {
            pts.push(Point { x: at.at(first).x, y: at.bottom(first) });
        }
    } else {
        pts.push(ps);
        pts.push(Point { x: ps.x, y: at.bottom(s) });
    }
    for &d in nodes.get(lo..hi).unwrap_or(&[]) {
        pts.push(Point { x: at.at(d).x, y: at.top(d) });
        pts.push(Point { x: at.at(d).x, y: at.bottom(d) });
    }
    if side_entry {
        // Its only dummy is just below the source: straight down and
        // across (via the dummy's x it would zigzag).
        let d = nodes[last];
        if last == 1 && !side_exit {
            pts.truncate(1);
            pts.push(Point { x: ps.x, y: at.at(d).y });
        } else if last > 1 {
            pts.push(Point { x: at.at(d).x, y: at.top(d) });
            pts.push(at.at(d));
        }
        pts.push(Point { x: pt.x, y: at.at(d).y });
    } else {
        pts.push(Point { x: pt.x, y: at.top(t) });
        pts.push(pt);
    }
    simplify(pts)
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
