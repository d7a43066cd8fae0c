//! Compound layout: each cluster is laid out on its own (bottom-up) and
//! becomes one block in its parent, so clusters can never overlap nodes or
//! each other. Edges crossing a cluster border get a port node: entries at
//! the cluster's top rank, exits beside their inner item (through the side,
//! at its level). A block with side exits spans ranks in its parent (one
//! segment per rank band of its content), so what follows the exit can sit
//! beside the cluster, as dagre's joint ranking puts it. The pieces (inside,
//! at the common level, inside again) are joined into one path. As in
//! mermaid, a cluster keeps its own `direction` only when no edge crosses
//! its border.

use std::collections::BTreeMap;

use crate::mermaid::{Direction, Flowchart};
use crate::text::{Fonts, TextBlock, TextStyle, layout_label};

use super::context::{Block, Ctx};
use super::frame::{self, Side};
use super::layered;
use super::place::{Place, segments};
use super::problem::{PEdge, Pin, Problem};
use super::shapes::shape_size;
use super::spread::{Attachable, spread_sides};
use super::tree::{self, Item, Route, Tree};
use super::{Geometry, LayoutError, LayoutOptions, Point, acyclic, graph};
use super::{assemble, exits};

pub fn layout(chart: &Flowchart, opts: &LayoutOptions, fonts: &Fonts) -> Result<Geometry, LayoutError> {
    let node_ix: BTreeMap<&str, usize> = chart.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let cluster_ix: BTreeMap<&str, usize> =
        chart.subgraphs.iter().enumerate().map(|(i, s)| (s.id.as_str(), i)).collect();
    let tree = Tree::new(chart, &node_ix, &cluster_ix);
    let mut routes = Vec::with_capacity(chart.edges.len());
    let mut ends = Vec::with_capacity(chart.edges.len());
    for (e, edge) in chart.edges.iter().enumerate() {
        let a = tree::endpoint(&edge.from, e, &node_ix, &cluster_ix)?;
        let b = tree::endpoint(&edge.to, e, &node_ix, &cluster_ix)?;
        routes.push(tree::route(&tree, a, b));
        ends.push((a, b));
    }
    let ts = &opts.text;
    let labels: Vec<TextBlock> = chart.nodes.iter().map(|n| layout_label(&n.label, n.label_type, ts, fonts)).collect();
    let node_sizes = chart.nodes.iter().zip(&labels).map(|(n, l)| shape_size(n.shape, l.width, l.height)).collect();
    let edge_labels = chart
        .edges
        .iter()
        .map(|e| e.label.as_deref().map(|l| layout_label(l, e.label_type, ts, fonts)).filter(|b| !b.lines.is_empty()))
        .collect();
    // A subgraph title is not wrapped at the label width: the box widens to
    // it instead, as mermaid draws it (hard breaks still apply). Only a title
    // longer than one and a half label widths wraps (evenly), so that the
    // edges entering the subgraph from above find room beside it rather
    // than crossing it.
    let title_style = TextStyle { wrap_width: ts.wrap_width * 1.5, ..*ts };
    let titles = chart
        .subgraphs
        .iter()
        .map(|s| {
            // A wrapped title is only as wide as its longest line (a node's
            // label box keeps the wrap width, as mermaid's does).
            let mut t = layout_label(&s.title, s.label_type, &title_style, fonts);
            t.width = t.lines.iter().map(|l| l.width).fold(0.0, f32::max);
            t
        })
        .collect();
    let nlevels = tree.root + 1;
    let mut cx = Ctx {
        chart,
        opts,
        tree,
        routes,
        ends,
        node_sizes,
        edge_labels,
        titles,
        reversed: vec![false; chart.edges.len()],
        ports: vec![Vec::new(); nlevels],
        side_entry: vec![false; chart.edges.len()],
        below: vec![Vec::new(); nlevels],
        dirs: Vec::new(),
    };
    orient(&mut cx);
    cx.dirs = directions(&cx);
    let mut blocks: Vec<Block> = (0..nlevels).map(|_| Block::default()).collect();
    for l in cx.tree.post_order() {
        blocks[l] = level(&cx, l, &mut blocks, true);
    }
    Ok(assemble::assemble(&cx, &blocks, labels))
}

