//! The finishing pass on the absolute drawing: where edges meet nodes, and
//! curves that smoothing would swing through something.
//!
//! - **Attach points.** Every edge end on a node gets a point of its own:
//!   the ends on one side (a box's side, a diamond's vertex) are spread
//!   [`PORT_GAP`] apart in the order of where the edges come from, so no
//!   two arrowheads stack, an outgoing start never sits beside an incoming
//!   end, and a decision's exits never share a point. Each end leaves or
//!   arrives along the side's normal (a box) or the vertex's axis (a
//!   diamond) over a [`STUB`]: arrowheads meet the border steeply.
//! - **Drawn curves stay clear.** The basis curve drawn through a polyline
//!   cuts its corners; where that cut enters a node or another edge's
//!   label, the corner is tripled, which makes the B-spline pass through it
//!   (the polyline itself is routed clear), so the picture never shows an
//!   edge through a node.

use super::curve::{Curve, drawn_curve};
use super::drawn::bounds;
use super::metrics::{Grid, segment_hits, segment_in_polygon};
use super::shapes::outline_polygon;
use super::{Point, Rect, RoutedEdge};
use crate::mermaid::{Flowchart, Shape};

/// Distance between neighbouring attach points on one side (at least the
/// junction gap the metrics count, so ends never read as one line).
pub const PORT_GAP: f32 = 20.0;
/// Length of the straight piece every end leaves or arrives along.
pub const STUB: f32 = 12.0;
/// Share of a side the attach points may use.
const SHARE_BOX: f32 = 0.8;
const SHARE_DIAMOND: f32 = 0.5;

/// One edge end on a side: sort key (where the path goes next, then
/// where it goes once off the node's axis), edge, whether it is the start.
type End = ((f32, f32), usize, bool);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    Top,
    Bottom,
    Left,
    Right,
}

impl Side {
    fn normal(self) -> Point {
        match self {
            Side::Top => Point { x: 0.0, y: -1.0 },
            Side::Bottom => Point { x: 0.0, y: 1.0 },
            Side::Left => Point { x: -1.0, y: 0.0 },
            Side::Right => Point { x: 1.0, y: 0.0 },
        }
    }

    fn horizontal(self) -> bool {
        matches!(self, Side::Top | Side::Bottom)
    }
}

/// Which side of `r` the border point `p` is on (a diamond: which vertex's
/// quarter).
fn side_of(r: &Rect, diamond: bool, p: Point) -> Side {
    let (cx, cy, hw, hh) = (r.x + r.width / 2.0, r.y + r.height / 2.0, r.width / 2.0, r.height / 2.0);
    let (dx, dy) = ((p.x - cx) / hw.max(1e-3), (p.y - cy) / hh.max(1e-3));
    if diamond || (dx.abs() - 1.0).abs().min((dy.abs() - 1.0).abs()) > 0.05 {
        // A diamond, or a point not clearly on one side: by direction.
        return if dx.abs() > dy.abs() { if dx > 0.0 { Side::Right } else { Side::Left } } else if dy > 0.0 { Side::Bottom } else { Side::Top };
    }
    if (dy.abs() - 1.0).abs() <= (dx.abs() - 1.0).abs() {
        if dy > 0.0 { Side::Bottom } else { Side::Top }
    } else if dx > 0.0 {
        Side::Right
    } else {
        Side::Left
    }
}

/// The attach point `offset` along side `side` from its middle (a
/// diamond: from its vertex, on the outline).
fn point_on(r: &Rect, diamond: bool, side: Side, offset: f32) -> Point {
    let (cx, cy, hw, hh) = (r.x + r.width / 2.0, r.y + r.height / 2.0, r.width / 2.0, r.height / 2.0);
    let (along, across) = if side.horizontal() { (hw, hh) } else { (hh, hw) };
    let inset = if diamond { across * offset.abs() / along.max(1e-3) } else { 0.0 };
    let n = side.normal();
    let depth = across - inset;
    if side.horizontal() { Point { x: cx + offset, y: cy + n.y * depth } } else { Point { x: cx + n.x * depth, y: cy + offset } }
}

