//! flowbench: turn reference solutions and their Mermaid flowcharts into
//! code-generation benchmarks for multimodal models, and judge the answers.
//!
//! The pipeline's phases are crates of their own, each turning one plain data
//! type into the next and unaware of the phases after it (see
//! `ARCHITECTURE.md`); this package is the command line over them and
//! re-exports each under its phase's name:
//!
//! - [`mermaid`]: Mermaid text → [`mermaid::Flowchart`] (parser, diagnostics,
//!   lints, fixes, canonical formatter);
//! - [`text`]: embedded fonts and text measurement shared by layout and render;
//! - [`layout`]: [`mermaid::Flowchart`] → [`layout::Geometry`];
//! - [`render`]: geometry → SVG → PNG;
//! - [`exec`]: run untrusted Python in a sandbox;
//! - [`author`]: solutions → flowcharts and back, and faithfulness checks;
//! - [`judge`]: samples + tests → verdicts, pass@k, reports;
//! - [`transcription`]: a model's transcription of a chart scored on the graph;
//! - [`client`]: OpenAI-compatible chat-completions batches (retries, cache, resume);
//! - [`ablation`]: conditions compared with paired statistics (Table 4);
//! - [`testgen`]: reference + spec → validated tests and their mutation score;
//! - [`variants`]: counterfactual variants of problems (changed reference,
//!   chart re-drawn, tests regenerated, the original failing them);
//! - [`cli`]: the `flowbench` command line;
//! - utilities: [`outfile`] (how outputs are written), [`progress`] (how long
//!   work reports how far it is).

// The crates of the pipeline, under the names the CLI (and the tests) use.
pub use flowbench_ablation as ablation;
pub use flowbench_author as author;
pub use flowbench_bank as bank;
pub use flowbench_chart::{layout, mermaid, render, text};
pub use flowbench_client as client;
pub use flowbench_exec as exec;
pub use flowbench_judge as judge;
pub use flowbench_support::{outfile, progress, shard, timings, user_cache};
pub use flowbench_testgen as testgen;
pub use flowbench_transcription as transcription;
pub use flowbench_variants as variants;

pub mod cli;