/// Orientation of every edge at its common level (the same depth-first
/// cycle breaking the level's own layout will do), and the ports it needs.
fn orient(cx: &mut Ctx) {
    let nlevels = cx.tree.root + 1;
    let mut level_edges: Vec<Vec<usize>> = vec![Vec::new(); nlevels];
    for (e, r) in cx.routes.iter().enumerate() {
        if let Route::Span { level, .. } = r {
            level_edges[*level].push(e);
        }
    }
    for (l, es) in level_edges.iter().enumerate() {
        let n = cx.tree.children[l].len();
        let nodes = vec![graph::LNode { w: 0.0, h: 0.0, dummy: false }; n];
        let edges = es
            .iter()
            .filter_map(|&e| match &cx.routes[e] {
                Route::Span { from, to, .. } => {
                    Some(graph::LEdge { from: cx.tree.slot(*from), to: cx.tree.slot(*to), minlen: 1 })
                }
                _ => None,
            })
            .collect();
        let rev = acyclic::back_edges(&graph::LGraph::new(nodes, edges));
        for (&e, r) in es.iter().zip(rev) {
            cx.reversed[e] = r;
        }
    }
    super::reentry::side_entries(cx, &level_edges);
    for (e, r) in cx.routes.iter().enumerate() {
        let Route::Span { up_from, up_to, .. } = r else { continue };
        let rev = cx.reversed[e];
        let (a, b) = cx.ends[e];
        // Leaving downwards exits through the bottom; entering from above
        // enters through the top (and the reverse for back edges).
        for (k, &c) in up_from.iter().enumerate() {
            let inner = if k == 0 { a } else { Item::Cluster(up_from[k - 1]) };
            cx.ports[c].push((e, inner, rev));
        }
        for (k, &c) in up_to.iter().enumerate() {
            let inner = if k == 0 { b } else { Item::Cluster(up_to[k - 1]) };
            cx.ports[c].push((e, inner, !rev));
        }
    }
}

/// Effective direction per level: a cluster's own only if nothing crosses
/// its border (mermaid's rule), else its parent's.
fn directions(cx: &Ctx) -> Vec<Direction> {
    let root = cx.tree.root;
    let mut dirs = vec![Direction::TB; root + 1];
    dirs[root] = cx.opts.direction.unwrap_or(cx.chart.direction);
    let mut order = cx.tree.post_order();
    order.reverse();
    for l in order {
        if l == root {
            continue;
        }
        let parent = dirs[cx.tree.cluster_parent[l]];
        let own = cx.chart.subgraphs[l].direction;
        dirs[l] = if cx.ports[l].is_empty() { own.unwrap_or(parent) } else { parent };
    }
    dirs
}

/// Output size of an item (a node's shape or a cluster's block).
fn item_size(cx: &Ctx, blocks: &[Block], it: Item) -> (f32, f32) {
    match it {
        Item::Node(i) => cx.node_sizes[i],
        Item::Cluster(c) => (blocks[c].w, blocks[c].h),
    }
}

/// Gap between a node and its first self-loop, and between loops.
const LOOP_GAP: f32 = 20.0;

/// One level's layered problem and what each of its nodes stands for.
struct Built {
    problem: Problem,
    /// Per problem edge: (chart edge, drop first point, drop last point,
    /// port node).
    meta: Vec<(usize, bool, bool, Option<usize>)>,
    loops: Vec<Vec<usize>>,
    /// Per item: the nodes of its segments, when a cluster spans ranks.
    chain: Vec<Option<Vec<usize>>>,
    /// Nodes `0..nboxes` are boxes (items and segments); ports follow.
    nboxes: usize,
}

