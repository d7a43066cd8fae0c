//! Layout-quality figures computed from a [`Geometry`] alone (render's
//! `--metrics` prints them as JSON; the clean-layout test requires the
//! overlap counts to be zero). Pairwise checks use an x-sorted sweep so
//! large charts stay near-linear in practice.

use serde::{Deserialize, Serialize};

use super::{Geometry, Point, Rect};
use crate::mermaid::Flowchart;

/// Quality figures of one layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Metrics {
    /// Box around everything drawn (nodes, clusters, edges, labels).
    pub bbox: Rect,
    /// Pairs of node boxes that overlap.
    pub node_overlaps: usize,
    /// Edge labels / cluster titles overlapping each other or a node.
    pub label_overlaps: usize,
    /// (edge, node) pairs where the edge passes through a node it does not
    /// start or end at.
    pub edges_through_nodes: usize,
    /// Edge labels whose centre is not on their own edge's path.
    pub labels_off_edge: usize,
    /// Proper crossings between segments of different edges.
    pub edge_crossings: usize,
    /// Sum of all edge polyline lengths.
    pub total_edge_length: f32,
    /// Interior polyline points (corners) over all edges.
    pub bends: usize,
}

/// Slack so boxes that merely touch, or paths that graze a border, are not
/// counted.
const EPS: f32 = 0.5;

fn overlaps(a: &Rect, b: &Rect) -> bool {
    a.x + EPS < b.x + b.width && b.x + EPS < a.x + a.width && a.y + EPS < b.y + b.height && b.y + EPS < a.y + a.height
}

/// Does segment `p`–`q` pass through the interior of `r` (shrunk by EPS)?
pub(crate) fn segment_hits(p: Point, q: Point, r: &Rect) -> bool {
    let (x0, x1, y0, y1) = (r.x + EPS, r.x + r.width - EPS, r.y + EPS, r.y + r.height - EPS);
    if x0 >= x1 || y0 >= y1 {
        return false;
    }
    let inner = Rect { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
    inner.clip_segment(p, q).is_some_and(|(t0, t1)| t0 < t1)
}

fn dist_to_segment(p: Point, a: Point, b: Point) -> f32 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 { 0.0 } else { (((p.x - a.x) * dx + (p.y - a.y) * dy) / len2).clamp(0.0, 1.0) };
    let (qx, qy) = (a.x + t * dx - p.x, a.y + t * dy - p.y);
    (qx * qx + qy * qy).sqrt()
}

/// Proper intersection of two segments (touching ends do not count).
fn segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool {
    let orient = |p: Point, q: Point, r: Point| (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
    let (d1, d2, d3, d4) = (orient(c, d, a), orient(c, d, b), orient(a, b, c), orient(a, b, d));
    let tiny = 1e-3;
    ((d1 > tiny && d2 < -tiny) || (d1 < -tiny && d2 > tiny)) && ((d3 > tiny && d4 < -tiny) || (d3 < -tiny && d4 > tiny))
}

/// Indices of pairs among `rects` that overlap (x-sorted sweep).
fn overlapping_pairs(rects: &[Rect]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..rects.len()).collect();
    order.sort_by(|&a, &b| rects[a].x.total_cmp(&rects[b].x).then(a.cmp(&b)));
    let mut out = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let right = rects[i].x + rects[i].width;
        for &j in &order[k + 1..] {
            if rects[j].x >= right {
                break;
            }
            if overlaps(&rects[i], &rects[j]) {
                out.push((i.min(j), i.max(j)));
            }
        }
    }
    out
}

