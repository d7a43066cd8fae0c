//! Authoring problems from reference solutions: draw a solution's flowchart
//! ([`draw`]), read a chart back into Python ([`chart2py`]), and check a chart
//! against its solution ([`against`]).
//!
//! Data flow: solution text → [`reader::read_program`] (Python's own `ast`,
//! read by `python3`, never executed) → [`reader::Program`] → [`draw::draw`]
//! → [`flowbench_chart::mermaid::Flowchart`] → [`flowbench_chart::mermaid::fmt::format`]. The
//! label wording both directions share lives in [`labels`]. [`session`] has an
//! LLM draw the chart through [`flowbench_client`], each reply checked by
//! [`review`] (fix, parse, lint, `--against`) and repaired in rounds.
//!
//! # How it works
//!
//! Authors problems from reference solutions. `reader` runs the embedded `read_ast.py` under `python3` (Python's
//! `ast`, parse only, no sandbox needed) and returns a `Program` (entry `Func`, helpers, module preamble;
//! statements as a tree of if/while/for/return/… with their lines), its answers kept in a per-user cache
//! (`read_cache`, keyed by script, interpreter, entry and source); `draw` turns it into a `Flowchart` (and a node →
//! solution line map) in the wording of `labels`; `graph` reads any `Flowchart` as control flow (node roles, Yes/No
//! successors, functions, depth-first back edges, natural loops, immediate post-dominators with returns
//! unconstrained and back edges to a per-loop "next iteration"); `chart2py` turns that into Python (loops at
//! back-edge targets, `if`s joined at their post-dominator); `against` compares a chart with a `Program` and
//! returns `Mismatch`es and a similarity. It uses `mermaid` only; the round trip is judged through `flowbench
//! judge` (tests/integration/author_corpus.rs, scripts/bench-author.sh). `session` is the LLM loop of `flowbench author`: a
//! templated prompt (statement + solution, `templates/author.txt`) goes through `client::ChatClient`; `review`
//! takes the Mermaid out of each reply, applies `mermaid::fix` when no change is lossy, and returns the parse
//! error, lints and `against` mismatches as rendered diagnostics, sent back (`templates/repair.txt`) for up to
//! `--rounds` repairs; each round is handed to a log callback (the CLI appends `author.log.jsonl`).

pub mod against;
pub mod behaviour;
pub mod chart2py;
pub mod draw;
pub mod execute;
pub mod expr;
pub mod facts;
pub mod graph;
pub mod inputs;
pub mod labels;
pub mod prose;
pub mod read_cache;
pub mod reader;
pub mod review;
pub mod roles;
pub mod session;

pub use against::{Evidence, Mismatch, MismatchKind, Report, Tests, check_against, check_against_with};
pub use chart2py::chart_to_python;
pub use draw::{Detail, Drawn, draw};
pub use reader::{Program, ReadError, read_program, read_programs};

/// Draw a solution's source as canonical Mermaid text.
pub fn draw_source(source: &str, entry: Option<&str>, detail: Detail) -> Result<String, ReadError> {
    let program = read_program(source, entry)?;
    Ok(flowbench_chart::mermaid::fmt::format(&draw(&program, detail).chart))
}