/// Builds level `l`'s problem; `segments` lets child clusters with side
/// ports span several ranks (one segment node per band of their content)
/// and lets this level's own exits leave through its side.
fn build(cx: &Ctx, l: usize, blocks: &[Block], segments: bool) -> Built {
    let dir = cx.dirs[l];
    let items = &cx.tree.children[l];
    let opts = cx.opts;
    // Self-loops widen their item in the frame (symmetrically, so centres
    // stay centres); the loop is drawn on the frame's right.
    let mut loops: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
    for (e, r) in cx.routes.iter().enumerate() {
        if let Route::SelfLoop { level, item } = r
            && *level == l
        {
            loops[cx.tree.slot(*item)].push(e);
        }
    }
    let label_frame = |e: usize| cx.edge_labels[e].as_ref().map(|b| frame::size_in(dir, (b.width, b.height)));
    // A cluster spans ranks only if every edge meets it at a port: an edge
    // to the cluster itself is drawn to its centre, through the segments.
    let mut whole = vec![false; items.len()];
    for (e, r) in cx.routes.iter().enumerate() {
        if let Route::Span { level, from, to, .. } = r
            && *level == l
        {
            for it in [*from, *to] {
                if let Item::Cluster(c) = it
                    && !blocks[c].ports.contains_key(&e)
                {
                    whole[cx.tree.slot(it)] = true;
                }
            }
        }
    }
    let mut sizes = Vec::with_capacity(items.len());
    let mut pins = Vec::with_capacity(items.len());
    let mut chain: Vec<Option<Vec<usize>>> = vec![None; items.len()];
    let mut extra = Vec::new();
    for (s, &it) in items.iter().enumerate() {
        let (w, h) = frame::size_in(dir, item_size(cx, blocks, it));
        let ext: f32 = loops[s].iter().map(|&e| LOOP_GAP + label_frame(e).map_or(0.0, |(lw, _)| lw + 4.0)).sum();
        pins.push(Pin::Free);
        match it {
            Item::Cluster(c) if segments && blocks[c].segs.len() > 1 && loops[s].is_empty() && !whole[s] => {
                let segs = &blocks[c].segs;
                sizes.push((w, segs[0].1 - segs[0].0));
                let mut nodes = vec![s];
                for &(lo, hi) in &segs[1..] {
                    nodes.push(items.len() + extra.len());
                    extra.push((w, hi - lo));
                }
                chain[s] = Some(nodes);
            }
            _ => sizes.push((w + 2.0 * ext, h)),
        }
    }
    for sz in extra {
        sizes.push(sz);
        pins.push(Pin::Free);
    }
    let nboxes = sizes.len();
    // Where an edge attaches to an item: a cluster at its port (on the
    // segment holding it).
    let attach = |it: Item, e: usize| -> (usize, f32, bool) {
        let slot = cx.tree.slot(it);
        if let Item::Cluster(c) = it
            && let Some(p) = blocks[c].ports.get(&e)
        {
            let b = &blocks[c];
            let node = match (&chain[slot], b.port_seg.get(&e)) {
                (Some(nodes), Some(&k)) => nodes.get(k).copied().unwrap_or(slot),
                _ => slot,
            };
            return (node, frame::frame_dx(dir, Point { x: p.x - b.w / 2.0, y: p.y - b.h / 2.0 }), true);
        }
        (slot, 0.0, false)
    };
    let mut edges = Vec::new();
    let mut forward = Vec::new();
    let mut meta: Vec<(usize, bool, bool, Option<usize>)> = Vec::new();
    for (e, r) in cx.routes.iter().enumerate() {
        if let Route::Span { level, from, to, .. } = r
            && *level == l
        {
            let (from, from_dx, drop_first) = attach(*from, e);
            let (to, to_dx, drop_last) = attach(*to, e);
            let minlen = u32::from(cx.chart.edges[e].length.max(1));
            if cx.side_entry[e] && segments {
                forward.push(edges.len());
            }
            edges.push(PEdge { from, to, minlen, label: label_frame(e), from_dx, to_dx });
            meta.push((e, drop_first, drop_last, None));
        }
    }
    for &(e, inner, top) in &cx.ports[l] {
        let port = sizes.len();
        sizes.push((0.0, 0.0));
        let (node, dx, drop) = attach(inner, e);
        let leaving = matches!(&cx.routes[e], Route::Span { up_from, .. } if up_from.contains(&l));
        // Ports below their item leave through the side at its level. A
        // side entry comes in one rank above its item; the cluster it
        // leaves stays one block (it must fit beside the one it enters).
        // Without side ports it is drawn as the back edge it was.
        pins.push(match (cx.side_entry[e], top, segments) {
            (true, _, true) if leaving => Pin::Bottom,
            (true, _, true) => Pin::Before(node),
            (true, top, false) if top => Pin::Bottom,
            (true, _, false) => Pin::Top,
            (false, true, _) => Pin::Top,
            (false, false, true) => Pin::After(node),
            (false, false, false) => Pin::Bottom,
        });
        // Keep the piece in the edge's own direction.
        let pe = if leaving {
            PEdge { from: node, to: port, minlen: 1, label: None, from_dx: dx, to_dx: 0.0 }
        } else {
            PEdge { from: port, to: node, minlen: 1, label: None, from_dx: 0.0, to_dx: dx }
        };
        edges.push(pe);
        meta.push((e, leaving && drop, !leaving && drop, Some(port)));
    }
    // A side entry's target two ranks below the exits leading round to
    // it: through a zero-size spacer, whose rank stays a band of its own
    // (the parent puts what the edge comes from beside that band).
    let mut below = Vec::new();
    for &(u, v) in cx.below[l].iter().filter(|_| segments) {
        let spacer = sizes.len();
        sizes.push((0.0, 0.0));
        pins.push(Pin::Free);
        below.push((cx.tree.slot(u), spacer));
        below.push((spacer, cx.tree.slot(v)));
    }
    let chains = chain.iter().flatten().cloned().collect();
    let problem = Problem {
        sizes,
        pins,
        edges,
        chains,
        below,
        forward,
        node_sep: opts.node_spacing,
        rank_sep: opts.rank_spacing,
        edge_sep: opts.edge_spacing,
    };
    Built { problem, meta, loops, chain, nboxes }
}

