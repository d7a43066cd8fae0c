//! Judging: samples + tests → per-sample verdicts, pass@k and reports.
//!
//! Data flow: [`problems_file`] and [`samples`] read the inputs (bad lines
//! are reported and skipped), [`run`] builds a sandbox [`flowbench_exec::Job`]
//! per sample ([`legacy`] program or [`native`] calls), turns the
//! [`flowbench_exec::Outcome`] into a [`verdict::Verdict`] (values decoded by
//! [`value`], compared by [`compare`]), [`records`] appends results and
//! resumes, and [`summary`] computes pass@k, tables and the error taxonomy.
//! [`session`] is one judging run over a results file, the piece every
//! command that judges samples uses. Each native verdict carries its
//! failure class (`verdict::Class`: wrong, slow, widened, passed, from the
//! purpose of the tests failed), and [`disputed`] finds the tests a crowd
//! of models fails alike.
//!
//! # How it works
//!
//! Turns samples and tests into verdicts. `problems_file`/`samples` read JSONL (native problems or Code-Vision's,
//! samples with `completion` or an extracted `response`) and report bad lines by file:line; `run` builds one
//! `exec::Job` per sample — a `Job::Script` assembled exactly like Code-Vision's human-eval (legacy) or a
//! `Job::Calls` with the tests' arguments (native) — and turns the returned `exec::Outcome` into a `Verdict`:
//! native values are decoded from tagged JSON (`value`) and compared in the judge (`compare`), never in the
//! candidate's process. `records` appends one JSON line per sample (resume, merge); `summary`/`summary_md` compute
//! pass@k, the Table 2 layout, the error taxonomy and agreement with recorded verdicts. The boundary types are
//! `Job`/`Outcome` (to exec) and the results JSONL line (`records::Judged`, to reports and merges).
//!
//! # Errors
//!
//! Each module that can fail has its own `thiserror` enum carrying what the
//! message names (the file, the line, the test, the step that failed), and
//! its `Display` is the message the command line prints. A bad input line is
//! not an error but a [`problems_file::Diagnostic`] (its reason typed until
//! it is reported). A failure of the machine is never a verdict: the sandbox's
//! is a [`run::SandboxFailure`], a broken checker program's a
//! [`stdio::CheckerFailure`], both a [`run::MachineFailure`] for the caller.

// The problem model lives below every phase (`flowbench-problem`); the
// judge keeps its names for it.
pub use flowbench_problem::{compare, problem, value, verdict};

pub mod cpp;
pub mod disputed;
pub mod extract;
pub mod harness_samples;
pub mod import;
pub mod labelled;
pub mod legacy;
pub mod native;
pub mod passk;
pub mod problems_file;
pub mod records;
pub mod run;
pub mod run_file;
pub mod samples;
pub mod session;
pub mod stdio;
pub mod summary;
pub mod summary_md;
