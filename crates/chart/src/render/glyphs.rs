//! Labels of a PNG, drawn from glyph outlines by the rasteriser itself.
//!
//! Why not as SVG paths for resvg: tiny-skia anti-aliases by sampling every
//! path on four sub-rows per pixel row, and a line of a dozen glyphs is
//! hundreds of curve segments, so a 12-glyph line cost 42 µs, most of a
//! small chart's drawing time; its outline also had to be printed into the
//! SVG and parsed back (a third of usvg's work on a 200-node chart). Here
//! each line is filled with exact-area coverage (`ab_glyph_rasterizer`,
//! the accumulation rasteriser of font-rs), a few µs per line.
//!
//! The SVG keeps each line's place in the drawing order: an invisible
//! `<path id="fb-glyphs-N">` covering the line's ink, carrying its fill.
//! [`super::raster`] draws line N there, so what is painted over what is
//! unchanged.

use std::fmt::Write as _;

use ab_glyph_rasterizer::{Point, Rasterizer, point};
use resvg::tiny_skia::{PixmapMut, Transform};

use crate::text::{Fonts, PlacedGlyph, Seg};

use super::blend::src_over;
use super::xml::N;

/// Id prefix of a line's placeholder; the line's index follows.
const ID_PREFIX: &str = "fb-glyphs-";

/// One line of a label: its glyphs placed in SVG user units.
#[derive(Debug, Clone)]
pub struct GlyphLine {
    /// Glyphs with `x`/`y` their absolute origin on the baseline.
    glyphs: Vec<PlacedGlyph>,
    /// Ink bounds (left, top, right, bottom) from the outlines' points,
    /// which contain every curve.
    bounds: [f32; 4],
}

/// The SVG writer's side of outlined labels: fonts to shape with and the
/// lines written so far, in the order of their placeholders.
pub struct Outliner<'a> {
    /// The measuring fonts: shaping with them places glyphs exactly where
    /// layout measured the text.
    pub fonts: &'a Fonts,
    /// Lines written so far; placeholder N stands for `lines[N]`.
    pub lines: Vec<GlyphLine>,
}

impl<'a> Outliner<'a> {
    /// An outliner with no lines yet.
    pub fn new(fonts: &'a Fonts) -> Self {
        Outliner { fonts, lines: Vec::new() }
    }

    /// Records `glyphs` (origins already absolute) as the next line and
    /// writes its placeholder with `attrs` (the label's fill). Nothing is
    /// written for a line without ink (only spaces).
    pub fn push_line(&mut self, out: &mut String, glyphs: Vec<PlacedGlyph>, attrs: &str) {
        let Some(bounds) = ink_bounds(&glyphs) else { return };
        let [l, t, r, b] = bounds;
        let _ = write!(
            out,
            r#"<path id="{ID_PREFIX}{}" visibility="hidden" {attrs} d="M{} {}H{}V{}H{}Z"/>"#,
            self.lines.len(),
            N(l),
            N(t),
            N(r),
            N(b),
            N(l)
        );
        self.lines.push(GlyphLine { glyphs, bounds });
    }
}

/// The line index a placeholder id names, if `id` is one.
pub fn line_index(id: &str) -> Option<usize> {
    id.strip_prefix(ID_PREFIX)?.parse().ok()
}

/// Bounds of every outline point, or `None` when no glyph has one.
fn ink_bounds(glyphs: &[PlacedGlyph]) -> Option<[f32; 4]> {
    let mut b = [f32::INFINITY, f32::INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY];
    for g in glyphs {
        for_points(g, |x, y| {
            b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
        });
    }
    (b[0] <= b[2] && b[1] <= b[3]).then_some(b)
}

