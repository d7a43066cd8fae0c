//! Embedded fonts and text measurement, shared by layout (to size boxes) and
//! render (to draw what was measured), so that both agree to the pixel and no
//! output depends on the host's fonts.
//!
//! [`layout_label`] turns a label into a [`TextBlock`] the way mermaid's
//! HTML labels do: markup → hard lines ([`markup`]), then greedy word wrap
//! at [`TextStyle::wrap_width`] (the whole block then takes that width, as
//! mermaid's `max-width: 200px` div does), lines `1.5 × font_size` apart.

use serde::{Deserialize, Serialize};

use crate::mermaid::LabelType;

mod fonts;
pub mod markup;

pub use fonts::{DEJAVU_SANS, DEJAVU_SANS_BOLD, DEJAVU_SANS_BOLD_OBLIQUE, DEJAVU_SANS_OBLIQUE, FontBytes, FontError, Fonts, PlacedGlyph, Seg, fonts};

/// A label broken into lines, with its measured size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct TextBlock {
    pub lines: Vec<TextLine>,
    pub width: f32,
    pub height: f32,
    pub font_size: f32,
}

/// One line of a label: styled runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct TextLine {
    pub runs: Vec<TextRun>,
    pub width: f32,
}

/// A run of text with one style.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct TextRun {
    pub text: String,
    pub bold: bool,
    pub italic: bool,
}

/// How labels are set: mermaid's defaults are 16 px, 200 px wrap, 1.5 line
/// height.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TextStyle {
    pub font_size: f32,
    /// Lines wider than this are word-wrapped; `f32::INFINITY` disables.
    pub wrap_width: f32,
    /// Multiple of `font_size` between baselines.
    pub line_height: f32,
}

impl Default for TextStyle {
    fn default() -> Self {
        TextStyle { font_size: 16.0, wrap_width: 200.0, line_height: 1.5 }
    }
}

/// Width in pixels of `text` in the embedded font (convenience over
/// [`Fonts::measure`] with a process-wide font set).
pub fn measure(text: &str, font_size: f32, bold: bool) -> f32 {
    static DEFAULT: std::sync::OnceLock<Fonts> = std::sync::OnceLock::new();
    DEFAULT.get_or_init(Fonts::embedded).measure(text, font_size, bold)
}

/// Sets a label: markup, line breaks, word wrap, measured with `fonts`.
pub fn layout_label(label: &str, kind: LabelType, style: &TextStyle, fonts: &Fonts) -> TextBlock {
    let fs = style.font_size;
    let mut lines = Vec::new();
    let mut wrapped = false;
    for hard in markup::parse(label, kind) {
        let w = runs_width(&hard, fs, fonts);
        if w > style.wrap_width {
            wrapped = true;
            lines.extend(wrap(&hard, style, fonts));
        } else {
            lines.push(TextLine { runs: hard, width: w });
        }
    }
    // An empty label still has no lines; a label with only empty lines keeps
    // them (they take vertical space, as `<br>` alone does in HTML).
    if lines.iter().all(|l| l.runs.is_empty()) && lines.len() <= 1 {
        lines.clear();
    }
    let mut width = lines.iter().map(|l| l.width).fold(0.0, f32::max);
    if wrapped {
        width = width.max(style.wrap_width);
    }
    let height = lines.len() as f32 * fs * style.line_height;
    TextBlock { lines, width, height, font_size: fs }
}

fn runs_width(runs: &[TextRun], fs: f32, fonts: &Fonts) -> f32 {
    runs.iter().map(|r| fonts.measure_styled(&r.text, fs, r.bold, r.italic)).sum()
}

/// Greedy word wrap of one hard line; a word wider than the limit gets a
/// line of its own (it overflows, as in HTML, and the block widens).
fn wrap(line: &[TextRun], style: &TextStyle, fonts: &Fonts) -> Vec<TextLine> {
    let fs = style.font_size;
    // Words as styled pieces; `space_before` records where spaces were.
    let mut words: Vec<Vec<TextRun>> = vec![Vec::new()];
    for run in line {
        for (k, piece) in run.text.split(' ').enumerate() {
            if k > 0 {
                words.push(Vec::new());
            }
            if !piece.is_empty()
                && let Some(w) = words.last_mut()
            {
                w.push(TextRun { text: piece.to_string(), bold: run.bold, italic: run.italic });
            }
        }
    }
    words.retain(|w| !w.is_empty());
    let mut out: Vec<TextLine> = Vec::new();
    let mut cur: Vec<TextRun> = Vec::new();
    let mut cur_w = 0.0f32;
    for word in words {
        let ww = runs_width(&word, fs, fonts);
        let bold = word.first().is_some_and(|r| r.bold);
        let italic = word.first().is_some_and(|r| r.italic);
        let space = fonts.measure_styled(" ", fs, bold, italic);
        if !cur.is_empty() && cur_w + space + ww > style.wrap_width {
            out.push(TextLine { width: runs_width(&cur, fs, fonts), runs: std::mem::take(&mut cur) });
            cur_w = 0.0;
        }
        if !cur.is_empty() {
            append(&mut cur, TextRun { text: " ".into(), bold, italic: word[0].italic });
            cur_w += space;
        }
        for r in word {
            append(&mut cur, r);
        }
        cur_w += ww;
    }
    if !cur.is_empty() {
        out.push(TextLine { width: runs_width(&cur, fs, fonts), runs: cur });
    }
    out
}

fn append(line: &mut Vec<TextRun>, run: TextRun) {
    if let Some(last) = line.last_mut()
        && last.bold == run.bold
        && last.italic == run.italic
    {
        last.text.push_str(&run.text);
        return;
    }
    line.push(run);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_label_one_line() {
        let f = Fonts::embedded();
        let b = layout_label("Start", LabelType::Text, &TextStyle::default(), &f);
        assert_eq!(b.lines.len(), 1);
        assert_eq!(b.height, 24.0);
        assert!(b.width > 20.0 && b.width < 60.0);
    }

    #[test]
    fn long_label_wraps_at_200() {
        let f = Fonts::embedded();
        let text = "this is a rather long label that certainly needs more than one line to fit";
        let b = layout_label(text, LabelType::String, &TextStyle::default(), &f);
        assert!(b.lines.len() >= 3, "{:?}", b.lines);
        assert_eq!(b.width, 200.0);
        for l in &b.lines {
            assert!(l.width <= 200.0, "{}", l.width);
        }
        let joined: Vec<String> = b.lines.iter().map(|l| l.runs.iter().map(|r| r.text.as_str()).collect()).collect();
        assert_eq!(joined.join(" "), text);
    }

    #[test]
    fn overlong_word_widens_block() {
        let f = Fonts::embedded();
        let b = layout_label("a Supercalifragilisticexpialidocious_and_more_and_more z", LabelType::Text, &TextStyle::default(), &f);
        assert!(b.width > 200.0);
        assert_eq!(b.lines.len(), 3);
    }

    #[test]
    fn empty_label_is_empty() {
        let f = Fonts::embedded();
        let b = layout_label("", LabelType::Text, &TextStyle::default(), &f);
        assert_eq!((b.width, b.height, b.lines.len()), (0.0, 0.0, 0));
    }
}
