//! The `flowbench` package's integration tests, linked as one binary (one
//! link instead of one per file): each module holds the tests of one part of
//! the CLI or of the benchmark phases, which run the `flowbench` binary
//! (`CARGO_BIN_EXE_flowbench`, available only here) or the phases' API.
//! Tests of a lower crate's library alone live in that crate
//! (`crates/<crate>/tests/integration/`). One process runs them all: a test
//! that changes process-wide state (environment, current directory, panic
//! hook) changes it for every other.
//!
//! Run one module with a filter: `cargo test --release -p flowbench --test
//! integration judge_cli::`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../support/openai_server.rs"]
mod openai_server;

mod ablation_cli;
mod ablation_codevision;
mod ablation_demo;
mod apps_import;
mod architecture;
mod author_against;
mod author_cache;
mod author_cli;
mod author_corpus;
mod author_llm;
mod bank_build;
mod build_duplicates;
mod build_shards;
mod build_styles;
mod check_against_cli;
mod cli_check_fmt;
mod cli_robust;
mod colours;
mod dark_theme;
mod differential;
mod doc_links;
mod export_harness;
mod faithful_corpus;
mod fuzz_inputs;
mod help_examples;
mod hostile;
mod judge_cli;
mod judge_codevision;
mod judge_resume;
mod no_clobber;
mod provision;
mod readme_examples;
mod render_cli;
mod renderings;
mod sandbox;
mod sandbox_refuses;
mod stdio_bank;
mod stdio_charts;
mod stdio_judge;
mod stdio_testgen;
mod testgen;
mod tests_import;
mod transcription;
mod transcription_cli;
mod variants;
