//! Embedded fonts and text measurement, shared by layout (to size boxes) and
//! render (to draw what was measured), so that both agree to the pixel and no
//! output depends on the host's fonts.
//!
//! [`layout_label`] turns a label into a [`TextBlock`] the way mermaid's
//! HTML labels do: markup → hard lines ([`markup`]), then word wrap at
//! [`TextStyle::wrap_width`] into as many lines as the browser's greedy
//! wrap makes, with balanced breaks (no orphan word on the last line); the
//! whole block then takes that width, as mermaid's `max-width: 200px` div
//! does, lines `1.5 × font_size` apart. Widths are those of the embedded
//! Liberation Sans, metric-compatible with the Arial that mermaid-cli's
//! Chromium draws with, so labels wrap into mermaid's line counts.
//!
//! # How it works
//!
//! Owns the fonts and every width: Liberation Sans 2 regular, bold, italic and bold italic (Arial's metrics, which
//! mermaid-cli's Chromium draws mermaid's font stack with, so labels wrap where mermaid's do) and DejaVu Sans
//! regular and bold as fallbacks are embedded and used in place from the binary (`text::fonts()` gives render the
//! same bytes). A character the primary face lacks is measured and drawn with the first fallback of the primary's
//! boldness that has it (render's usvg fallback selector makes the same choice); a `Fonts` value may swap in a user
//! font (`--font`, the embedded faces then all fallbacks) and add more fallbacks. Widths come from `harfrust` 0.12,
//! the shaper usvg 0.49 itself uses, so layout measures exactly what resvg draws; advances are cached per (face,
//! string) and shape plans per thread. `layout_label(label, LabelType, &TextStyle, &Fonts)` applies mermaid's label
//! rules (HTML character references decoded once, `<br>`, `<b>`/`<i>`, markdown `**bold**`/`_italic_` and newlines,
//! wrap at 200 px into the line count of the browser's greedy wrap with balanced breaks, taking the full wrap
//! width, 16 px, line height 1.5) and returns the `TextBlock` (lines of styled `TextRun`s with measured widths)
//! that crosses to layout and render.

use serde::{Deserialize, Serialize};

use crate::mermaid::LabelType;

mod fonts;
pub mod markup;

pub use fonts::{
    DEJAVU_SANS, DEJAVU_SANS_BOLD, FontBytes, FontError, Fonts, LIBERATION_SANS, LIBERATION_SANS_BOLD,
    LIBERATION_SANS_BOLD_ITALIC, LIBERATION_SANS_ITALIC, PlacedGlyph, Seg, fonts, is_bold, pick_fallback,
};

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

/// Word wrap of one hard line into as few lines as greedy wrapping (what
/// a browser does, so mermaid's line count) gives, with the breaks chosen
/// so the lines are as even as possible: `Input: n (number of nodes),
/// edges (list of [u, v] pairs)` keeps its two lines but no longer leaves
/// `pairs)` alone on the second. A word wider than the limit gets a line
/// of its own (it overflows, as in HTML, and the block widens).
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
    // Each word's width and that of the space before it (in its style).
    let widths: Vec<(f32, f32)> = words
        .iter()
        .map(|word| {
            let (bold, italic) = (word[0].bold, word[0].italic);
            (runs_width(word, fs, fonts), fonts.measure_styled(" ", fs, bold, italic))
        })
        .collect();
    let mut out: Vec<TextLine> = Vec::new();
    let mut start = 0;
    for end in balanced_breaks(&widths, style.wrap_width) {
        let mut cur: Vec<TextRun> = Vec::new();
        for (k, word) in words[start..end].iter().enumerate() {
            if k > 0 {
                append(&mut cur, TextRun { text: " ".into(), bold: word[0].bold, italic: word[0].italic });
            }
            for r in word {
                append(&mut cur, r.clone());
            }
        }
        out.push(TextLine { width: runs_width(&cur, fs, fonts), runs: cur });
        start = end;
    }
    out
}

