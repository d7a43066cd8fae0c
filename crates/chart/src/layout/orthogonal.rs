//! `routing = "orthogonal"`: every edge drawn in right angles, as ELK's
//! orthogonal router and Graphviz's `splines=ortho` draw them, over the
//! same layered layout (the graph and the node places do not change).
//!
//! # How it works
//!
//! The finished polyline keeps its attach points, the stubs that leave
//! along a side's normal and the ends of the pieces the edge label sits
//! on (a piece that only touches the label does not count); the bends
//! between them are dropped where a right-angle path can skip them without
//! entering a node or another edge's label (each would be a step of its
//! own). Each piece between
//! two points that is not already horizontal or
//! vertical gets corners: a Z along its longer axis with the jog halfway
//! (in a layered drawing, in the free gap between two ranks) or at a third
//! or two thirds, else an L either way, else a Z the other way; the first
//! of these whose pieces enter no node and no other edge's label (so a
//! loop's forward and back edge between one pair of nodes keep to lanes of
//! their own, clear of each other's label) and whose jog does not run along a
//! piece of an edge routed before is taken (failing that, the first that
//! enters no obstacle). Drawn with straight segments, the last piece is
//! the stub, so each arrowhead meets its border square.

use super::{Geometry, Point, Rect};
use serde::{Deserialize, Serialize};

/// How edges are routed between their points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Routing {
    /// Smooth curves through the layered layout's points (mermaid's).
    #[default]
    #[serde(rename = "spline")]
    Spline,
    /// Right angles only, drawn with straight segments.
    #[serde(rename = "orthogonal")]
    Orthogonal,
}

impl Routing {
    /// The routing named `s` in a style file.
    pub fn parse(s: &str) -> Option<Routing> {
        match s {
            "spline" => Some(Routing::Spline),
            "orthogonal" => Some(Routing::Orthogonal),
            _ => None,
        }
    }
}

/// Pieces closer than this to an axis already count as on it.
const ALIGNED: f32 = 0.5;
/// How far a piece must go into a node to count as through it (a piece
/// running along a border, or leaving an attach point, does not).
const INSET: f32 = 1.0;

/// Rewrites every edge of `g` in right angles.
pub fn route(g: &mut Geometry) {
    let boxes: Vec<Rect> = g.nodes.iter().map(|n| shrink(&n.rect)).collect();
    let labels: Vec<Option<Rect>> = g.edges.iter().map(|e| e.label.as_ref().map(|(r, _)| *r)).collect();
    let mut drawn = Drawn::default();
    for (k, e) in g.edges.iter_mut().enumerate() {
        let walls = Obstacles { boxes: &boxes, labels: &labels, own: Some(k) };
        e.points = orthogonal(&pulled(&e.points, labels[k], &walls), &walls, &mut drawn);
    }
}

/// What a new piece of edge `own` must not enter: the nodes, and the
/// labels of the other edges (the layered routing kept each edge clear of
/// them; a corner or a skipped bend must not cross one either, or the
/// label reads as belonging to both edges, as a loop's forward and back
/// edge between one pair of nodes did).
struct Obstacles<'a> {
    boxes: &'a [Rect],
    labels: &'a [Option<Rect>],
    own: Option<usize>,
}

impl Obstacles<'_> {
    /// Whether the piece `from`–`to` enters a node or another edge's label.
    fn blocks(&self, from: Point, to: Point) -> bool {
        let solid = |b: &Rect| b.width > 0.0 && b.height > 0.0 && b.clip_segment(from, to).is_some();
        let other_label = |(k, l): (usize, &Option<Rect>)| Some(k) != self.own && l.as_ref().is_some_and(solid);
        self.boxes.iter().any(solid) || self.labels.iter().enumerate().any(other_label)
    }
}

/// `points` with the bends the layered routing needed dropped wherever a
/// right-angle path can skip them without entering a node: the end points,
/// their stubs and the ends of the pieces through the edge's label stay. Each bend kept
/// would be a step of its own.
fn pulled(points: &[Point], label: Option<Rect>, boxes: &Obstacles) -> Vec<Point> {
    let n = points.len();
    if n <= 4 {
        return points.to_vec();
    }
    // The ends of the pieces crossing the label: the label stays on them.
    // A piece that only touches the label's border (it leads up to the
    // piece through it) does not count, or every bend would be kept.
    let through = |a: Point, b: Point| {
        label.is_some_and(|r| r.clip_segment(a, b).is_some_and(|(t0, t1)| (t1 - t0) * dist(a, b) > ALIGNED))
    };
    let on_label =
        |i: usize| (i > 0 && through(points[i - 1], points[i])) || (i + 1 < n && through(points[i], points[i + 1]));
    let keep = |i: usize| i <= 1 || i >= n - 2 || on_label(i);
    let mut out = vec![points[0], points[1]];
    let mut i = 1;
    while i < n - 1 {
        let mut next = i + 1;
        for j in i + 2..n {
            if keep(j - 1) {
                break;
            }
            let (a, q) = (points[i], points[j]);
            let straight = (a.x - q.x).abs() < ALIGNED || (a.y - q.y).abs() < ALIGNED;
            if (straight && path_clear(a, &[], q, boxes)) || corners(a, q).iter().any(|c| path_clear(a, c, q, boxes)) {
                next = j;
            }
        }
        out.push(points[next]);
        i = next;
    }
    out
}

