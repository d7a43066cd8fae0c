//! Node outlines with mermaid's geometry, fitted to the bounding box the
//! layout reserved for the shape.
//!
//! Mermaid v11 draws most new shapes through rough.js (long jittery paths);
//! we emit the same outlines as clean paths, which look identical in the
//! classic look and are a fraction of the size.

use std::fmt::Write;

use crate::layout::Rect;
use crate::mermaid::Shape;

use super::xml::N;

/// Paint attributes for one shape, prepared by the writer.
pub struct Paint<'a> {
    /// Attributes of the filled outline (`fill=… stroke=… style=…`).
    pub body: &'a str,
    /// Attributes for decoration strokes drawn without fill.
    pub line: &'a str,
    /// Attributes for glyph shapes mermaid fills with the line colour.
    pub solid: &'a str,
}

/// Tiny path builder so shape code reads like geometry.
struct P(String);

impl P {
    fn new() -> P {
        P(String::with_capacity(128))
    }
    fn m(mut self, x: f32, y: f32) -> P {
        let _ = write!(self.0, "M{},{}", N(x), N(y));
        self
    }
    fn l(mut self, x: f32, y: f32) -> P {
        let _ = write!(self.0, "L{},{}", N(x), N(y));
        self
    }
    fn q(mut self, cx: f32, cy: f32, x: f32, y: f32) -> P {
        let _ = write!(self.0, "Q{},{},{},{}", N(cx), N(cy), N(x), N(y));
        self
    }
    fn t(mut self, x: f32, y: f32) -> P {
        let _ = write!(self.0, "T{},{}", N(x), N(y));
        self
    }
    fn a(mut self, rx: f32, ry: f32, sweep: bool, x: f32, y: f32) -> P {
        let _ = write!(self.0, "A{},{} 0 0 {} {},{}", N(rx), N(ry), u8::from(sweep), N(x), N(y));
        self
    }
    fn z(mut self) -> P {
        self.0.push('Z');
        self
    }
    fn poly(pts: &[(f32, f32)]) -> P {
        let mut p = P::new();
        for (i, &(x, y)) in pts.iter().enumerate() {
            p = if i == 0 { p.m(x, y) } else { p.l(x, y) };
        }
        p.z()
    }
}

