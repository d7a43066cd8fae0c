//! Banded rasterisation and streaming PNG encoding of a parsed SVG tree.
//!
//! The image is drawn in horizontal bands into a small reused pixmap rather
//! than into one full-size pixmap: a 30 Mpx drawing then costs a few MB of
//! memory instead of 120 MB, no time is spent faulting in fresh pages, and
//! each band stays in cache while it is drawn, converted and compressed.
//! Per band only the nodes whose bounds touch it are drawn. Band heights
//! depend on the image width alone, never on the thread count, so rendering
//! with 1 or N threads gives the same bytes.
//!
//! An opaque page-sized background (the `<rect width="100%" …>` our SVG
//! starts with) is filled directly instead of rasterised, and such images
//! are encoded as RGB: every pixel drawn over an opaque page is opaque.

use rayon::prelude::*;
use resvg::tiny_skia::{self, Color, Transform};
use usvg::{Node, Tree};

use super::glyphs::{self, GlyphLine, Scratch};
use super::hairline;
use super::png::PngError;
use super::png_file::{Colour, FILTER_SUB, FILTER_UP, PngFile};

/// Target pixels per band of a small image (512 KB of RGBA: one buffer
/// that stays in cache and costs few page faults in a short-lived process;
/// 1 MB bands made a 20-node chart 0.3 ms slower, 256 KB ones too).
const BAND_PIXELS: u32 = 1 << 17;
/// Target pixels per band of a large image (1 MB of RGBA, one core's L2).
/// Taller bands mean fewer nodes straddling two bands and drawn twice, but
/// 4 MB bands made 200-node charts 20 % slower: each pass over a band
/// (draw, convert, filter, compress) went to memory, and eight fresh
/// 4 MB buffers cost 8,000 page faults.
const BAND_PIXELS_LARGE: u32 = 1 << 18;
/// Rows drawn above and below each band and then dropped: where a stroke
/// runs out of the pixmap, tiny-skia's clipping leaves a one-pixel tick in
/// the row at the edge, so no pixmap edge may fall on a row that is kept.
const SEAM_ROWS: u32 = 4;
/// Bands drawn per parallel batch; fixed so memory does not grow with cores
/// (two batches in flight: 8 MB).
const BATCH: usize = 4;
/// Images with fewer pixels are drawn on the calling thread only: waking a
/// thread pool costs more than it saves.
const PARALLEL_MIN_PIXELS: u64 = 2_000_000;

/// How to draw one tree.
struct Plan<'a> {
    tree: &'a Tree,
    scale: f32,
    w: u32,
    /// Opaque page colour, filled instead of drawn.
    page: Option<Color>,
    /// Root children to draw (the page rectangle is skipped).
    nodes: &'a [Node],
    /// Whether every node can be culled by its bounds (else each band
    /// draws the whole tree with resvg's own walk).
    cullable: bool,
    /// Label lines drawn at their placeholders.
    glyphs: &'a [GlyphLine],
}

/// Rasterise `tree` at `scale` into a `w`×`h` PNG, drawing `glyphs` at
/// their placeholders.
pub fn encode_png(tree: &Tree, glyphs: &[GlyphLine], scale: f32, w: u32, h: u32) -> Result<Vec<u8>, PngError> {
    let plan = Plan::new(tree, glyphs, scale, w);
    let page = plan.page;
    let colour = if page.is_some() { Colour::Rgb } else { Colour::Rgba };
    let mut file = PngFile::new(w, h, colour, (w as usize * h as usize / 16).min(1 << 26) + 1024)?;
    let rows = band_rows(w, h);
    let bands: Vec<(u32, u32)> = (0..h).step_by(rows as usize).map(|y| (y, rows.min(h - y))).collect();
    if u64::from(w) * u64::from(h) < PARALLEL_MIN_PIXELS {
        // One band buffer, drawn and written in turn: every page of it is
        // faulted in once.
        let mut buf = Vec::new();
        for &(y, n) in &bands {
            plan.band(y, n, &mut buf)?;
            file.write_rows(&buf)?;
        }
    } else {
        // Batches of bands drawn in parallel while the previous batch is
        // compressed; the buffers are recycled (fresh multi-MB allocations
        // would each be faulted in and unmapped again).
        let mut cur: Vec<Vec<u8>> = vec![Vec::new(); BATCH];
        let mut prev: Vec<Vec<u8>> = vec![Vec::new(); BATCH];
        let mut prev_len = 0;
        for batch in bands.chunks(BATCH) {
            let (written, drawn) = rayon::join(
                || prev[..prev_len].iter().try_for_each(|b| file.write_rows(b)),
                || batch.par_iter().zip(cur.par_iter_mut()).try_for_each(|(&(y, n), buf)| plan.band(y, n, buf)),
            );
            written?;
            drawn?;
            std::mem::swap(&mut prev, &mut cur);
            prev_len = batch.len();
        }
        prev[..prev_len].iter().try_for_each(|b| file.write_rows(b))?;
    }
    Ok(file.finish()?)
}

