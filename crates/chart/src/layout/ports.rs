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
use super::grid::Grid;
use super::metrics::{proper_cross, segment_hits, segment_in_polygon};
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
        return if dx.abs() > dy.abs() {
            if dx > 0.0 { Side::Right } else { Side::Left }
        } else if dy > 0.0 {
            Side::Bottom
        } else {
            Side::Top
        };
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
    if side.horizontal() {
        Point { x: cx + offset, y: cy + n.y * depth }
    } else {
        Point { x: cx + n.x * depth, y: cy + offset }
    }
}

/// Gives every edge end on a node its own attach point with a stub along
/// the normal. `ends[k]`: the nodes edge `k` starts and ends at.
pub(super) fn attach(
    chart: &Flowchart,
    rects: &[Rect],
    edges: &mut [RoutedEdge],
    ends: &[(Option<usize>, Option<usize>)],
) {
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
            let mut walk: Box<dyn Iterator<Item = &Point>> =
                if at_start { Box::new(e.points.iter()) } else { Box::new(e.points.iter().rev()) };
            let beyond = walk.find(|p| (along(p) - centre).abs() > 1.0).map_or(centre, along);
            let key = (along(&next), beyond);
            sides.entry((v, side)).or_default().push((key, k, at_start));
        }
    }
    for ((v, side), mut group) in sides {
        group.sort_by(|a, b| {
            a.0.0.total_cmp(&b.0.0).then(a.0.1.total_cmp(&b.0.1)).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
        });
        let r = rects[v];
        let diamond = is_diamond(chart.nodes[v].shape);
        let length = if side.horizontal() { r.width } else { r.height };
        let usable = length * if diamond { SHARE_DIAMOND } else { SHARE_BOX };
        let slots = |g: &[End]| -> Vec<Point> {
            offsets(g, usable, diamond).into_iter().map(|o| point_on(&r, diamond, side, o)).collect()
        };
        if (2..=MAX_PERMUTED).contains(&group.len()) && edges.len() <= MAX_PERMUTE_EDGES {
            group = least_crossing_order(edges, group, side, &slots);
        }
        for (&(_, k, at_start), at) in group.iter().zip(slots(&group)) {
            place(&mut edges[k], at, side, at_start);
        }
    }
}

/// Offsets from the side's middle of the ends of one side, in order:
/// [`PORT_GAP`] apart, on a box [`MIXED_GAP`] between an outgoing start
/// and an incoming end (a back edge leaving beside the arrow coming in
/// reads as that arrow passing by), all shrunk alike to fit `usable`,
/// centred. A diamond's vertex keeps the plain gap: spread wider there, a
/// decision's exits crossed each other (three problem-bank charts).
fn offsets(group: &[End], usable: f32, diamond: bool) -> Vec<f32> {
    let mut at = vec![0.0f32; group.len()];
    for i in 1..group.len() {
        at[i] = at[i - 1] + if group[i].2 == group[i - 1].2 || diamond { PORT_GAP } else { MIXED_GAP };
    }
    let span = at.last().copied().unwrap_or(0.0);
    let scale = if span > usable { usable / span } else { 1.0 };
    at.iter().map(|&o| (o - span / 2.0) * scale).collect()
}

/// Gap between an outgoing start and an incoming end on one side.
const MIXED_GAP: f32 = 3.0 * PORT_GAP;

/// Most ends on one side whose every order is tried.
const MAX_PERMUTED: usize = 5;
/// Largest chart (edges) on which orders are tried: each try counts the
/// group's crossings with every edge.
const MAX_PERMUTE_EDGES: usize = 120;

/// Moves the end of edge `e` (its start when `at_start`) to `at`, arriving
/// along the side's normal over a [`STUB`].
fn place(e: &mut RoutedEdge, at: Point, side: Side, at_start: bool) {
    let normal = side.normal();
    let stub = Point { x: at.x + normal.x * STUB, y: at.y + normal.y * STUB };
    let pts = &mut e.points;
    if at_start {
        pts.reverse();
    }
    let n = pts.len();
    let prev = pts[n - 2];
    pts[n - 1] = at;
    // Already arriving along the normal from beyond the stub: no extra
    // point needed.
    let along = (prev.x - at.x) * normal.x + (prev.y - at.y) * normal.y;
    let off_axis = if side.horizontal() { (prev.x - at.x).abs() } else { (prev.y - at.y).abs() };
    if !(off_axis < 0.5 && along >= STUB) {
        pts.insert(n - 1, stub);
    }
    if at_start {
        pts.reverse();
    }
}