/// Where lines end (exclusive word indices, the last = `words.len()`) for
/// words of `(width, width of the space before)`: the fewest lines that
/// greedy filling to `limit` gives, and among the ways to set the words in
/// that many lines with no line past `limit` (but one word alone), the one
/// with the least sum of squared slack — the most even lines.
fn balanced_breaks(words: &[(f32, f32)], limit: f32) -> Vec<usize> {
    let n = words.len();
    // at[j]: width of words 0..j on one line, plus the space before word j
    // (so words i..j span at[j] − at[i] − that space before word i).
    let mut at = Vec::with_capacity(n + 1);
    let mut acc = 0.0f64;
    for &(w, space) in words {
        at.push(acc);
        acc += f64::from(space) + f64::from(w);
    }
    at.push(acc);
    let limit = f64::from(limit);
    let width = |i: usize, j: usize| at[j] - at[i] - f64::from(words[i].1);
    let fits = |i: usize, j: usize| j == i + 1 || width(i, j) <= limit;
    // Greedy from the front: hi[k] is the most words k lines hold; their
    // count is the fewest lines. From the back: the most words m lines
    // hold at the end, so line k must end between lo[k] and hi[k].
    let mut hi = vec![0];
    while hi[hi.len() - 1] < n {
        let i = hi[hi.len() - 1];
        let mut j = i + 1;
        while j < n && fits(i, j + 1) {
            j += 1;
        }
        hi.push(j);
    }
    let lines = hi.len() - 1;
    if lines <= 1 {
        return vec![n];
    }
    let mut from_back = vec![n];
    while from_back[from_back.len() - 1] > 0 {
        let j = from_back[from_back.len() - 1];
        let mut i = j - 1;
        while i > 0 && fits(i - 1, j) {
            i -= 1;
        }
        from_back.push(i);
    }
    let lo = |k: usize| from_back.get(lines - k).copied().unwrap_or(0);
    // best[k][j]: least cost of words 0..j in k lines, and where the k-th
    // line starts; only j in lo(k)..=hi[k] is ever reachable.
    let mut best: Vec<std::collections::HashMap<usize, (f64, usize)>> = vec![Default::default(); lines + 1];
    best[0].insert(0, (0.0, 0));
    for k in 1..=lines {
        for j in lo(k).max(k)..=hi[k] {
            let mut cell: Option<(f64, usize)> = None;
            // The k-th line holds words i..j; stop once they overflow.
            for i in (k - 1..j).rev() {
                if !fits(i, j) {
                    break;
                }
                let Some(&(before, _)) = best[k - 1].get(&i) else { continue };
                let slack = (limit - width(i, j)).max(0.0);
                let cost = before + slack * slack;
                if cell.is_none_or(|(c, _)| cost < c) {
                    cell = Some((cost, i));
                }
            }
            if let Some(c) = cell {
                best[k].insert(j, c);
            }
        }
    }
    // Greedy's own breaks are one way to fill `lines` lines, so every step
    // back finds a cell.
    let mut ends = vec![n];
    let mut j = n;
    for k in (2..=lines).rev() {
        let Some(&(_, i)) = best[k].get(&j) else { return hi[1..].to_vec() };
        ends.push(i);
        j = i;
    }
    ends.reverse();
    ends
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
        let b = layout_label(
            "a Supercalifragilisticexpialidocious_and_more_and_more z",
            LabelType::Text,
            &TextStyle::default(),
            &f,
        );
        assert!(b.width > 200.0);
        assert_eq!(b.lines.len(), 3);
    }

    fn line_texts(b: &TextBlock) -> Vec<String> {
        b.lines.iter().map(|l| l.runs.iter().map(|r| r.text.as_str()).collect()).collect()
    }

    #[test]
    fn wrapped_lines_are_balanced_without_an_orphan() {
        let f = Fonts::embedded();
        let style = TextStyle::default();
        // Greedy filling leaves `pairs)` alone on the second line.
        let text = "Input: n (number of nodes), edges (list of [u, v] pairs)";
        let b = layout_label(text, LabelType::String, &style, &f);
        let lines = line_texts(&b);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines.join(" "), text);
        assert!(lines.iter().all(|l| l.split(' ').count() >= 3), "{lines:?}");
        let (a, z) = (b.lines[0].width, b.lines[1].width);
        assert!((a - z).abs() < 80.0, "{a} {z}");
        assert!(b.lines.iter().all(|l| l.width <= 200.0));
        // The block keeps the wrap width, so the box is what greedy made.
        assert_eq!(b.width, 200.0);
    }

    #[test]
    fn balancing_never_adds_lines() {
        let f = Fonts::embedded();
        let style = TextStyle::default();
        let words = [
            "a",
            "bb",
            "ccc",
            "dddd",
            "eeeee",
            "Append",
            "chr((ord(ch)",
            "-",
            "ord('a')",
            "+",
            "k)",
            "%",
            "26",
            "+",
            "ord('a'))",
            "x",
        ];
        for n in 1..60 {
            let text: Vec<&str> = (0..n).map(|i| words[(i * 7 + n) % words.len()]).collect();
            let text = text.join(" ");
            let b = layout_label(&text, LabelType::String, &style, &f);
            // Greedy filling, as a browser does it.
            let space = f.measure(" ", 16.0, false);
            let (mut greedy, mut cur) = (0, -1.0f32);
            for w in text.split(' ') {
                let ww = f.measure(w, 16.0, false);
                if cur < 0.0 || cur + space + ww > 200.0 {
                    greedy += 1;
                    cur = ww;
                } else {
                    cur += space + ww;
                }
            }
            assert_eq!(b.lines.len(), greedy, "{text}");
            assert_eq!(line_texts(&b).join(" "), text);
            for (l, t) in b.lines.iter().zip(line_texts(&b)) {
                assert!(l.width <= 200.5 || !t.contains(' '), "{t}: {}", l.width);
            }
        }
    }

    #[test]
    fn empty_label_is_empty() {
        let f = Fonts::embedded();
        let b = layout_label("", LabelType::Text, &TextStyle::default(), &f);
        assert_eq!((b.width, b.height, b.lines.len()), (0.0, 0.0, 0));
    }
}
