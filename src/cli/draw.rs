//! `flowbench draw solution.py`: draw a reference solution's flowchart.
//!
//! Exit codes: 0 written, 2 unreadable solution (syntax error, no function).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::author::{Detail, draw_source};

use super::mmd_io::{read_source, write_source};

#[derive(Debug, clap::Args)]
pub struct DrawArgs {
    /// Python solution; `-` reads standard input.
    pub solution: PathBuf,
    /// Function to draw (`name` or `Class.name`) [default: the first
    /// `Solution` method, else the last top-level function].
    #[arg(long)]
    pub entry: Option<String>,
    /// How many straight-line statements share a box (`high`: one each,
    /// the form `chart2py` reads back exactly).
    #[arg(long, value_enum, default_value_t = Detail::Medium)]
    pub detail: Detail,
    /// Write the chart here instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(args: DrawArgs) -> anyhow::Result<ExitCode> {
    let name = args.solution.display().to_string();
    let source = read_source(&args.solution)?;
    let text = match draw_source(&source, args.entry.as_deref(), args.detail) {
        Ok(t) => t,
        Err(e) => {
            let at = if e.line > 0 { format!(":{}", e.line) } else { String::new() };
            eprintln!("error: {name}{at}: {}", e.message);
            return Ok(ExitCode::from(2));
        }
    };
    match &args.output {
        Some(path) => write_source(path, &text).with_context(|| format!("writing the chart of {name}"))?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
