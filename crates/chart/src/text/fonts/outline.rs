//! Labels as glyph outlines. A PNG does not need `<text>`: usvg would shape
//! every `<text>` again, rebuilding harfrust's tables each time, and parse
//! each glyph's outline anew — most of the rasteriser's time on a small
//! chart. Here each label is shaped once with the cached shaper that
//! measured it, and each glyph's outline is read from the font once.

use std::collections::HashMap;
use std::sync::Arc;

use skrifa::MetadataProvider;
use skrifa::instance::{LocationRef, Size};
use skrifa::outline::{DrawSettings, OutlinePen};

use super::{FaceId, Fonts};

/// One outline command in font units, y up (the font's own frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Seg {
    Move(f32, f32),
    Line(f32, f32),
    Quad(f32, f32, f32, f32),
    Cubic(f32, f32, f32, f32, f32, f32),
    Close,
}

/// A glyph placed on a line: its outline, where its origin sits relative
/// to the run's start on the baseline (pixels, y down), and the pixels per
/// font unit.
#[derive(Debug, Clone)]
pub struct PlacedGlyph {
    pub outline: Arc<[Seg]>,
    pub x: f32,
    pub y: f32,
    pub scale: f32,
}

/// Outlines read so far, per (face, glyph). Only looked up, never
/// iterated.
pub(super) type OutlineCache = HashMap<(FaceId, u32), Arc<[Seg]>>;

#[derive(Default)]
struct Pen(Vec<Seg>);

impl OutlinePen for Pen {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.push(Seg::Move(x, y));
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.push(Seg::Line(x, y));
    }
    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.0.push(Seg::Quad(cx0, cy0, x, y));
    }
    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.0.push(Seg::Cubic(cx0, cy0, cx1, cy1, x, y));
    }
    fn close(&mut self) {
        self.0.push(Seg::Close);
    }
}

impl Fonts {
    /// The glyphs of `text` at `font_size` in the given style, placed from
    /// the run's start, and the run's advance in pixels (what
    /// [`Fonts::measure_styled`] returns). Faces are chosen per character
    /// exactly as for measuring.
    pub fn glyphs(&self, text: &str, font_size: f32, bold: bool, italic: bool) -> (Vec<PlacedGlyph>, f32) {
        let primary: FaceId = u8::from(bold) + 2 * u8::from(italic);
        let mut placed = Vec::new();
        let mut pen_x = 0.0f32;
        for (face, run) in self.split_by_face(text, primary) {
            let scale = font_size / self.faces[usize::from(face)].upem;
            for g in self.shape_positioned(face, run) {
                if let Some(outline) = self.outline(face, g.id) {
                    placed.push(PlacedGlyph {
                        outline,
                        x: pen_x + g.x_offset as f32 * scale,
                        y: -(g.y_offset as f32) * scale,
                        scale,
                    });
                }
                pen_x += g.x_advance as f32 * scale;
            }
        }
        (placed, pen_x)
    }

    /// The outline of glyph `id` in `face`, read once and then shared;
    /// `None` for glyphs without one (spaces).
    fn outline(&self, face: FaceId, id: u32) -> Option<Arc<[Seg]>> {
        if let Some(o) = self.outlines.lock().unwrap_or_else(|e| e.into_inner()).get(&(face, id)) {
            return (!o.is_empty()).then(|| Arc::clone(o));
        }
        let font = skrifa::FontRef::from_index(self.faces[usize::from(face)].bytes(), 0).ok();
        let mut pen = Pen::default();
        if let Some(glyph) = font.as_ref().and_then(|f| f.outline_glyphs().get(skrifa::GlyphId::new(id))) {
            // Unscaled and unhinted, as usvg reads them.
            let _ = glyph.draw(DrawSettings::unhinted(Size::unscaled(), LocationRef::default()), &mut pen);
        }
        let outline: Arc<[Seg]> = pen.0.into();
        self.outlines.lock().unwrap_or_else(|e| e.into_inner()).insert((face, id), Arc::clone(&outline));
        (!outline.is_empty()).then_some(outline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyph_run_advances_like_the_measure_and_has_outlines() {
        let f = Fonts::embedded();
        let (glyphs, advance) = f.glyphs("Is x < 0?", 16.0, false, false);
        assert_eq!(advance, f.measure("Is x < 0?", 16.0, false));
        // Six visible glyphs (the spaces have no outline), left to right.
        assert_eq!(glyphs.len(), 6);
        assert!(glyphs.windows(2).all(|w| w[0].x < w[1].x));
        assert!(glyphs.iter().all(|g| matches!(g.outline.first(), Some(Seg::Move(..)))));
        let (bold, bold_advance) = f.glyphs("Is x < 0?", 16.0, true, false);
        assert!(bold_advance > advance && bold.len() == 6);
    }
}
