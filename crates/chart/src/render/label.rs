//! Drawing a measured [`TextBlock`]: one `<text>` per line, centred, with a
//! `<tspan>` per bold/italic run. Positions come from the block's own
//! measurements, so what usvg lays out is what the layout reserved.

use std::fmt::Write;

use crate::text::{PlacedGlyph, TextBlock};

use super::glyphs::Outliner;
use super::xml::{N, esc};

/// Baseline offset from a line's vertical centre, as a fraction of the font
/// size: half of (ascent − descent) for Liberation Sans (0.9053 and
/// 0.2119 em), which centres the glyphs' box in the line like a browser
/// does.
const CENTRAL_BASELINE: f32 = 0.3467;

/// Write `block` centred on `cx`, its top at `top`. `attrs` carries the
/// fill and any user style for the text.
pub fn draw(out: &mut String, block: &TextBlock, cx: f32, top: f32, attrs: &str) {
    if block.lines.is_empty() {
        return;
    }
    let fs = font_size(block);
    for (i, line) in block.lines.iter().enumerate() {
        if line.runs.iter().all(|r| r.text.is_empty()) {
            continue;
        }
        let baseline = baseline(block, top, i);
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="{}" text-anchor="middle" {attrs}>"#,
            N(cx),
            N(baseline),
            N(fs)
        );
        for run in &line.runs {
            let text = esc(&run.text);
            if !run.bold && !run.italic {
                out.push_str(&text);
                continue;
            }
            out.push_str("<tspan");
            if run.bold {
                out.push_str(r#" font-weight="bold""#);
            }
            if run.italic {
                out.push_str(r#" font-style="italic""#);
            }
            let _ = write!(out, ">{text}</tspan>");
        }
        out.push_str("</text>");
    }
}

/// The block's font size (mermaid's 16 px when unset).
fn font_size(block: &TextBlock) -> f32 {
    if block.font_size > 0.0 { block.font_size } else { 16.0 }
}

/// Baseline of line `i` of `block` whose top is at `top`: lines are equal
/// bands of the block's height, glyphs centred in each.
fn baseline(block: &TextBlock, top: f32, i: usize) -> f32 {
    let n = block.lines.len() as f32;
    let line_h = if block.height > 0.0 { block.height / n } else { block.font_size * 1.5 };
    top + line_h * (i as f32 + 0.5) + font_size(block) * CENTRAL_BASELINE
}

/// [`draw`] for a PNG: each line's glyphs placed exactly where usvg would
/// put those of the `<text>` (same shaper, same faces, same centring on the
/// line's advance), handed to `outliner`, which leaves a placeholder in
/// `out` for the rasteriser to draw them at.
pub fn draw_outlined(out: &mut String, block: &TextBlock, cx: f32, top: f32, attrs: &str, outliner: &mut Outliner) {
    let fs = font_size(block);
    for (i, line) in block.lines.iter().enumerate() {
        let runs: Vec<_> = line.runs.iter().map(|r| outliner.fonts.glyphs(&r.text, fs, r.bold, r.italic)).collect();
        let baseline = baseline(block, top, i);
        let mut x = cx - runs.iter().map(|(_, advance)| advance).sum::<f32>() / 2.0;
        let mut placed = Vec::new();
        for (glyphs, advance) in runs {
            placed.extend(glyphs.into_iter().map(|g| PlacedGlyph { x: x + g.x, y: baseline + g.y, ..g }));
            x += advance;
        }
        outliner.push_line(out, placed, attrs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{TextLine, TextRun};

    fn run(t: &str, bold: bool) -> TextRun {
        TextRun { text: t.into(), bold, italic: false }
    }

    #[test]
    fn one_text_per_line_with_styled_runs() {
        let block = TextBlock {
            lines: vec![
                TextLine { runs: vec![run("a<b ", false), run("bold", true)], width: 50.0 },
                TextLine { runs: vec![run("second", false)], width: 40.0 },
            ],
            width: 50.0,
            height: 48.0,
            font_size: 16.0,
        };
        let mut s = String::new();
        draw(&mut s, &block, 100.0, 10.0, r##"fill="#333""##);
        assert_eq!(s.matches("<text").count(), 2);
        assert!(s.contains(r#"y="27.55""#), "{s}");
        assert!(s.contains("a&lt;b <tspan font-weight=\"bold\">bold</tspan>"));
    }
}
