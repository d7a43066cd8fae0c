//! Embedded fonts and text measurement, shared by layout (to size boxes) and
//! render (to draw what was measured), so that both agree to the pixel and no
//! output depends on the host's fonts.

use serde::{Deserialize, Serialize};

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
