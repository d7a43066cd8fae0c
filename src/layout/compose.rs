//! Compound layout: each cluster is laid out on its own (bottom-up) and
//! becomes one block in its parent, so clusters can never overlap nodes or
//! each other. Edges crossing a cluster border get a port node pinned to the
//! cluster's top or bottom rank; their pieces (inside, at the common level,
//! inside again) are joined into one path. As in mermaid, a cluster keeps
//! its own `direction` only when no edge crosses its border.

use std::collections::BTreeMap;

use crate::mermaid::{Direction, Flowchart};
use crate::text::{Fonts, TextBlock, TextStyle, layout_label};

use super::frame::{self, Side};
use super::layered::{self, PEdge, Pin, Problem};
use super::shapes::{clip, shape_size};
use super::spread::{Attachable, spread_sides};
use super::tree::{self, Item, Route, Tree};
use super::{Geometry, LayoutError, LayoutOptions, PlacedCluster, PlacedNode, Point, Rect, RoutedEdge, acyclic, graph};

/// One laid-out level, in its own coordinates (origin top-left).
#[derive(Debug, Default)]
struct Block {
    w: f32,
    h: f32,
    /// Centres of the level's items, by slot.
    pos: Vec<Point>,
    /// Border point of this cluster's port, per crossing edge.
    ports: BTreeMap<usize, Point>,
    /// Path pieces drawn at this level, per edge.
    pieces: BTreeMap<usize, Vec<Point>>,
    labels: BTreeMap<usize, Point>,
}

struct Ctx<'a> {
    chart: &'a Flowchart,
    opts: &'a LayoutOptions,
    tree: Tree,
    routes: Vec<Route>,
    /// Per edge: its resolved `from` and `to`.
    ends: Vec<(Item, Item)>,
    node_sizes: Vec<(f32, f32)>,
    edge_labels: Vec<Option<TextBlock>>,
    titles: Vec<TextBlock>,
    /// Per edge: does the common level draw it upwards (reversed)?
    reversed: Vec<bool>,
    /// Per level: (edge, inner item, port is at the frame top).
    ports: Vec<Vec<(usize, Item, bool)>>,
    dirs: Vec<Direction>,
}

pub fn layout(chart: &Flowchart, opts: &LayoutOptions, fonts: &Fonts) -> Result<Geometry, LayoutError> {
    let node_ix: BTreeMap<&str, usize> = chart.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let cluster_ix: BTreeMap<&str, usize> = chart.subgraphs.iter().enumerate().map(|(i, s)| (s.id.as_str(), i)).collect();
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
    // it instead, as mermaid draws it (hard breaks still apply).
    let title_style = TextStyle { wrap_width: f32::INFINITY, ..*ts };
    let titles = chart.subgraphs.iter().map(|s| layout_label(&s.title, s.label_type, &title_style, fonts)).collect();
    let nlevels = tree.root + 1;
    let mut cx = Ctx { chart, opts, tree, routes, ends, node_sizes, edge_labels, titles, reversed: vec![false; chart.edges.len()], ports: vec![Vec::new(); nlevels], dirs: Vec::new() };
    orient(&mut cx);
    cx.dirs = directions(&cx);
    let mut blocks: Vec<Block> = (0..nlevels).map(|_| Block::default()).collect();
    for l in cx.tree.post_order() {
        blocks[l] = level(&cx, l, &blocks);
    }
    Ok(assemble(&cx, &blocks, labels))
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
                Route::Span { from, to, .. } => Some(graph::LEdge { from: cx.tree.slot(*from), to: cx.tree.slot(*to), minlen: 1 }),
                _ => None,
            })
            .collect();
        let rev = acyclic::back_edges(&graph::LGraph::new(nodes, edges));
        for (&e, r) in es.iter().zip(rev) {
            cx.reversed[e] = r;
        }
    }
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