/// Rasterise `tree` at `scale` into `w`×`h` RGB pixels, row after row,
/// for the raster damage to work on before the one PNG (or JPEG) encoding:
/// decoding a finished PNG again cost more than most damage steps. Where
/// the page is not opaque the drawing is composited over white (a printed
/// page). Bands as in [`encode_png`], so the pixels are those the PNG
/// would hold, whatever the thread count.
pub fn draw_rgb(tree: &Tree, glyphs: &[GlyphLine], scale: f32, w: u32, h: u32) -> Result<Vec<u8>, PngError> {
    let plan = Plan::new(tree, glyphs, scale, w);
    let row_bytes = 3 * w as usize;
    let mut out = Vec::new();
    out.try_reserve_exact(row_bytes * h as usize).map_err(|_| PngError::Alloc { w, h })?;
    out.resize(row_bytes * h as usize, 0);
    let rows = band_rows(w, h) as usize;
    let band = |(i, dst): (usize, &mut [u8]), buf: &mut Vec<u8>| -> Result<(), PngError> {
        let n = dst.len() / row_bytes;
        plan.draw_band((i * rows) as u32, n as u32, buf)?;
        let kept = &buf[4 * w as usize * SEAM_ROWS as usize..];
        for (o, p) in dst.chunks_exact_mut(3).zip(kept.chunks_exact(4)) {
            // Premultiplied over white: c + (255 − a).
            let clear = 255 - p[3];
            o.copy_from_slice(&[p[0].saturating_add(clear), p[1].saturating_add(clear), p[2].saturating_add(clear)]);
        }
        Ok(())
    };
    if u64::from(w) * u64::from(h) < PARALLEL_MIN_PIXELS {
        let mut buf = Vec::new();
        out.chunks_mut(rows * row_bytes).enumerate().try_for_each(|b| band(b, &mut buf))?;
    } else {
        out.par_chunks_mut(rows * row_bytes).enumerate().try_for_each_init(Vec::new, |buf, b| band(b, buf))?;
    }
    Ok(out)
}

/// Rows per band: a function of the image size alone (never of the thread
/// count), about [`BAND_PIXELS`] or [`BAND_PIXELS_LARGE`] pixels.
fn band_rows(w: u32, h: u32) -> u32 {
    let target = if u64::from(w) * u64::from(h) < PARALLEL_MIN_PIXELS { BAND_PIXELS } else { BAND_PIXELS_LARGE };
    (target / w.max(1)).max(16).min(h.max(1))
}

impl<'a> Plan<'a> {
    fn new(tree: &'a Tree, glyphs: &'a [GlyphLine], scale: f32, w: u32) -> Plan<'a> {
        let root = tree.root().children();
        let page = page_colour(tree);
        let nodes = if page.is_some() { &root[1..] } else { root };
        let cullable = nodes.iter().all(cullable);
        Plan { tree, scale, w, page, nodes, cullable, glyphs }
    }

    /// Rows `y0..y0 + n` with [`SEAM_ROWS`] above and below, drawn as
    /// premultiplied RGBA into `buf`.
    fn draw_band(&self, y0: u32, n: u32, buf: &mut Vec<u8>) -> Result<(), PngError> {
        let rows = n + 2 * SEAM_ROWS;
        buf.resize(self.w as usize * 4 * rows as usize, 0);
        let mut pm =
            tiny_skia::PixmapMut::from_bytes(buf, self.w, rows).ok_or(PngError::Alloc { w: self.w, h: rows })?;
        self.draw(&mut pm, y0 as f32 - SEAM_ROWS as f32);
        Ok(())
    }

    /// Rows `y0..y0 + n` as filtered PNG rows (RGB over an opaque page,
    /// straight-alpha RGBA otherwise), drawn in `buf` and left there.
    fn band(&self, y0: u32, n: u32, buf: &mut Vec<u8>) -> Result<(), PngError> {
        let (w, row_bytes) = (self.w as usize, self.w as usize * 4);
        self.draw_band(y0, n, buf)?;
        // Keep rows SEAM_ROWS.. (n of them), filtered, at the front.
        let kept = row_bytes * SEAM_ROWS as usize;
        if self.page.is_some() {
            filter_rgb_in_place(buf, kept, w, n as usize);
            buf.truncate((3 * w + 1) * n as usize);
        } else {
            let pixels = &mut buf[kept..kept + row_bytes * n as usize];
            demultiply(pixels);
            *buf = filter_rgba(pixels, w);
        }
        Ok(())
    }

    /// Draws the image rows from `first_row` on into `pm`.
    fn draw(&self, pm: &mut tiny_skia::PixmapMut, first_row: f32) {
        pm.fill(self.page.unwrap_or(Color::TRANSPARENT));
        let ts = Transform::from_row(self.scale, 0.0, 0.0, self.scale, 0.0, -first_row);
        // The band in user units, widened for anti-aliasing.
        let margin = 2.0 / self.scale;
        let (top, bottom) = (first_row / self.scale - margin, (first_row + pm.height() as f32) / self.scale + margin);
        let mut painter = Painter { glyphs: self.glyphs, scratch: Scratch::default(), pm, top, bottom };
        if self.cullable {
            painter.draw_culled(self.nodes, ts);
        } else {
            // Something resvg can only draw as part of the whole tree: draw
            // it all (the page again too, harmlessly), then the labels.
            resvg::render(self.tree, ts, painter.pm);
            painter.glyphs_within(self.tree.root().children(), ts);
        }
    }
}

