//! The flowchart-versus-Mermaid ablation (Code-Vision's Table 4, with
//! paired statistics): each condition's judged results → per-problem
//! scores → pass@k per subset × difficulty and, for every condition after
//! the first, the paired difference with its uncertainty.
//!
//! Data flow: judge [`crate::judge::records::Record`]s per run →
//! [`compare::task_scores`] → [`compare::compare_runs`] (statistics from
//! [`stats`]) → [`compare::Ablation`], which `report` renders as Markdown,
//! CSV, JSON and HTML.

pub mod bench;
pub mod compare;
pub mod html;
pub mod prompts;
pub mod report;
pub mod stats;
