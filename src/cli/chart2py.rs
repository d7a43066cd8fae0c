//! `flowbench chart2py chart.mmd`: read a flowchart back into Python;
//! with `--against solution.py`, the program `check --against` runs (the
//! solution names the function, and prose its words matched runs as the
//! code's statements), which is what a user reads to see why a chart
//! differs.
//!
//! Exit codes: 0 written, 2 unreadable file, parse error, or a chart whose
//! graph has no structured reading.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::author::execute::chart_program_borrowing;
use crate::author::{chart_to_python, check_against};
use crate::mermaid::diagnostic::render;

use super::mmd_io::{read_source, write_source};

#[derive(Debug, clap::Args)]
pub struct Chart2pyArgs {
    /// Mermaid flowchart; `-` reads standard input.
    pub chart: PathBuf,
    /// Write the program here instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Translate as `check --against` does with this Python solution: its
    /// signature names the function, and prose the structure pairs with a
    /// code line runs as that line.
    #[arg(long)]
    pub against: Option<PathBuf>,
    /// With `--against`: the function the chart draws (`name`, `Class.name`).
    #[arg(long, requires = "against")]
    pub entry: Option<String>,
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
    let translated = match &args.against {
        Some(solution) => {
            let code = read_source(solution)?;
            let program = match crate::author::read_program(&code, args.entry.as_deref()) {
                Ok(p) => p,
                Err(e) => {
                    let at = if e.line > 0 { format!(":{}", e.line) } else { String::new() };
                    eprintln!("error: {}{at}: {}", solution.display(), e.message);
                    return Ok(ExitCode::from(2));
                }
            };
            let borrowed = check_against(&program, &chart).borrowed;
            chart_program_borrowing(&program, &chart, &borrowed)
        }
        None => chart_to_python(&chart),
    };
    let program = match translated {
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