/// Draws one band: the tree's nodes through resvg, the labels' glyph lines
/// and one-pixel strokes itself.
struct Painter<'a, 'b, 'p> {
    glyphs: &'a [GlyphLine],
    scratch: Scratch,
    pm: &'b mut tiny_skia::PixmapMut<'p>,
    /// The band in user units: nodes entirely above or below are skipped.
    top: f32,
    bottom: f32,
}

impl Painter<'_, '_, '_> {
    /// Draws `nodes` (children of a group whose accumulated transform is
    /// `ts`) that reach into the band, descending into plain groups whose
    /// children can each be drawn alone.
    fn draw_culled(&mut self, nodes: &[Node], ts: Transform) {
        for node in nodes {
            let Some(bb) = node.abs_layer_bounding_box() else { continue };
            let stroke = node.abs_stroke_bounding_box();
            let (y1, y2) = (bb.top().min(stroke.top()), bb.bottom().max(stroke.bottom()));
            if y2 < self.top || y1 > self.bottom {
                continue;
            }
            match node {
                Node::Path(p) if let Some(i) = glyphs::line_index(p.id()) => self.glyph_line(i, p, ts),
                Node::Path(p) if let Some(paint) = hairline::accepts(p, ts) => hairline::draw(self.pm, p, ts, &paint),
                Node::Group(g)
                    if !g.should_isolate() && g.children().iter().all(|c| c.abs_layer_bounding_box().is_some()) =>
                {
                    self.draw_culled(g.children(), ts.pre_concat(g.transform()))
                }
                // `render_node` draws relative to the node's layer box; undo that.
                _ => {
                    resvg::render_node(node, ts.pre_translate(bb.x(), bb.y()), self.pm);
                    // Our SVGs put no label in a group resvg must draw
                    // whole (opacity, clip, filter); should one, its
                    // labels are drawn over it rather than lost.
                    if let Node::Group(g) = node {
                        self.glyphs_within(g.children(), ts.pre_concat(g.transform()));
                    }
                }
            }
        }
    }

    /// Draws every glyph line whose placeholder is in `nodes` or below.
    fn glyphs_within(&mut self, nodes: &[Node], ts: Transform) {
        for node in nodes {
            match node {
                Node::Path(p) if let Some(i) = glyphs::line_index(p.id()) => self.glyph_line(i, p, ts),
                Node::Group(g) => self.glyphs_within(g.children(), ts.pre_concat(g.transform())),
                _ => {}
            }
        }
    }

    /// Draws glyph line `i`, which `placeholder` stands for, in its fill.
    fn glyph_line(&mut self, i: usize, placeholder: &usvg::Path, ts: Transform) {
        let Some(line) = self.glyphs.get(i) else { return };
        let Some(fill) = placeholder.fill() else { return };
        // Our writer fills labels with a plain colour; anything else (no
        // such SVG is written) falls back to black.
        let [r, g, b] = match fill.paint() {
            usvg::Paint::Color(c) => [c.red, c.green, c.blue],
            _ => [0; 3],
        };
        let a = (fill.opacity().get() * 255.0).round() as u8;
        glyphs::fill_line(&mut self.scratch, self.pm, line, ts, [r, g, b, a]);
    }
}

