//! The font set used for measuring (and, by render, for drawing) labels, and
//! cached text measurement with `harfrust` — the shaper `usvg` itself uses,
//! so a width measured here is the width resvg draws.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use harfrust::{Direction, FontRef, Script, ShapeOptions, ShapePlan, ShaperData, UnicodeBuffer};

mod outline;
pub use outline::{PlacedGlyph, Seg};

/// Liberation Sans 2 (regular), the default face: metric-compatible with
/// Arial, which is what mermaid's `"trebuchet ms", verdana, arial` font
/// stack gets in headless Chromium on Linux (mermaid-cli), so labels wrap
/// where mermaid's do. SIL OFL 1.1 (assets/fonts/LICENSE-Liberation.txt).
/// Embedded so output never depends on host fonts.
pub static LIBERATION_SANS: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Regular.ttf");
/// Liberation Sans Bold, for `**bold**` markdown and `<b>` runs.
pub static LIBERATION_SANS_BOLD: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Bold.ttf");
/// Liberation Sans Italic, for `*italic*` markdown and `<i>` runs.
pub static LIBERATION_SANS_ITALIC: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Italic.ttf");
/// Liberation Sans Bold Italic, for bold italic runs.
pub static LIBERATION_SANS_BOLD_ITALIC: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-BoldItalic.ttf");
/// DejaVu Sans (regular), the fallback for characters Liberation Sans
/// lacks (`⇒`, `✓`, `∀`, `∈`, box drawing, …: DejaVu has some 3,700 more).
pub static DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold, the fallback for bold runs.
pub static DEJAVU_SANS_BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// Comic Neue 2.51 (regular), the handwriting face of `font = "Comic
/// Neue"` (for hand-drawn renderings). SIL OFL 1.1
/// (assets/fonts/LICENSE-ComicNeue.txt).
pub static COMIC_NEUE: &[u8] = include_bytes!("../../assets/fonts/ComicNeue-Regular.otf");
/// Comic Neue Bold, for bold runs in the handwriting face.
pub static COMIC_NEUE_BOLD: &[u8] = include_bytes!("../../assets/fonts/ComicNeue-Bold.otf");

/// The embedded fonts in lookup order: the primary regular, bold, italic
/// and bold italic faces (Liberation Sans), then the fallbacks (DejaVu Sans
/// regular and bold). Render loads exactly these into its font database so
/// that what is drawn is what was measured.
pub fn fonts() -> [&'static [u8]; 6] {
    [
        LIBERATION_SANS,
        LIBERATION_SANS_BOLD,
        LIBERATION_SANS_ITALIC,
        LIBERATION_SANS_BOLD_ITALIC,
        DEJAVU_SANS,
        DEJAVU_SANS_BOLD,
    ]
}

/// Font file bytes, shared without copying: the embedded fonts are used
/// straight from the binary's static data, user fonts from the heap. The
/// same type `fontdb` takes, so render hands them on as they are.
pub type FontBytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// Why a font could not be used.
#[derive(Debug, thiserror::Error)]
#[error("not a usable font file: {0}")]
pub struct FontError(String);

/// One font file held in memory.
#[derive(Clone)]
struct Face {
    data: FontBytes,
    upem: f32,
    /// Weight class 600 or more (OS/2 `usWeightClass`, the weight fontdb
    /// reads): a fallback of the primary's boldness is preferred.
    bold: bool,
    /// Shaping tables, parsed on first use (a face that measures nothing,
    /// like the italic ones in most charts, costs nothing) and then once
    /// per face, not once per string.
    shaper_data: Arc<OnceLock<ShaperData>>,
}

impl Face {
    fn new(data: FontBytes) -> Result<Face, FontError> {
        let font = FontRef::from_index((*data).as_ref(), 0).map_err(|e| FontError(e.to_string()))?;
        // unitsPerEm is the u16 at byte 18 of the `head` table.
        let head = font.table_data(harfrust::Tag::new(b"head")).ok_or_else(|| FontError("no head table".into()))?;
        let upem = f32::from(head.read_at::<u16>(18).map_err(|e| FontError(e.to_string()))?);
        if upem <= 0.0 {
            return Err(FontError("units per em is zero".into()));
        }
        // usWeightClass is the u16 at byte 4 of `OS/2`; without one fontdb
        // takes 400, and so does this.
        let weight = font.table_data(harfrust::Tag::new(b"OS/2")).and_then(|t| t.read_at::<u16>(4).ok()).unwrap_or(400);
        Ok(Face { data, upem, bold: is_bold(weight), shaper_data: Arc::new(OnceLock::new()) })
    }

