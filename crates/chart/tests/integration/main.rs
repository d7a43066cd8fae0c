//! flowbench-chart's integration tests, linked as one binary: the parser
//! against mermaid's verdicts and its quirks, diagnostics, fixes and the
//! formatter over the conformance corpus, layout, and rendering snapshots,
//! all through the crate's public API. One process runs them all: a test
//! that changes process-wide state (environment, current directory, panic
//! hook) changes it for every other.
//!
//! Run one module with a filter: `cargo test --release -p flowbench-chart
//! --test integration conformance::`.

/// The workspace's shared test helpers (`../shared/` lookup).
#[path = "../../../../tests/common/mod.rs"]
mod common;
mod corpus;

mod conformance;
mod diag_robust;
mod fix_lossless;
mod fix_probes;
mod fmt_roundtrip;
mod grammar_examples;
mod layout_clean;
mod parser_quirks;
mod parser_robustness;
mod pitfall_diagnostics;
mod render_gallery;
mod render_raster;
mod render_snapshots;
