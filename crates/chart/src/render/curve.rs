//! Edge paths: the drawn segments of `layout::curve` written as SVG path
//! data, so our curves have mermaid's characteristic shape and the layout
//! metrics measure exactly what is written here.

use crate::layout::Point;
pub use crate::layout::curve::{Curve, drawn_polyline, shorten};
use crate::layout::curve::{Seg, segments};

use super::xml::N;

/// SVG path data for `points` with curve `c`.
pub fn path(points: &[Point], c: Curve) -> String {
    let mut d = String::with_capacity(points.len() * 40);
    let Some(first) = points.first() else { return d };
    N::push_cmd(&mut d, 'M', &[first.x, first.y]);
    for s in segments(points, c) {
        match s {
            Seg::Line(p) => N::push_cmd(&mut d, 'L', &[p.x, p.y]),
            Seg::Cubic(a, b, p) => N::push_cmd(&mut d, 'C', &[a.x, a.y, b.x, b.y, p.x, p.y]),
        }
    }
    d
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
