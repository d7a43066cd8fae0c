//! Layout-quality figures measured on the picture as drawn ([`Drawing`]:
//! flattened curves after interpolation, arrowheads, label chips, cluster
//! titles), so a curve that smoothing swings through a node counts even
//! when the routing polyline is clean. render's `--metrics` prints them;
//! the clean-layout test and `build`'s validity gate require the defects a
//! reader could misread to be zero. Pairwise tests go through a uniform
//! grid so large charts stay near-linear.

use serde::{Deserialize, Serialize};

use super::curve::{ARROW_INSET, Curve};
use super::drawn::{Drawing, bounds};
use super::grid::Grid;
use super::{Geometry, Point, Rect};
use crate::mermaid::Flowchart;

/// Quality figures of one drawing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Metrics {
    /// Box around everything drawn (nodes, clusters, edges, labels).
    pub bbox: Rect,
    /// Pairs of node boxes that overlap.
    pub node_overlaps: usize,
    /// Edge labels / cluster titles overlapping each other or a node.
    pub label_overlaps: usize,
    /// (edge, node) pairs where the drawn curve passes through a node it
    /// does not start or end at.
    pub edges_through_nodes: usize,
    /// Edge labels their own drawn curve does not pass through.
    pub labels_off_edge: usize,
    /// (label, edge) pairs where another edge's curve crosses a label chip.
    pub labels_crossed: usize,
    /// (cluster title, edge) pairs where a curve crosses the title.
    pub titles_crossed: usize,
    /// Crossings between the drawn curves of different edges.
    pub edge_crossings: usize,
    /// (incoming end, outgoing start) pairs on one node closer than
    /// [`JUNCTION_GAP`]: the two read as one line passing by.
    pub near_junctions: usize,
    /// Pairs of arrowhead tips on one node closer than [`STACK_GAP`].
    pub stacked_heads: usize,
    /// Arrowheads meeting their node's border at less than [`SHALLOW_DEG`].
    pub shallow_heads: usize,
    /// … of which at less than [`FLAT_DEG`] (flat slivers).
    pub flat_heads: usize,
    /// Pairs of a decision's exits leaving within [`SHARED_EXIT_GAP`].
    pub shared_exits: usize,
    /// Sum of all drawn curve lengths.
    pub total_edge_length: f32,
    /// Interior routing points (corners) over all edges.
    pub bends: usize,
}

/// An outgoing start this close to an incoming end reads as a junction.
pub const JUNCTION_GAP: f32 = 20.0;
/// Arrowhead tips this close on one node read as one head.
pub const STACK_GAP: f32 = 12.0;
/// Arrowheads arriving flatter than this (degrees to the border) read badly.
pub const SHALLOW_DEG: f32 = 25.0;
/// … and flatter than this are slivers.
pub const FLAT_DEG: f32 = 10.0;
/// Two exits of one decision this close leave from "the same point".
pub const SHARED_EXIT_GAP: f32 = 10.0;

/// Slack so boxes that merely touch, or curves that graze a border, are
/// not counted.
const EPS: f32 = 0.5;
/// How deep a curve must go into a node or label to count as through it.
const INSET: f32 = 1.0;

/// A defect that makes the picture ambiguous, naming what is involved
/// (indices into the drawing); `build` refuses charts that have any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Defect {
    EdgeThroughNode {
        edge: usize,
        node: usize,
    },
    /// Label of `edge` overlaps a node.
    LabelOverNode {
        edge: usize,
        node: usize,
    },
    /// Labels of two edges overlap.
    LabelOverLabel {
        edge: usize,
        other: usize,
    },
    /// The curve of `other` crosses the label of `edge`.
    LabelCrossed {
        edge: usize,
        other: usize,
    },
}

impl Defect {
    /// What is wrong, naming the elements by their ids in `d`.
    pub fn describe(&self, d: &Drawing) -> String {
        let node = |i: usize| d.nodes.get(i).map_or("?", |n| n.id.as_str()).to_string();
        let edge = |k: usize| {
            let end = |v: Option<usize>| v.map_or_else(|| "(subgraph)".to_string(), node);
            d.edges
                .get(k)
                .map_or_else(|| format!("edge {k}"), |e| format!("edge {k} ({} --> {})", end(e.from), end(e.to)))
        };
        match *self {
            Defect::EdgeThroughNode { edge: e, node: n } => format!("{} is drawn through node {}", edge(e), node(n)),
            Defect::LabelOverNode { edge: e, node: n } => format!("the label of {} overlaps node {}", edge(e), node(n)),
            Defect::LabelOverLabel { edge: e, other } => {
                format!("the label of {} overlaps the label of {}", edge(e), edge(other))
            }
            Defect::LabelCrossed { edge: e, other } => {
                format!("the label of {} is crossed by {}", edge(e), edge(other))
            }
        }
    }
}

