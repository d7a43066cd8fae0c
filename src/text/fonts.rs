//! The font set used for measuring (and, by render, for drawing) labels, and
//! cached text measurement with `harfrust` — the shaper `usvg` itself uses,
//! so a width measured here is the width resvg draws.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use harfrust::{Direction, FontRef, Script, ShapeOptions, ShapePlan, ShaperData, UnicodeBuffer};

/// DejaVu Sans (regular), embedded so output never depends on host fonts.
pub static DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold, for `**bold**` markdown and `<b>` runs.
pub static DEJAVU_SANS_BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// The embedded fonts as `(family-independent) bytes`: regular then bold.
/// Render loads exactly these into its font database so that what is drawn
/// is what was measured.
pub fn fonts() -> [&'static [u8]; 2] {
    [DEJAVU_SANS, DEJAVU_SANS_BOLD]
}

/// Why a font could not be used.
#[derive(Debug, thiserror::Error)]
#[error("not a usable font file: {0}")]
pub struct FontError(String);

/// One font file held in memory.
#[derive(Clone)]
struct Face {
    data: Arc<[u8]>,
    upem: f32,
    /// Shaping tables parsed once per face, not once per string.
    shaper_data: Arc<ShaperData>,
}

impl Face {
    fn new(data: Arc<[u8]>) -> Result<Face, FontError> {
        let font = FontRef::from_index(&data, 0).map_err(|e| FontError(e.to_string()))?;
        let shaper_data = ShaperData::new(&font);
        let upem = shaper_data.shaper(&font).build().units_per_em() as f32;
        if upem <= 0.0 {
            return Err(FontError("units per em is zero".into()));
        }
        Ok(Face { data: data.clone(), upem, shaper_data: Arc::new(shaper_data) })
    }
}

type PlanKey = (u64, FaceId, Script, Direction);

thread_local! {
    /// Shape plans are not `Send`, so they are cached per thread.
    static PLANS: RefCell<Vec<(PlanKey, ShapePlan)>> = const { RefCell::new(Vec::new()) };
}

/// Index into [`Fonts`]' faces: 0 regular, 1 bold, 2.. fallbacks.
type FaceId = u8;

/// The fonts labels are measured with: a regular and a bold primary face
/// (embedded DejaVu Sans unless the user gave `--font`) plus optional
/// fallback faces tried, in order, for characters the primary lacks (CJK,
/// …). Measurements are cached per face and string, so measuring thousands
/// of labels shapes each distinct word only once.
pub struct Fonts {
    /// Process-unique id, keying this set's shape plans in [`PLANS`].
    id: u64,
    faces: Vec<Face>,
    /// `(face, text)` → advance in font units. Only looked up, never
    /// iterated, so its order cannot reach any output.
    cache: Mutex<HashMap<(FaceId, Box<str>), i64>>,
    /// Per-character "which face draws this" decisions for non-ASCII text.
    coverage: Mutex<HashMap<char, FaceId>>,
}

impl std::fmt::Debug for Fonts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Fonts({} faces)", self.faces.len())
    }
}

impl Default for Fonts {
    fn default() -> Self {
        Fonts::embedded()
    }
}

impl Fonts {
    /// The embedded DejaVu Sans regular and bold.
    pub fn embedded() -> Fonts {
        let regular = Face::new(Arc::from(DEJAVU_SANS)).expect("embedded DejaVu Sans parses");
        let bold = Face::new(Arc::from(DEJAVU_SANS_BOLD)).expect("embedded DejaVu Sans Bold parses");
        Fonts::from_faces(vec![regular, bold])
    }

    /// A user font (render's `--font FILE`) used for both regular and bold
    /// text, with the embedded fonts kept as fallbacks.
    pub fn with_user_font(bytes: Vec<u8>) -> Result<Fonts, FontError> {
        let user = Face::new(Arc::from(bytes))?;
        let emb = Fonts::embedded();
        let mut faces = vec![user.clone(), user];
        faces.extend(emb.faces);
        Ok(Fonts::from_faces(faces))
    }

    /// Add a fallback font for characters no earlier face has (e.g. a CJK
    /// font; usvg's own fallback would draw such characters as boxes).
    pub fn add_fallback(&mut self, bytes: Vec<u8>) -> Result<(), FontError> {
        if self.faces.len() >= usize::from(FaceId::MAX) {
            return Err(FontError("too many fallback fonts".into()));
        }
        self.faces.push(Face::new(Arc::from(bytes))?);
        self.coverage.lock().unwrap_or_else(|e| e.into_inner()).clear();
        Ok(())
    }

    fn from_faces(faces: Vec<Face>) -> Fonts {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Fonts { id: NEXT.fetch_add(1, Ordering::Relaxed), faces, cache: Mutex::new(HashMap::new()), coverage: Mutex::new(HashMap::new()) }
    }

    /// Every face's bytes in lookup order (primary regular, primary bold,
    /// fallbacks), for render to load into its font database.
    pub fn face_data(&self) -> Vec<Arc<[u8]>> {
        self.faces.iter().map(|f| f.data.clone()).collect()
    }

