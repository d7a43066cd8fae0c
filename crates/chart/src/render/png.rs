//! SVG → pixels (resvg/tiny-skia) → PNG (the `png` crate's fastest mode,
//! about ten times faster than tiny-skia's own encoder), drawn and encoded
//! band by band in [`super::raster`].
//!
//! Fonts come only from the bytes handed in (the embedded fonts, or
//! `--font`), never from the host, so a PNG is the same on every machine.

use std::sync::Arc;

use usvg::fontdb;

use super::glyphs::GlyphLine;
use crate::text::{FontBytes, is_bold, pick_fallback};
use flowbench_support::timings;

/// Default cap on the pixels of one PNG (width × height after scaling).
/// Drawing is banded, so memory stays flat (a 111 Mpx PNG peaks under
/// 90 MB); what grows is time, about 6 ns a pixel, and the file becomes
/// more than image viewers and models take. 200 Mpx (a 1,000-node random
/// chart is about 55 Mpx) keeps a runaway chart to a couple of seconds and
/// fails it with a clear message. Raise it with `--max-pixels`.
pub const DEFAULT_MAX_PIXELS: u64 = 200_000_000;

/// Why rasterising failed.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("internal SVG could not be parsed: {0}")]
    Svg(#[from] usvg::Error),
    #[error(
        "PNG would be {w}×{h} px ({mpx:.1} Mpx), above the limit of {limit} px; lower --scale or raise --max-pixels"
    )]
    TooLarge { w: u32, h: u32, mpx: f64, limit: u64 },
    #[error(
        "PNG would be at least {mpx:.1} Mpx (the boxes of its {nodes} nodes alone cover that much), above the limit of {limit} px; lower --scale or raise --max-pixels"
    )]
    TooLargeAtLeast { mpx: f64, nodes: usize, limit: u64 },
    #[error("scale must be a positive finite number, got {0}")]
    BadScale(f32),
    #[error("PNG encoding failed: {0}")]
    Io(#[from] std::io::Error),
    /// (Not a `source`: the message already says it.)
    #[error("damaging the image failed: {0}")]
    Damage(super::damage::DamageError),
    #[error("cannot allocate a {w}×{h} px drawing band")]
    Alloc { w: u32, h: u32 },
}

/// A font database holding exactly `faces`, with every generic family
/// (`sans-serif`, `serif`, …) mapped to the first face's family so no SVG
/// font name can reach for a system font.
pub fn font_database(faces: &[FontBytes]) -> fontdb::Database {
    let mut db = fontdb::Database::new();
    for f in faces {
        db.load_font_source(fontdb::Source::Binary(Arc::clone(f)));
    }
    let primary = db.faces().next().and_then(|f| f.families.first()).map(|(name, _)| name.clone());
    if let Some(name) = primary {
        db.set_sans_serif_family(name.clone());
        db.set_serif_family(name.clone());
        db.set_monospace_family(name.clone());
        db.set_cursive_family(name.clone());
        db.set_fantasy_family(name);
    }
    db
}

/// The family name usvg should fall back to (the first face's).
pub fn primary_family(db: &fontdb::Database) -> String {
    db.faces().next().and_then(|f| f.families.first()).map(|(n, _)| n.clone()).unwrap_or_else(|| "sans-serif".into())
}

/// usvg's choice of a face for a character the label's face lacks, made
/// as `text::Fonts` makes it when measuring (the database holds the same
/// faces in the same order): the first face of the base face's boldness
/// that has the character, else the first that has it. usvg's own choice
/// (the first face whose style, weight or stretch matches) would draw a
/// bold `⇒` with the regular fallback where bold DejaVu was measured.
///
/// Only labels left as `<text>` (a user font style) meet this; usvg then
/// shapes the whole line with the fallback face if it has every character
/// (DejaVu Sans mostly has), so such a line with a character Liberation
/// Sans lacks is drawn all in DejaVu Sans, wider than measured. Outlined
/// labels (every other label of a PNG) switch faces per character.
fn fallback_selector() -> usvg::FallbackSelectionFn<'static> {
    Box::new(|c, used, db| {
        let bold = is_bold(db.face(*used.first()?)?.weight.0);
        let has = |id: fontdb::ID| {
            db.with_face_data(id, |data, index| {
                use skrifa::MetadataProvider;
                skrifa::FontRef::from_index(data, index).ok().and_then(|f| f.charmap().map(c)).is_some()
            })
            .unwrap_or(false)
        };
        let faces: Vec<(fontdb::ID, bool)> =
            db.faces().filter(|f| !used.contains(&f.id)).map(|f| (f.id, is_bold(f.weight.0))).collect();
        pick_fallback(&faces, bold, has)
    })
}

