//! Node box sizes from mermaid's shape geometry (flowchart padding 15), and
//! where an edge meets a shape's outline. Render reuses [`shape_size`] so a
//! drawn shape always fills the box layout reserved for it.

use crate::mermaid::Shape;

use super::{Point, Rect};

/// Mermaid's flowchart node padding.
const PAD: f32 = 15.0;

/// Outer size `(width, height)` of `shape` around a label block of
/// `label_w × label_h` (mermaid: a rectangle is the text plus 30 px left and
/// right and 15 px top and bottom; a diamond's side is text width + height
/// + 30; circles are the text width + 30 across, …).
pub fn shape_size(shape: Shape, label_w: f32, label_h: f32) -> (f32, f32) {
    use Shape::*;
    let (tw, th) = (label_w, label_h);
    let h = th + 2.0 * PAD;
    let w = tw + 4.0 * PAD;
    match shape {
        Rect | Rounded | NotchRect | LinRect | StRect | DivRect | WinPane | BowRect | TagRect | SlRect | Brace
        | BraceR | Braces | Delay | Note | CurvTrap => (w, h),
        FrRect => (w + 16.0, h),
        Stadium => (tw + h + 2.0 * PAD, h),
        Circle | State => {
            let d = tw.max(th) + 2.0 * PAD;
            (d, d)
        }
        DblCirc => {
            let d = tw.max(th) + 2.0 * PAD + 10.0;
            (d, d)
        }
        Diam => {
            let s = tw + th + 2.0 * PAD;
            (s, s)
        }
        Choice => (28.0, 28.0),
        Hex => (tw + h / 2.0 + 2.0 * PAD, h),
        LeanR | LeanL | TrapB | TrapT => (tw + h + 2.0 * PAD, h),
        Cyl | Datastore | LinCyl => {
            let cw = tw + 2.0 * PAD;
            let ry = cw / 2.0 / (2.5 + cw / 50.0);
            (cw, h + 2.0 * ry)
        }
        HCyl => {
            let rx = h / 2.0 / (2.5 + h / 50.0);
            (tw + 2.0 * PAD + 2.0 * rx, h)
        }
        Ellipse => (tw * 1.2 + 2.0 * PAD, th * 1.4 + 2.0 * PAD),
        Odd | Flag => (w + h / 4.0, h),
        Text => (tw + 8.0, th + 8.0),
        SmCirc => (14.0, 14.0),
        FrCirc | FCirc | CrossCirc => (20.0, 20.0),
        Fork => (70.0, 10.0),
        Hourglass | Bolt => (tw.max(30.0) + 2.0 * PAD, th.max(30.0) + 2.0 * PAD),
        Doc | TagDoc | LinDoc => (w, h + h / 8.0),
        Docs => (w + 10.0, h + h / 8.0 + 10.0),
        Tri | FlipTri => (tw * 2.0 + th + 2.0 * PAD, (tw + th) + 2.0 * PAD),
        NotchPent => (w + h / 2.0, h),
        Bang | Cloud => (tw + 6.0 * PAD, th + 4.0 * PAD),
        Icon => (tw.max(48.0) + 2.0 * PAD, th + 48.0 + 2.0 * PAD),
        Anchor => (8.0, 8.0),
    }
}

/// The outline family used to clip edge ends.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Outline {
    Box,
    Diamond,
    Ellipse,
}

fn outline(shape: Shape) -> Outline {
    use Shape::*;
    match shape {
        Diam | Choice => Outline::Diamond,
        Circle | DblCirc | SmCirc | FrCirc | FCirc | CrossCirc | Ellipse | State => Outline::Ellipse,
        _ => Outline::Box,
    }
}

