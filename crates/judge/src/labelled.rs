//! A suite judged by labelled programs, as CodeContests-O and HardTests
//! report theirs: each program is labelled correct or wrong (by a human,
//! or a recorded verdict corrected by hand), the suite accepts or rejects
//! it, and the suite's true-positive rate is the share of correct programs
//! it accepts, its true-negative rate the share of wrong ones it rejects.
//! A suite that fails correct programs (a wrong expected value, an input
//! beyond the statement, a limit too tight) loses TPR; one that misses
//! wrong programs loses TNR.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value as Json;

use super::problems_file::ProblemSet;
use super::run::{JudgeSettings, NoVerdict, Sandbox, judge_all};
use super::samples::Sample;
use super::summary::Counting;

/// The field of a sample that holds its label.
pub const LABEL: &str = "label";

/// A sample whose label is missing or not `correct` / `wrong` (nor a
/// boolean `correct`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("sample {key}: no label (give `\"label\": \"correct\"` or `\"wrong\"`, or `\"correct\": true/false`)")]
pub struct NoLabel {
    pub key: String,
}

/// Whether `sample` is labelled correct.
pub fn label_of(sample: &Sample) -> Result<bool, NoLabel> {
    match (sample.fields.get(LABEL), sample.fields.get("correct")) {
        (Some(Json::String(l)), _) if l == "correct" => Ok(true),
        (Some(Json::String(l)), _) if l == "wrong" => Ok(false),
        (None, Some(Json::Bool(b))) => Ok(*b),
        _ => Err(NoLabel { key: sample.key.clone() }),
    }
}

/// Counts of labelled programs by label and by the suite's verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Rates {
    /// Programs labelled correct, and those of them the suite accepted.
    pub correct: usize,
    pub correct_accepted: usize,
    /// Programs labelled wrong, and those of them the suite rejected.
    pub wrong: usize,
    pub wrong_rejected: usize,
    /// Programs the judge gave no verdict (skipped, or the machine failed).
    pub unjudged: usize,
}

impl Rates {
    /// Correct programs accepted ÷ correct programs; `None` without any.
    pub fn tpr(&self) -> Option<f64> {
        (self.correct > 0).then(|| self.correct_accepted as f64 / self.correct as f64)
    }

    /// Wrong programs rejected ÷ wrong programs; `None` without any.
    pub fn tnr(&self) -> Option<f64> {
        (self.wrong > 0).then(|| self.wrong_rejected as f64 / self.wrong as f64)
    }

    pub fn add(&mut self, other: &Rates) {
        self.correct += other.correct;
        self.correct_accepted += other.correct_accepted;
        self.wrong += other.wrong;
        self.wrong_rejected += other.wrong_rejected;
        self.unjudged += other.unjudged;
    }

    fn count(&mut self, correct: bool, accepted: bool) {
        if correct {
            self.correct += 1;
            self.correct_accepted += usize::from(accepted);
        } else {
            self.wrong += 1;
            self.wrong_rejected += usize::from(!accepted);
        }
    }
}

/// A program the suite judged against its label, for the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Misjudged {
    pub task_id: String,
    pub sample_key: String,
    /// `correct` (the suite rejected it) or `wrong` (the suite accepted it).
    pub label: &'static str,
    /// The verdict's result (`passed`, `failed: …`).
    pub result: String,
}