/// Whether `node` can be drawn on its own with `resvg::render_node`, which
/// needs a non-empty layer box (a stroked straight line has none and would
/// be silently dropped). Groups always have one; [`Painter::draw_culled`] descends
/// only into groups whose children all have one, and draws others whole.
fn cullable(node: &Node) -> bool {
    node.abs_layer_bounding_box().is_some()
}

/// The colour of an opaque, unstroked rectangle covering the whole page as
/// the tree's first node (what our SVG writer emits for a background).
fn page_colour(tree: &Tree) -> Option<Color> {
    let Some(Node::Path(p)) = tree.root().children().first() else { return None };
    let fill = p.fill()?;
    let usvg::Paint::Color(c) = fill.paint() else { return None };
    let b = p.data().bounds();
    let size = tree.size();
    let covers = b.left() <= 0.0 && b.top() <= 0.0 && b.right() >= size.width() && b.bottom() >= size.height();
    let plain =
        p.is_visible() && p.stroke().is_none() && p.abs_transform().is_identity() && fill.opacity().get() >= 1.0;
    // A rectangle path: 4 corners plus close (resvg draws exactly its box).
    let rect = p.data().points().len() <= 5;
    (covers && plain && rect).then(|| Color::from_rgba8(c.red, c.green, c.blue, 255))
}

/// `rows` rows of `w` premultiplied RGBA pixels of opaque colour, from
/// byte `from` of `buf` on → PNG rows of RGB, each led by its filter byte:
/// Sub for the first (the row above it is another band's, drawn apart, so
/// a decoder would not see these bytes of it), Up for the rest. Written in
/// place at the front of `buf`: with `from` at least 6 rows + 2 bytes, row
/// r's output ends before row r − 1's pixels start, and those are what Up
/// subtracts.
fn filter_rgb_in_place(buf: &mut [u8], from: usize, w: usize, rows: usize) {
    let (in_row, out_row) = (4 * w, 3 * w + 1);
    debug_assert!(from >= 6 * w + 2 || rows == 0);
    if rows > 0 {
        let (out, pixels) = buf.split_at_mut(from);
        out[0] = FILTER_SUB;
        let mut left = [0u8; 3];
        for (o, c) in out[1..out_row].chunks_exact_mut(3).zip(pixels.chunks_exact(4)) {
            for k in 0..3 {
                o[k] = c[k].wrapping_sub(left[k]);
                left[k] = c[k];
            }
        }
    }
    for r in 1..rows {
        // Row r's output lies wholly before row r − 1's pixels.
        let (head, pixels) = buf.split_at_mut(from + (r - 1) * in_row);
        let out = &mut head[r * out_row..(r + 1) * out_row];
        let (prev, cur) = (&pixels[..in_row], &pixels[in_row..2 * in_row]);
        out[0] = FILTER_UP;
        up_rgb(&mut out[1..], cur, prev);
    }
}

/// One Up-filtered RGB row from premultiplied RGBA rows `cur` and `prev`.
#[cfg(target_arch = "x86_64")]
fn up_rgb(out: &mut [u8], cur: &[u8], prev: &[u8]) {
    use std::arch::x86_64::*;
    let quads = out.len() / 12;
    for q in 0..quads.min(cur.len() / 16).min(prev.len() / 16) {
        // SAFETY: SSE2 is part of x86-64; the loads read bytes 16q..16q+16
        // of `cur` and `prev` and the stores write bytes 12q..12q+12 of
        // `out`, all in bounds by the loop's limit.
        unsafe {
            let c = _mm_loadu_si128(cur.as_ptr().add(16 * q).cast());
            let p = _mm_loadu_si128(prev.as_ptr().add(16 * q).cast());
            let d = _mm_sub_epi8(c, p);
            // In each 64-bit lane, RGBARGBA → RGBRGB in its low 6 bytes.
            let lo3 = _mm_set1_epi64x(0xFF_FFFF);
            let d = _mm_or_si128(_mm_and_si128(d, lo3), _mm_and_si128(_mm_srli_epi64(d, 8), _mm_slli_epi64(lo3, 24)));
            // The high lane's 6 bytes move down next to the low lane's.
            let packed = _mm_or_si128(
                _mm_and_si128(d, _mm_set_epi64x(0, 0xFFFF_FFFF_FFFF)),
                _mm_and_si128(_mm_srli_si128(d, 2), _mm_set_epi64x(0xFFFF_FFFF, -0x0001_0000_0000_0000)),
            );
            let o = out.as_mut_ptr().add(12 * q);
            _mm_storel_epi64(o.cast(), packed);
            o.add(8).cast::<i32>().write_unaligned(_mm_cvtsi128_si32(_mm_srli_si128(packed, 8)));
        }
    }
    up_rgb_scalar(&mut out[12 * quads..], &cur[16 * quads..], &prev[16 * quads..]);
}

