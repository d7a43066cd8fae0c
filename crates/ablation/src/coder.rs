//! Perception in code terms: a fixed coder on each model's reading of the
//! charts (HumanEval-V's V2T2C with a strong separate coder).
//!
//! `flowchart-then-code` with `generate --coder C`: model A transcribes the
//! image, C codes from A's Mermaid. C's pass rate there, beside C's pass
//! rate on the *true* Mermaid (C's own `mermaid` run), measures what A's
//! reading lost, in the only currency a benchmark pays: programs that pass.
//!
//! # How it works
//!
//! Each judged run is labelled with its model, condition and coder
//! ([`super::signature::label`]: the samples' `coder` field, which a
//! cross-model two-step writes). Every two-step run with a coder other than
//! its model is paired problem by problem with the first `mermaid` run
//! (no `+cot`) of the coder through [`super::compare::delta`], the true
//! Mermaid as the baseline: Δ reads transcriptions − true Mermaid, so a
//! negative Δ is the perception gap. A coder without a `mermaid` run is
//! reported with its transcriptions' pass rate alone and the reason.

use std::str::FromStr as _;

use serde::Serialize;

use super::compare::{Delta, Run, TaskScore, delta};
use super::prompts::Condition;
use super::signature::Label;

/// One evaluated model's reading, coded by another model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CoderGap {
    /// The evaluated model: it read the charts.
    pub model: String,
    /// The model that coded from its Mermaid.
    pub coder: String,
    pub two_step_run: String,
    /// pass@1 (%) of the coder on the model's transcriptions (all problems
    /// of the run, or the paired ones when there is a `mermaid` run).
    pub on_transcriptions: f64,
    /// The coder's own `mermaid` run, its pass@1 (%) on the paired
    /// problems, and transcriptions − true Mermaid; `None` without one.
    pub mermaid_run: Option<String>,
    pub on_true_mermaid: Option<f64>,
    pub delta: Option<Delta>,
}

fn is_plain_mermaid(condition: &str) -> bool {
    matches!(Condition::from_str(condition), Ok(Condition::Mermaid { .. }))
}

fn is_two_step(condition: &str) -> bool {
    Condition::from_str(condition).is_ok_and(|c| c.is_two_step())
}

/// pass@1 (%) over scores.
fn pass_at_1<'a>(scores: impl Iterator<Item = &'a TaskScore>) -> f64 {
    let (sum, n) = scores.fold((0.0, 0usize), |(sum, n), s| (sum + s.c as f64 / s.n as f64, n + 1));
    if n == 0 { 0.0 } else { 100.0 * sum / n as f64 }
}

/// Every cross-model two-step run, in run order.
pub fn gaps(runs: &[Run], labels: &[Label]) -> Vec<CoderGap> {
    let labelled: Vec<(&Run, &Label)> = runs.iter().zip(labels).collect();
    labelled
        .iter()
        .filter(|(_, l)| is_two_step(&l.condition))
        .filter_map(|(run, l)| {
            let coder = l.coder.as_ref().filter(|c| **c != l.model)?;
            let mermaid =
                labelled.iter().find(|(_, o)| &o.model == coder && o.coder.is_none() && is_plain_mermaid(&o.condition));
            Some(gap(&l.model, coder, run, mermaid.map(|(m, _)| *m)))
        })
        .collect()
}

fn gap(model: &str, coder: &str, two_step: &Run, mermaid: Option<&Run>) -> CoderGap {
    let mut out = CoderGap {
        model: model.to_string(),
        coder: coder.to_string(),
        two_step_run: two_step.name.clone(),
        on_transcriptions: pass_at_1(two_step.scores.values()),
        mermaid_run: None,
        on_true_mermaid: None,
        delta: None,
    };
    if let Some(mermaid) = mermaid {
        let pairs: Vec<(&TaskScore, &TaskScore)> =
            mermaid.scores.iter().filter_map(|(id, m)| two_step.scores.get(id).map(|t| (m, t))).collect();
        out.mermaid_run = Some(mermaid.name.clone());
        if let Some(d) = delta(&pairs) {
            out.on_transcriptions = pass_at_1(pairs.iter().map(|p| p.1));
            out.on_true_mermaid = Some(pass_at_1(pairs.iter().map(|p| p.0)));
            out.delta = Some(d);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{label, run};

    fn coded_by(model: &str, coder: &str) -> Label {
        Label { coder: Some(coder.into()), ..label(model, "flowchart-then-code") }
    }

    #[test]
    fn a_coder_on_a_models_reading_is_set_beside_the_coder_on_the_true_mermaid() {
        let runs = [
            run("c-mermaid", &[("t1", true), ("t2", true), ("t3", true), ("t4", false)]),
            run("a-read-by-c", &[("t1", true), ("t2", false), ("t3", false), ("t4", false)]),
            run("b-read-by-d", &[("t1", true), ("t2", false)]),
            run("a-self", &[("t1", false)]),
        ];
        let labels = [
            label("c", "mermaid"),
            coded_by("a", "c"),
            coded_by("b", "d"),
            // A two-step run the model coded itself: not a coder's reading.
            label("a", "flowchart-then-code"),
        ];
        let gaps = gaps(&runs, &labels);
        assert_eq!(gaps.len(), 2);
        let a = &gaps[0];
        assert_eq!((a.model.as_str(), a.coder.as_str(), a.mermaid_run.as_deref()), ("a", "c", Some("c-mermaid")));
        // By hand: the coder passes 3 of 4 on the true Mermaid, 1 of 4 on
        // a's reading; t2 and t3 lost, none gained: Δ = −50 points.
        assert_eq!((a.on_true_mermaid, a.on_transcriptions), (Some(75.0), 25.0));
        let d = a.delta.as_ref().expect("paired");
        assert_eq!((d.delta, d.tasks, d.only_baseline, d.only_condition), (-50.0, 4, 2, 0));
        assert_eq!(d.mcnemar_p, 0.5);
        // d has no mermaid run: the transcriptions' rate alone.
        let b = &gaps[1];
        assert_eq!(
            (b.coder.as_str(), b.mermaid_run.as_deref(), b.on_transcriptions, b.delta.is_none()),
            ("d", None, 50.0, true)
        );
    }
}
