//! Judging: samples + tests → per-sample verdicts, pass@k and reports.

pub mod import;
pub mod problem;