/// Calls `f` with every point of `g`'s outline (end and control points)
/// in user units.
fn for_points(g: &PlacedGlyph, mut f: impl FnMut(f32, f32)) {
    let p = |x: f32, y: f32| (g.x + x * g.scale, g.y - y * g.scale);
    for seg in g.outline.iter() {
        let pts: &[(f32, f32)] = match *seg {
            Seg::Move(a, b) | Seg::Line(a, b) => &[p(a, b)],
            Seg::Quad(a, b, c, d) => &[p(a, b), p(c, d)],
            Seg::Cubic(a, b, c, d, e, h) => &[p(a, b), p(c, d), p(e, h)],
            Seg::Close => &[],
        };
        for &(x, y) in pts {
            f(x, y);
        }
    }
}

/// Reusable coverage buffer for [`fill_line`] (one per band being drawn).
pub struct Scratch(Rasterizer);

impl Default for Scratch {
    fn default() -> Self {
        Scratch(Rasterizer::new(0, 0))
    }
}

/// Paints `line`, mapped by `ts` (user units → pixmap pixels), over `pm`
/// in the straight-alpha colour `rgba`, source-over like tiny-skia.
pub fn fill_line(scratch: &mut Scratch, pm: &mut PixmapMut, line: &GlyphLine, ts: Transform, rgba: [u8; 4]) {
    let [l, t, r, b] = line.bounds;
    let corners = [(l, t), (r, t), (l, b), (r, b)].map(|(x, y)| map(ts, x, y));
    let min_x = corners.iter().map(|p| p.x).fold(f32::INFINITY, f32::min).floor() - 1.0;
    let max_x = corners.iter().map(|p| p.x).fold(f32::NEG_INFINITY, f32::max).ceil() + 1.0;
    let min_y = corners.iter().map(|p| p.y).fold(f32::INFINITY, f32::min).floor();
    let max_y = corners.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max).ceil();
    // Only the rows inside the pixmap are rasterised: coverage of one row
    // does not depend on the others. Every column of the line is, so each
    // row's coverage sums back to zero inside the buffer.
    let (y0, y1) = (min_y.max(0.0), max_y.min(pm.height() as f32));
    let visible = y0 < y1 && max_x >= 0.0 && min_x <= pm.width() as f32;
    // A line wider than any pixmap is not from our writer; skip it rather
    // than allocate for it.
    if !(visible && max_x - min_x <= 1e5) {
        return;
    }
    let (w, h) = ((max_x - min_x) as usize, (y1 - y0) as usize);
    let rast = &mut scratch.0;
    rast.reset(w, h);
    let origin = Transform::from_translate(-min_x, -y0).pre_concat(ts);
    for g in &line.glyphs {
        draw_glyph(rast, g, origin);
    }
    let (pw, ph) = (pm.width() as i64, pm.height() as i64);
    let data = pm.data_mut();
    let alpha = f32::from(rgba[3]) / 255.0;
    let rgb = [rgba[0], rgba[1], rgba[2]];
    let (x_off, y_off) = (min_x as i64, y0 as i64);
    rast.for_each_pixel_2d(|x, y, coverage| {
        let a = coverage.min(1.0) * alpha;
        let (px, py) = (x_off + i64::from(x), y_off + i64::from(y));
        if a < 0.5 / 255.0 || px < 0 || px >= pw || py >= ph {
            return;
        }
        let i = 4 * (py * pw + px) as usize;
        src_over(&mut data[i..i + 4], rgb, a);
    });
}

fn map(ts: Transform, x: f32, y: f32) -> Point {
    let mut p = resvg::tiny_skia::Point::from_xy(x, y);
    ts.map_point(&mut p);
    point(p.x, p.y)
}

