//! The `flowbench` command line: argument parsing and dispatch only. Each
//! subcommand lives in its own file and calls into the library phases.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod build;
mod check;
mod env;
mod fmt;
mod judge;
mod mmd_io;
mod parse;
mod render;
mod tests_import;

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
    /// Print flowcharts as canonical Mermaid.
    Fmt(fmt::FmtArgs),
    /// Render flowcharts to SVG or PNG.
    Render(render::RenderArgs),
    /// Judge model samples against tests in the sandbox.
    Judge(judge::JudgeArgs),
    /// Create or show the pinned Python environment for candidates.
    Env(env::EnvArgs),
    /// Convert tests between forms.
    Tests(tests_import::TestsArgs),
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

/// Entry point used by `main.rs`; errors are printed here so that every
/// subcommand reports them the same way.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Judge(_) | Command::Build(_)) {
        restore_sigpipe();
    }
    let result = match cli.command {
        Command::Build(args) => build::run(args),
        Command::Parse(args) => parse::run(args),
        Command::Check(args) => check::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Render(args) => render::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Env(args) => env::run(args),
        Command::Tests(args) => tests_import::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
