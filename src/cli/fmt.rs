//! `flowbench fmt FILE…`: print flowcharts as canonical Mermaid.
//!
//! Exit codes: 0 done (or, with `--check`, already canonical), 1 `--check`
//! found files that would change, 2 unreadable file or parse error.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::mermaid::diagnostic::render;
use crate::mermaid::fmt::format;

use super::mmd_io::{read_source, write_source};

#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    /// Mermaid files; `-` reads standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Rewrite the files in place instead of printing.
    #[arg(long, conflicts_with = "check")]
    pub write: bool,
    /// Print nothing; exit 1 if any file is not canonical (for CI).
    #[arg(long)]
    pub check: bool,
    /// Refuse charts with more edges than this (mermaid's maxEdges, 500);
    /// raise it for generated charts.
    #[arg(long, default_value_t = 500)]
    pub max_edges: usize,
}

pub fn run(args: FmtArgs) -> anyhow::Result<ExitCode> {
    let (mut errors, mut unformatted) = (0usize, 0usize);
    for path in &args.files {
        let name = path.display().to_string();
        let source = match read_source(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {name}: {e:#}");
                errors += 1;
                continue;
            }
        };
        let opts = crate::mermaid::ParseOptions { max_edges: args.max_edges, ..Default::default() };
        let chart = match crate::mermaid::parse_with(&source, &opts) {
            Ok(c) => c,
            Err(e) => {
                eprint!("{}", render(&name, &source, &e));
                errors += 1;
                continue;
            }
        };
        let canonical = format(&chart);
        // Frontmatter (from a title or an init directive) must stay first.
        let text =
            if canonical.starts_with("---") { canonical } else { format!("{}{canonical}", leading_comments(&source)) };
        if args.check {
            if text != source {
                println!("{name}: not canonical");
                unformatted += 1;
            }
        } else if args.write && name != "-" {
            if text != source {
                write_source(path, &text)?;
            }
        } else {
            print!("{text}");
        }
    }
    Ok(if errors > 0 {
        ExitCode::from(2)
    } else if unformatted > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The `%%` comment lines a file opens with (before its header), kept in
/// front of the canonical text: the model has no comments, and a file's
/// opening note (a scaffold's instructions, a licence) is the author's work.
/// Comments between statements are still dropped. Not with frontmatter,
/// which must stay first.
fn leading_comments(source: &str) -> String {
    let mut kept = String::new();
    for line in source.lines() {
        let t = line.trim();
        if t.starts_with("%%{") || !(t.is_empty() || t.starts_with("%%")) {
            break;
        }
        if !t.is_empty() {
            kept.push_str(line.trim_end());
            kept.push('\n');
        }
    }
    kept
}
