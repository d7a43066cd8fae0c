//! Paths whose stroke is at most one pixel wide (every edge and node
//! outline at scale 1), stroked by the rasteriser itself.
//!
//! tiny-skia draws such a "hairline" anti-aliased, one or two pixels per
//! call through its general blending pipeline, about 100 ns a pixel: the
//! edges of a 200-node chart took 16 of its 25 ms of drawing. Here each
//! curve is flattened to lines within 0.1 px and every line is drawn as
//! tiny-skia's hairline is (Wu's algorithm: a one-pixel-thick line along
//! its major axis, coverage split between the two pixels it straddles),
//! blending straight into the pixels. Fills still go through tiny-skia.
//!
//! Anything else (dashes, gradients, round or square caps, crisp edges,
//! thick strokes) is left to resvg: [`accepts`] says which paths qualify.

use resvg::tiny_skia::{self, PixmapMut, Transform};
use usvg::tiny_skia_path::{PathSegment, Point};

use super::blend::src_over;
use crate::layout::Rect;

/// Largest distance between a curve and the lines drawn for it, in pixels.
const TOLERANCE: f32 = 0.1;

/// The paint of a path this module can draw: its stroke as a hairline of
/// colour `rgb` and alpha `alpha` (coverage folded in), and its fill, if
/// any, as a plain colour for tiny-skia.
pub struct Hairline {
    rgb: [u8; 3],
    alpha: f32,
    fill: Option<tiny_skia::Paint<'static>>,
    fill_rule: tiny_skia::FillRule,
}

/// Whether `path`, drawn with `ts`, is a plain hairline this module draws
/// exactly where tiny-skia would (same decision as tiny-skia's
/// `treat_as_hairline`), and with what paint.
pub fn accepts(path: &usvg::Path, ts: Transform) -> Option<Hairline> {
    let stroke = path.stroke()?;
    let usvg::Paint::Color(c) = stroke.paint() else { return None };
    let antialias = path.rendering_mode().use_shape_antialiasing();
    let plain = path.is_visible()
        && antialias
        && stroke.dasharray().is_none()
        && stroke.linecap() == usvg::LineCap::Butt
        && path.paint_order() == usvg::PaintOrder::FillAndStroke;
    if !plain {
        return None;
    }
    let coverage = hairline_coverage(stroke.width().get(), ts)?;
    let (fill, fill_rule) = match path.fill() {
        None => (None, tiny_skia::FillRule::Winding),
        Some(f) => {
            let usvg::Paint::Color(fc) = f.paint() else { return None };
            let mut paint = tiny_skia::Paint::default();
            paint.set_color_rgba8(fc.red, fc.green, fc.blue, f.opacity().to_u8());
            paint.anti_alias = antialias;
            let rule = match f.rule() {
                usvg::FillRule::NonZero => tiny_skia::FillRule::Winding,
                usvg::FillRule::EvenOdd => tiny_skia::FillRule::EvenOdd,
            };
            (Some(paint), rule)
        }
    };
    // tiny-skia rounds the stroke opacity to 8 bits, then scales by coverage.
    let alpha = f32::from(stroke.opacity().to_u8()) / 255.0 * coverage;
    Some(Hairline { rgb: [c.red, c.green, c.blue], alpha, fill, fill_rule })
}

/// tiny-skia's test: a stroke whose width, mapped by `ts`, is at most one
/// pixel both ways is drawn as a hairline, its alpha scaled by that width.
fn hairline_coverage(width: f32, ts: Transform) -> Option<f32> {
    let fast_len = |x: f32, y: f32| {
        let (a, b) = (x.abs().max(y.abs()), x.abs().min(y.abs()));
        a + b / 2.0
    };
    let len0 = fast_len(ts.sx * width, ts.ky * width);
    let len1 = fast_len(ts.kx * width, ts.sy * width);
    (len0 <= 1.0 && len1 <= 1.0).then_some((len0 + len1) / 2.0)
}

