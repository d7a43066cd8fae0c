//! Edge curves as they are drawn: the layout's polyline, pulled back at
//! arrow ends and interpolated the way d3 does for mermaid (`basis` by
//! default, `linear`, `step*`, …). Render writes these segments as SVG path
//! data and the layout metrics flatten the very same segments, so quality
//! figures measure the curve the reader sees, not the routing polyline.

use super::Point;
use crate::mermaid::{ArrowHead, Flowchart};

/// Curve interpolation, named as in mermaid's `flowchart.curve` config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Curve {
    /// d3 `curveBasis` (uniform B-spline), mermaid's default.
    #[default]
    Basis,
    Linear,
    /// Right angles halfway between points.
    Step,
    StepBefore,
    StepAfter,
    /// Catmull–Rom through every point (alpha 0.5 in d3; we use the uniform form).
    CatmullRom,
}

impl Curve {
    /// Parse mermaid's names; unknown names fall back to `None` so callers can
    /// report or default as they see fit.
    pub fn parse(name: &str) -> Option<Curve> {
        Some(match name.trim() {
            "basis" | "bumpX" | "bumpY" | "bundle" | "natural" | "monotoneX" | "monotoneY" => Curve::Basis,
            "linear" => Curve::Linear,
            "step" => Curve::Step,
            "stepBefore" => Curve::StepBefore,
            "stepAfter" => Curve::StepAfter,
            "cardinal" | "catmullRom" => Curve::CatmullRom,
            _ => return None,
        })
    }

    /// The curve edge `i` of `chart` is drawn with: its own `interpolate`,
    /// else the chart's `linkStyle default interpolate`, else `default`.
    pub fn for_edge(chart: &Flowchart, i: usize, default: Curve) -> Curve {
        let fallback = chart.default_interpolate.as_deref().and_then(Curve::parse).unwrap_or(default);
        chart.edges.get(i).and_then(|e| e.interpolate.as_deref()).and_then(Curve::parse).unwrap_or(fallback)
    }
}

/// How far the path is pulled back at an arrow end so the marker's tip,
/// which extends past the path end, lands on the shape border (mermaid's
/// `markerOffsets.arrow_point`).
pub const ARROW_INSET: f32 = 4.0;

/// One piece of a drawn path after its starting point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Seg {
    Line(Point),
    /// Cubic Bézier: two control points, then the end point.
    Cubic(Point, Point, Point),
}

/// Move the first (`at_start`) or last point `by` units back along its
/// segment, so a marker drawn at the end lands its tip on the shape border
/// (mermaid shortens arrow ends by 4 px for the same reason).
pub fn shorten(points: &mut [Point], by: f32, at_start: bool) {
    let n = points.len();
    if n < 2 || by <= 0.0 {
        return;
    }
    let (end, prev) = if at_start { (0, 1) } else { (n - 1, n - 2) };
    let dx = points[end].x - points[prev].x;
    let dy = points[end].y - points[prev].y;
    let len = (dx * dx + dy * dy).sqrt();
    if len <= by + 0.5 {
        return;
    }
    points[end].x -= dx / len * by;
    points[end].y -= dy / len * by;
}

/// The polyline of edge `i` as the path is written: pulled back by
/// [`ARROW_INSET`] at each arrow end.
pub fn drawn_polyline(chart: &Flowchart, i: usize, points: &[Point]) -> Vec<Point> {
    let mut pts = points.to_vec();
    if let Some(edge) = chart.edges.get(i) {
        if edge.head_end == ArrowHead::Arrow {
            shorten(&mut pts, ARROW_INSET, false);
        }
        if edge.head_start == ArrowHead::Arrow {
            shorten(&mut pts, ARROW_INSET, true);
        }
    }
    pts
}

/// The path through `points` with curve `c`, as segments after the first
/// point.
pub fn segments(points: &[Point], c: Curve) -> Vec<Seg> {
    let mut out = Vec::with_capacity(points.len() + 2);
    if points.len() < 2 {
        return out;
    }
    let straight = points.len() == 2 && matches!(c, Curve::Basis | Curve::CatmullRom);
    if straight || c == Curve::Linear {
        out.extend(points[1..].iter().map(|&p| Seg::Line(p)));
        return out;
    }
    match c {
        Curve::Basis => basis(&mut out, points),
        Curve::Step => step(&mut out, points, 0.5),
        Curve::StepBefore => step(&mut out, points, 0.0),
        Curve::StepAfter => step(&mut out, points, 1.0),
        Curve::CatmullRom => catmull_rom(&mut out, points),
        Curve::Linear => {}
    }
    out
}