/// Pixel size of a `width`×`height` drawing at `scale`, or the reason it
/// is refused. Callers that know the drawing's size check this before doing
/// any work, so an oversize chart fails in milliseconds.
pub fn pixel_size(width: f32, height: f32, scale: f32, max_pixels: u64) -> Result<(u32, u32), PngError> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(PngError::BadScale(scale));
    }
    let w = (width * scale).ceil().clamp(1.0, u32::MAX as f32) as u32;
    let h = (height * scale).ceil().clamp(1.0, u32::MAX as f32) as u32;
    if u64::from(w) * u64::from(h) > max_pixels {
        return Err(PngError::TooLarge { w, h, mpx: f64::from(w) * f64::from(h) / 1e6, limit: max_pixels });
    }
    Ok((w, h))
}

/// Rasterise `svg` at `scale` and encode it as PNG; `glyphs` are the label
/// lines its placeholders stand for (see [`super::glyphs`]).
pub fn svg_to_png(
    svg: &str,
    glyphs: &[GlyphLine],
    scale: f32,
    db: &Arc<fontdb::Database>,
    max_pixels: u64,
) -> Result<Vec<u8>, PngError> {
    let (tree, w, h) = parse(svg, scale, db, max_pixels)?;
    timings::time("raster+png", || super::raster::encode_png(&tree, glyphs, scale, w, h))
}

/// Rasterise `svg` at `scale` into RGB pixels (see
/// [`super::raster::draw_rgb`]), for the raster damage.
pub fn svg_to_rgb(
    svg: &str,
    glyphs: &[GlyphLine],
    scale: f32,
    db: &Arc<fontdb::Database>,
    max_pixels: u64,
) -> Result<image::RgbImage, PngError> {
    let (tree, w, h) = parse(svg, scale, db, max_pixels)?;
    let rgb = timings::time("raster", || super::raster::draw_rgb(&tree, glyphs, scale, w, h))?;
    image::RgbImage::from_raw(w, h, rgb).ok_or(PngError::Alloc { w, h })
}

/// `svg` as usvg's tree, with its pixel size at `scale`.
fn parse(
    svg: &str,
    scale: f32,
    db: &Arc<fontdb::Database>,
    max_pixels: u64,
) -> Result<(usvg::Tree, u32, u32), PngError> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(PngError::BadScale(scale));
    }
    let opt = usvg::Options {
        fontdb: Arc::clone(db),
        font_family: primary_family(db),
        font_resolver: usvg::FontResolver { select_fallback: fallback_selector(), ..usvg::FontResolver::default() },
        ..usvg::Options::default()
    };
    let tree = timings::time("usvg", || usvg::Tree::from_str(svg, &opt))?;
    let size = tree.size();
    let (w, h) = pixel_size(size.width(), size.height(), scale, max_pixels)?;
    Ok((tree, w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rasterises_and_refuses_oversize() {
        let db = Arc::new(font_database(&[]));
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10" fill="red"/></svg>"#;
        let png = svg_to_png(svg, &[], 2.0, &db, DEFAULT_MAX_PIXELS).expect("png");
        assert_eq!(&png[1..4], b"PNG");
        let err = svg_to_png(svg, &[], 2.0, &db, 100).expect_err("too large");
        assert!(matches!(err, PngError::TooLarge { limit: 100, .. }), "{err:?}");
        assert!(err.to_string().contains("--max-pixels"), "{err}");
        assert!(matches!(svg_to_png(svg, &[], 0.0, &db, 100), Err(PngError::BadScale(_))));
    }
}