/// Draws `path` with `ts` into `pm`: its fill through tiny-skia, then its
/// stroke as hairlines.
pub fn draw(pm: &mut PixmapMut, path: &usvg::Path, ts: Transform, paint: &Hairline) {
    if let Some(fill) = &paint.fill {
        let b = path.data().bounds();
        if b.width() > 0.0 && b.height() > 0.0 {
            pm.fill_path(path.data(), fill, paint.fill_rule, ts, None);
        }
    }
    let (w, h) = (pm.width() as f32, pm.height() as f32);
    let mut lines = Lines {
        w: i64::from(pm.width()),
        h: i64::from(pm.height()),
        data: pm.data_mut(),
        rgb: paint.rgb,
        alpha: paint.alpha,
    };
    // A piece whose points all lie off the pixmap draws nothing there (a
    // curve stays inside its points' hull): skip it without flattening.
    let off = |pts: &[Point]| {
        pts.iter().all(|p| p.y < -2.0)
            || pts.iter().all(|p| p.y > h + 2.0)
            || pts.iter().all(|p| p.x < -2.0)
            || pts.iter().all(|p| p.x > w + 2.0)
    };
    let map = |mut p: Point| {
        ts.map_point(&mut p);
        p
    };
    let (mut start, mut cur) = (Point::zero(), Point::zero());
    for seg in path.data().segments() {
        match seg {
            PathSegment::MoveTo(p) => {
                start = map(p);
                cur = start;
            }
            PathSegment::LineTo(p) => {
                let to = map(p);
                lines.line(cur, to);
                cur = to;
            }
            PathSegment::QuadTo(p1, p2) => {
                let (c, to) = (map(p1), map(p2));
                if off(&[cur, c, to]) {
                    cur = to;
                    continue;
                }
                let dd = weighted([(cur, 1.0), (c, -2.0), (to, 1.0)]).length();
                let n = (dd / (4.0 * TOLERANCE)).sqrt().ceil().clamp(1.0, 256.0) as usize;
                lines.curve(n, |t| {
                    let u = 1.0 - t;
                    weighted([(cur, u * u), (c, 2.0 * u * t), (to, t * t)])
                });
                cur = to;
            }
            PathSegment::CubicTo(p1, p2, p3) => {
                let (c1, c2, to) = (map(p1), map(p2), map(p3));
                if off(&[cur, c1, c2, to]) {
                    cur = to;
                    continue;
                }
                let dd = weighted([(cur, 1.0), (c1, -2.0), (c2, 1.0)])
                    .length()
                    .max(weighted([(c1, 1.0), (c2, -2.0), (to, 1.0)]).length());
                let n = (0.75 * dd / TOLERANCE).sqrt().ceil().clamp(1.0, 256.0) as usize;
                lines.curve(n, |t| {
                    let u = 1.0 - t;
                    weighted([(cur, u * u * u), (c1, 3.0 * u * u * t), (c2, 3.0 * u * t * t), (to, t * t * t)])
                });
                cur = to;
            }
            PathSegment::Close => {
                lines.line(cur, start);
                cur = start;
            }
        }
    }
}

/// The sum of `wᵢ·pᵢ`.
fn weighted<const N: usize>(terms: [(Point, f32); N]) -> Point {
    let (x, y) = terms.iter().fold((0.0, 0.0), |(x, y), (p, w)| (x + p.x * w, y + p.y * w));
    Point::from_xy(x, y)
}

/// Where lines are drawn, and in what.
struct Lines<'a> {
    /// The pixmap's premultiplied RGBA bytes, `w`×`h`.
    data: &'a mut [u8],
    w: i64,
    h: i64,
    rgb: [u8; 3],
    alpha: f32,
}