/// The order of one side's ends (sorted by where they go, which is
/// tried first and kept on ties) whose placement crosses fewest edges.
/// Sorting by the next corner misses crossings that only show further
/// along (two loops into one side, a back edge round the node).
fn least_crossing_order(
    edges: &mut [RoutedEdge],
    group: Vec<End>,
    side: Side,
    slots: &dyn Fn(&[End]) -> Vec<Point>,
) -> Vec<End> {
    let members: Vec<usize> = group.iter().map(|g| g.1).collect();
    let saved: Vec<Vec<Point>> = members.iter().map(|&k| edges[k].points.clone()).collect();
    let mut best: Option<(usize, Vec<usize>)> = None;
    for perm in permutations(group.len()) {
        let order: Vec<End> = perm.iter().map(|&g| group[g]).collect();
        for (&(_, k, at_start), at) in order.iter().zip(slots(&order)) {
            place(&mut edges[k], at, side, at_start);
        }
        let mut c = 0;
        for (a, &k) in members.iter().enumerate() {
            for (o, other) in edges.iter().enumerate() {
                // Pairs inside the group are counted once.
                let later_member = members[a + 1..].contains(&o);
                if o == k || (members.contains(&o) && !later_member) {
                    continue;
                }
                c += polyline_crossings(&edges[k].points, &other.points);
            }
        }
        for (&k, pts) in members.iter().zip(&saved) {
            edges[k].points.clone_from(pts);
        }
        if best.as_ref().is_none_or(|(bc, _)| c < *bc) {
            best = Some((c, perm));
        }
    }
    let (_, perm) = best.expect("a group has an order");
    perm.into_iter().map(|g| group[g]).collect()
}

/// Every order of `0..n`, the identity first (lexicographic).
fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut p: Vec<usize> = (0..n).collect();
    loop {
        out.push(p.clone());
        // Next permutation in lexicographic order.
        let Some(i) = (1..n).rev().find(|&i| p[i - 1] < p[i]) else { return out };
        let j = (i..n).rev().find(|&j| p[j] > p[i - 1]).expect("a larger element follows");
        p.swap(i - 1, j);
        p[i..].reverse();
    }
}

/// Proper crossings between two polylines.
pub(super) fn polyline_crossings(a: &[Point], b: &[Point]) -> usize {
    if !meets(&bounds(a), &bounds(b)) {
        return 0;
    }
    let mut c = 0;
    for s in a.windows(2) {
        for t in b.windows(2) {
            c += usize::from(proper_cross(s[0], s[1], t[0], t[1]));
        }
    }
    c
}

fn is_diamond(s: Shape) -> bool {
    matches!(s, Shape::Diam)
}

/// Shapes whose sides are straight enough for spread attach points.
pub(super) fn attachable(s: Shape) -> bool {
    !matches!(
        s,
        Shape::Circle
            | Shape::DblCirc
            | Shape::SmCirc
            | Shape::FrCirc
            | Shape::FCirc
            | Shape::CrossCirc
            | Shape::Ellipse
            | Shape::State
            | Shape::Anchor
            | Shape::Fork
    )
}

/// Triples the corners whose basis smoothing would carry the drawn curve
/// through a node it does not touch, or through another edge's label.
pub(super) fn keep_curves_clear(
    chart: &Flowchart,
    rects: &[Rect],
    edges: &mut [RoutedEdge],
    ends: &[(Option<usize>, Option<usize>)],
) {
    let outlines: Vec<Vec<Point>> = chart.nodes.iter().zip(rects).map(|(n, r)| outline_polygon(n.shape, r)).collect();
    let labels: Vec<(usize, Rect)> =
        edges.iter().enumerate().filter_map(|(k, e)| e.label.as_ref().map(|l| (k, l.0))).collect();
    let label_rects: Vec<Rect> = labels.iter().map(|l| l.1).collect();
    let obstacles = Obstacles {
        rects,
        outlines: &outlines,
        labels: &labels,
        node_grid: Grid::new(rects),
        label_grid: Grid::new(&label_rects),
    };
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
            let hits = obstacles.hits(&curve, k, ends[k]);
            if hits.is_empty() {
                break;
            }
            triple_corners(&mut edges[k].points, &hits, round == 0);
        }
    }
}

/// What a drawn curve must keep clear of: the nodes (by outline) and the
/// edge labels, each behind a grid so a curve tests only what is near it.
struct Obstacles<'a> {
    rects: &'a [Rect],
    outlines: &'a [Vec<Point>],
    /// (edge, label box) of every labelled edge.
    labels: &'a [(usize, Rect)],
    node_grid: Grid,
    label_grid: Grid,
}

