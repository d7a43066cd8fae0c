//! The flowchart-versus-Mermaid ablation (Code-Vision's Table 4, with
//! paired statistics): each condition's judged results → per-problem
//! scores → pass@k per subset × difficulty and, for every condition after
//! the first, the paired difference with its uncertainty.
//!
//! Data flow: judge [`flowbench_judge::records::Record`]s per run →
//! [`compare::task_scores`] → [`compare::compare_runs`] (statistics from
//! [`stats`]) → [`compare::Ablation`], which `report` renders as Markdown,
//! CSV, JSON and HTML.
//!
//! # How it works
//!
//! Conditions compared on the same problems. `bench` reads a `dist/` (records typed by
//! `bank::dist_record::DistRecord`, which `build` writes) or a problems JSONL; `prompts` turns records and editable
//! templates into `client::Request`s per condition (flowchart image as a data URL, Mermaid text, description);
//! `compare` turns each run's judge `records::Record`s into per-problem `TaskScore`s and an `Ablation` (pass@k per
//! subset × difficulty, paired `Delta`s vs the first run) using `stats` (exact McNemar, seeded percentile
//! bootstrap, sign-flip permutation test; SplitMix64, so reports are reproducible); `signature` pairs, per model,
//! the flowchart run with the starter-code-only `signature` run (what the name alone solves); `memorisation` pairs,
//! per run, each original problem with its variants (`flowbench variants`); `attribution` pairs, per model
//! and rendering, a `transcribe` run (scored on the graph) with a code run and splits the code failures into
//! perception and reasoning (`attribution_report`: its Markdown/HTML, with side-by-side drawings); `two_step`
//! runs the `flowchart-then-code` condition, its step 2 by the model or by another (`--coder`); `reasoning`
//! pairs, per model, each condition with its reasoning-first `+cot` twin; `coder` sets a fixed coder's pass rate
//! on each model's transcriptions beside its pass rate on the true Mermaid; `invariance` pairs, per model, the default rendering's run with
//! its `flowchart@STYLE` runs (solved under all / some / none, each style's paired difference, the
//! render-sensitive problems; `invariance_report`: its Markdown/HTML with every rendering's image side by
//! side); `report` and `html` render
//! Markdown/CSV and the self-contained HTML page with SVG charts drawn here.

pub mod answer;
pub mod attribution;
pub mod attribution_report;
pub mod bench;
pub mod coder;
pub mod compare;
pub mod html;
pub mod invariance;
pub mod invariance_images;
pub mod invariance_report;
pub mod memorisation;
pub mod prompts;
pub mod reasoning;
pub mod report;
pub mod run;
pub mod section;
pub mod signature;
pub mod stand_in;
pub mod stats;
pub mod transcribe_runs;
pub mod two_step;

pub use run::run;

/// Runs and labels for the unit tests of the per-model sections.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::compare::{Run, TaskScore};
    use super::signature::Label;

    /// A run with one sample per problem: `(task, passed)`.
    pub fn run(name: &str, passed: &[(&str, bool)]) -> Run {
        let scores = passed
            .iter()
            .map(|(id, p)| {
                let s = TaskScore {
                    subset: "A".into(),
                    difficulty: None,
                    n: 1,
                    c: usize::from(*p),
                    first_passed: *p,
                    first_error: None,
                };
                (id.to_string(), s)
            })
            .collect();
        Run { name: name.into(), scores }
    }

    pub fn label(model: &str, condition: &str) -> Label {
        Label { model: model.into(), condition: condition.into(), coder: None }
    }
}