impl Lines<'_> {
    /// `n` lines along the curve `at(t)`, t from 0 to 1.
    fn curve(&mut self, n: usize, at: impl Fn(f32) -> Point) {
        let mut from = at(0.0);
        for i in 1..=n {
            let to = at(i as f32 / n as f32);
            self.line(from, to);
            from = to;
        }
    }

    /// One anti-aliased hairline from `a` to `b`.
    fn line(&mut self, a: Point, b: Point) {
        let (w, h) = (self.w as f32, self.h as f32);
        let Some((a, b)) = clip(a, b, -2.0, -2.0, w + 2.0, h + 2.0) else { return };
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        if dx.abs() >= dy.abs() {
            if dx != 0.0 {
                let (a, b) = if a.x <= b.x { (a, b) } else { (b, a) };
                self.span(a.x, a.y, b.x, (b.y - a.y) / (b.x - a.x), false);
            }
        } else {
            let (a, b) = if a.y <= b.y { (a, b) } else { (b, a) };
            self.span(a.y, a.x, b.y, (b.x - a.x) / (b.y - a.y), true);
        }
    }

    /// Wu's algorithm along the major axis from `m0` to `m1` (minor
    /// coordinate `n0` at `m0`, changing by `slope` per pixel): each pixel
    /// step of the major axis covers the two minor pixels the line's
    /// one-pixel-thick cross-section straddles, in proportion, times the
    /// length of the step the line actually spans (so joined lines add up
    /// to one).
    fn span(&mut self, m0: f32, n0: f32, m1: f32, slope: f32, steep: bool) {
        let (first, last) = (floor(m0), -floor(-m1) - 1);
        for i in first..=last {
            let (lo, hi) = (m0.max(i as f32), m1.min(i as f32 + 1.0));
            let len = hi - lo;
            if len <= 0.0 {
                continue;
            }
            let n = n0 + ((lo + hi) / 2.0 - m0) * slope - 0.5;
            let j = floor(n);
            let f = n - j as f32;
            self.plot(i, j, (1.0 - f) * len, steep);
            self.plot(i, j + 1, f * len, steep);
        }
    }

    fn plot(&mut self, major: i64, minor: i64, coverage: f32, steep: bool) {
        let (x, y) = if steep { (minor, major) } else { (major, minor) };
        let a = coverage * self.alpha;
        if x < 0 || y < 0 || x >= self.w || y >= self.h || a < 0.5 / 255.0 {
            return;
        }
        let i = 4 * (y * self.w + x) as usize;
        src_over(&mut self.data[i..i + 4], self.rgb, a.min(1.0));
    }
}

/// `v` rounded down, inline (`f32::floor` is a libm call on baseline
/// x86-64, and this runs twice per pixel of every edge).
#[inline]
fn floor(v: f32) -> i64 {
    let i = v as i64;
    i - i64::from((i as f32) > v)
}