/// Computes the figures; `chart` tells which nodes each edge touches.
pub fn metrics(chart: &Flowchart, g: &Geometry) -> Metrics {
    let mut m = Metrics::default();
    let node_rects: Vec<Rect> = g.nodes.iter().map(|n| n.rect).collect();
    m.node_overlaps = overlapping_pairs(&node_rects).len();
    // Labels (edge labels and cluster titles) followed by nodes.
    let mut rects: Vec<Rect> = g.edges.iter().filter_map(|e| e.label.as_ref().map(|l| l.0)).collect();
    rects.extend(g.clusters.iter().filter(|c| c.title.1.width > 0.0).map(|c| c.title.0));
    let nlabels = rects.len();
    rects.extend(node_rects.iter().copied());
    m.label_overlaps = overlapping_pairs(&rects).into_iter().filter(|&(i, _)| i < nlabels).count();
    // Edges through nodes: candidates by x-range over nodes sorted by x.
    let mut by_x: Vec<usize> = (0..node_rects.len()).collect();
    by_x.sort_by(|&a, &b| node_rects[a].x.total_cmp(&node_rects[b].x).then(a.cmp(&b)));
    let lefts: Vec<f32> = by_x.iter().map(|&i| node_rects[i].x).collect();
    let max_w = node_rects.iter().map(|r| r.width).fold(0.0, f32::max);
    let ids: std::collections::BTreeMap<&str, usize> = chart.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let mut segs: Vec<(Point, Point, usize)> = Vec::new();
    for (e, edge) in g.edges.iter().enumerate() {
        let ends = chart.edges.get(e).map(|ce| (ids.get(ce.from.as_str()).copied(), ids.get(ce.to.as_str()).copied()));
        let mut hit: Vec<usize> = Vec::new();
        for w in edge.points.windows(2) {
            let (p, q) = (w[0], w[1]);
            m.total_edge_length += ((q.x - p.x).powi(2) + (q.y - p.y).powi(2)).sqrt();
            segs.push((p, q, e));
            let (lo, hi) = (p.x.min(q.x), p.x.max(q.x));
            let start = lefts.partition_point(|&x| x < lo - max_w);
            for &i in &by_x[start..] {
                if node_rects[i].x > hi {
                    break;
                }
                let incident = ends.is_some_and(|(a, b)| a == Some(i) || b == Some(i));
                if !incident && segment_hits(p, q, &node_rects[i]) {
                    hit.push(i);
                }
            }
        }
        if let Some((r, _)) = &edge.label {
            let c = Point { x: r.x + r.width / 2.0, y: r.y + r.height / 2.0 };
            let on = edge.points.windows(2).any(|w| dist_to_segment(c, w[0], w[1]) <= 1.0);
            m.labels_off_edge += usize::from(!on);
        }
        hit.sort_unstable();
        hit.dedup();
        m.edges_through_nodes += hit.len();
        m.bends += edge.points.len().saturating_sub(2);
    }
    segs.sort_by(|a, b| a.0.x.min(a.1.x).total_cmp(&b.0.x.min(b.1.x)));
    for (k, &(a, b, e)) in segs.iter().enumerate() {
        let right = a.x.max(b.x);
        for &(c, d, f) in &segs[k + 1..] {
            if c.x.min(d.x) > right {
                break;
            }
            if e != f && segments_cross(a, b, c, d) {
                m.edge_crossings += 1;
            }
        }
    }
    m.bbox = bbox(g);
    m
}

fn bbox(g: &Geometry) -> Rect {
    let mut lo = Point { x: f32::INFINITY, y: f32::INFINITY };
    let mut hi = Point { x: f32::NEG_INFINITY, y: f32::NEG_INFINITY };
    let mut add = |r: &Rect| {
        lo.x = lo.x.min(r.x);
        lo.y = lo.y.min(r.y);
        hi.x = hi.x.max(r.x + r.width);
        hi.y = hi.y.max(r.y + r.height);
    };
    g.nodes.iter().for_each(|n| add(&n.rect));
    g.clusters.iter().for_each(|c| add(&c.rect));
    for e in &g.edges {
        e.points.iter().for_each(|p| add(&Rect { x: p.x, y: p.y, width: 0.0, height: 0.0 }));
        if let Some((r, _)) = &e.label {
            add(r);
        }
    }
    if !lo.x.is_finite() {
        return Rect::default();
    }
    Rect { x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_primitives() {
        let r = Rect { x: 0.0, y: 0.0, width: 10.0, height: 10.0 };
        assert!(segment_hits(Point { x: -5.0, y: 5.0 }, Point { x: 15.0, y: 5.0 }, &r));
        assert!(!segment_hits(Point { x: -5.0, y: 15.0 }, Point { x: 15.0, y: 15.0 }, &r));
        assert!(!segment_hits(Point { x: 5.0, y: 10.0 }, Point { x: 5.0, y: 30.0 }, &r));
        let p = |x, y| Point { x, y };
        assert!(segments_cross(p(0.0, 0.0), p(10.0, 10.0), p(0.0, 10.0), p(10.0, 0.0)));
        assert!(!segments_cross(p(0.0, 0.0), p(10.0, 10.0), p(10.0, 10.0), p(20.0, 0.0)));
        let rects = [r, Rect { x: 5.0, y: 5.0, width: 10.0, height: 10.0 }, Rect { x: 10.0, y: 0.0, width: 5.0, height: 5.0 }];
        assert_eq!(overlapping_pairs(&rects), vec![(0, 1)]);
    }
}