    /// Advance width of `text` in pixels at `font_size`, shaped with kerning
    /// as usvg does; characters the primary face lacks are measured with the
    /// first fallback face that has them.
    pub fn measure(&self, text: &str, font_size: f32, bold: bool) -> f32 {
        let primary: FaceId = if bold { 1 } else { 0 };
        let mut total = 0.0f32;
        for (face, run) in self.split_by_face(text, primary) {
            let units = self.advance_units(face, run);
            total += units as f32 * font_size / self.faces[usize::from(face)].upem;
        }
        total
    }

    /// Splits `text` into maximal runs drawn by one face each.
    fn split_by_face<'t>(&self, text: &'t str, primary: FaceId) -> Vec<(FaceId, &'t str)> {
        if text.is_ascii() || self.faces.len() <= 2 {
            return vec![(primary, text)];
        }
        let mut runs: Vec<(FaceId, &'t str)> = Vec::new();
        let mut start = 0;
        let mut cur: Option<FaceId> = None;
        for (i, ch) in text.char_indices() {
            let face = if ch.is_ascii() || ch.is_whitespace() {
                cur.unwrap_or(primary)
            } else {
                self.face_for(ch, primary)
            };
            match cur {
                Some(c) if c != face => {
                    runs.push((c, &text[start..i]));
                    start = i;
                    cur = Some(face);
                }
                None => cur = Some(face),
                _ => {}
            }
        }
        runs.push((cur.unwrap_or(primary), &text[start..]));
        runs
    }

    /// First face (primary first) that maps `ch` to a real glyph.
    fn face_for(&self, ch: char, primary: FaceId) -> FaceId {
        if let Some(&f) = self.coverage.lock().unwrap_or_else(|e| e.into_inner()).get(&ch) {
            return if f == 0 { primary } else { f };
        }
        let mut buf = [0u8; 4];
        let s = ch.encode_utf8(&mut buf);
        let mut found = 0;
        for id in std::iter::once(primary).chain(2..self.faces.len() as FaceId) {
            if self.shape(id, s).iter().all(|&(g, _)| g != 0) {
                found = if id == primary { 0 } else { id };
                break;
            }
        }
        self.coverage.lock().unwrap_or_else(|e| e.into_inner()).insert(ch, found);
        if found == 0 { primary } else { found }
    }

    fn advance_units(&self, face: FaceId, text: &str) -> i64 {
        let key = (face, Box::<str>::from(text));
        if let Some(&u) = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return u;
        }
        let units: i64 = self.shape(face, text).iter().map(|&(_, adv)| i64::from(adv)).sum();
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).insert(key, units);
        units
    }

    /// Shapes `text` with one face: `(glyph id, x advance)` per glyph.
    fn shape(&self, face_id: FaceId, text: &str) -> Vec<(u32, i32)> {
        let face = &self.faces[usize::from(face_id)];
        let Ok(font) = FontRef::from_index(&face.data, 0) else { return Vec::new() };
        let shaper = face.shaper_data.shaper(&font).build();
        let mut buffer = UnicodeBuffer::new();
        buffer.push_str(text);
        buffer.guess_segment_properties();
        let (script, dir) = (buffer.script(), buffer.direction());
        // Compiling a shape plan costs more than shaping a word: keep one
        // per (font set, face, script, direction) and thread.
        let out = PLANS.with(|plans| {
            let mut plans = plans.borrow_mut();
            let key = (self.id, face_id, script, dir);
            let pos = match plans.iter().position(|(k, _)| *k == key) {
                Some(p) => p,
                None => {
                    plans.push((key, ShapePlan::new(&shaper, dir, Some(script), None, &[])));
                    plans.len() - 1
                }
            };
            shaper.shape(buffer, ShapeOptions::new().plan(Some(&plans[pos].1)))
        });
        out.glyph_infos().iter().zip(out.glyph_positions()).map(|(i, p)| (i.glyph_id, p.x_advance)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_plausible_and_bold_is_wider() {
        let f = Fonts::embedded();
        let w = f.measure("Hello world", 16.0, false);
        // DejaVu Sans at 16 px: about 0.55 em per character.
        assert!(w > 70.0 && w < 110.0, "{w}");
        assert!(f.measure("Hello world", 16.0, true) > w);
        assert_eq!(f.measure("", 16.0, false), 0.0);
        // Scaling is linear in the font size.
        let w32 = f.measure("Hello world", 32.0, false);
        assert!((w32 - 2.0 * w).abs() < 1e-3);
    }

    #[test]
    fn cached_measure_is_stable() {
        let f = Fonts::embedded();
        let a = f.measure("Decision?", 16.0, false);
        let b = f.measure("Decision?", 16.0, false);
        assert_eq!(a, b);
    }

    #[test]
    fn fallback_face_used_for_missing_chars() {
        let mut f = Fonts::embedded();
        // A second copy of the bold face as a "fallback": it lacks CJK too,
        // so the width must not change and nothing must panic.
        let before = f.measure("漢字 ok", 16.0, false);
        f.add_fallback(DEJAVU_SANS_BOLD.to_vec()).unwrap();
        let after = f.measure("漢字 ok", 16.0, false);
        assert_eq!(before, after);
        assert!(Fonts::with_user_font(b"not a font".to_vec()).is_err());
    }
}