    fn bytes(&self) -> &[u8] {
        (*self.data).as_ref()
    }
}

/// Whether a face of this weight class counts as bold when a fallback is
/// chosen.
pub fn is_bold(weight: u16) -> bool {
    weight >= 600
}

/// The fallback rule measurement and drawing share (render's fallback
/// selector for usvg uses it too, so what is drawn is what was measured):
/// among `faces` in order, each with its boldness, the first of boldness
/// `bold` that `has` the character, else the first that has it.
pub fn pick_fallback<T: Copy>(faces: &[(T, bool)], bold: bool, has: impl Fn(T) -> bool) -> Option<T> {
    faces.iter().filter(|f| f.1 == bold).chain(faces).map(|f| f.0).find(|&id| has(id))
}

type PlanKey = (u64, FaceId, Script, Direction);

thread_local! {
    /// Shape plans are not `Send`, so they are cached per thread.
    static PLANS: RefCell<Vec<(PlanKey, ShapePlan)>> = const { RefCell::new(Vec::new()) };
}

/// A shaped glyph in font units.
#[derive(Debug, Clone, Copy)]
struct ShapedGlyph {
    id: u32,
    x_advance: i32,
    x_offset: i32,
    y_offset: i32,
}

/// Index into [`Fonts`]' faces: 0 regular, 1 bold, 2 italic, 3 bold
/// italic, [`FIRST_FALLBACK`].. fallbacks.
type FaceId = u8;

/// Faces before this index are the primary styles; the rest are fallbacks.
const FIRST_FALLBACK: FaceId = 4;

/// The fonts labels are measured with: regular, bold, italic and bold
/// italic primary faces (embedded Liberation Sans unless the user gave
/// `--font`) plus fallback faces for characters the primary lacks
/// (embedded DejaVu Sans regular and bold, then any added with
/// [`Fonts::add_fallback`], e.g. CJK): the first fallback of the primary
/// face's boldness that has the character, else the first that has it.
/// Measurements are cached per face and string, so measuring thousands of
/// labels shapes each distinct word only once.
pub struct Fonts {
    /// Process-unique id, keying this set's shape plans in [`PLANS`].
    id: u64,
    faces: Vec<Face>,
    /// `(face, text)` → advance in font units. Only looked up, never
    /// iterated, so its order cannot reach any output.
    cache: Mutex<HashMap<(FaceId, Box<str>), i64>>,
    /// Per-character "which face draws this" decisions for non-ASCII
    /// text, keyed by the character and whether the primary face is bold.
    coverage: Mutex<HashMap<(char, bool), FaceId>>,
    /// Glyph outlines read so far (see [`Fonts::glyphs`]).
    outlines: Mutex<outline::OutlineCache>,
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
    /// The embedded Liberation Sans regular, bold, italic and bold italic
    /// with DejaVu Sans regular and bold as fallbacks, used in place from
    /// the binary (no copy, nothing parsed until used).
    pub fn embedded() -> Fonts {
        let faces = fonts().into_iter().map(|b| Face::new(Arc::new(b)).expect("embedded faces parse")).collect();
        Fonts::from_faces(faces)
    }

    /// A user font (render's `--font FILE`) used for every style, with the
    /// embedded fonts kept as fallbacks.
    pub fn with_user_font(bytes: Vec<u8>) -> Result<Fonts, FontError> {
        let user = Face::new(Arc::new(bytes))?;
        let emb = Fonts::embedded();
        let mut faces = vec![user.clone(), user.clone(), user.clone(), user];
        faces.extend(emb.faces);
        Ok(Fonts::from_faces(faces))
    }

    /// The handwriting face (Comic Neue regular and bold; italics drawn
    /// upright) with the embedded fonts as fallbacks.
    pub fn handwriting() -> Fonts {
        let face = |b: &'static [u8]| Face::new(Arc::new(b)).expect("embedded faces parse");
        let (regular, bold) = (face(COMIC_NEUE), face(COMIC_NEUE_BOLD));
        let mut faces = vec![regular.clone(), bold.clone(), regular, bold];
        faces.extend(Fonts::embedded().faces);
        Fonts::from_faces(faces)
    }

