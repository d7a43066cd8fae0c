//! `routing = "orthogonal"`: every edge drawn in right angles, as ELK's
//! orthogonal router and Graphviz's `splines=ortho` draw them, over the
//! same layered layout (the graph and the node places do not change).
//!
//! # How it works
//!
//! The finished polyline keeps every point (attach points, the stubs that
//! leave along a side's normal, the points the edge label sits on), and
//! each piece between two points that is not already horizontal or
//! vertical gets corners: a Z along its longer axis with the jog halfway
//! (in a layered drawing, in the free gap between two ranks), else an L
//! either way, else a Z the other way; the first of these whose pieces
//! enter no node is taken. Drawn with straight segments, the last piece is
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
    for e in &mut g.edges {
        e.points = orthogonal(&e.points, &boxes);
    }
}

/// `points` with corners added so each piece is horizontal or vertical.
fn orthogonal(points: &[Point], boxes: &[Rect]) -> Vec<Point> {
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
            let clear = options.iter().find(|c| path_clear(a, c, q, boxes));
            out.extend(clear.unwrap_or(&options[0]).iter().copied());
        }
        out.push(q);
    }
    out
}

/// The corner sequences from `a` to `q`, preferred first: a Z along the
/// longer axis, the two Ls, a Z along the shorter axis.
fn corners(a: Point, q: Point) -> [Vec<Point>; 4] {
    let (mx, my) = ((a.x + q.x) / 2.0, (a.y + q.y) / 2.0);
    let p = |x: f32, y: f32| Point { x, y };
    let down_z = vec![p(a.x, my), p(q.x, my)];
    let across_z = vec![p(mx, a.y), p(mx, q.y)];
    let (first, last) = if (q.y - a.y).abs() >= (q.x - a.x).abs() { (down_z, across_z) } else { (across_z, down_z) };
    [first, vec![p(a.x, q.y)], vec![p(q.x, a.y)], last]
}

/// Whether the path `a`, `corners`…, `q` enters no box.
fn path_clear(a: Point, corners: &[Point], q: Point, boxes: &[Rect]) -> bool {
    let mut from = a;
    for &to in corners.iter().chain(std::iter::once(&q)) {
        if boxes.iter().any(|b| b.width > 0.0 && b.height > 0.0 && b.clip_segment(from, to).is_some()) {
            return false;
        }
        from = to;
    }
    true
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
    use super::*;

    fn p(x: f32, y: f32) -> Point {
        Point { x, y }
    }

    fn right_angled(pts: &[Point]) -> bool {
        pts.windows(2).all(|w| (w[0].x - w[1].x).abs() < ALIGNED || (w[0].y - w[1].y).abs() < ALIGNED)
    }

    #[test]
    fn a_diagonal_becomes_a_z_with_the_jog_halfway() {
        let out = orthogonal(&[p(0.0, 0.0), p(40.0, 100.0)], &[]);
        assert_eq!(out, vec![p(0.0, 0.0), p(0.0, 50.0), p(40.0, 50.0), p(40.0, 100.0)]);
        let out = orthogonal(&[p(0.0, 0.0), p(100.0, 40.0)], &[]);
        assert_eq!(out, vec![p(0.0, 0.0), p(50.0, 0.0), p(50.0, 40.0), p(100.0, 40.0)]);
    }

    #[test]
    fn a_node_in_the_way_takes_the_next_shape_and_points_are_kept() {
        // The Z's jog at y = 50 would cross this box; the L round it is clear.
        let node = shrink(&Rect { x: 10.0, y: 40.0, width: 20.0, height: 20.0 });
        let pts = [p(0.0, 0.0), p(0.0, 0.0), p(40.0, 100.0), p(40.0, 110.0)];
        let out = orthogonal(&pts, &[node]);
        assert!(right_angled(&out), "{out:?}");
        assert!(out.windows(2).all(|w| node.clip_segment(w[0], w[1]).is_none()), "{out:?}");
        for q in [p(0.0, 0.0), p(40.0, 100.0), p(40.0, 110.0)] {
            assert!(out.contains(&q), "{q:?} kept");
        }
    }
}
