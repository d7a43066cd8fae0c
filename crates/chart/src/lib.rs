//! flowbench's chart half: Mermaid flowchart text → model → geometry →
//! SVG → PNG, usable alone as a Mermaid-flowchart parser and renderer.
//!
//! Each module turns one plain data type into the next and knows nothing of
//! the ones after it (see `ARCHITECTURE.md`):
//!
//! - [`mermaid`]: Mermaid text → [`mermaid::Flowchart`] (parser, diagnostics,
//!   lints, fixes, canonical formatter);
//! - [`text`]: embedded fonts and text measurement shared by layout and render;
//! - [`layout`]: [`mermaid::Flowchart`] → [`layout::Geometry`];
//! - [`render`]: geometry → SVG → PNG.
//!
//! This crate never runs code: it depends on no sandbox, no Python and no
//! command-line parsing.

pub mod layout;
pub mod mermaid;
pub mod render;
pub mod text;