/// Lays out level `l` (children already done) into a block.
fn level(cx: &Ctx, l: usize, blocks: &[Block]) -> Block {
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
    let mut sizes = Vec::with_capacity(items.len());
    let mut pins = Vec::with_capacity(items.len());
    for (s, &it) in items.iter().enumerate() {
        let (w, h) = frame::size_in(dir, item_size(cx, blocks, it));
        let ext: f32 = loops[s].iter().map(|&e| LOOP_GAP + label_frame(e).map_or(0.0, |(lw, _)| lw + 4.0)).sum();
        sizes.push((w + 2.0 * ext, h));
        pins.push(Pin::Free);
    }
    // Where an edge attaches to a cluster item: at that cluster's port.
    let attach = |it: Item, e: usize| -> (f32, bool) {
        if let Item::Cluster(c) = it
            && let Some(p) = blocks[c].ports.get(&e)
        {
            let b = &blocks[c];
            return (frame::frame_dx(dir, Point { x: p.x - b.w / 2.0, y: p.y - b.h / 2.0 }), true);
        }
        (0.0, false)
    };
    let mut edges = Vec::new();
    // (edge, drop first point, drop last point, port slot)
    let mut meta: Vec<(usize, bool, bool, Option<usize>)> = Vec::new();
    for (e, r) in cx.routes.iter().enumerate() {
        if let Route::Span { level, from, to, .. } = r
            && *level == l
        {
            let (from_dx, drop_first) = attach(*from, e);
            let (to_dx, drop_last) = attach(*to, e);
            let minlen = u32::from(cx.chart.edges[e].length.max(1));
            edges.push(PEdge { from: cx.tree.slot(*from), to: cx.tree.slot(*to), minlen, label: label_frame(e), from_dx, to_dx });
            meta.push((e, drop_first, drop_last, None));
        }
    }
    for &(e, inner, top) in &cx.ports[l] {
        let port = sizes.len();
        sizes.push((0.0, 0.0));
        pins.push(if top { Pin::Top } else { Pin::Bottom });
        let (dx, drop) = attach(inner, e);
        let slot = cx.tree.slot(inner);
        // Keep the piece in the edge's own direction.
        let leaving = matches!(&cx.routes[e], Route::Span { up_from, .. } if up_from.contains(&l));
        let pe = if leaving {
            PEdge { from: slot, to: port, minlen: 1, label: None, from_dx: dx, to_dx: 0.0 }
        } else {
            PEdge { from: port, to: slot, minlen: 1, label: None, from_dx: 0.0, to_dx: dx }
        };
        edges.push(pe);
        meta.push((e, leaving && drop, !leaving && drop, Some(port)));
    }
    let problem = Problem { sizes, pins, edges, node_sep: opts.node_spacing, rank_sep: opts.rank_spacing, edge_sep: opts.edge_spacing };
    let mut sol = layered::solve(&problem);
    diamond_exits(cx, l, &problem, &mut sol, &meta);
    let attachable: Vec<Option<Attachable>> = (0..problem.sizes.len())
        .map(|v| match items.get(v) {
            Some(&it @ Item::Node(i)) => {
                let (width, height) = frame::size_in(dir, item_size(cx, blocks, it));
                Some(Attachable { width, height, diamond: matches!(cx.chart.nodes[i].shape, crate::mermaid::Shape::Diam) })
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
    let mut block = Block { w: bw, h: bh, pos: sol.centers[..items.len()].iter().map(|&p| place(p)).collect(), ..Default::default() };
    for (k, &(e, drop_first, drop_last, port)) in meta.iter().enumerate() {
        let mut pts: Vec<Point> = sol.paths[k].iter().map(|&p| place(p)).collect();
        if let Some(port) = port {
            // Carry the path from the port node out to the block border.
            let p = place(sol.centers[port]);
            let side = frame::side_of(dir, problem.pins[port] == Pin::Top);
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

/// Places every block absolutely and joins each edge's pieces.
fn assemble(cx: &Ctx, blocks: &[Block], labels: Vec<TextBlock>) -> Geometry {
    let root = cx.tree.root;
    let m = cx.opts.margin;
    let mut origin = vec![Point::default(); root + 1];
    origin[root] = Point { x: m, y: m };
    let mut order = cx.tree.post_order();
    order.reverse();
    for &l in &order {
        for (s, &it) in cx.tree.children[l].iter().enumerate() {
            if let Item::Cluster(c) = it {
                let p = blocks[l].pos[s];
                origin[c] = Point { x: origin[l].x + p.x - blocks[c].w / 2.0, y: origin[l].y + p.y - blocks[c].h / 2.0 };
            }
        }
    }
    let abs = |l: usize, p: Point| Point { x: p.x + origin[l].x, y: p.y + origin[l].y };
    let cluster_rect = |c: usize| Rect { x: origin[c].x, y: origin[c].y, width: blocks[c].w, height: blocks[c].h };
    let nodes: Vec<PlacedNode> = labels
        .into_iter()
        .enumerate()
        .map(|(i, label)| {
            let l = cx.tree.node_parent[i];
            let c = abs(l, blocks[l].pos[cx.tree.node_slot[i]]);
            let (w, h) = cx.node_sizes[i];
            PlacedNode { rect: Rect { x: c.x - w / 2.0, y: c.y - h / 2.0, width: w, height: h }, label }
        })
        .collect();
    let clip_end = |it: Item, toward: Point| match it {
        Item::Node(i) => clip(cx.chart.nodes[i].shape, &nodes[i].rect, toward),
        Item::Cluster(c) => clip(crate::mermaid::Shape::Rect, &cluster_rect(c), toward),
    };
    let mut edges = Vec::with_capacity(cx.chart.edges.len());
    for (e, r) in cx.routes.iter().enumerate() {
        let (a, b) = cx.ends[e];
        let mut pts: Vec<Point> = Vec::new();
        let mut label_at = None;
        let mut take = |l: usize, pts: &mut Vec<Point>| {
            if let Some(piece) = blocks[l].pieces.get(&e) {
                pts.extend(piece.iter().map(|&p| abs(l, p)));
            }
            if let Some(&lp) = blocks[l].labels.get(&e) {
                label_at = Some(abs(l, lp));
            }
        };
        match r {
            Route::SelfLoop { level, .. } => take(*level, &mut pts),
            Route::Span { level, up_from, up_to, .. } => {
                for &c in up_from {
                    take(c, &mut pts);
                }
                take(*level, &mut pts);
                for &c in up_to.iter().rev() {
                    take(c, &mut pts);
                }
            }
            Route::Degenerate => {
                // A node joined to a cluster that contains it: a short
                // stub up to the cluster's border.
                let (inner, outer) = if matches!(b, Item::Cluster(_)) { (a, b) } else { (b, a) };
                if let (Item::Node(i), Item::Cluster(c)) = (inner, outer) {
                    let r = nodes[i].rect;
                    let top = cluster_rect(c).y;
                    let c0 = Point { x: r.x + r.width / 2.0, y: r.y + r.height / 2.0 };
                    pts = vec![c0, Point { x: c0.x, y: top }];
                    if inner != a {
                        pts.reverse();
                    }
                }
            }
        }
        let mut pts = layered::simplify(pts);
        if pts.len() >= 2 {
            let n = pts.len();
            let first = clip_end(a, pts[1]);
            let last = clip_end(b, pts[n - 2]);
            if !matches!(r, Route::Degenerate) || matches!(a, Item::Node(_)) {
                pts[0] = first;
            }
            if !matches!(r, Route::Degenerate) || matches!(b, Item::Node(_)) {
                pts[n - 1] = last;
            }
        }
        let label = match (&cx.edge_labels[e], label_at) {
            (Some(block), Some(c)) => Some((Rect { x: c.x - block.width / 2.0, y: c.y - block.height / 2.0, width: block.width, height: block.height }, block.clone())),
            _ => None,
        };
        edges.push(RoutedEdge { points: layered::simplify(pts), label });
    }
    let pad = cx.opts.cluster_padding;
    let clusters = (0..root)
        .map(|c| {
            let rect = cluster_rect(c);
            let t = cx.titles[c].clone();
            // Centred like mermaid's, unless an edge enters through the top
            // border there: then left- or right-aligned, clear of it.
            let top_ports: Vec<f32> = blocks[c].ports.values().filter(|p| p.y == 0.0).map(|p| p.x).collect();
            let candidates = [(rect.width - t.width) / 2.0, pad, rect.width - pad - t.width];
            let clear = |x: f32| top_ports.iter().all(|&px| px < x - 4.0 || px > x + t.width + 4.0);
            let tx = candidates.into_iter().find(|&x| clear(x)).unwrap_or(candidates[0]);
            let tr = Rect { x: rect.x + tx, y: rect.y + pad, width: t.width, height: t.height };
            PlacedCluster { rect, title: (tr, t) }
        })
        .collect();
    Geometry { width: blocks[root].w + 2.0 * m, height: blocks[root].h + 2.0 * m, nodes, edges, clusters }
}

/// Decision exits: an edge that leaves (or enters) a diamond towards a
/// point clearly to one side uses the diamond's left or right vertex, as in
/// mermaid, unless that diagonal would cut through another box of the level.
fn diamond_exits(cx: &Ctx, l: usize, p: &Problem, sol: &mut layered::Solution, meta: &[(usize, bool, bool, Option<usize>)]) {
    let items = &cx.tree.children[l];
    let is_diamond = |v: usize| matches!(items.get(v), Some(Item::Node(i)) if matches!(cx.chart.nodes[*i].shape, crate::mermaid::Shape::Diam));
    if !(0..items.len()).any(is_diamond) {
        return;
    }
    let rect_of = |c: Point, (w, h): (f32, f32)| Rect { x: c.x - w / 2.0, y: c.y - h / 2.0, width: w, height: h };
    let mut boxes: Vec<(usize, Rect)> = (0..items.len()).map(|v| (v, rect_of(sol.centers[v], p.sizes[v]))).collect();
    for (k, lp) in sol.labels.iter().enumerate() {
        if let (Some(c), Some(sz)) = (lp, p.edges[k].label) {
            boxes.push((usize::MAX, rect_of(*c, sz)));
        }
    }
    // Sorted by top edge so each test only visits boxes in its y-range
    // (one rank gap), never the whole level.
    boxes.sort_by(|a, b| a.1.y.total_cmp(&b.1.y).then(a.0.cmp(&b.0)));
    let max_h = boxes.iter().map(|(_, r)| r.height).fold(0.0, f32::max);
    for (k, e) in p.edges.iter().enumerate() {
        if meta[k].3.is_some() {
            continue;
        }
        for at_start in [true, false] {
            let v = if at_start { e.from } else { e.to };
            if !is_diamond(v) {
                continue;
            }
            let pts = &mut sol.paths[k];
            if !at_start {
                pts.reverse();
            }
            let c = sol.centers[v];
            let hw = p.sizes[v].0 / 2.0;
            // Only the leg to the next rank gap may be replaced, and never
            // one carrying the edge's label.
            let leg_ok = pts.len() >= 3
                && (pts[1].x - c.x).abs() < 1e-3
                && (pts[1].y - c.y).abs() <= p.sizes[v].1 / 2.0 + p.rank_sep
                && sol.labels[k].is_none_or(|lp| (lp.x - c.x).abs() > 1e-3 || (lp.y - c.y).abs() > (pts[1].y - c.y).abs());
            if leg_ok && (pts[2].x - c.x).abs() > hw {
                let side = Point { x: c.x + hw * (pts[2].x - c.x).signum(), y: c.y };
                let other = if at_start { e.to } else { e.from };
                let (lo, hi) = (side.y.min(pts[2].y), side.y.max(pts[2].y));
                let start = boxes.partition_point(|(_, r)| r.y < lo - max_h);
                let blocked = boxes[start..].iter().take_while(|(_, r)| r.y <= hi).any(|&(b, r)| b != v && b != other && super::metrics::segment_hits(side, pts[2], &r));
                if !blocked {
                    pts[1] = side;
                }
            }
            if !at_start {
                pts.reverse();
            }
        }
    }
}