/// The straight pieces of the edges routed so far, so a new jog does not
/// run along one of them (two edges on one line read as one).
#[derive(Default)]
struct Drawn {
    pieces: Vec<(Point, Point)>,
}

/// Two parallel pieces closer than this, overlapping, read as one line.
const APART: f32 = 6.0;

impl Drawn {
    /// Whether the piece `a`–`b` would run along one already drawn.
    fn overlaps(&self, a: Point, b: Point) -> bool {
        let horizontal = (a.y - b.y).abs() < ALIGNED;
        self.pieces.iter().any(|&(c, d)| {
            let (lo, hi, lo2, hi2, gap) = if horizontal && (c.y - d.y).abs() < ALIGNED {
                (a.x.min(b.x), a.x.max(b.x), c.x.min(d.x), c.x.max(d.x), (a.y - c.y).abs())
            } else if !horizontal && (c.x - d.x).abs() < ALIGNED {
                (a.y.min(b.y), a.y.max(b.y), c.y.min(d.y), c.y.max(d.y), (a.x - c.x).abs())
            } else {
                return false;
            };
            gap < APART && lo.max(lo2) + ALIGNED < hi.min(hi2)
        })
    }

    fn add(&mut self, pts: &[Point]) {
        self.pieces.extend(pts.windows(2).map(|w| (w[0], w[1])));
    }
}

/// `points` with corners added so each piece is horizontal or vertical.
fn orthogonal(points: &[Point], boxes: &Obstacles, drawn: &mut Drawn) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::with_capacity(points.len() * 3);
    for &q in points {
        let Some(&a) = out.last() else {
            out.push(q);
            continue;
        };
        if (a.x - q.x).abs() < ALIGNED && (a.y - q.y).abs() < ALIGNED {
            // A repeated point (a tripled corner of the spline routing).
            continue;
        }
        if (a.x - q.x).abs() >= ALIGNED && (a.y - q.y).abs() >= ALIGNED {
            let options = corners(a, q);
            let clear = |apart: bool| {
                options.iter().find(|c| path_clear(a, c, q, boxes) && (!apart || jogs_apart(a, c, drawn)))
            };
            let chosen = clear(true).or_else(|| clear(false)).unwrap_or(&options[0]);
            out.extend(chosen.iter().copied());
        }
        out.push(q);
    }
    drawn.add(&out);
    out
}

/// Whether the jog of corners `c` (the piece between them) keeps clear of
/// the pieces drawn so far.
fn jogs_apart(a: Point, c: &[Point], drawn: &Drawn) -> bool {
    match c {
        [c1, c2] => !drawn.overlaps(*c1, *c2),
        [c1] => !drawn.overlaps(a, *c1),
        _ => true,
    }
}

/// The corner sequences from `a` to `q`, preferred first: a Z along the
/// longer axis with its jog halfway, then a third and two thirds of the
/// way (room for two edges' jogs in one gap), the two Ls, a Z along the
/// shorter axis.
fn corners(a: Point, q: Point) -> Vec<Vec<Point>> {
    let p = |x: f32, y: f32| Point { x, y };
    let down = |t: f32| vec![p(a.x, a.y + (q.y - a.y) * t), p(q.x, a.y + (q.y - a.y) * t)];
    let across = |t: f32| vec![p(a.x + (q.x - a.x) * t, a.y), p(a.x + (q.x - a.x) * t, q.y)];
    let longer_down = (q.y - a.y).abs() >= (q.x - a.x).abs();
    let z = |go_down: bool, t: f32| if go_down { down(t) } else { across(t) };
    vec![
        z(longer_down, 0.5),
        z(longer_down, 1.0 / 3.0),
        z(longer_down, 2.0 / 3.0),
        vec![p(a.x, q.y)],
        vec![p(q.x, a.y)],
        z(!longer_down, 0.5),
    ]
}

/// Whether the path `a`, `corners`…, `q` enters no obstacle.
fn path_clear(a: Point, corners: &[Point], q: Point, walls: &Obstacles) -> bool {
    let mut from = a;
    for &to in corners.iter().chain(std::iter::once(&q)) {
        if walls.blocks(from, to) {
            return false;
        }
        from = to;
    }
    true
}