fn path(out: &mut String, d: P, attrs: &str) {
    let _ = write!(out, r#"<path d="{}" {attrs}/>"#, d.0);
}

fn rect(out: &mut String, r: Rect, rx: f32, attrs: &str) {
    let _ = write!(out, r#"<rect x="{}" y="{}" width="{}" height="{}""#, N(r.x), N(r.y), N(r.width), N(r.height));
    if rx > 0.0 {
        let _ = write!(out, r#" rx="{}" ry="{}""#, N(rx), N(rx));
    }
    let _ = write!(out, " {attrs}/>");
}

fn circle(out: &mut String, cx: f32, cy: f32, r: f32, attrs: &str) {
    let _ = write!(out, r#"<circle cx="{}" cy="{}" r="{}" {attrs}/>"#, N(cx), N(cy), N(r));
}

/// Wave amplitude used by document-like shapes (also shifts their label).
fn wave(r: Rect) -> f32 {
    (r.height / 10.0).min(10.0)
}

/// Cylinder cap radius (mermaid: `ry = rx / (2.5 + w / 50)`), capped so a
/// squat box still has a body.
fn cyl_ry(w: f32, h: f32) -> f32 {
    let rx = w / 2.0;
    (rx / (2.5 + w / 50.0)).min(h / 4.0)
}

/// Shapes mermaid draws without their label (start/stop dots, junction,
/// fork bar, anchor point, summing junction).
pub fn is_glyph(shape: Shape) -> bool {
    matches!(shape, Shape::SmCirc | Shape::FrCirc | Shape::FCirc | Shape::Fork | Shape::Anchor | Shape::CrossCirc)
}

/// Offset of the label centre from the box centre, for shapes whose text
/// area is not centred (cylinder body, document above its wave, stacks).
pub fn label_offset(shape: Shape, r: Rect) -> (f32, f32) {
    use Shape::*;
    match shape {
        Cyl | LinCyl => (0.0, cyl_ry(r.width, r.height) / 2.0),
        Doc | LinDoc | TagDoc | Flag => (0.0, -wave(r) / 2.0),
        Docs | StRect => (-5.0, 5.0),
        HCyl => (-(r.height / 2.0 / (2.5 + r.height / 50.0)) / 2.0, 0.0),
        LinRect | WinPane => (4.0, 0.0),
        DivRect => (0.0, r.height * 0.1),
        Tri => (0.0, r.height / 6.0),
        FlipTri => (0.0, -r.height / 6.0),
        _ => (0.0, 0.0),
    }
}

/// Write the outline of `shape` filling bounding box `r`.
pub fn draw(out: &mut String, shape: Shape, r: Rect, paint: &Paint<'_>) {
    use Shape::*;
    let (x, y, w, h) = (r.x, r.y, r.width, r.height);
    let (rt, b) = (x + w, y + h);
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let body = paint.body;
    match shape {
        Rect | Note => rect(out, r, 0.0, body),
        Rounded | State => rect(out, r, 5.0, body),
        Stadium => rect(out, r, h.min(w) / 2.0, body),
        FrRect => {
            rect(out, r, 0.0, body);
            let d = P::new().m(x + 8.0, y).l(x + 8.0, b).m(rt - 8.0, y).l(rt - 8.0, b);
            path(out, d, paint.line);
        }
        LinRect => {
            rect(out, r, 0.0, body);
            path(out, P::new().m(x + 8.0, y).l(x + 8.0, b), paint.line);
        }
        WinPane => {
            rect(out, r, 0.0, body);
            path(out, P::new().m(x + 8.0, y).l(x + 8.0, b).m(x, y + 8.0).l(rt, y + 8.0), paint.line);
        }
        DivRect => {
            rect(out, r, 0.0, body);
            path(out, P::new().m(x, y + h * 0.2).l(rt, y + h * 0.2), paint.line);
        }
        TagRect => {
            rect(out, r, 0.0, body);
            let t = (h * 0.25).min(w * 0.2);
            path(out, P::poly(&[(rt - t, b), (rt, b), (rt, b - t)]), paint.solid);
        }
        Cyl | LinCyl => {
            let ry = cyl_ry(w, h);
            let rx = w / 2.0;
            let d = P::new()
                .m(x, y + ry)
                .a(rx, ry, false, rt, y + ry)
                .a(rx, ry, false, x, y + ry)
                .l(x, b - ry)
                .a(rx, ry, false, rt, b - ry)
                .l(rt, y + ry);
            path(out, d, body);
            if shape == LinCyl {
                let off = ry + h * 0.1;
                path(out, P::new().m(x, y + off).a(rx, ry, false, rt, y + off), paint.line);
            }
        }
        HCyl => {
            let ry = h / 2.0;
            let rx = (ry / (2.5 + h / 50.0)).min(w / 4.0);
            let d = P::new()
                .m(x + rx, y)
                .l(rt - rx, y)
                .a(rx, ry, true, rt - rx, b)
                .l(x + rx, b)
                .a(rx, ry, true, x + rx, y)
                .z();
            path(out, d, body);
            path(out, P::new().m(rt - rx, y).a(rx, ry, false, rt - rx, b), paint.line);
        }
        Datastore => {
            rect(out, r, 0.0, &format!("{body} stroke-opacity=\"0\""));
            path(out, P::new().m(x, y).l(rt, y).m(x, b).l(rt, b), paint.line);
        }
        Circle | SmCirc => circle(out, cx, cy, w.min(h) / 2.0, body),
        DblCirc => {
            circle(out, cx, cy, w.min(h) / 2.0, body);
            circle(out, cx, cy, (w.min(h) / 2.0 - 5.0).max(1.0), body);
        }
        FrCirc => {
            let rad = w.min(h) / 2.0;
            circle(out, cx, cy, rad, body);
            circle(out, cx, cy, rad * 0.6, paint.solid);
        }
        FCirc => circle(out, cx, cy, w.min(h) / 2.0, paint.solid),
        CrossCirc => {
            let rad = w.min(h) / 2.0;
            circle(out, cx, cy, rad, body);
            let k = rad * std::f32::consts::FRAC_1_SQRT_2;
            let d = P::new().m(cx - k, cy - k).l(cx + k, cy + k).m(cx + k, cy - k).l(cx - k, cy + k);
            path(out, d, paint.line);
        }
        Ellipse => {
            let _ = write!(
                out,
                r#"<ellipse cx="{}" cy="{}" rx="{}" ry="{}" {body}/>"#,
                N(cx),
                N(cy),
                N(w / 2.0),
                N(h / 2.0)
            );
        }
        Diam | Choice => path(out, P::poly(&[(cx, y), (rt, cy), (cx, b), (x, cy)]), body),
        Hex => {
            let m = (h / 4.0).min(w / 3.0);
            path(out, P::poly(&[(x + m, y), (rt - m, y), (rt, cy), (rt - m, b), (x + m, b), (x, cy)]), body);
        }
        LeanR | LeanL | TrapB | TrapT => {
            let s = (h / 2.0).min(w / 3.0);
            let pts = match shape {
                LeanR => [(x, b), (rt - s, b), (rt, y), (x + s, y)],
                LeanL => [(x + s, b), (rt, b), (rt - s, y), (x, y)],
                TrapB => [(x, b), (rt, b), (rt - s, y), (x + s, y)],
                _ => [(x, y), (rt, y), (rt - s, b), (x + s, b)],
            };
            path(out, P::poly(&pts), body);
        }
        Odd => {
            let s = (h / 2.0).min(w / 3.0);
            path(out, P::poly(&[(x, y), (rt, y), (rt, b), (x, b), (x + s, cy)]), body);
        }
        NotchRect => {
            let c = 12f32.min(w / 3.0).min(h / 3.0);
            path(out, P::poly(&[(x + c, y), (rt, y), (rt, b), (x, b), (x, y + c)]), body);
        }
        NotchPent => {
            let c = (h / 4.0).min(w / 4.0);
            path(out, P::poly(&[(x + c, y), (rt - c, y), (rt, y + c), (rt, b), (x, b), (x, y + c)]), body);
        }
        SlRect => {
            let s = h / 4.0;
            path(out, P::poly(&[(x, y + s), (rt, y), (rt, b), (x, b)]), body);
        }
        Fork => rect(out, r, 0.0, paint.solid),
        Hourglass => path(out, P::poly(&[(x, y), (rt, y), (x, b), (rt, b)]), body),
        Tri => path(out, P::poly(&[(cx, y), (rt, b), (x, b)]), body),
        FlipTri => path(out, P::poly(&[(x, y), (rt, y), (cx, b)]), body),
        Delay => {
            let rr = (h / 2.0).min(w / 2.0);
            let d = P::new().m(x, y).l(rt - rr, y).a(rr, h / 2.0, true, rt - rr, b).l(x, b).z();
            path(out, d, body);
        }
        CurvTrap => {
            let s = (h / 4.0).min(w / 4.0);
            let rr = (h / 2.0).min(w / 4.0);
            let d = P::new().m(x, cy).l(x + s, y).l(rt - rr, y).a(rr, h / 2.0, true, rt - rr, b).l(x + s, b).z();
            path(out, d, body);
        }
        BowRect => {
            let rr = (h / 4.0).min(w / 6.0);
            let d = P::new()
                .m(x + rr, y)
                .l(rt, y)
                .a(rr, h / 2.0, false, rt, b)
                .l(x + rr, b)
                .a(rr, h / 2.0, true, x + rr, y)
                .z();
            path(out, d, body);
        }
        Doc | LinDoc | TagDoc => {
            path(out, doc(r), body);
            if shape == LinDoc {
                path(out, P::new().m(x + 8.0, y).l(x + 8.0, b - wave(r)), paint.line);
            } else if shape == TagDoc {
                let t = (h * 0.25).min(w * 0.2);
                path(
                    out,
                    P::poly(&[(rt - t, b - wave(r) * 1.5), (rt, b - wave(r) * 1.5 - t), (rt, b - wave(r) * 1.5)]),
                    paint.solid,
                );
            }
        }
        Docs | StRect => {
            let back = |i: f32| crate::layout::Rect {
                x: x + 10.0 - 5.0 * i,
                y: y + 5.0 * i,
                width: w - 10.0,
                height: h - 10.0,
            };
            for i in 0..3 {
                let rr = back(i as f32);
                if shape == Docs {
                    path(out, doc(rr), body);
                } else {
                    rect(out, rr, 0.0, body);
                }
            }
        }
        Flag => {
            let a = wave(r);
            let d = P::new()
                .m(x, y + a)
                .q(x + w / 4.0, y - a, cx, y + a)
                .t(rt, y + a)
                .l(rt, b - a)
                .q(rt - w / 4.0, b + a, cx, b - a)
                .t(x, b - a)
                .z();
            path(out, d, body);
        }
        Brace | BraceR | Braces => {
            rect(out, r, 0.0, r#"fill="none" stroke="none""#);
            let bw = 10f32.min(w / 4.0);
            if shape != BraceR {
                path(out, brace(x, y, b, bw), paint.line);
            }
            if shape != Brace {
                path(out, brace(rt, y, b, -bw), paint.line);
            }
        }
        Bolt => {
            let pts = [
                (rt, y),
                (x + w * 0.2, cy + h * 0.08),
                (x + w * 0.55, cy + h * 0.08),
                (x, b),
                (x + w * 0.8, cy - h * 0.08),
                (x + w * 0.45, cy - h * 0.08),
            ];
            path(out, P::poly(&pts), body);
        }
        Cloud | Bang => path(out, bumps(r, shape == Bang), body),
        Text | Anchor => {}
        Icon => rect(out, r, 0.0, paint.line),
    }
}

/// Rectangle whose bottom edge is one wave (document).
fn doc(r: Rect) -> P {
    let (x, y, w, b) = (r.x, r.y, r.width, r.y + r.height);
    let a = wave(r);
    P::new().m(x, y).l(x + w, y).l(x + w, b - a).q(x + w * 0.75, b - 3.0 * a, x + w / 2.0, b - a).t(x, b - a).z()
}

/// A curly brace with its tip pointing outwards at `x` (`bw` < 0 mirrors it).
fn brace(x: f32, y: f32, b: f32, bw: f32) -> P {
    let cy = (y + b) / 2.0;
    let r = bw.abs() / 2.0;
    let mid = x + bw / 2.0;
    P::new()
        .m(x + bw, y)
        .q(mid, y, mid, y + r)
        .l(mid, cy - r)
        .q(mid, cy, x, cy)
        .q(mid, cy, mid, cy + r)
        .l(mid, b - r)
        .q(mid, b, x + bw, b)
}

/// Cloud (arcs bulging out) or bang (arcs biting in) around the box.
fn bumps(r: Rect, inward: bool) -> P {
    let n = 10;
    let (cx, cy) = (r.x + r.width / 2.0, r.y + r.height / 2.0);
    let k = if inward { 0.5 } else { 0.42 };
    let pts: Vec<(f32, f32)> = (0..n)
        .map(|i| {
            let t = std::f32::consts::TAU * i as f32 / n as f32;
            (cx + r.width * k * t.cos(), cy + r.height * k * t.sin())
        })
        .collect();
    let mut p = P::new().m(pts[0].0, pts[0].1);
    for i in 0..n {
        let (a, c) = (pts[i], pts[(i + 1) % n]);
        let d = ((c.0 - a.0).powi(2) + (c.1 - a.1).powi(2)).sqrt();
        p = p.a(d * 0.6, d * 0.6, !inward, c.0, c.1);
    }
    p.z()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_draws_inside_a_parseable_svg() {
        let paint = Paint { body: r#"fill="red""#, line: r#"fill="none""#, solid: r#"fill="black""# };
        let r = Rect { x: 10.0, y: 10.0, width: 120.0, height: 60.0 };
        for shape in crate::render::ALL_SHAPES {
            let mut s = String::from(r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">"#);
            draw(&mut s, shape, r, &paint);
            s.push_str("</svg>");
            let tree = usvg::Tree::from_str(&s, &usvg::Options::default());
            assert!(tree.is_ok(), "{shape:?}: {s}");
            if !matches!(shape, Shape::Text | Shape::Anchor) {
                let bb = tree.expect("tree").root().abs_bounding_box();
                assert!(
                    bb.left() >= 9.0 && bb.right() <= 131.0 && bb.top() >= 5.0 && bb.bottom() <= 75.0,
                    "{shape:?} {bb:?}"
                );
            }
        }
    }
}
