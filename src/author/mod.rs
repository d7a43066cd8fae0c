//! Authoring problems from reference solutions: draw a solution's flowchart
//! ([`draw`]), read a chart back into Python ([`chart2py`]), and check a chart
//! against its solution ([`against`]).
//!
//! Data flow: solution text → [`reader::read_program`] (Python's own `ast`,
//! read by `python3`, never executed) → [`reader::Program`] → [`draw::draw`]
//! → [`crate::mermaid::Flowchart`] → [`crate::mermaid::fmt::format`]. The
//! label wording both directions share lives in [`labels`]. [`session`] has an
//! LLM draw the chart through [`crate::client`], each reply checked by
//! [`review`] (fix, parse, lint, `--against`) and repaired in rounds.

pub mod against;
pub mod chart2py;
pub mod draw;
pub mod expr;
pub mod facts;
pub mod graph;
pub mod labels;
pub mod prose;
pub mod read_cache;
pub mod reader;
pub mod review;
pub mod session;

pub use against::{Evidence, Mismatch, MismatchKind, Report, check_against};
pub use chart2py::chart_to_python;
pub use draw::{Detail, Drawn, draw};
pub use reader::{Program, ReadError, read_program, read_programs};

/// Draw a solution's source as canonical Mermaid text.
pub fn draw_source(source: &str, entry: Option<&str>, detail: Detail) -> Result<String, ReadError> {
    let program = read_program(source, entry)?;
    Ok(crate::mermaid::fmt::format(&draw(&program, detail).chart))
}