    /// Add a fallback font for characters no earlier face has (e.g. a CJK
    /// font; usvg's own fallback would draw such characters as boxes).
    pub fn add_fallback(&mut self, bytes: Vec<u8>) -> Result<(), FontError> {
        if self.faces.len() >= usize::from(FaceId::MAX) {
            return Err(FontError("too many fallback fonts".into()));
        }
        self.faces.push(Face::new(Arc::new(bytes))?);
        self.coverage.lock().unwrap_or_else(|e| e.into_inner()).clear();
        Ok(())
    }

    fn from_faces(faces: Vec<Face>) -> Fonts {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Fonts {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            faces,
            cache: Mutex::new(HashMap::new()),
            coverage: Mutex::new(HashMap::new()),
            outlines: Mutex::new(HashMap::new()),
        }
    }

    /// Every face's bytes in lookup order (primary regular, bold, italic,
    /// bold italic, fallbacks), for render to load into its font database.
    pub fn face_data(&self) -> Vec<FontBytes> {
        self.faces.iter().map(|f| f.data.clone()).collect()
    }

    /// Advance width of `text` in pixels at `font_size`, shaped with kerning
    /// as usvg does; characters the primary face lacks are measured with the
    /// first fallback face that has them.
    pub fn measure(&self, text: &str, font_size: f32, bold: bool) -> f32 {
        self.measure_styled(text, font_size, bold, false)
    }

    /// [`Fonts::measure`] for any of the four styles, so italic runs are
    /// measured with the oblique face they are drawn with.
    pub fn measure_styled(&self, text: &str, font_size: f32, bold: bool, italic: bool) -> f32 {
        let primary: FaceId = u8::from(bold) + 2 * u8::from(italic);
        let mut total = 0.0f32;
        for (face, run) in self.split_by_face(text, primary) {
            let units = self.advance_units(face, run);
            total += units as f32 * font_size / self.faces[usize::from(face)].upem;
        }
        total
    }

