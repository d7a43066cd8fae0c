//! Rendering: [`crate::layout::Geometry`] → SVG text → PNG bytes.
//!
//! - [`svg`] writes the SVG in mermaid's classic look, using [`shapes`],
//!   [`curve`], [`markers`], [`label`] and the declarations resolved by [`css`];
//! - [`theme`] and [`style`] decide colours, curve, font size and spacing
//!   (mermaid's four themes, the chart's config, `--style` files, sweeps);
//! - [`png`] rasterises with resvg using only the fonts it is given, and
//!   [`glyphs`] draws the labels of a PNG itself;
//! - [`rough`] redraws outlines and edges in mermaid's `handDrawn` look, and
//!   [`damage`] does a scan's or a photo's damage to the finished PNG.
//!
//! Everything here is deterministic: same inputs, same bytes.
//!
//! # How it works
//!
//! Turns a `Flowchart` plus its `layout::Geometry` into SVG text, and SVG into PNG bytes. `svg.rs` writes layers in
//! mermaid's order (clusters, edges, edge labels, nodes) using `shapes.rs` (every `Shape` with mermaid's geometry,
//! fitted to the node box), `curve.rs` (writes `layout::curve`'s segments as path data), `markers.rs`
//! (arrow/circle/cross heads), `label.rs` (one `<text>` per `TextBlock` line) and `css.rs`
//! (`classDef`/`class`/`style`/`linkStyle` declarations, whitelisted). `theme.rs` holds mermaid's four palettes;
//! `style.rs` resolves a `Style` from chart config, `--style` TOML, sweeps and flags. For a PNG, the CLI asks for
//! `Renderer::svg_for_png`, which returns the SVG plus `glyphs::GlyphLine`s: each label line shaped once
//! (`text::Fonts::glyphs`, outlines read once per glyph) and left in the SVG as an invisible placeholder path that
//! keeps its place in the drawing order, so usvg has no text to lay out. `png.rs` parses the SVG with usvg against
//! a font database built only from `text::Fonts`' bytes; `raster.rs` draws it with resvg in horizontal bands (band
//! height a function of the image size alone, so 1 and 2 threads give the same bytes; only the nodes touching a
//! band are drawn), `glyphs.rs` fills each label line at its placeholder with exact-area coverage (ten times
//! cheaper than tiny-skia's supersampling of glyph curves), `hairline.rs` strokes one-pixel lines (edges, node
//! outlines at scale 1) with Wu's algorithm where tiny-skia would draw a hairline pixel by pixel through its
//! pipeline (`blend.rs` is the shared source-over), and each band, converted to RGB and row-filtered in place,
//! streams into fdeflate inside a PNG container written by `png_file.rs`, so memory stays flat however large the
//! image. `--max-pixels` (200 Mpx) and the layout's node limit refuse oversize work with a message naming them.
//! `pipeline.rs` (`Renderer`) chains style → layout → SVG → PNG and is what the CLI, tests and benches call.

pub mod blend;
pub mod css;
pub mod curve;
pub mod damage;
pub mod glyphs;
pub mod hairline;
pub mod label;
pub mod markers;
pub mod pipeline;
pub mod png;
pub mod png_file;
pub mod raster;
pub mod rough;
pub mod shapes;
pub mod style;
pub mod svg;
pub mod theme;
pub mod xml;

use crate::layout::Geometry;
use crate::mermaid::{Flowchart, Shape};
use crate::text::Fonts;

pub use curve::Curve;
pub use style::{Style, StyleFile};
pub use theme::Theme;

/// Every [`Shape`] variant, for tests, docs and galleries that must cover
/// them all.
pub const ALL_SHAPES: [Shape; 54] = {
    use Shape::*;
    [
        Rect, Rounded, Stadium, FrRect, Cyl, Datastore, Circle, Bang, Cloud, Diam, Hex, LeanR, LeanL, TrapB, TrapT,
        DblCirc, Text, NotchRect, LinRect, SmCirc, FrCirc, Fork, Hourglass, Brace, BraceR, Braces, Bolt, Doc, Delay,
        HCyl, LinCyl, CurvTrap, DivRect, Tri, WinPane, FCirc, NotchPent, FlipTri, SlRect, Docs, StRect, BowRect,
        CrossCirc, TagDoc, TagRect, Flag, Odd, LinDoc, Ellipse, State, Choice, Note, Icon, Anchor,
    ]
};

/// The SVG of `chart` laid out as `geom`, in `style`.
pub fn to_svg(chart: &Flowchart, geom: &Geometry, style: &Style) -> String {
    svg::write(chart, geom, (&style.theme, style.curve), None, sketch(style))
}

/// The hand-drawn sketcher when the style asks for that look.
fn sketch(style: &Style) -> Option<rough::Sketch> {
    (style.look == style::Look::HandDrawn).then(|| rough::Sketch::new(style.hand_drawn_seed))
}

/// [`to_svg`] for rasterising: labels are shaped with `fonts` and returned
/// as glyph lines for the rasteriser, with placeholders in the SVG marking
/// where each is drawn (see [`glyphs`]). Not an SVG for people: alone it
/// has no text.
pub fn to_raster_svg(
    chart: &Flowchart,
    geom: &Geometry,
    style: &Style,
    fonts: &Fonts,
) -> (String, Vec<glyphs::GlyphLine>) {
    let mut outliner = glyphs::Outliner::new(fonts);
    let svg = svg::write(chart, geom, (&style.theme, style.curve), Some(&mut outliner), sketch(style));
    (svg, outliner.lines)
}