/// Per task, the rates of `samples` (each with its label) judged on
/// `problems` in the sandbox; a verdict counts as accepted as `counting`
/// says (strict: passed). Samples of tasks `problems` lacks are left out.
pub fn rate(
    problems: &ProblemSet,
    samples: &[(Sample, bool)],
    settings: &JudgeSettings,
    sandbox: &dyn Sandbox,
    threads: usize,
    counting: Counting,
) -> (BTreeMap<String, Rates>, Vec<Misjudged>) {
    let work: Vec<_> = samples.iter().filter_map(|(s, _)| problems.by_id.get(&s.task_id).map(|p| (p, s))).collect();
    let labels: BTreeMap<&str, bool> = samples.iter().map(|(s, l)| (s.key.as_str(), *l)).collect();
    let mut per_task: BTreeMap<String, Rates> = BTreeMap::new();
    let mut misjudged = Vec::new();
    judge_all(&work, settings, sandbox, threads, |_, sample, result| {
        let rates = per_task.entry(sample.task_id.clone()).or_default();
        let correct = labels.get(sample.key.as_str()).copied().unwrap_or(false);
        match result {
            Ok((verdict, _, _)) => {
                let accepted = counting.counts(&verdict);
                rates.count(correct, accepted);
                if accepted != correct {
                    misjudged.push(Misjudged {
                        task_id: sample.task_id.clone(),
                        sample_key: sample.key.clone(),
                        label: if correct { "correct" } else { "wrong" },
                        result: verdict.result,
                    });
                }
            }
            Err(NoVerdict::NotJudgeable(_) | NoVerdict::Sandbox(_)) => rates.unjudged += 1,
        }
    });
    misjudged.sort_by(|a, b| (&a.task_id, &a.sample_key).cmp(&(&b.task_id, &b.sample_key)));
    (per_task, misjudged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::native::TimePolicy;
    use crate::problems_file::parse_problems;
    use crate::run::{Clock, Mode};
    use flowbench_exec::{Job, Outcome, Status};
    use std::path::Path;
    use std::time::Duration;

    /// Answers each call with 2 when the program says "right", else 3.
    struct Fake;

    impl Sandbox for Fake {
        fn run_job(&self, job: &Job) -> Outcome {
            let Job::Calls { source, calls, .. } = job else { unreachable!("native jobs only") };
            let value = if source.contains("right") { 2 } else { 3 };
            let calls = (0..calls.len())
                .map(|_| flowbench_exec::CallOutcome {
                    status: Status::Completed,
                    value: Some(value.into()),
                    unencodable: None,
                    wall: Duration::from_millis(1),
                })
                .collect();
            Outcome {
                status: Status::Completed,
                calls,
                runs: vec![],
                stdout: String::new(),
                stderr: String::new(),
                wall: Duration::from_millis(2),
            }
        }
    }

    fn sample(code: &str, index: usize, label: &str) -> (Sample, bool) {
        let mut fields = serde_json::Map::new();
        fields.insert(LABEL.into(), label.into());
        let s = Sample {
            fields,
            task_id: "a".into(),
            model: "m".into(),
            code: code.into(),
            index,
            key: format!("k{index}"),
        };
        let correct = label_of(&s).expect("labelled");
        (s, correct)
    }

    #[test]
    fn true_positive_and_true_negative_rates() {
        let (set, diags) = parse_problems(
            Path::new("p"),
            r#"{"task_id": "a", "entry_point": "f", "call_style": "function", "tests": [{"args": [1], "expected": 2}]}"#,
        );
        assert!(diags.is_empty(), "{diags:?}");
        let settings = JudgeSettings {
            mode: Mode::Native,
            strict_types: false,
            legacy_limit: Duration::from_secs(3),
            time: TimePolicy { default: Duration::from_secs(3), floor: Duration::from_secs(1), factor: 4.0 },
            clock: Clock::Wall,
        };
        // Two correct programs, one the suite rejects (labelled correct by
        // mistake, or the suite is wrong); three wrong ones, one accepted.
        let samples = vec![
            sample("right", 0, "correct"),
            sample("nope", 1, "correct"),
            sample("nope", 2, "wrong"),
            sample("nope", 3, "wrong"),
            sample("right", 4, "wrong"),
        ];
        let (per_task, misjudged) = rate(&set, &samples, &settings, &Fake, 2, Counting::default());
        let r = per_task["a"];
        assert_eq!((r.correct, r.correct_accepted, r.wrong, r.wrong_rejected), (2, 1, 3, 2));
        assert_eq!((r.tpr(), r.tnr()), (Some(0.5), Some(2.0 / 3.0)));
        let keys: Vec<(&str, &str)> = misjudged.iter().map(|m| (m.sample_key.as_str(), m.label)).collect();
        assert_eq!(keys, vec![("k1", "correct"), ("k4", "wrong")]);
        let mut unlabelled = sample("x", 5, "correct").0;
        unlabelled.fields.insert(LABEL.into(), "maybe".into());
        assert_eq!(label_of(&unlabelled), Err(NoLabel { key: "k5".into() }));
    }
}