/// Gives every edge end on a node its own attach point with a stub along
/// the normal. `ends[k]`: the nodes edge `k` starts and ends at.
pub(super) fn attach(chart: &Flowchart, rects: &[Rect], edges: &mut [RoutedEdge], ends: &[(Option<usize>, Option<usize>)]) {
    use std::collections::BTreeMap;
    // (node, side) → (coordinate along the side of where the edge comes
    // from, edge, at start).
    let mut sides: BTreeMap<(usize, Side), Vec<End>> = BTreeMap::new();
    for (k, e) in edges.iter().enumerate() {
        let n = e.points.len();
        if n < 2 || ends[k].0.is_some() && ends[k].0 == ends[k].1 {
            continue;
        }
        for at_start in [true, false] {
            let Some(v) = (if at_start { ends[k].0 } else { ends[k].1 }) else { continue };
            if !attachable(chart.nodes[v].shape) {
                continue;
            }
            let r = rects[v];
            let diamond = is_diamond(chart.nodes[v].shape);
            let (end, next) = if at_start { (e.points[0], e.points[1]) } else { (e.points[n - 1], e.points[n - 2]) };
            let side = side_of(&r, diamond, end);
            // Order by where the edge goes once it leaves the node's axis,
            // so ends sharing a first point still get untangled.
            let centre = if side.horizontal() { r.x + r.width / 2.0 } else { r.y + r.height / 2.0 };
            let along = |p: &Point| if side.horizontal() { p.x } else { p.y };
            let mut walk: Box<dyn Iterator<Item = &Point>> = if at_start { Box::new(e.points.iter()) } else { Box::new(e.points.iter().rev()) };
            let beyond = walk.find(|p| (along(p) - centre).abs() > 1.0).map_or(centre, along);
            let key = (along(&next), beyond);
            sides.entry((v, side)).or_default().push((key, k, at_start));
        }
    }
    for ((v, side), mut group) in sides {
        group.sort_by(|a, b| a.0.0.total_cmp(&b.0.0).then(a.0.1.total_cmp(&b.0.1)).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let r = rects[v];
        let diamond = is_diamond(chart.nodes[v].shape);
        let length = if side.horizontal() { r.width } else { r.height };
        let gaps = group.len().saturating_sub(1) as f32;
        let usable = length * if diamond { SHARE_DIAMOND } else { SHARE_BOX };
        let gap = if gaps > 0.0 { PORT_GAP.min(usable / gaps) } else { 0.0 };
        let normal = side.normal();
        for (i, &(_, k, at_start)) in group.iter().enumerate() {
            let offset = (i as f32 - gaps / 2.0) * gap;
            let at = point_on(&r, diamond, side, offset);
            let stub = Point { x: at.x + normal.x * STUB, y: at.y + normal.y * STUB };
            let pts = &mut edges[k].points;
            if at_start {
                pts.reverse();
            }
            let n = pts.len();
            let prev = pts[n - 2];
            pts[n - 1] = at;
            // Already arriving along the normal from beyond the stub: no
            // extra point needed.
            let along = (prev.x - at.x) * normal.x + (prev.y - at.y) * normal.y;
            let off_axis = if side.horizontal() { (prev.x - at.x).abs() } else { (prev.y - at.y).abs() };
            if !(off_axis < 0.5 && along >= STUB) {
                pts.insert(n - 1, stub);
            }
            if at_start {
                pts.reverse();
            }
        }
    }
}

fn is_diamond(s: Shape) -> bool {
    matches!(s, Shape::Diam)
}

/// Shapes whose sides are straight enough for spread attach points.
fn attachable(s: Shape) -> bool {
    !matches!(s, Shape::Circle | Shape::DblCirc | Shape::SmCirc | Shape::FrCirc | Shape::FCirc | Shape::CrossCirc | Shape::Ellipse | Shape::State | Shape::Anchor | Shape::Fork)
}

/// Triples the corners whose basis smoothing would carry the drawn curve
/// through a node it does not touch, or through another edge's label.
pub(super) fn keep_curves_clear(chart: &Flowchart, rects: &[Rect], edges: &mut [RoutedEdge], ends: &[(Option<usize>, Option<usize>)]) {
    let outlines: Vec<Vec<Point>> = chart.nodes.iter().zip(rects).map(|(n, r)| outline_polygon(n.shape, r)).collect();
    let labels: Vec<(usize, Rect)> = edges.iter().enumerate().filter_map(|(k, e)| e.label.as_ref().map(|l| (k, l.0))).collect();
    let node_grid = Grid::new(rects);
    let label_rects: Vec<Rect> = labels.iter().map(|l| l.1).collect();
    let label_grid = Grid::new(&label_rects);
    for k in 0..edges.len() {
        // Straight edges are drawn as their polyline, which is routed clear.
        // Two rounds bound the cost on huge charts: the corners nearest the
        // hits are tripled, and if the curve still cuts something every
        // corner is (the curve is then the polyline itself).
        for round in 0..2 {
            if edges[k].points.len() < 3 {
                break;
            }
            let curve = drawn_curve(chart, k, &edges[k].points, Curve::Basis, 4.0);
            let hits: Vec<Point> = curve
                .windows(2)
                .filter(|w| {
                    let r = bounds(w);
                    node_grid.near(&r).into_iter().any(|i| ends[k].0 != Some(i) && ends[k].1 != Some(i) && segment_in_polygon(w[0], w[1], &outlines[i], 1.0))
                        || label_grid.near(&r).into_iter().any(|l| labels[l].0 != k && segment_hits(w[0], w[1], &shrink(&labels[l].1)))
                })
                .map(|w| w[0])
                .collect();
            if hits.is_empty() {
                break;
            }
            let pts = &edges[k].points;
            let tripled = |i: usize| i >= 2 && pts[i - 1] == pts[i] && pts[i - 2] == pts[i];
            let free: Vec<usize> = (1..pts.len() - 1).filter(|&i| !tripled(i) && pts[i + 1] != pts[i]).collect();
            let mut corners: Vec<usize> = if round == 0 {
                hits.iter().filter_map(|&p| free.iter().copied().min_by(|&a, &b| dist(pts[a], p).total_cmp(&dist(pts[b], p)))).collect()
            } else {
                free
            };
            corners.sort_unstable();
            corners.dedup();
            // From the back, so earlier indices stay valid.
            for &c in corners.iter().rev() {
                let q = edges[k].points[c];
                edges[k].points.splice(c..c, [q, q]);
            }
        }
    }
}

fn shrink(r: &Rect) -> Rect {
    Rect { x: r.x + 0.5, y: r.y + 0.5, width: r.width - 1.0, height: r.height - 1.0 }
}

fn dist(a: Point, b: Point) -> f32 {
    ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt()
}