/// The part of segment `a`–`b` inside the box, if any.
fn clip(a: Point, b: Point, x0: f32, y0: f32, x1: f32, y1: f32) -> Option<(Point, Point)> {
    let pt = |p: Point| crate::layout::Point { x: p.x, y: p.y };
    let (t0, t1) = Rect { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }.clip_segment(pt(a), pt(b))?;
    let at = |t: f32| Point::from_xy(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
    Some((at(t0), at(t1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::tiny_skia::Pixmap;

    fn tree(svg: &str) -> usvg::Tree {
        usvg::Tree::from_str(svg, &usvg::Options::default()).expect("svg")
    }

    fn first_path(t: &usvg::Tree) -> usvg::Path {
        fn find(g: &usvg::Group) -> Option<usvg::Path> {
            g.children().iter().find_map(|n| match n {
                usvg::Node::Path(p) => Some((**p).clone()),
                usvg::Node::Group(g) => find(g),
                _ => None,
            })
        }
        find(t.root()).expect("a path")
    }

    /// Our hairline and tiny-skia's, drawn on white; returns both.
    fn both(svg: &str) -> (Pixmap, Pixmap) {
        let t = tree(svg);
        let (w, h) = (t.size().width() as u32, t.size().height() as u32);
        let mut ours = Pixmap::new(w, h).expect("pixmap");
        ours.fill(tiny_skia::Color::WHITE);
        let mut theirs = ours.clone();
        let p = first_path(&t);
        let paint = accepts(&p, Transform::identity()).expect("a hairline");
        draw(&mut ours.as_mut(), &p, Transform::identity(), &paint);
        resvg::render(&t, Transform::identity(), &mut theirs.as_mut());
        (ours, theirs)
    }

    fn ink(p: &Pixmap) -> u32 {
        p.pixels().iter().map(|c| 255 - u32::from(c.red())).sum()
    }

    #[test]
    fn draws_like_tiny_skia_hairlines() {
        for d in ["M5 10 L95 40", "M10 5 C 80 10, 20 80, 90 95", "M20.5 10.5 H80.5 V70.5 H20.5 Z"] {
            let svg = format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><path d="{d}" fill="none" stroke="black" stroke-width="1"/></svg>"#
            );
            let (ours, theirs) = both(&svg);
            let (a, b) = (ink(&ours), ink(&theirs));
            // Same amount of ink within 10 %, and nowhere off by much.
            assert!(a.abs_diff(b) * 10 < b, "{d}: ink {a} vs {b}");
            let worst = ours.pixels().iter().zip(theirs.pixels()).map(|(p, q)| p.red().abs_diff(q.red())).max();
            assert!(worst < Some(128), "{d}: worst pixel differs by {worst:?}");
        }
    }

    #[test]
    fn a_filled_outlined_box_matches_resvg() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40"><rect x="10.5" y="8.5" width="40" height="20" fill="#ececff" stroke="#9370db" stroke-width="1"/></svg>"##;
        let (ours, theirs) = both(svg);
        // Pixel-aligned edges: the same pixels, at most a rounding apart.
        for (p, q) in ours.pixels().iter().zip(theirs.pixels()) {
            for (a, b) in [(p.red(), q.red()), (p.green(), q.green()), (p.blue(), q.blue())] {
                assert!(a.abs_diff(b) <= 2, "{p:?} vs {q:?}");
            }
        }
    }

    #[test]
    fn only_plain_thin_strokes_qualify() {
        let path = |attrs: &str| {
            first_path(&tree(&format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><path d="M1 1 L9 9" fill="none" {attrs}/></svg>"#
            )))
        };
        let id = Transform::identity();
        assert!(accepts(&path(r#"stroke="red""#), id).is_some());
        assert!(accepts(&path(r#"stroke="red" stroke-width="3.5""#), id).is_none());
        assert!(accepts(&path(r#"stroke="red""#), Transform::from_scale(2.0, 2.0)).is_none());
        assert!(accepts(&path(r#"stroke="red" stroke-dasharray="3""#), id).is_none());
        assert!(accepts(&path(r#"stroke="red" stroke-linecap="round""#), id).is_none());
        // Half a pixel wide: drawn at half the alpha, as tiny-skia does.
        let half = accepts(&path(r#"stroke="red" stroke-width="0.5""#), id).expect("hairline");
        assert!((half.alpha - 0.5).abs() < 0.01);
    }

    #[test]
    fn floor_rounds_down_both_sides_of_zero() {
        assert_eq!([floor(2.5), floor(-2.5), floor(-3.0), floor(0.0), floor(-0.1)], [2, -3, -3, 0, -1]);
    }

    #[test]
    fn clipping_keeps_the_inside_part() {
        let (a, b) = clip(Point::from_xy(-10.0, 5.0), Point::from_xy(10.0, 5.0), 0.0, 0.0, 4.0, 10.0).expect("inside");
        assert_eq!((a.x, b.x, a.y, b.y), (0.0, 4.0, 5.0, 5.0));
        assert!(clip(Point::from_xy(-10.0, 50.0), Point::from_xy(10.0, 50.0), 0.0, 0.0, 4.0, 10.0).is_none());
    }
}
