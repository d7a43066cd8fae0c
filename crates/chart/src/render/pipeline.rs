//! The whole chain for one chart — style → layout → SVG → PNG — with the
//! fonts loaded once and shared by every chart of a batch.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use usvg::fontdb;

use crate::layout::{self, Geometry, LayoutError, LayoutOptions};
use crate::mermaid::Flowchart;
use crate::text::{Fonts, TextStyle};

use super::damage::{self, Damage};
use super::glyphs::GlyphLine;
use super::png::{self, PngError};
use super::style::{Font, Style};
use flowbench_support::timings;

/// The family name of the embedded primary face.
const EMBEDDED_FAMILY: &str = "Liberation Sans";

/// A laid-out, drawn chart.
#[derive(Debug, Clone)]
pub struct Output {
    pub geometry: Geometry,
    pub svg: String,
    /// Label lines the rasteriser draws at the SVG's placeholders (empty
    /// unless made by [`Renderer::svg_for_png`]).
    pub glyphs: Vec<GlyphLine>,
    /// Done to the PNG after drawing (the style's damage).
    pub damage: Damage,
    /// The face the labels were measured and shaped with.
    pub font: Font,
}

/// Why a chart could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(transparent)]
    Layout(#[from] LayoutError),
    #[error(transparent)]
    Png(#[from] PngError),
}

/// Fonts for measuring (layout) and drawing (usvg), built from the same
/// bytes so the two agree. Cheap to share across threads.
pub struct Renderer {
    /// The labels' face: the embedded Liberation Sans or `--font`.
    main: Faces,
    /// The handwriting face (`font = "Comic Neue"`), loaded on first use.
    handwriting: OnceLock<Faces>,
    /// Charts with more nodes are refused (see `layout::DEFAULT_MAX_NODES`).
    pub max_nodes: usize,
    /// PNGs with more pixels are refused (see `png::DEFAULT_MAX_PIXELS`).
    pub max_pixels: u64,
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer::new(Fonts::embedded())
    }
}

/// One face set: its measuring fonts and the font database drawing it.
struct Faces {
    fonts: Fonts,
    db: Arc<fontdb::Database>,
    /// The SVG's `font-family` when the primary face is not the embedded
    /// Liberation Sans (`--font`, Comic Neue): that face's family, so a
    /// viewer and usvg draw `<text>` with the face layout measured.
    font_family: Option<String>,
}

impl Faces {
    fn new(fonts: Fonts) -> Faces {
        let db = timings::time("fontdb", || Arc::new(png::font_database(&fonts.face_data())));
        let primary = png::primary_family(&db);
        let font_family = (primary != EMBEDDED_FAMILY).then(|| format!("\"{primary}\", sans-serif"));
        Faces { fonts, db, font_family }
    }
}

impl Renderer {
    /// A renderer drawing with exactly `fonts` (and Comic Neue for styles
    /// that ask for it).
    pub fn new(fonts: Fonts) -> Renderer {
        Renderer {
            main: Faces::new(fonts),
            handwriting: OnceLock::new(),
            max_nodes: layout::DEFAULT_MAX_NODES,
            max_pixels: png::DEFAULT_MAX_PIXELS,
        }
    }

    /// The face set `font` names.
    fn faces(&self, font: Font) -> &Faces {
        match font {
            Font::Main => &self.main,
            Font::ComicNeue => self.handwriting.get_or_init(|| Faces::new(Fonts::handwriting())),
        }
    }

    /// Layout options carrying the style's spacing, font size and direction.
    pub fn layout_options(&self, style: &Style) -> LayoutOptions {
        LayoutOptions {
            node_spacing: style.node_spacing,
            rank_spacing: style.rank_spacing,
            text: TextStyle { font_size: style.font_size, ..TextStyle::default() },
            direction: style.direction,
            max_nodes: self.max_nodes,
            routing: style.routing,
            ..LayoutOptions::default()
        }
    }

    /// Lay out and draw `chart` as SVG.
    pub fn svg(&self, chart: &Flowchart, style: &Style) -> Result<Output, RenderError> {
        self.draw(chart, style, false)
    }

    /// Lay out and draw `chart` as the SVG a PNG is made from, for
    /// [`Renderer::png_of`]: the same picture, but the labels are shaped
    /// here and drawn by the rasteriser, so usvg has no text to lay out
    /// again (most of its time on small charts). Not for people: the SVG
    /// alone has no text.
    pub fn svg_for_png(&self, chart: &Flowchart, style: &Style) -> Result<Output, RenderError> {
        self.draw(chart, style, true)
    }

    /// [`Renderer::svg_for_png`] for a chart already drawn by
    /// [`Renderer::svg`], reusing its layout (for callers that write both).
    pub fn for_png(&self, chart: &Flowchart, style: &Style, drawn: Output) -> Output {
        let style = &self.with_family(style);
        let fonts = &self.faces(style.font).fonts;
        let (svg, glyphs) = timings::time("svg", || super::to_raster_svg(chart, &drawn.geometry, style, fonts));
        Output { geometry: drawn.geometry, svg, glyphs, damage: style.damage.clone(), font: style.font }
    }

