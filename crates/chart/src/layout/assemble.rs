//! The last step of the compound layout: every level's block is placed
//! absolutely (composing each cluster's [`Place`] up to the root), node and
//! cluster boxes are read off, and each edge's pieces (inside, at the common
//! level, inside again) are joined, clipped to the end shapes.

use super::context::{Block, Ctx};
use super::curve::{Curve, drawn_curve};
use super::layered;
use super::metrics::segment_hits;
use super::place::Place;
use super::shapes::clip;
use super::tree::{Item, Route};
use super::{Geometry, PlacedCluster, PlacedNode, Point, Rect, RoutedEdge};
use crate::text::TextBlock;

/// Places every block absolutely and joins each edge's pieces.
pub(super) fn assemble(cx: &Ctx, blocks: &[Block], labels: Vec<TextBlock>) -> Geometry {
    let root = cx.tree.root;
    let m = cx.opts.margin;
    // Each cluster's place in its parent, composed up to the root.
    let mut places = vec![Place::default(); root];
    for b in &blocks[..=root] {
        for (&c, p) in &b.places {
            places[c] = p.clone();
        }
    }
    let abs = |l: usize, p: Point| {
        let (mut l, mut p) = (l, p);
        while l != root {
            p = places[l].apply(p);
            l = cx.tree.cluster_parent[l];
        }
        Point { x: p.x + m, y: p.y + m }
    };
    let cluster_rect = |c: usize| {
        let (a, b) = (abs(c, Point::default()), abs(c, Point { x: blocks[c].w, y: blocks[c].h }));
        Rect { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y }
    };
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
            (Some(block), Some(c)) => Some((
                Rect {
                    x: c.x - block.width / 2.0,
                    y: c.y - block.height / 2.0,
                    width: block.width,
                    height: block.height,
                },
                block.clone(),
            )),
            _ => None,
        };
        edges.push(RoutedEdge { points: layered::simplify(pts), label });
    }
    let rects: Vec<Rect> = nodes.iter().map(|n| n.rect).collect();
    let node_ends: Vec<(Option<usize>, Option<usize>)> = cx
        .ends
        .iter()
        .map(|&(a, b)| {
            let node = |it: Item| if let Item::Node(i) = it { Some(i) } else { None };
            (node(a), node(b))
        })
        .collect();
    super::sideways::leave_sideways(cx.chart, &rects, &mut edges, &node_ends, cx.dirs[root]);
    super::ports::attach(cx.chart, &rects, &mut edges, &node_ends);
    super::tracks::separate(&rects, &mut edges, &node_ends);
    super::ports::keep_curves_clear(cx.chart, &rects, &mut edges, &node_ends);
    let pad = cx.opts.cluster_padding;
    // The edges as drawn (mermaid's default curve), with their boxes.
    let curves: Vec<(Rect, Vec<Point>)> = if root > 0 {
        (0..edges.len())
            .map(|k| {
                let c = drawn_curve(cx.chart, k, &edges[k].points, Curve::Basis, 4.0);
                (super::drawn::bounds(&c), c)
            })
            .collect()
    } else {
        Vec::new()
    };
    let clusters = (0..root)
        .map(|c| {
            let rect = cluster_rect(c);
            let t = cx.titles[c].clone();
            // Centred like mermaid's, unless an edge enters through the top
            // border there: then left- or right-aligned, clear of it.
            let top_ports: Vec<f32> = blocks[c].ports.values().filter(|p| p.y == 0.0).map(|p| p.x).collect();
            let candidates = [(rect.width - t.width) / 2.0, pad, rect.width - pad - t.width];
            // Among those, the place the fewest drawn edges cross.
            let clear = |x: f32| top_ports.iter().all(|&px| px < x - 4.0 || px > x + t.width + 4.0);
            let at = |x: f32| Rect { x: rect.x + x, y: rect.y + pad, width: t.width, height: t.height };
            let crossed = |x: f32| {
                curves
                    .iter()
                    .filter(|(b, c)| meets(b, &at(x)) && c.windows(2).any(|w| segment_hits(w[0], w[1], &at(x))))
                    .count()
            };
            let mut tx =
                candidates.into_iter().filter(|&x| clear(x)).min_by_key(|&x| crossed(x)).unwrap_or(candidates[0]);
            // Still crossed: the free place along the top nearest the
            // middle, if there is one.
            if crossed(tx) > 0 {
                let (lo, hi) = (pad, (rect.width - pad - t.width).max(pad));
                let steps = ((hi - lo) / TITLE_STEP) as usize;
                let mut spots: Vec<f32> = (0..=steps).map(|i| lo + i as f32 * TITLE_STEP).collect();
                spots.sort_by(|a, b| {
                    (a - candidates[0]).abs().total_cmp(&(b - candidates[0]).abs()).then(a.total_cmp(b))
                });
                if let Some(x) = spots.into_iter().find(|&x| clear(x) && crossed(x) == 0) {
                    tx = x;
                }
            }
            let tr = at(tx);
            PlacedCluster { rect, title: (tr, t) }
        })
        .collect();
    Geometry { width: blocks[root].w + 2.0 * m, height: blocks[root].h + 2.0 * m, nodes, edges, clusters }
}

/// Step of the search for a cluster title place no edge crosses.
const TITLE_STEP: f32 = 8.0;

fn meets(a: &Rect, b: &Rect) -> bool {
    a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height
}