fn dist(a: Point, b: Point) -> f32 {
    ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt()
}

fn shrink(r: &Rect) -> Rect {
    Rect {
        x: r.x + INSET,
        y: r.y + INSET,
        width: (r.width - 2.0 * INSET).max(0.0),
        height: (r.height - 2.0 * INSET).max(0.0),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_second_jog_in_one_gap_keeps_apart_from_the_first() {
        let mut drawn = Drawn::default();
        let first = orthogonal(&[p(0.0, 0.0), p(90.0, 120.0)], &nodes(&[]), &mut drawn);
        let second = orthogonal(&[p(10.0, 0.0), p(100.0, 120.0)], &nodes(&[]), &mut drawn);
        assert_eq!(first[1].y, 60.0);
        assert!((second[1].y - 40.0).abs() < 0.01, "the jog moves to a third of the gap: {second:?}");
    }

    use super::*;

    fn p(x: f32, y: f32) -> Point {
        Point { x, y }
    }

    /// Nodes `boxes` and no labels.
    fn nodes(boxes: &[Rect]) -> Obstacles<'_> {
        Obstacles { boxes, labels: &[], own: None }
    }

    fn right_angled(pts: &[Point]) -> bool {
        pts.windows(2).all(|w| (w[0].x - w[1].x).abs() < ALIGNED || (w[0].y - w[1].y).abs() < ALIGNED)
    }

    #[test]
    fn a_diagonal_becomes_a_z_with_the_jog_halfway() {
        let out = orthogonal(&[p(0.0, 0.0), p(40.0, 100.0)], &nodes(&[]), &mut Drawn::default());
        assert_eq!(out, vec![p(0.0, 0.0), p(0.0, 50.0), p(40.0, 50.0), p(40.0, 100.0)]);
        let out = orthogonal(&[p(0.0, 0.0), p(100.0, 40.0)], &nodes(&[]), &mut Drawn::default());
        assert_eq!(out, vec![p(0.0, 0.0), p(50.0, 0.0), p(50.0, 40.0), p(100.0, 40.0)]);
    }

    #[test]
    fn a_node_in_the_way_takes_the_next_shape_and_points_are_kept() {
        // The Z's jog at y = 50 would cross this box; the L round it is clear.
        let node = shrink(&Rect { x: 10.0, y: 40.0, width: 20.0, height: 20.0 });
        let pts = [p(0.0, 0.0), p(0.0, 0.0), p(40.0, 100.0), p(40.0, 110.0)];
        let out = orthogonal(&pts, &nodes(&[node]), &mut Drawn::default());
        assert!(right_angled(&out), "{out:?}");
        assert!(out.windows(2).all(|w| node.clip_segment(w[0], w[1]).is_none()), "{out:?}");
        for q in [p(0.0, 0.0), p(40.0, 100.0), p(40.0, 110.0)] {
            assert!(out.contains(&q), "{q:?} kept");
        }
    }

    #[test]
    fn a_jog_keeps_clear_of_another_edges_label_but_not_of_its_own() {
        // The halfway jog (y = 50) and the third's descent (x = 40) would
        // cross the label; two thirds of the way (y = 66.7) pass under it.
        let label = Rect { x: 30.0, y: 40.0, width: 20.0, height: 20.0 };
        let labels = [None, Some(label)];
        let pts = [p(0.0, 0.0), p(40.0, 100.0)];
        let other = Obstacles { boxes: &[], labels: &labels, own: Some(0) };
        let out = orthogonal(&pts, &other, &mut Drawn::default());
        assert!((out[1].y - 200.0 / 3.0).abs() < 0.01, "{out:?}");
        assert!(out.windows(2).all(|w| label.clip_segment(w[0], w[1]).is_none()), "{out:?}");
        let own = Obstacles { boxes: &[], labels: &labels, own: Some(1) };
        assert_eq!(orthogonal(&pts, &own, &mut Drawn::default())[1].y, 50.0);
    }

    #[test]
    fn a_bend_that_only_touches_the_label_is_dropped() {
        // A loop's forward edge: stub, the piece through its label, then a
        // bend below the label that a Z to the target's stub skips.
        let label = Rect { x: 305.86, y: 1693.38, width: 26.1, height: 24.0 };
        let pts = [
            p(340.55, 1668.38),
            p(340.55, 1680.38),
            p(318.91, 1693.38),
            p(318.91, 1717.38),
            p(267.85, 1742.38),
            p(289.85, 1821.97),
            p(289.85, 1829.97),
        ];
        let out = pulled(&pts, Some(label), &nodes(&[]));
        assert!(!out.contains(&p(267.85, 1742.38)), "{out:?}");
        assert!(out.contains(&p(318.91, 1693.38)) && out.contains(&p(318.91, 1717.38)), "label piece kept: {out:?}");
    }
}