impl Obstacles<'_> {
    /// Start points of the pieces of edge `k`'s `curve` that cut a node
    /// other than its own ends, or another edge's label.
    fn hits(&self, curve: &[Point], k: usize, ends: (Option<usize>, Option<usize>)) -> Vec<Point> {
        let (mut near_nodes, mut near_labels): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
        let mut hits: Vec<Point> = Vec::new();
        // Pieces are looked up in chunks: one grid query per chunk names the
        // few nodes and labels near it, and only those are tested piece by
        // piece.
        for start in (0..curve.len().saturating_sub(1)).step_by(CHUNK) {
            let chunk = &curve[start..(start + CHUNK + 1).min(curve.len())];
            let area = bounds(chunk);
            near_nodes.clear();
            near_labels.clear();
            self.node_grid.for_each_near(&area, |i| {
                if ends.0 != Some(i) && ends.1 != Some(i) && meets(&area, &self.rects[i]) && !near_nodes.contains(&i) {
                    near_nodes.push(i);
                }
            });
            self.label_grid.for_each_near(&area, |l| {
                if self.labels[l].0 != k && meets(&area, &self.labels[l].1) && !near_labels.contains(&l) {
                    near_labels.push(l);
                }
            });
            if near_nodes.is_empty() && near_labels.is_empty() {
                continue;
            }
            for w in chunk.windows(2) {
                let r = bounds(w);
                let cut = near_nodes
                    .iter()
                    .any(|&i| meets(&r, &self.rects[i]) && segment_in_polygon(w[0], w[1], &self.outlines[i], 1.0))
                    || near_labels
                        .iter()
                        .any(|&l| meets(&r, &self.labels[l].1) && segment_hits(w[0], w[1], &shrink(&self.labels[l].1)));
                if cut {
                    hits.push(w[0]);
                }
            }
        }
        hits
    }
}

/// Triples polyline corners so the basis curve passes through them: the
/// corner nearest each hit (`nearest_only`), or every free corner.
fn triple_corners(pts: &mut Vec<Point>, hits: &[Point], nearest_only: bool) {
    let tripled = |i: usize| i >= 2 && pts[i - 1] == pts[i] && pts[i - 2] == pts[i];
    let free: Vec<usize> = (1..pts.len() - 1).filter(|&i| !tripled(i) && pts[i + 1] != pts[i]).collect();
    let mut corners: Vec<usize> = if nearest_only {
        hits.iter()
            .filter_map(|&p| free.iter().copied().min_by(|&a, &b| dist(pts[a], p).total_cmp(&dist(pts[b], p))))
            .collect()
    } else {
        free
    };
    corners.sort_unstable();
    corners.dedup();
    // From the back, so earlier indices stay valid.
    for &c in corners.iter().rev() {
        let q = pts[c];
        pts.splice(c..c, [q, q]);
    }
}

/// Whether two boxes meet (a cheap test before the exact one).
fn meets(a: &Rect, b: &Rect) -> bool {
    a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height
}

/// Curve pieces per grid query in [`keep_curves_clear`].
const CHUNK: usize = 16;

fn shrink(r: &Rect) -> Rect {
    Rect { x: r.x + 0.5, y: r.y + 0.5, width: r.width - 1.0, height: r.height - 1.0 }
}

fn dist(a: Point, b: Point) -> f32 {
    ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_start_with_the_identity_and_are_all_there() {
        let all = permutations(3);
        assert_eq!(all[0], vec![0, 1, 2]);
        assert_eq!(all.len(), 6);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 6);
    }

    #[test]
    fn side_order_that_uncrosses_two_loops_wins() {
        // Two edges end on the bottom of the box (0..100, 0..40), one from
        // the left, one from the right; given in the crossing order, the
        // other one wins.
        let mut edges = vec![
            RoutedEdge {
                points: vec![Point { x: -50.0, y: 200.0 }, Point { x: -50.0, y: 60.0 }, Point { x: 50.0, y: 40.0 }],
                label: None,
            },
            RoutedEdge {
                points: vec![Point { x: 150.0, y: 200.0 }, Point { x: 150.0, y: 60.0 }, Point { x: 50.0, y: 40.0 }],
                label: None,
            },
        ];
        let r = Rect { x: 0.0, y: 0.0, width: 100.0, height: 40.0 };
        let group: Vec<End> = vec![((50.0, 150.0), 1, false), ((50.0, -50.0), 0, false)];
        let slots =
            |g: &[End]| offsets(g, 80.0, false).into_iter().map(|o| point_on(&r, false, Side::Bottom, o)).collect();
        let order = least_crossing_order(&mut edges, group, Side::Bottom, &slots);
        assert_eq!(order.iter().map(|g| g.1).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(edges[0].points.len(), 3, "trial placements are undone");
    }
}