    /// Splits `text` into maximal runs drawn by one face each: a character
    /// goes to [`Fonts::face_for`]'s face (ASCII to the primary).
    fn split_by_face<'t>(&self, text: &'t str, primary: FaceId) -> Vec<(FaceId, &'t str)> {
        if text.is_ascii() || self.faces.len() <= usize::from(FIRST_FALLBACK) {
            return vec![(primary, text)];
        }
        let mut runs: Vec<(FaceId, &'t str)> = Vec::new();
        let mut start = 0;
        let mut cur: Option<FaceId> = None;
        for (i, ch) in text.char_indices() {
            // Every character the primary has stays with it, as usvg (and a
            // browser) draws it: only the missing ones go to a fallback.
            let face = if ch.is_ascii() { primary } else { self.face_for(ch, primary) };
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

    /// The face that draws `ch` in a run of `primary`: the primary if it
    /// maps `ch` to a real glyph, else the first fallback of the primary's
    /// boldness that does, else the first fallback that does (else the
    /// primary, which draws its .notdef box).
    fn face_for(&self, ch: char, primary: FaceId) -> FaceId {
        let bold = self.faces[usize::from(primary)].bold;
        if let Some(&f) = self.coverage.lock().unwrap_or_else(|e| e.into_inner()).get(&(ch, bold)) {
            return if f == 0 { primary } else { f };
        }
        let mut buf = [0u8; 4];
        let s = ch.encode_utf8(&mut buf);
        let has = |id: FaceId| self.shape(id, s).iter().all(|&(g, _)| g != 0);
        let found = if has(primary) {
            0
        } else {
            let fallbacks: Vec<(FaceId, bool)> =
                (FIRST_FALLBACK..self.faces.len() as FaceId).map(|id| (id, self.faces[usize::from(id)].bold)).collect();
            pick_fallback(&fallbacks, bold, has).unwrap_or(0)
        };
        self.coverage.lock().unwrap_or_else(|e| e.into_inner()).insert((ch, bold), found);
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
        self.shape_positioned(face_id, text).iter().map(|g| (g.id, g.x_advance)).collect()
    }

    /// Shapes `text` with one face, every glyph with its position (font
    /// units).
    fn shape_positioned(&self, face_id: FaceId, text: &str) -> Vec<ShapedGlyph> {
        let face = &self.faces[usize::from(face_id)];
        let Ok(font) = FontRef::from_index(face.bytes(), 0) else { return Vec::new() };
        let shaper = face.shaper_data.get_or_init(|| ShaperData::new(&font)).shaper(&font).build();
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
        out.glyph_infos()
            .iter()
            .zip(out.glyph_positions())
            .map(|(i, p)| ShapedGlyph {
                id: i.glyph_id,
                x_advance: p.x_advance,
                x_offset: p.x_offset,
                y_offset: p.y_offset,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_plausible_and_bold_is_wider() {
        let f = Fonts::embedded();
        let w = f.measure("Hello world", 16.0, false);
        // Liberation Sans at 16 px: about 0.5 em per character.
        assert!(w > 70.0 && w < 100.0, "{w}");
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
        // Another DejaVu face as a further fallback: it lacks CJK too, so
        // the width must not change and nothing must panic.
        let before = f.measure("漢字 ok", 16.0, false);
        f.add_fallback(DEJAVU_SANS_BOLD.to_vec()).unwrap();
        let after = f.measure("漢字 ok", 16.0, false);
        assert_eq!(before, after);
        assert!(Fonts::with_user_font(b"not a font".to_vec()).is_err());
    }

    #[test]
    fn characters_liberation_lacks_are_measured_with_dejavu() {
        let f = Fonts::embedded();
        let dejavu = |data: &'static [u8]| Fonts::from_faces(vec![Face::new(Arc::new(data)).unwrap(); 4]);
        let (regular, bold) = (dejavu(DEJAVU_SANS), dejavu(DEJAVU_SANS_BOLD));
        // `⇒`, `✓` and `∀` are not in Liberation Sans: measured (and drawn)
        // with DejaVu Sans of the run's weight, not as .notdef boxes.
        for ch in ["⇒", "✓", "∀"] {
            assert_eq!(f.measure(ch, 16.0, false), regular.measure(ch, 16.0, false), "{ch}");
            assert_eq!(f.measure(ch, 16.0, true), bold.measure(ch, 16.0, false), "{ch}");
            assert_eq!(f.measure_styled(ch, 16.0, false, true), regular.measure(ch, 16.0, false), "{ch}");
        }
        assert!(f.shape(FIRST_FALLBACK, "⇒✓∀").iter().all(|&(g, _)| g != 0));
        assert!(f.shape(0, "⇒").iter().all(|&(g, _)| g == 0));
        // What Liberation Sans has stays with it, ASCII around them too.
        assert_ne!(f.measure("≤", 16.0, false), regular.measure("≤", 16.0, false));
        let arrow = f.measure("⇒", 16.0, false);
        let sum = f.measure("a ", 16.0, false) + arrow + f.measure(" b", 16.0, false);
        assert!((f.measure("a ⇒ b", 16.0, false) - sum).abs() < 1e-3);
        assert_eq!(f.split_by_face("a ⇒ b", 0).iter().map(|r| r.0).collect::<Vec<_>>(), [0, FIRST_FALLBACK, 0]);
        assert_eq!(f.split_by_face("a ⇒ b", 1).iter().map(|r| r.0).collect::<Vec<_>>(), [1, FIRST_FALLBACK + 1, 1]);
    }

    #[test]
    fn embedded_faces_are_liberation_sans_with_arial_metrics() {
        let f = Fonts::embedded();
        // Arial's advances (2048 units per em): `N` 1479, `o` 1139; so "No"
        // at 16 px is 20.453 px, the width mermaid-cli measured.
        assert!((f.measure("No", 16.0, false) - 20.453).abs() < 0.01, "{}", f.measure("No", 16.0, false));
        assert_eq!(f.faces.len(), 6);
        assert!(!f.faces[0].bold && f.faces[1].bold && !f.faces[2].bold && f.faces[3].bold);
        assert!(!f.faces[4].bold && f.faces[5].bold);
    }

    #[test]
    fn italic_measured_with_italic_faces() {
        let f = Fonts::embedded();
        let upright = f.measure_styled("Italic words", 16.0, false, false);
        let italic = f.measure_styled("Italic words", 16.0, false, true);
        let bold_italic = f.measure_styled("Italic words", 16.0, true, true);
        // Arial's italic advances are its upright ones; the outlines differ.
        assert!(italic > 0.0 && (italic - upright).abs() < 1.0, "{upright} {italic}");
        assert!(bold_italic > italic, "{italic} {bold_italic}");
        let outline = |italic| f.glyphs("I", 16.0, false, italic).0[0].outline.clone();
        assert_ne!(outline(false), outline(true));
        assert_eq!(f.measure_styled("x", 16.0, true, false), f.measure("x", 16.0, true));
    }
}
