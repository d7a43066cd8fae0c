//! `flowbench check FILE…`: parse and lint flowcharts, optionally fixing the
//! common LLM mistakes first (`--fix`).
//!
//! Exit codes: 0 clean (warnings allowed), 1 warnings with `--deny`, 2 any
//! error (unreadable file or parse error).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::mermaid::diagnostic::{Severity, render_diagnostic};
use crate::mermaid::ParseOptions;
use crate::mermaid::fix::fix_with;
use crate::mermaid::lint::{Checked, check_with};

use super::mmd_io::{read_source, write_source};

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Mermaid files to check; `-` reads standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Deny warnings: exit 1 when there are any.
    #[arg(long)]
    pub deny: bool,
    /// Rewrite common LLM mistakes (unquoted special characters, `"` in
    /// labels, trailing `%%` comments, keywords as ids, …) before checking;
    /// writes each file in place and reports every change.
    #[arg(long)]
    pub fix: bool,
    /// With `--fix`: print the fixed text instead of writing the file.
    #[arg(long, requires = "fix")]
    pub stdout: bool,
    /// Refuse charts with more edges than this (mermaid's maxEdges, 500);
    /// raise it for generated charts.
    #[arg(long, default_value_t = 500)]
    pub max_edges: usize,
}

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let (mut errors, mut warnings) = (0usize, 0usize);
    let opts = ParseOptions { max_edges: args.max_edges, ..ParseOptions::default() };
    for path in &args.files {
        let name = path.display().to_string();
        let mut source = match read_source(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {name}: {e:#}");
                errors += 1;
                continue;
            }
        };
        if args.fix {
            let fixed = fix_with(&source, &|t: &str| crate::mermaid::parse_with(t, &opts));
            for c in &fixed.changes {
                let after = if c.after.is_empty() { "(removed)" } else { c.after.as_str() };
                eprintln!("{name}:{}:{}: fixed [{}] {} → {}", c.line, c.col, c.pitfall, c.before, after);
                if c.lossy {
                    eprintln!(
                        "{name}:{}:{}: note: lossy fix: the link had no target, so it was dropped and the original line kept in a `%%` comment above; add the target node by hand",
                        c.line, c.col
                    );
                }
            }
            if args.stdout || name == "-" {
                print!("{}", fixed.text);
            } else if fixed.text != source {
                write_source(path, &fixed.text)?;
            }
            source = fixed.text;
        }
        match check_with(&source, &opts) {
            Checked::Ok { warnings: ws, .. } => {
                for w in &ws {
                    let mut w = w.clone();
                    if args.deny {
                        w.severity = Severity::Error;
                    }
                    eprint!("{}", render_diagnostic(&name, &source, &w));
                }
                warnings += ws.len();
            }
            Checked::Err(d) => {
                eprint!("{}", render_diagnostic(&name, &source, &d));
                errors += 1;
            }
        }
    }
    let files = args.files.len();
    eprintln!("checked {files} file(s): {errors} error(s), {warnings} warning(s){}",
        if args.deny && warnings > 0 { " (warnings denied)" } else { "" });
    Ok(if errors > 0 {
        ExitCode::from(2)
    } else if args.deny && warnings > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
