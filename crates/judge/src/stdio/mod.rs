//! Whole-program problems (`call_style: "stdio"`): each test is a standard
//! input and the standard output expected for it, as in APPS, TACO, MMCode
//! and CodeContests.
//!
//! # How it works
//!
//! A problem line whose `call_style` is `"stdio"` is read as a
//! [`StdioProblem`] and prepared once into a [`StdioSuite`] (the inputs
//! shared by every sample's job, the expected outputs kept here). A sample
//! becomes one [`flowbench_exec::Job::Program`]: the sandbox runs the program
//! as `__main__` once per input, each run a fresh process, and returns each
//! run's status and captured stdout. The expected output never enters that
//! process: [`verdict`] compares in the judge with the problem's
//! [`Checker`] ([`checker`]: `tokens`, `lines`, `exact`, `float`), or,
//! for a `checker_program`, runs that program in the sandbox too
//! ([`custom`]) — a separate job, so the candidate reaches it only through
//! the text it printed.

pub mod checker;
pub mod custom;
pub mod problem;
pub mod verdict;

pub use checker::{Checker, CheckerChoiceError};
pub use custom::CheckerFailure;
pub use problem::{InvalidStdioProblem, StdioProblem, StdioSuite, StdioTest};
pub use verdict::{STDIO_NOTE, stdio_verdict};
