//! Rendering: [`crate::layout::Geometry`] → SVG text → PNG bytes.
//!
//! - [`svg`] writes the SVG in mermaid's classic look, using [`shapes`],
//!   [`curve`], [`markers`], [`label`] and the declarations resolved by [`css`];
//! - [`theme`] and [`style`] decide colours, curve, font size and spacing
//!   (mermaid's four themes, the chart's config, `--style` files, sweeps);
//! - [`png`] rasterises with resvg using only the fonts it is given, and
//!   [`glyphs`] draws the labels of a PNG itself.
//!
//! Everything here is deterministic: same inputs, same bytes.

pub mod blend;
pub mod css;
pub mod curve;
pub mod glyphs;
pub mod hairline;
pub mod label;
pub mod markers;
pub mod pipeline;
pub mod png;
pub mod png_file;
pub mod raster;
pub mod shapes;
pub mod style;
pub mod svg;
pub mod theme;
pub mod timings;
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
    svg::write(chart, geom, &style.theme, style.curve, None)
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
    let svg = svg::write(chart, geom, &style.theme, style.curve, Some(&mut outliner));
    (svg, outliner.lines)
}
