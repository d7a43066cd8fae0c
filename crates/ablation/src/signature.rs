//! What the name alone solves: per model, the flowchart condition against
//! the `signature` condition (the starter code only: no image, no Mermaid,
//! no description).
//!
//! A problem a model solves from its signature was answered from memory or
//! from the name, not from the chart; the gap flowchart − signature is the
//! share the chart itself adds. The problems solved under `signature` are
//! listed because each is a suspect of memorisation worth a look.
//!
//! # How it works
//!
//! Each judged run is labelled with its model and condition ([`label`]:
//! the samples' own `model` and `condition` fields, which `generate`
//! writes; a run without them is named after its condition). Per model, the
//! first `flowchart` (or `flowchart@STYLE`) run is paired problem by problem
//! with its `signature` run through [`super::compare::delta`] (bootstrap
//! interval, exact McNemar), the signature run as the baseline so the delta
//! reads flowchart − signature.

use serde::Serialize;

use super::compare::{Delta, Run, TaskScore, delta};
use flowbench_judge::records::Record;

/// The condition name of the starter-code-only prompt.
pub const SIGNATURE: &str = "signature";

/// Which model and condition a judged run holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub model: String,
    pub condition: String,
    /// The model that wrote the code of a two-step run when it is not
    /// `model` (`generate --coder`): `model` only read the chart.
    pub coder: Option<String>,
}

/// The value of `key` when every record has the same one.
fn uniform<'a>(records: &'a [Record], key: &str) -> Option<&'a str> {
    let mut values = records.iter().map(|r| r.fields.get(key).and_then(serde_json::Value::as_str));
    let first = values.next()??;
    values.all(|v| v == Some(first)).then_some(first)
}

/// A run's model, condition and coder from its samples' `model`,
/// `condition` and `coder` fields; without a condition field the run's name
/// is taken for it (a run named `signature`), without a model field the
/// model is `-`.
pub fn label(run_name: &str, records: &[Record]) -> Label {
    Label {
        model: uniform(records, "model").unwrap_or("-").to_string(),
        condition: uniform(records, "condition").unwrap_or(run_name).to_string(),
        coder: uniform(records, "coder").map(str::to_string),
    }
}

/// One model's flowchart − signature comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SignatureGap {
    pub model: String,
    /// The runs compared (their `--run` names).
    pub flowchart_run: String,
    pub signature_run: String,
    /// flowchart − signature, percentage points, paired over problems.
    pub delta: Delta,
    /// pass@1 (%) of the signature run on the paired problems.
    pub signature_pass_at_1: f64,
    /// Problems some `signature` sample solved (suspect memorisation), sorted.
    pub solved_by_signature: Vec<String>,
}

fn is_flowchart(condition: &str) -> bool {
    condition == "flowchart" || condition.starts_with("flowchart@")
}

/// Per model with both a flowchart and a signature run, in the order the
/// models' signature runs come.
pub fn gaps(runs: &[Run], labels: &[Label]) -> Vec<SignatureGap> {
    let labelled: Vec<(&Run, &Label)> = runs.iter().zip(labels).collect();
    labelled
        .iter()
        .filter(|(_, l)| l.condition == SIGNATURE)
        .filter_map(|(sig, l)| {
            let (chart, _) = labelled.iter().find(|(_, o)| o.model == l.model && is_flowchart(&o.condition))?;
            gap(&l.model, chart, sig)
        })
        .collect()
}

fn gap(model: &str, chart: &Run, sig: &Run) -> Option<SignatureGap> {
    let pairs: Vec<(&TaskScore, &TaskScore)> =
        sig.scores.iter().filter_map(|(id, s)| chart.scores.get(id).map(|c| (s, c))).collect();
    let delta = delta(&pairs)?;
    let signature_pass_at_1 =
        100.0 * pairs.iter().map(|(s, _)| s.c as f64 / s.n as f64).sum::<f64>() / pairs.len() as f64;
    Some(SignatureGap {
        model: model.to_string(),
        flowchart_run: chart.name.clone(),
        signature_run: sig.name.clone(),
        delta,
        signature_pass_at_1,
        solved_by_signature: sig
            .scores
            .iter()
            .filter(|(id, s)| s.c > 0 && chart.scores.contains_key(*id))
            .map(|(id, _)| id.clone())
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{label, run};

    #[test]
    fn flowchart_minus_signature_per_model_lists_what_the_name_solves() {
        let runs = [
            run("m1-chart", &[("t1", true), ("t2", true), ("t3", true), ("t4", false)]),
            run("m1-sig", &[("t1", true), ("t2", false), ("t3", false), ("t4", false)]),
            run("m2-sig", &[("t1", false)]),
        ];
        let labels = [label("m1", "flowchart@dark"), label("m1", "signature"), label("m2", "signature")];
        let gaps = gaps(&runs, &labels);
        // m2 has no flowchart run: nothing to compare.
        assert_eq!(gaps.len(), 1);
        let g = &gaps[0];
        assert_eq!((g.flowchart_run.as_str(), g.signature_run.as_str()), ("m1-chart", "m1-sig"));
        assert_eq!((g.delta.delta, g.delta.tasks, g.delta.only_condition, g.delta.only_baseline), (50.0, 4, 2, 0));
        assert_eq!(g.signature_pass_at_1, 25.0);
        assert_eq!(g.solved_by_signature, vec!["t1".to_string()]);
        assert!(g.delta.ci_low <= 50.0 && g.delta.ci_high >= 50.0);
    }
}