    fn draw(&self, chart: &Flowchart, style: &Style, outlined: bool) -> Result<Output, RenderError> {
        let fonts = &self.faces(style.font).fonts;
        let geometry = timings::time("layout", || layout::layout(chart, &self.layout_options(style), fonts))?;
        let style = &self.with_family(style);
        let (svg, glyphs) = timings::time("svg", || match outlined {
            true => super::to_raster_svg(chart, &geometry, style, fonts),
            false => (super::to_svg(chart, &geometry, style), Vec::new()),
        });
        Ok(Output { geometry, svg, glyphs, damage: style.damage.clone(), font: style.font })
    }

    /// `style` with the user font's family in place of the theme's, if
    /// there is a user font.
    fn with_family<'s>(&self, style: &'s Style) -> Cow<'s, Style> {
        match &self.faces(style.font).font_family {
            Some(ff) if style.theme.font_family != *ff => {
                let mut s = style.clone();
                s.theme.font_family.clone_from(ff);
                Cow::Owned(s)
            }
            _ => Cow::Borrowed(style),
        }
    }

    /// The SVG of `chart` already laid out as `geometry` (as
    /// [`Renderer::svg`] draws it, without laying it out again).
    pub fn svg_of(&self, chart: &Flowchart, geometry: &Geometry, style: &Style) -> String {
        super::to_svg(chart, geometry, &self.with_family(style))
    }

    /// Refuses, before any layout work, a PNG that cannot fit in
    /// `max_pixels`: laid-out nodes never overlap, so the drawing is at
    /// least as large as the sum of the node boxes (measured with the real
    /// fonts, as layout will). A 10,000-node chart is refused in
    /// milliseconds this way instead of after seconds of layout.
    pub fn check_png(&self, chart: &Flowchart, style: &Style, scale: f32) -> Result<(), PngError> {
        png::pixel_size(1.0, 1.0, scale, u64::MAX)?;
        let ts = self.layout_options(style).text;
        let area: f64 = chart
            .nodes
            .iter()
            .map(|n| {
                let b = crate::text::layout_label(&n.label, n.label_type, &ts, &self.faces(style.font).fonts);
                let (w, h) = layout::shapes::shape_size(n.shape, b.width, b.height);
                f64::from(w) * f64::from(h)
            })
            .sum();
        let px = area * f64::from(scale) * f64::from(scale);
        if px > self.max_pixels as f64 {
            return Err(PngError::TooLargeAtLeast { mpx: px / 1e6, nodes: chart.nodes.len(), limit: self.max_pixels });
        }
        Ok(())
    }

    /// Rasterise `out` at `scale`, refusing an oversize PNG before any
    /// rasterising work, then do its damage.
    pub fn png_of(&self, out: &Output, scale: f32) -> Result<Vec<u8>, PngError> {
        png::pixel_size(out.geometry.width, out.geometry.height, scale, self.max_pixels)?;
        if out.damage.is_none() {
            return png::svg_to_png(&out.svg, &out.glyphs, scale, &self.faces(out.font).db, self.max_pixels);
        }
        let img = self.damaged(out, &out.damage, scale)?;
        Ok(timings::time("png", || damage::encode_png(&img))?)
    }

    /// The image file of `out` at `scale`, in its damage's format
    /// ([`Damage::format`]): a JPEG at the `jpeg` quality when the damage
    /// ends in the JPEG step, else a PNG. What `build` and `render` write.
    pub fn raster_of(&self, out: &Output, scale: f32) -> Result<(Vec<u8>, damage::RasterFormat), PngError> {
        let format = out.damage.format();
        let bytes = match out.damage.jpeg {
            Some(quality) => self.jpeg_of(out, scale, quality)?,
            None => self.png_of(out, scale)?,
        };
        Ok((bytes, format))
    }

    /// Rasterise `out` at `scale` as a JPEG file of `quality`, its damage
    /// done first (the JPEG encoding is its `jpeg` step: the image is not
    /// compressed twice).
    pub fn jpeg_of(&self, out: &Output, scale: f32, quality: u8) -> Result<Vec<u8>, PngError> {
        png::pixel_size(out.geometry.width, out.geometry.height, scale, self.max_pixels)?;
        let img = self.damaged(out, &Damage { jpeg: None, ..out.damage.clone() }, scale)?;
        timings::time("jpeg", || damage::encode_jpeg(&img, quality)).map_err(PngError::Damage)
    }

    /// `out` drawn as RGB pixels at `damage`'s scale, then damaged.
    fn damaged(&self, out: &Output, damage: &Damage, scale: f32) -> Result<image::RgbImage, PngError> {
        let scale = damage.draw_scale(out.geometry.width, scale);
        let img = png::svg_to_rgb(&out.svg, &out.glyphs, scale, &self.faces(out.font).db, self.max_pixels)?;
        timings::time("damage", || damage.apply(img)).map_err(PngError::Damage)
    }

    /// Rasterise an SVG made by [`Renderer::svg`] at `scale`.
    pub fn png(&self, svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
        png::svg_to_png(svg, &[], scale, &self.main.db, self.max_pixels)
    }

    /// The measuring fonts (for callers that lay out themselves).
    pub fn fonts(&self) -> &Fonts {
        &self.main.fonts
    }
}