/// Lays out level `l` (children already done) into a block; `side` lets
/// its exits leave through its side and its children span ranks.
fn level(cx: &Ctx, l: usize, blocks: &mut [Block], side: bool) -> Block {
    let dir = cx.dirs[l];
    let items = &cx.tree.children[l];
    let opts = cx.opts;
    // Children whose exits leave sideways must span ranks here, else
    // (or if this level is drawn without side exits) they are laid out
    // again with bottom exits, as single blocks.
    let redo = |blocks: &mut [Block]| {
        for &it in items {
            if let Item::Cluster(c) = it
                && (!blocks[c].segs.is_empty() || cx.ports[c].iter().any(|&(e, _, _)| cx.side_entry[e]))
            {
                blocks[c] = level(cx, c, blocks, false);
            }
        }
    };
    if !side {
        redo(blocks);
    }
    let mut built = build(cx, l, blocks, side);
    let mut sol = layered::solve(&built.problem);
    let unsegmented = items
        .iter()
        .zip(&built.chain)
        .any(|(&it, ch)| matches!(it, Item::Cluster(c) if !blocks[c].segs.is_empty()) && ch.is_none());
    if side && (!sol.chains_ok || unsegmented) {
        redo(blocks);
        built = build(cx, l, blocks, false);
        sol = layered::solve(&built.problem);
    }
    let Built { problem, meta, loops, chain, nboxes } = built;
    let label_frame = |e: usize| cx.edge_labels[e].as_ref().map(|b| frame::size_in(dir, (b.width, b.height)));
    exits::diamond_exits(cx, l, &problem, &mut sol, &meta, nboxes);
    let attachable: Vec<Option<Attachable>> = (0..problem.sizes.len())
        .map(|v| match items.get(v) {
            Some(&it @ Item::Node(i)) => {
                let (width, height) = frame::size_in(dir, item_size(cx, blocks, it));
                Some(Attachable {
                    width,
                    height,
                    diamond: matches!(cx.chart.nodes[i].shape, crate::mermaid::Shape::Diam),
                })
            }
            _ => None,
        })
        .collect();
    spread_sides(&problem, &mut sol, &attachable);
    let (fw, fh) = (sol.width, sol.height);
    let out = |p: Point| frame::point_out(dir, p, fw, fh);
    let (cw, ch) = frame::size_in(dir, (fw, fh));
    // Block frame: clusters get padding and a title strip above the content.
    let (mut bw, mut bh, mut off) = (cw, ch, Point::default());
    if l != cx.tree.root {
        let pad = opts.cluster_padding;
        let t = &cx.titles[l];
        let title_h = if t.lines.is_empty() { 0.0 } else { t.height + pad };
        let inner_w = cw.max(t.width).max(if items.is_empty() { 40.0 } else { 0.0 });
        bw = inner_w + 2.0 * pad;
        bh = ch + title_h + 2.0 * pad;
        off = Point { x: (bw - cw) / 2.0, y: pad + title_h };
    }
    let place = |p: Point| {
        let q = out(p);
        Point { x: q.x + off.x, y: q.y + off.y }
    };
    let along_x = matches!(dir, Direction::LR | Direction::RL);
    let axis = |p: Point| if along_x { p.x } else { p.y };
    let mut block = Block {
        w: bw,
        h: bh,
        pos: sol.centers[..items.len()].iter().map(|&p| place(p)).collect(),
        ..Default::default()
    };
    for (s, &it) in items.iter().enumerate() {
        let Item::Cluster(c) = it else { continue };
        let (w, h) = (blocks[c].w, blocks[c].h);
        let q = place(sol.centers[s]);
        let (cross, along) = if along_x { (q.y - h / 2.0, w) } else { (q.x - w / 2.0, h) };
        let knots = match &chain[s] {
            Some(nodes) => {
                let mut k: Vec<(f32, f32)> = Vec::with_capacity(2 * nodes.len());
                for (&v, &(lo, hi)) in nodes.iter().zip(&blocks[c].segs) {
                    let a = axis(place(sol.centers[v]));
                    k.push((lo, a - (hi - lo) / 2.0));
                    k.push((hi, a + (hi - lo) / 2.0));
                }
                k.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                k
            }
            None => vec![(0.0, axis(q) - along / 2.0)],
        };
        block.places.insert(c, Place { along_x, cross, knots });
    }
    let mut side_ports = false;
    for (k, &(e, drop_first, drop_last, port)) in meta.iter().enumerate() {
        let mut pts: Vec<Point> = sol.paths[k].iter().map(|&p| place(p)).collect();
        if let Some(port) = port {
            // Carry the path from the port node out to the block border.
            let p = place(sol.centers[port]);
            let side = match sol.side[port] {
                Some(right) => {
                    side_ports = true;
                    frame::side_of_x(dir, right)
                }
                None => frame::side_of(dir, problem.pins[port] == Pin::Top),
            };
            let border = match side {
                Side::Top => Point { x: p.x, y: 0.0 },
                Side::Bottom => Point { x: p.x, y: bh },
                Side::Left => Point { x: 0.0, y: p.y },
                Side::Right => Point { x: bw, y: p.y },
            };
            if problem.edges[k].to == port {
                pts.push(border);
            } else {
                pts.insert(0, border);
            }
            block.ports.insert(e, border);
            // A side port is at its own band; the parent attaches the edge
            // to its item's segment (one above an exit, one below an
            // entry) and runs it across at the port's level.
            let band = sol.band_of[port];
            let seg = match sol.side[port] {
                Some(_) if problem.edges[k].to == port => band.saturating_sub(1),
                Some(_) => band + 1,
                None => band,
            };
            block.port_seg.insert(e, seg);
        }
        if drop_first && pts.len() > 2 {
            pts.remove(0);
        }
        if drop_last && pts.len() > 2 {
            pts.pop();
        }
        block.pieces.insert(e, pts);
        if let Some(lp) = sol.labels[k] {
            block.labels.insert(e, place(lp));
        }
    }
    if side_ports && l != cx.tree.root {
        let to_axis = |y: f32| axis(place(Point { x: 0.0, y }));
        let boxes = sol.band_of[..nboxes.min(sol.band_of.len())].iter().copied();
        let (segs, kept) = segments(&sol.bands, boxes, if along_x { bw } else { bh }, to_axis);
        block.segs = segs;
        for seg in block.port_seg.values_mut() {
            *seg = (*seg).clamp(*kept.start(), *kept.end()) - kept.start();
        }
    }
    // Self-loops, drawn in the frame then mapped out.
    for (s, ls) in loops.iter().enumerate() {
        if ls.is_empty() {
            continue;
        }
        let c = sol.centers[s];
        let (w, h) = frame::size_in(dir, item_size(cx, blocks, items[s]));
        let x0 = c.x + w / 2.0;
        let mut acc = 0.0;
        for &e in ls {
            // The loop's outer side runs through its label's centre.
            let lw = label_frame(e).map_or(0.0, |(lw, _)| lw + 4.0);
            let d = acc + LOOP_GAP + lw / 2.0;
            let dy = h / 4.0;
            let pts = [c, Point { x: x0 + d, y: c.y - dy }, Point { x: x0 + d, y: c.y + dy }, c];
            block.pieces.insert(e, pts.iter().map(|&p| place(p)).collect());
            if label_frame(e).is_some() {
                block.labels.insert(e, place(Point { x: x0 + d, y: c.y }));
            }
            acc = d + lw / 2.0;
        }
    }
    block
}
