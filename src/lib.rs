//! flowbench: turn reference solutions and their Mermaid flowcharts into
//! code-generation benchmarks for multimodal models, and judge the answers.
//!
//! The crate is a pipeline of phases, each turning one plain data type into
//! the next and unaware of the phases after it (see `ARCHITECTURE.md`):
//!
//! - [`mermaid`]: Mermaid text → [`mermaid::Flowchart`] (parser, diagnostics,
//!   lints, fixes, canonical formatter);
//! - [`text`]: embedded fonts and text measurement shared by layout and render;
//! - [`layout`]: [`mermaid::Flowchart`] → [`layout::Geometry`];
//! - [`render`]: geometry → SVG → PNG;
//! - [`exec`]: run untrusted Python in a sandbox;
//! - [`judge`]: samples + tests → verdicts, pass@k, reports;
//! - [`cli`]: the `flowbench` command line.

pub mod bank;
pub mod cli;
pub mod exec;
pub mod judge;
pub mod layout;
pub mod mermaid;
pub mod outfile;
pub mod render;
pub mod text;