/// The outline of `shape` fitted to `rect` as a convex polygon (a box, the
/// four vertices of a diamond, or a 16-gon for ellipses), for the drawn
/// geometry's hit tests.
pub fn outline_polygon(shape: Shape, rect: &Rect) -> Vec<Point> {
    let (x0, y0, w, h) = (rect.x, rect.y, rect.width, rect.height);
    let (cx, cy) = (x0 + w / 2.0, y0 + h / 2.0);
    let p = |x: f32, y: f32| Point { x, y };
    match outline(shape) {
        Outline::Box => vec![p(x0, y0), p(x0 + w, y0), p(x0 + w, y0 + h), p(x0, y0 + h)],
        Outline::Diamond => vec![p(cx, y0), p(x0 + w, cy), p(cx, y0 + h), p(x0, cy)],
        Outline::Ellipse => (0..16)
            .map(|k| {
                let a = k as f32 * std::f32::consts::TAU / 16.0;
                p(cx + w / 2.0 * a.cos(), cy + h / 2.0 * a.sin())
            })
            .collect(),
    }
}

/// Where the segment from the centre of `rect` towards `toward` leaves the
/// outline of `shape` (so arrowheads touch the drawn shape). Returns
/// `toward` itself when it is inside or on the outline.
pub fn clip(shape: Shape, rect: &Rect, toward: Point) -> Point {
    let c = Point { x: rect.x + rect.width / 2.0, y: rect.y + rect.height / 2.0 };
    let (dx, dy) = (toward.x - c.x, toward.y - c.y);
    let (hw, hh) = (rect.width / 2.0, rect.height / 2.0);
    if (dx == 0.0 && dy == 0.0) || hw <= 0.0 || hh <= 0.0 {
        return c;
    }
    // Parameter t along (dx, dy) at which the outline is met.
    let t = match outline(shape) {
        Outline::Box => (hw / dx.abs()).min(hh / dy.abs()),
        Outline::Diamond => 1.0 / (dx.abs() / hw + dy.abs() / hh),
        Outline::Ellipse => 1.0 / ((dx / hw).powi(2) + (dy / hh).powi(2)).sqrt(),
    };
    if t >= 1.0 {
        return toward;
    }
    Point { x: c.x + dx * t, y: c.y + dy * t }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mermaid_rect_and_diamond_sizes() {
        // One 24 px line: a 54 px high box, 60 px wider than the text.
        assert_eq!(shape_size(Shape::Rect, 33.8, 24.0), (93.8, 54.0));
        // "Is x < 0?" in mermaid: text 60.92 wide → a 114.92 px diamond.
        let (w, h) = shape_size(Shape::Diam, 60.921875, 24.0);
        assert!((w - 114.921875).abs() < 1e-3 && w == h);
    }

    #[test]
    fn every_shape_contains_its_label() {
        for s in [
            Shape::Rect,
            Shape::Circle,
            Shape::Diam,
            Shape::Hex,
            Shape::Cyl,
            Shape::Stadium,
            Shape::LeanR,
            Shape::Doc,
            Shape::Text,
        ] {
            let (w, h) = shape_size(s, 80.0, 24.0);
            assert!(w >= 80.0 && h >= 24.0, "{s:?}");
        }
    }

    #[test]
    fn clipping_hits_outlines() {
        let r = Rect { x: 0.0, y: 0.0, width: 100.0, height: 100.0 };
        let below = Point { x: 50.0, y: 500.0 };
        assert_eq!(clip(Shape::Rect, &r, below), Point { x: 50.0, y: 100.0 });
        assert_eq!(clip(Shape::Diam, &r, below), Point { x: 50.0, y: 100.0 });
        let diag = clip(Shape::Diam, &r, Point { x: 150.0, y: 150.0 });
        assert!((diag.x - 75.0).abs() < 1e-3 && (diag.y - 75.0).abs() < 1e-3);
        let e = clip(Shape::Circle, &r, Point { x: 150.0, y: 150.0 });
        assert!(((e.x - 50.0).powi(2) + (e.y - 50.0).powi(2)).sqrt() - 50.0 < 1e-3);
        assert_eq!(clip(Shape::Rect, &r, Point { x: 60.0, y: 60.0 }), Point { x: 60.0, y: 60.0 });
    }
}
