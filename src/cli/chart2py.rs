//! `flowbench chart2py chart.mmd`: read a flowchart back into Python.
//!
//! Exit codes: 0 written, 2 unreadable file, parse error, or a chart whose
//! graph has no structured reading.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::author::chart_to_python;
use crate::mermaid::diagnostic::render;

use super::mmd_io::{read_source, write_source};

#[derive(Debug, clap::Args)]
pub struct Chart2pyArgs {
    /// Mermaid flowchart; `-` reads standard input.
    pub chart: PathBuf,
    /// Write the program here instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(args: Chart2pyArgs) -> anyhow::Result<ExitCode> {
    let name = args.chart.display().to_string();
    let source = read_source(&args.chart)?;
    let chart = match crate::mermaid::parse(&source) {
        Ok(c) => c,
        Err(e) => {
            eprint!("{}", render(&name, &source, &e));
            return Ok(ExitCode::from(2));
        }
    };
    let program = match chart_to_python(&chart) {
        Ok(p) => p,
        Err(e) => {
            let at = e.node.map(|i| chart.nodes[i].span).map(|s| format!(":{}:{}", s.line, s.col)).unwrap_or_default();
            eprintln!("error: {name}{at}: {}", e.message);
            return Ok(ExitCode::from(2));
        }
    };
    match &args.output {
        Some(path) => write_source(path, &program)?,
        None => print!("{program}"),
    }
    Ok(ExitCode::SUCCESS)
}
