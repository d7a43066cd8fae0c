//! The `flowbench` command line: argument parsing and dispatch only. Each
//! subcommand lives in its own file and calls into the library phases.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod ablation;
mod ablation_demo;
mod against;
mod author;
mod build;
mod chart2py;
mod check;
mod choices;
mod draw;
mod env;
mod examples;
mod export;
mod fmt;
mod generate;
mod import;
mod judge;
mod mmd_io;
mod new;
mod parse;
mod progress;
mod prompts;
mod render;
mod score_transcription;
mod tests_gen;
mod tests_import;
mod tests_labelled;
mod tests_score;
mod variants;

/// Turn Mermaid flowcharts and reference solutions into code-generation
/// benchmarks, render them, and judge model samples.
#[derive(Debug, Parser)]
#[command(name = "flowbench", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check, format and render every flowchart of the problem bank.
    Build(build::BuildArgs),
    /// Parse a flowchart and print its model.
    Parse(parse::ParseArgs),
    /// Parse and lint flowcharts; optionally fix common LLM mistakes.
    Check(check::CheckArgs),
    /// Translate a flowchart back into Python, from the graph alone.
    Chart2py(chart2py::Chart2pyArgs),
    /// Draw a Python solution's flowchart (Code-Vision style).
    Draw(draw::DrawArgs),
    /// Have an LLM draw a problem's flowchart, repaired until it checks.
    Author(author::AuthorArgs),
    /// Print flowcharts as canonical Mermaid.
    Fmt(fmt::FmtArgs),
    /// Render flowcharts to SVG or PNG.
    Render(render::RenderArgs),
    /// Judge model samples against tests in the sandbox.
    Judge(judge::JudgeArgs),
    /// Create or show the pinned Python environment for candidates.
    Env(env::EnvArgs),
    /// Generate tests from a reference, score them against its mutants, import legacy asserts.
    Tests(tests_import::TestsArgs),
    /// Scaffold a problem directory (`SUBSET/SLUG`) with commented templates.
    New(new::NewArgs),
    /// Compare conditions (flowchart vs Mermaid vs text) with paired statistics.
    Ablation(ablation::AblationArgs),
    /// Write a condition's requests as an OpenAI batch file.
    Prompts(prompts::PromptsArgs),
    /// Ask a model (OpenAI-compatible API) for samples under a condition.
    Generate(generate::GenerateArgs),
    /// Export a built benchmark to Hugging Face datasets, inspect_ai or VLMEvalKit.
    Export(export::ExportArgs),
    /// Turn Code-Vision or HumanEval problems into bank directories.
    Import(import::ImportArgs),
    /// Score transcriptions (a model's Mermaid of a chart image) on the graph.
    ScoreTranscription(score_transcription::ScoreTranscriptionArgs),
    /// Make counterfactual variants of problems (changed reference, chart re-drawn, tests regenerated).
    Variants(variants::VariantsArgs),
}

/// Commands that stream to stdout (`render -o -`, `fmt`, `check --fix
/// --stdout`, `parse`) end quietly when the reader goes away (`| head`), as
/// Unix filters do, instead of panicking on the broken pipe. `judge` and
/// `build` keep Rust's default so they finish writing their files first.
fn restore_sigpipe() {
    // SAFETY: setting a signal disposition to SIG_DFL before any thread is
    // started has no memory-safety implications.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The command line's definition, each subcommand's long help ending in
/// its EXAMPLES (see `examples.rs`).
pub fn command() -> clap::Command {
    examples::with_examples(<Cli as clap::CommandFactory>::command())
}

/// Entry point used by `main.rs`; errors are printed here so that every
/// subcommand reports them the same way.
pub fn main() -> ExitCode {
    let cli = <Cli as clap::FromArgMatches>::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit());
    if !matches!(cli.command, Command::Judge(_) | Command::Build(_)) {
        restore_sigpipe();
    }
    match dispatch(cli.command) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Run one parsed subcommand (also the steps of `ablation --demo`).
fn dispatch(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Build(args) => build::run(args),
        Command::Parse(args) => parse::run(args),
        Command::Check(args) => check::run(args),
        Command::Draw(args) => draw::run(args),
        Command::Author(args) => author::run(args),
        Command::Chart2py(args) => chart2py::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Render(args) => render::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Env(args) => env::run(args),
        Command::Tests(args) => tests_import::run(args),
        Command::New(args) => new::run(args),
        Command::Ablation(args) => ablation::run(args),
        Command::Prompts(args) => prompts::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Export(args) => export::run(args),
        Command::Import(args) => import::run(args),
        Command::ScoreTranscription(args) => score_transcription::run(args),
        Command::Variants(args) => variants::run(args),
    }
}
