//! `flowbench parse FILE|- [--json]`: parse one flowchart and print its model
//! (JSON for tools, a short summary for people). Exit code 0 on success, 2 on
//! a parse error.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::Context;

use crate::mermaid::{self, Flowchart, ParseError, ParseOptions};

#[derive(Debug, clap::Args)]
pub struct ParseArgs {
    /// Mermaid file to read, or `-` for standard input.
    pub file: String,
    /// Print the model as JSON (top-level `direction`, `nodes`, `edges`, `subgraphs`, …).
    #[arg(long)]
    pub json: bool,
    /// mermaid's `maxEdges` limit (500 by default, as in mermaid).
    #[arg(long, default_value_t = 500)]
    pub max_edges: usize,
    /// Reject texts longer than this many characters (mermaid's render limit is 50000; off by default, like `mermaid.parse`).
    #[arg(long)]
    pub max_text_size: Option<usize>,
}

/// Read a file argument, `-` meaning standard input.
pub fn read_input(file: &str) -> anyhow::Result<String> {
    if file == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("reading standard input")?;
        Ok(s)
    } else {
        std::fs::read_to_string(file).with_context(|| format!("reading {file}"))
    }
}

pub fn run(args: ParseArgs) -> anyhow::Result<ExitCode> {
    let text = read_input(&args.file)?;
    let opts = ParseOptions { max_edges: args.max_edges, max_text_size: args.max_text_size };
    match mermaid::parse_with(&text, &opts) {
        Ok(fc) => {
            let out = if args.json { serde_json::to_string_pretty(&fc)? + "\n" } else { summary(&fc) };
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush()) {
                // A closed pipe (`| head`) is not an error worth a panic.
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
                _ => {}
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            report_error(&args.file, &text, &err);
            Ok(ExitCode::from(2))
        }
    }
}

/// Print a parse error as `file:line:col: error: …` with what was expected.
/// The single place errors are printed, so a richer renderer can replace it.
pub fn report_error(file: &str, text: &str, err: &ParseError) {
    let name = if file == "-" { "<stdin>" } else { file };
    eprint!("{}", crate::mermaid::diagnostic::render(name, text, err));
}

/// A few lines a person can read: header, counts, then every node and edge.
pub fn summary(fc: &Flowchart) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "flowchart {:?}: {} nodes, {} edges, {} subgraphs",
        fc.direction,
        fc.nodes.len(),
        fc.edges.len(),
        fc.subgraphs.len()
    );
    for n in &fc.nodes {
        let _ = writeln!(s, "  node {} [{}] {:?}", n.id, n.shape.name(), n.label);
    }
    for e in &fc.edges {
        let label = e.label.as_deref().map(|l| format!(" {l:?}")).unwrap_or_default();
        let _ = writeln!(s, "  edge {} -> {} ({:?}, length {}){label}", e.from, e.to, e.stroke, e.length);
    }
    for g in &fc.subgraphs {
        let _ = writeln!(s, "  subgraph {} {:?}: {}", g.id, g.title, g.members.join(", "));
    }
    s
}