/// Adds one glyph's contours, mapped by `ts`, to the coverage buffer.
fn draw_glyph(rast: &mut Rasterizer, g: &PlacedGlyph, ts: Transform) {
    let p = |x: f32, y: f32| map(ts, g.x + x * g.scale, g.y - y * g.scale);
    let (mut start, mut cur) = (point(0.0, 0.0), point(0.0, 0.0));
    for seg in g.outline.iter() {
        match *seg {
            Seg::Move(a, b) => {
                if cur != start {
                    rast.draw_line(cur, start);
                }
                start = p(a, b);
                cur = start;
            }
            Seg::Line(a, b) => {
                let to = p(a, b);
                rast.draw_line(cur, to);
                cur = to;
            }
            Seg::Quad(a, b, c, d) => {
                let to = p(c, d);
                rast.draw_quad(cur, p(a, b), to);
                cur = to;
            }
            Seg::Cubic(a, b, c, d, e, f) => {
                let to = p(e, f);
                rast.draw_cubic(cur, p(a, b), p(c, d), to);
                cur = to;
            }
            Seg::Close => {
                if cur != start {
                    rast.draw_line(cur, start);
                }
                cur = start;
            }
        }
    }
    if cur != start {
        rast.draw_line(cur, start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::tiny_skia::Pixmap;

    fn line(text: &str) -> GlyphLine {
        let fonts = Fonts::embedded();
        let (glyphs, _) = fonts.glyphs(text, 16.0, false, false);
        let glyphs = glyphs.into_iter().map(|g| PlacedGlyph { x: g.x + 10.0, y: g.y + 20.0, ..g }).collect();
        let mut o = Outliner::new(&fonts);
        let mut svg = String::new();
        o.push_line(&mut svg, glyphs, r##"fill="#333""##);
        assert!(svg.starts_with(r##"<path id="fb-glyphs-0" visibility="hidden" fill="#333" d="M"##), "{svg}");
        o.lines.pop().expect("a line")
    }

    #[test]
    fn placeholder_ids_round_trip() {
        assert_eq!(line_index("fb-glyphs-17"), Some(17));
        assert_eq!(line_index("fb-glyphs-"), None);
        assert_eq!(line_index("node-3"), None);
    }

    #[test]
    fn fills_the_ink_inside_its_bounds_only() {
        let l = line("Hello");
        let [left, top, right, bottom] = l.bounds;
        assert!(left >= 10.0 && right > left + 30.0 && top > 5.0 && bottom <= 21.0, "{:?}", l.bounds);
        let mut pm = Pixmap::new(80, 30).expect("pixmap");
        pm.fill(resvg::tiny_skia::Color::WHITE);
        fill_line(&mut Scratch::default(), &mut pm.as_mut(), &l, Transform::identity(), [0, 0, 0, 255]);
        let dark: Vec<(u32, u32)> = (0..30)
            .flat_map(|y| (0..80).map(move |x| (x, y)))
            .filter(|&(x, y)| pm.pixel(x, y).expect("px").red() < 128)
            .collect();
        assert!(dark.len() > 60, "{} dark pixels", dark.len());
        assert!(dark.iter().all(|&(x, y)| x as f32 >= left - 1.0
            && x as f32 <= right + 1.0
            && y as f32 >= top - 1.0
            && y as f32 <= bottom + 1.0));
        // Pixels stay opaque and the page outside the ink untouched.
        assert!(pm.pixels().iter().all(|p| p.alpha() == 255));
        assert_eq!(pm.pixel(0, 0).map(|p| p.red()), Some(255));
    }

    #[test]
    fn a_band_cutting_the_line_gets_the_same_rows() {
        let l = line("Hello");
        let mut whole = Pixmap::new(80, 30).expect("pixmap");
        fill_line(&mut Scratch::default(), &mut whole.as_mut(), &l, Transform::identity(), [20, 40, 60, 255]);
        // The lower part, drawn into a band starting at row 14.
        let mut band = Pixmap::new(80, 16).expect("pixmap");
        fill_line(
            &mut Scratch::default(),
            &mut band.as_mut(),
            &l,
            Transform::from_translate(0.0, -14.0),
            [20, 40, 60, 255],
        );
        for y in 0..16 {
            for x in 0..80 {
                assert_eq!(band.pixel(x, y), whole.pixel(x, y + 14), "({x}, {y})");
            }
        }
    }
}
