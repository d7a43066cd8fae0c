//! Judging: samples + tests → per-sample verdicts, pass@k and reports.
//!
//! Data flow: [`problems_file`] and [`samples`] read the inputs (bad lines
//! are reported and skipped), [`run`] builds a sandbox [`crate::exec::Job`]
//! per sample ([`legacy`] program or [`native`] calls), turns the
//! [`crate::exec::Outcome`] into a [`verdict::Verdict`] (values decoded by
//! [`value`], compared by [`compare`]), [`records`] appends results and
//! resumes, and [`summary`] computes pass@k, tables and the error taxonomy.
//! [`session`] is one judging run over a results file, the piece every
//! command that judges samples uses.

pub mod compare;
pub mod extract;
pub mod import;
pub mod legacy;
pub mod native;
pub mod passk;
pub mod problem;
pub mod problems_file;
pub mod records;
pub mod run;
pub mod run_file;
pub mod samples;
pub mod session;
pub mod summary;
pub mod summary_md;
pub mod value;
pub mod verdict;
