//! Edge paths: the layout's polyline → SVG path data, interpolated the way
//! d3 does for mermaid (`basis` by default, `linear`, `step*`, …), so our
//! curves have mermaid's characteristic shape.

use std::fmt::Write;

use crate::layout::Point;

use super::xml::N;

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

/// SVG path data for `points` with curve `c`.
pub fn path(points: &[Point], c: Curve) -> String {
    let mut d = String::with_capacity(points.len() * 40);
    let Some(first) = points.first() else { return d };
    N::push_cmd(&mut d, 'M', &[first.x, first.y]);
    let straight = points.len() == 2 && matches!(c, Curve::Basis | Curve::CatmullRom);
    if straight || c == Curve::Linear {
        for p in &points[1..] {
            N::push_cmd(&mut d, 'L', &[p.x, p.y]);
        }
        return d;
    }
    match c {
        Curve::Basis => basis(&mut d, points),
        Curve::Step | Curve::StepBefore | Curve::StepAfter => {
            let t = match c {
                Curve::StepBefore => 0.0,
                Curve::StepAfter => 1.0,
                _ => 0.5,
            };
            step(&mut d, points, t)
        }
        Curve::CatmullRom => catmull_rom(&mut d, points),
        Curve::Linear => {}
    }
    d
}

/// d3's `curveBasis`, transcribed point for point so our paths match
/// mermaid's (`L` to the first sixth, cubic segments, `L` to the end).
fn basis(d: &mut String, pts: &[Point]) {
    let (mut x0, mut y0) = (pts[0].x, pts[0].y);
    let (mut x1, mut y1) = (pts[1].x, pts[1].y);
    let bez = |d: &mut String, x0: f32, y0: f32, x1: f32, y1: f32, x: f32, y: f32| {
        let c = [
            (2.0 * x0 + x1) / 3.0,
            (2.0 * y0 + y1) / 3.0,
            (x0 + 2.0 * x1) / 3.0,
            (y0 + 2.0 * y1) / 3.0,
            (x0 + 4.0 * x1 + x) / 6.0,
            (y0 + 4.0 * y1 + y) / 6.0,
        ];
        N::push_cmd(d, 'C', &c);
    };
    N::push_cmd(d, 'L', &[(5.0 * x0 + x1) / 6.0, (5.0 * y0 + y1) / 6.0]);
    for p in &pts[2..] {
        bez(d, x0, y0, x1, y1, p.x, p.y);
        (x0, y0, x1, y1) = (x1, y1, p.x, p.y);
    }
    bez(d, x0, y0, x1, y1, x1, y1);
    N::push_cmd(d, 'L', &[x1, y1]);
}

/// d3's `curveStep` family: `t` is where along x the vertical jump happens.
fn step(d: &mut String, pts: &[Point], t: f32) {
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        if t <= 0.0 {
            let _ = write!(d, "L{},{}L{},{}", N(a.x), N(b.y), N(b.x), N(b.y));
        } else {
            let xm = a.x * (1.0 - t) + b.x * t;
            let _ = write!(d, "L{},{}L{},{}", N(xm), N(a.y), N(xm), N(b.y));
            if t < 1.0 {
                let _ = write!(d, "L{},{}", N(b.x), N(b.y));
            }
        }
    }
}

/// Uniform Catmull–Rom through every point, as cubic Béziers.
fn catmull_rom(d: &mut String, pts: &[Point]) {
    let n = pts.len();
    for i in 0..n - 1 {
        let p0 = pts[i.saturating_sub(1)];
        let p1 = pts[i];
        let p2 = pts[i + 1];
        let p3 = pts[(i + 2).min(n - 1)];
        let _ = write!(
            d,
            "C{},{},{},{},{},{}",
            N(p1.x + (p2.x - p0.x) / 6.0),
            N(p1.y + (p2.y - p0.y) / 6.0),
            N(p2.x - (p3.x - p1.x) / 6.0),
            N(p2.y - (p3.y - p1.y) / 6.0),
            N(p2.x),
            N(p2.y)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f32, y: f32) -> Point {
        Point { x, y }
    }

    #[test]
    fn basis_matches_mermaid_output() {
        // mermaid-cli's palindrome.default.svg, edge L_A_B_0 (after its 4 px
        // arrow shortening): points (448,62) (448,87) (448,108).
        let d = path(&[p(448.0, 62.0), p(448.0, 87.0), p(448.0, 108.0)], Curve::Basis);
        assert_eq!(d, "M448,62L448,66.17C448,70.33,448,78.67,448,86.33C448,94,448,101,448,104.5L448,108");
    }

    #[test]
    fn shorten_moves_end_back() {
        let mut pts = [p(0.0, 0.0), p(0.0, 100.0)];
        shorten(&mut pts, 4.0, false);
        assert_eq!(pts[1], p(0.0, 96.0));
        shorten(&mut pts, 4.0, true);
        assert_eq!(pts[0], p(0.0, 4.0));
    }

    #[test]
    fn linear_and_step() {
        let pts = [p(0.0, 0.0), p(10.0, 10.0), p(20.0, 0.0)];
        assert_eq!(path(&pts, Curve::Linear), "M0,0L10,10L20,0");
        assert_eq!(path(&pts[..2], Curve::Step), "M0,0L5,0L5,10L10,10");
        assert_eq!(path(&pts[..2], Curve::Basis), "M0,0L10,10");
        assert_eq!(path(&pts, Curve::StepAfter), "M0,0L10,0L10,10L20,10L20,0");
        assert_eq!(Curve::parse("stepBefore"), Some(Curve::StepBefore));
        assert_eq!(Curve::parse("zigzag"), None);
    }
}