fn overlaps(a: &Rect, b: &Rect) -> bool {
    a.x + EPS < b.x + b.width && b.x + EPS < a.x + a.width && a.y + EPS < b.y + b.height && b.y + EPS < a.y + a.height
}

fn shrink(r: &Rect, by: f32) -> Rect {
    Rect { x: r.x + by, y: r.y + by, width: r.width - 2.0 * by, height: r.height - 2.0 * by }
}

/// Whether pieces `ab` and `cd` cross at a point inside both.
pub(super) fn proper_cross(a: Point, b: Point, c: Point, d: Point) -> bool {
    let orient = |p: Point, q: Point, r: Point| (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
    let (d1, d2, d3, d4) = (orient(c, d, a), orient(c, d, b), orient(a, b, c), orient(a, b, d));
    let t = 1e-3;
    ((d1 > t && d2 < -t) || (d1 < -t && d2 > t)) && ((d3 > t && d4 < -t) || (d3 < -t && d4 > t))
}

/// Does segment `p`–`q` pass through the interior of `r` (shrunk by EPS)?
pub(crate) fn segment_hits(p: Point, q: Point, r: &Rect) -> bool {
    let inner = shrink(r, EPS);
    if inner.width <= 0.0 || inner.height <= 0.0 {
        return false;
    }
    inner.clip_segment(p, q).is_some_and(|(t0, t1)| t0 < t1)
}

/// Does segment `p`–`q` go deeper than `inset` into convex polygon `poly`?
/// (Cyrus–Beck against the polygon's sides moved inwards.)
pub fn segment_in_polygon(p: Point, q: Point, poly: &[Point], inset: f32) -> bool {
    let n = poly.len();
    if n < 3 {
        return false;
    }
    let c = centroid(poly);
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let (ex, ey) = (b.x - a.x, b.y - a.y);
        let len = (ex * ex + ey * ey).sqrt();
        if len < 1e-6 {
            continue;
        }
        // Inward unit normal.
        let (mut nx, mut ny) = (-ey / len, ex / len);
        if nx * (c.x - a.x) + ny * (c.y - a.y) < 0.0 {
            (nx, ny) = (-nx, -ny);
        }
        // Inside when n·(x − a) − inset > 0.
        let f0 = nx * (p.x - a.x) + ny * (p.y - a.y) - inset;
        let fd = nx * dx + ny * dy;
        if fd.abs() < 1e-9 {
            if f0 <= 0.0 {
                return false;
            }
        } else {
            let t = -f0 / fd;
            if fd > 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
        if t0 >= t1 {
            return false;
        }
    }
    t0 < t1
}

fn centroid(poly: &[Point]) -> Point {
    let n = poly.len() as f32;
    Point { x: poly.iter().map(|p| p.x).sum::<f32>() / n, y: poly.iter().map(|p| p.y).sum::<f32>() / n }
}

fn dist(a: Point, b: Point) -> f32 {
    ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt()
}

/// Proper intersection of two segments (touching ends do not count).
fn segments_cross(a: Point, b: Point, c: Point, d: Point) -> Option<Point> {
    let orient = |p: Point, q: Point, r: Point| (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
    let (d1, d2, d3, d4) = (orient(c, d, a), orient(c, d, b), orient(a, b, c), orient(a, b, d));
    let tiny = 1e-3;
    let proper = ((d1 > tiny && d2 < -tiny) || (d1 < -tiny && d2 > tiny))
        && ((d3 > tiny && d4 < -tiny) || (d3 < -tiny && d4 > tiny));
    proper.then(|| {
        let t = d1 / (d1 - d2);
        Point { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t }
    })
}

/// Bounding box of one drawn piece.
fn seg_rect(p: Point, q: Point) -> Rect {
    bounds(&[p, q])
}

/// Indices of pairs among `rects` that overlap.
fn overlapping_pairs(rects: &[Rect]) -> Vec<(usize, usize)> {
    let grid = Grid::new(rects);
    let mut out = Vec::new();
    for (i, r) in rects.iter().enumerate() {
        grid.for_each_near(r, |j| {
            if j > i && overlaps(r, &rects[j]) {
                out.push((i, j));
            }
        });
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Computes the figures of `g` drawn with mermaid's default (basis) curve.
pub fn metrics(chart: &Flowchart, g: &Geometry) -> Metrics {
    metrics_drawn(chart, g, Curve::Basis)
}

/// Computes the figures of `g` drawn with default curve `curve`.
pub fn metrics_drawn(chart: &Flowchart, g: &Geometry, curve: Curve) -> Metrics {
    measure(&Drawing::from_layout(chart, g, curve)).0
}

/// Measures a drawing: the figures, and the defects that make it ambiguous.
pub fn measure(d: &Drawing) -> (Metrics, Vec<Defect>) {
    let mut m = Metrics::default();
    let mut defects = Vec::new();
    let node_rects: Vec<Rect> = d.nodes.iter().map(|n| n.rect()).collect();
    m.node_overlaps = overlapping_pairs(&node_rects).len();
    // Labels (edge labels, then cluster titles), then nodes.
    let label_of: Vec<usize> = (0..d.edges.len()).filter(|&e| d.edges[e].label.is_some()).collect();
    let mut rects: Vec<Rect> = label_of.iter().filter_map(|&e| d.edges[e].label).collect();
    rects.extend(d.clusters.iter().filter_map(|c| c.title));
    let (nlabels, nedge_labels) = (rects.len(), label_of.len());
    rects.extend(node_rects.iter().copied());
    for (i, j) in overlapping_pairs(&rects) {
        if i >= nlabels {
            continue;
        }
        m.label_overlaps += 1;
        if i < nedge_labels && j < nedge_labels {
            defects.push(Defect::LabelOverLabel { edge: label_of[i], other: label_of[j] });
        } else if i < nedge_labels && j >= nlabels {
            defects.push(Defect::LabelOverNode { edge: label_of[i], node: j - nlabels });
        }
    }
    let node_grid = Grid::new(&node_rects);
    let label_grid = Grid::new(&rects[..nlabels]);
    // Every drawn piece: (from, to, edge).
    let mut pieces: Vec<(Point, Point, usize)> = Vec::new();
    for (e, edge) in d.edges.iter().enumerate() {
        m.bends += edge.corners;
        let mut through: Vec<usize> = Vec::new();
        let mut crossed: Vec<usize> = Vec::new();
        for w in edge.curve.windows(2) {
            let (p, q) = (w[0], w[1]);
            m.total_edge_length += dist(p, q);
            pieces.push((p, q, e));
            let r = seg_rect(p, q);
            node_grid.for_each_near(&r, |i| {
                if edge.from != Some(i) && edge.to != Some(i) && segment_in_polygon(p, q, &d.nodes[i].outline, INSET) {
                    through.push(i);
                }
            });
            label_grid.for_each_near(&r, |l| {
                let own = l < nedge_labels && label_of[l] == e;
                if !own && segment_hits(p, q, &shrink(&rects[l], INSET - EPS)) {
                    crossed.push(l);
                }
            });
        }
        if let Some(lr) = edge.label {
            let grown = Rect { x: lr.x - 2.0, y: lr.y - 2.0, width: lr.width + 4.0, height: lr.height + 4.0 };
            let on = edge.curve.windows(2).any(|w| grown.clip_segment(w[0], w[1]).is_some());
            m.labels_off_edge += usize::from(!on);
        }
        through.sort_unstable();
        through.dedup();
        crossed.sort_unstable();
        crossed.dedup();
        m.edges_through_nodes += through.len();
        defects.extend(through.into_iter().map(|node| Defect::EdgeThroughNode { edge: e, node }));
        for l in crossed {
            if l < nedge_labels {
                m.labels_crossed += 1;
                defects.push(Defect::LabelCrossed { edge: label_of[l], other: e });
            } else {
                m.titles_crossed += 1;
            }
        }
    }
    m.edge_crossings = crossings(&pieces);
    ends(d, &mut m);
    m.bbox = bbox(d);
    (m, defects)
}

/// Crossings between pieces of different edges, each counted in the one
/// grid cell that holds its crossing point.
fn crossings(pieces: &[(Point, Point, usize)]) -> usize {
    let rects: Vec<Rect> = pieces.iter().map(|&(p, q, _)| seg_rect(p, q)).collect();
    let grid = Grid::new(&rects);
    let mut n = 0;
    for (cell, list) in grid.cells() {
        for (k, &i) in list.iter().enumerate() {
            for &j in &list[k + 1..] {
                let ((a, b, e), (c, dd, f)) = (pieces[i as usize], pieces[j as usize]);
                if e != f
                    && let Some(x) = segments_cross(a, b, c, dd)
                    && grid.cell_of(x) == Some(cell)
                {
                    n += 1;
                }
            }
        }
    }
    n
}

/// Direction a curve arrives in at its end (`at_end`) or leaves its start
/// reversed, as a unit vector pointing out of the curve.
fn end_direction(curve: &[Point], at_end: bool) -> Option<Point> {
    let n = curve.len();
    let (tip, mut k) = if at_end { (curve[n - 1], n - 1) } else { (curve[0], 0) };
    loop {
        k = if at_end { k.checked_sub(1)? } else { k + 1 };
        let q = *curve.get(k)?;
        let l = dist(q, tip);
        if l >= 1.0 {
            return Some(Point { x: (tip.x - q.x) / l, y: (tip.y - q.y) / l });
        }
    }
}

/// Degrees between direction `dir` (a unit vector) and the side of `poly`
/// nearest to `tip`.
fn approach_degrees(poly: &[Point], tip: Point, dir: Point) -> f32 {
    let n = poly.len();
    let mut best = (f32::INFINITY, 90.0f32);
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let (ex, ey) = (b.x - a.x, b.y - a.y);
        let len2 = ex * ex + ey * ey;
        if len2 < 1e-9 {
            continue;
        }
        let t = (((tip.x - a.x) * ex + (tip.y - a.y) * ey) / len2).clamp(0.0, 1.0);
        let dd = dist(tip, Point { x: a.x + t * ex, y: a.y + t * ey });
        if dd < best.0 {
            let sin = ((dir.x * ey - dir.y * ex) / len2.sqrt()).abs().min(1.0);
            best = (dd, sin.asin().to_degrees());
        }
    }
    best.1
}

/// The per-node figures: junctions, stacked and shallow heads, shared exits.
fn ends(d: &Drawing, m: &mut Metrics) {
    // Per node: incoming ends, outgoing starts, arrow tips.
    let n = d.nodes.len();
    let (mut ins, mut outs, mut tips) = (vec![Vec::new(); n], vec![Vec::new(); n], vec![Vec::new(); n]);
    for edge in &d.edges {
        if edge.curve.len() < 2 || edge.from == edge.to {
            continue;
        }
        let (first, last) = (edge.curve[0], edge.curve[edge.curve.len() - 1]);
        for (node, point, head, at_end) in
            [(edge.to, last, edge.head_end, true), (edge.from, first, edge.head_start, false)]
        {
            let Some(v) = node else { continue };
            if at_end {
                ins[v].push(point)
            } else {
                outs[v].push(point)
            }
            if !head {
                continue;
            }
            let Some(dir) = end_direction(&edge.curve, at_end) else { continue };
            let tip = Point { x: point.x + dir.x * ARROW_INSET, y: point.y + dir.y * ARROW_INSET };
            tips[v].push(tip);
            let deg = approach_degrees(&d.nodes[v].outline, tip, dir);
            m.shallow_heads += usize::from(deg < SHALLOW_DEG);
            m.flat_heads += usize::from(deg < FLAT_DEG);
        }
    }
    for v in 0..n {
        m.near_junctions +=
            ins[v].iter().map(|&a| outs[v].iter().filter(|&&b| dist(a, b) < JUNCTION_GAP).count()).sum::<usize>();
        m.stacked_heads += close_pairs(&tips[v], STACK_GAP);
        if d.nodes[v].decision {
            m.shared_exits += close_pairs(&outs[v], SHARED_EXIT_GAP);
        }
    }
}

fn close_pairs(pts: &[Point], gap: f32) -> usize {
    (0..pts.len()).map(|i| pts[i + 1..].iter().filter(|&&q| dist(pts[i], q) < gap).count()).sum()
}

fn bbox(d: &Drawing) -> Rect {
    let mut pts: Vec<Point> = d.nodes.iter().flat_map(|n| n.outline.iter().copied()).collect();
    let corners = |r: &Rect| [Point { x: r.x, y: r.y }, Point { x: r.x + r.width, y: r.y + r.height }];
    pts.extend(d.clusters.iter().flat_map(|c| corners(&c.rect)));
    for e in &d.edges {
        pts.extend(e.curve.iter().copied());
        pts.extend(e.label.iter().flat_map(corners));
    }
    bounds(&pts)
}

#[cfg(test)]
mod tests;