fn p(x: f32, y: f32) -> Point {
    Point { x, y }
}

/// d3's `curveBasis`, transcribed point for point so our paths match
/// mermaid's (`L` to the first sixth, cubic segments, `L` to the end).
fn basis(out: &mut Vec<Seg>, pts: &[Point]) {
    let (mut a, mut b) = (pts[0], pts[1]);
    let bez = |a: Point, b: Point, c: Point| {
        Seg::Cubic(
            p((2.0 * a.x + b.x) / 3.0, (2.0 * a.y + b.y) / 3.0),
            p((a.x + 2.0 * b.x) / 3.0, (a.y + 2.0 * b.y) / 3.0),
            p((a.x + 4.0 * b.x + c.x) / 6.0, (a.y + 4.0 * b.y + c.y) / 6.0),
        )
    };
    out.push(Seg::Line(p((5.0 * a.x + b.x) / 6.0, (5.0 * a.y + b.y) / 6.0)));
    for &c in &pts[2..] {
        out.push(bez(a, b, c));
        (a, b) = (b, c);
    }
    out.push(bez(a, b, b));
    out.push(Seg::Line(b));
}

/// d3's `curveStep` family: `t` is where along x the vertical jump happens.
fn step(out: &mut Vec<Seg>, pts: &[Point], t: f32) {
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        if t <= 0.0 {
            out.extend([Seg::Line(p(a.x, b.y)), Seg::Line(b)]);
        } else {
            let xm = a.x * (1.0 - t) + b.x * t;
            out.extend([Seg::Line(p(xm, a.y)), Seg::Line(p(xm, b.y))]);
            if t < 1.0 {
                out.push(Seg::Line(b));
            }
        }
    }
}

/// Uniform Catmull–Rom through every point, as cubic Béziers.
fn catmull_rom(out: &mut Vec<Seg>, pts: &[Point]) {
    let n = pts.len();
    for i in 0..n - 1 {
        let (p0, p1, p2, p3) = (pts[i.saturating_sub(1)], pts[i], pts[i + 1], pts[(i + 2).min(n - 1)]);
        out.push(Seg::Cubic(
            p(p1.x + (p2.x - p0.x) / 6.0, p1.y + (p2.y - p0.y) / 6.0),
            p(p2.x - (p3.x - p1.x) / 6.0, p2.y - (p3.y - p1.y) / 6.0),
            p2,
        ));
    }
}

/// Flattens a path (start point and segments) into a polyline whose pieces
/// are at most `step` long, so hit tests on it see the drawn curve.
pub fn flatten(start: Point, segs: &[Seg], step: f32) -> Vec<Point> {
    let mut out = vec![start];
    let mut cur = start;
    let dist = |a: Point, b: Point| ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt();
    for s in segs {
        match *s {
            Seg::Line(q) => {
                let n = (dist(cur, q) / step).ceil().max(1.0) as usize;
                for k in 1..=n {
                    let t = k as f32 / n as f32;
                    out.push(p(cur.x + (q.x - cur.x) * t, cur.y + (q.y - cur.y) * t));
                }
                cur = q;
            }
            Seg::Cubic(c1, c2, q) => {
                let hull = dist(cur, c1) + dist(c1, c2) + dist(c2, q);
                let n = (hull / step).ceil().clamp(1.0, 512.0) as usize;
                for k in 1..=n {
                    let t = k as f32 / n as f32;
                    let u = 1.0 - t;
                    let (w0, w1, w2, w3) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                    out.push(p(
                        w0 * cur.x + w1 * c1.x + w2 * c2.x + w3 * q.x,
                        w0 * cur.y + w1 * c1.y + w2 * c2.y + w3 * q.y,
                    ));
                }
                cur = q;
            }
        }
    }
    out
}

/// The drawn curve of edge `i` (routed through `points`) flattened to
/// pieces of at most `step` units.
pub fn drawn_curve(chart: &Flowchart, i: usize, points: &[Point], default: Curve, step: f32) -> Vec<Point> {
    let pts = drawn_polyline(chart, i, points);
    if pts.len() < 2 {
        return pts;
    }
    flatten(pts[0], &segments(&pts, Curve::for_edge(chart, i, default)), step)
}
