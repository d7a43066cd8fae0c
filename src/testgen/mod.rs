//! Test generation: from a reference solution and its `problem.toml`, make
//! typical, edge and large inputs, keep those the reference (run in the
//! sandbox) answers the same way twice, and measure the suite's strength by
//! the mutants of the reference it kills.
//!
//! Sits beside `judge`: it calls `exec` (through `judge::run::Sandbox`) and
//! the judge's value comparison; `bank` and `cli` call it, nothing below
//! does. Signature reading, generators and mutants are embedded Python
//! helpers (`python`) that parse the solution with `ast` and never run it.

pub mod generate;
pub mod kill;
pub mod python;
pub mod reference;
pub mod score;
pub mod spec;
pub mod strengthen;
pub mod tests_file;