#[cfg(not(target_arch = "x86_64"))]
fn up_rgb(out: &mut [u8], cur: &[u8], prev: &[u8]) {
    up_rgb_scalar(out, cur, prev);
}

/// [`up_rgb`] a pixel at a time (the row's tail, and other CPUs).
fn up_rgb_scalar(out: &mut [u8], cur: &[u8], prev: &[u8]) {
    for ((o, c), p) in out.chunks_exact_mut(3).zip(cur.chunks_exact(4)).zip(prev.chunks_exact(4)) {
        for k in 0..3 {
            o[k] = c[k].wrapping_sub(p[k]);
        }
    }
}

/// Straight-alpha RGBA rows of `w` pixels → PNG rows, Sub then Up as in
/// [`filter_rgb_in_place`] (only drawings without a page colour take this
/// path).
fn filter_rgba(pixels: &[u8], w: usize) -> Vec<u8> {
    let row = 4 * w;
    let mut out = Vec::with_capacity(pixels.len() + pixels.len() / row.max(1));
    for (r, cur) in pixels.chunks_exact(row.max(1)).enumerate() {
        if r == 0 {
            out.push(FILTER_SUB);
            out.extend((0..row).map(|i| cur[i].wrapping_sub(if i >= 4 { cur[i - 4] } else { 0 })));
        } else {
            out.push(FILTER_UP);
            out.extend(cur.iter().zip(&pixels[(r - 1) * row..r * row]).map(|(&c, &p)| c.wrapping_sub(p)));
        }
    }
    out
}

/// tiny-skia stores premultiplied alpha; PNG wants straight alpha.
fn demultiply(rgba: &mut [u8]) {
    for px in rgba.chunks_exact_mut(4) {
        let a = px[3];
        if a == 255 || a == 0 {
            continue;
        }
        let a16 = u16::from(a);
        for c in &mut px[..3] {
            *c = ((u16::from(*c) * 255 + a16 / 2) / a16).min(255) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demultiply_restores_straight_alpha() {
        let mut px = [64, 0, 32, 128, 10, 20, 30, 255, 0, 0, 0, 0];
        demultiply(&mut px);
        assert_eq!(px, [128, 0, 64, 128, 10, 20, 30, 255, 0, 0, 0, 0]);
    }

    #[test]
    fn rgb_rows_are_filtered_sub_then_up() {
        // 9 px wide (two quads plus one), 3 rows, after 6 rows of margin.
        let w = 9;
        let rows: Vec<Vec<u8>> =
            (0..3u8).map(|r| (0..4 * w as u8).map(|i| i.wrapping_mul(37).wrapping_add(r * 91)).collect()).collect();
        let mut buf = [vec![7; 6 * 4 * w], rows.concat()].concat();
        filter_rgb_in_place(&mut buf, 6 * 4 * w, w, 3);
        let rgb = |r: usize, i: usize| rows[r][4 * (i / 3) + i % 3];
        let mut want = vec![FILTER_SUB];
        want.extend((0..3 * w).map(|i| rgb(0, i).wrapping_sub(if i >= 3 { rgb(0, i - 3) } else { 0 })));
        for r in 1..3 {
            want.push(FILTER_UP);
            want.extend((0..3 * w).map(|i| rgb(r, i).wrapping_sub(rgb(r - 1, i))));
        }
        assert_eq!(&buf[..want.len()], &want[..]);
    }

    #[test]
    fn rgba_rows_are_filtered_sub_then_up() {
        let px = [1u8, 2, 3, 4, 5, 7, 9, 11, 6, 6, 6, 6, 0, 0, 0, 0];
        assert_eq!(filter_rgba(&px, 2), vec![1, 1, 2, 3, 4, 4, 5, 6, 7, 2, 5, 4, 3, 2, 251, 249, 247, 245]);
    }

    #[test]
    fn bands_depend_on_width_only() {
        assert_eq!(band_rows(1000, 1000), 131);
        assert_eq!(band_rows(1000, 100_000), 262);
        assert_eq!(band_rows(100_000, 50), 16);
        assert_eq!(band_rows(10, 5), 5);
    }
}
