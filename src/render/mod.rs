//! Rendering: [`crate::layout::Geometry`] → SVG text → PNG bytes.
