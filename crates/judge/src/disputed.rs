//! Disputed tests, found by the crowd: a test that samples of at least
//! [`MIN_MODELS`] different models fail with the *same* output while
//! passing every other test of the problem. Independent programs agreeing
//! on an answer the reference does not give is evidence against the test
//! (a reference wrong on that input, or an input the statement does not
//! allow), which a benchmark author reviews before publishing; `tests gen
//! --drop-disputed` takes the reviewed list back.
//!
//! It reads only the results file: a native verdict records the one test
//! a sample failed when it passed every other (`Verdict::only_failure`,
//! the judge runs the later stages for such a sample to know), and the
//! failure shows the input, the reference's output and the sample's.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::problems_file::ProblemSet;
use super::records::Record;

/// How many different models must agree on a test's other answer.
pub const MIN_MODELS: usize = 3;

/// One disputed test, as the report lists it and `tests gen
/// --drop-disputed` reads it back (`task_id`, `args`, `reason`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DisputedTest {
    pub task_id: String,
    /// The test's 1-based number in the problem's suite.
    pub test: usize,
    /// The call, as shown (values truncated).
    pub input: String,
    /// The test's arguments in the native encoding, when the problem was
    /// at hand: what `tests gen --drop-disputed` matches a test by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<serde_json::Value>,
    /// The reference's output (the test's expected value), as shown.
    pub reference: String,
    /// The output the crowd agrees on (a value, or the exception raised).
    pub crowd: String,
    /// The models whose samples gave it, sorted.
    pub models: Vec<String>,
    /// Samples that gave it.
    pub samples: usize,
    /// The line of the statement that shares most words with the input
    /// and the two outputs (its first line when none shares any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement_line: Option<String>,
    /// Whether the test's input was widened beyond the statement.
    #[serde(default)]
    pub widened: bool,
    /// Why the reviewed test is dropped: empty in the judge's report, for
    /// the reviewer to fill in (or delete the line to keep the test).
    #[serde(default)]
    pub reason: String,
}

/// The disputed tests among `records`, by task then test number then the
/// crowd's output: samples whose only failure is one test, grouped by that
/// test and their output, kept where [`MIN_MODELS`] models agree.
pub fn disputed(records: &[Record]) -> Vec<DisputedTest> {
    type Key = (String, usize, String);
    let mut groups: BTreeMap<Key, (BTreeSet<String>, usize, String, String)> = BTreeMap::new();
    for r in records {
        let v = &r.judged.verdict;
        let (Some(test), Some(failure)) = (v.only_failure, &v.first_failure) else {
            continue;
        };
        if v.passed || failure.test != Some(test) {
            continue;
        }
        let crowd = failure.got.clone().unwrap_or_else(|| failure.message.clone());
        let entry = groups.entry((r.judged.task_id.clone(), test, crowd)).or_insert_with(|| {
            let input = failure.input.clone().unwrap_or_default();
            (BTreeSet::new(), 0, input, failure.expected.clone().unwrap_or_default())
        });
        entry.0.insert(r.judged.model.clone());
        entry.1 += 1;
    }
    groups
        .into_iter()
        .filter(|(_, (models, ..))| models.len() >= MIN_MODELS)
        .map(|((task_id, test, crowd), (models, samples, input, reference))| DisputedTest {
            task_id,
            test,
            input,
            args: None,
            reference,
            crowd,
            models: models.into_iter().collect(),
            samples,
            statement_line: None,
            widened: false,
            reason: String::new(),
        })
        .collect()
}

/// Fills in what the problems know: each test's arguments, whether it was
/// widened, and the statement's relevant line.
pub fn with_problems(mut list: Vec<DisputedTest>, problems: &ProblemSet) -> Vec<DisputedTest> {
    for d in &mut list {
        let Some(p) = problems.by_id.get(&d.task_id) else { continue };
        if let Some(suite) = &p.tests {
            for stage in &suite.stages {
                if let Some(i) = stage.numbers.iter().position(|&n| n == d.test) {
                    d.widened = stage.widened.get(i).copied().unwrap_or(false);
                    d.args = stage
                        .calls
                        .texts()
                        .get(i)
                        .and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok())
                        .and_then(|call| call.get("args").cloned());
                }
            }
        }
        let statement = match &p.problem.legacy {
            Some(l) if l.prompt.as_deref().is_some_and(|s| !s.trim().is_empty()) => {
                l.prompt.clone().unwrap_or_default()
            }
            _ => p.problem.starter_code.clone(),
        };
        d.statement_line = relevant_line(&statement, &[&d.input, &d.reference, &d.crowd]);
    }
    list
}

/// The statement's line sharing the most words (three characters or more,
/// case folded) with `texts`; ties go to the earlier line; with none
/// shared, the first line of prose (not the `def` line).
pub fn relevant_line(statement: &str, texts: &[&str]) -> Option<String> {
    let words = |s: &str| -> BTreeSet<String> {
        s.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= 3).map(str::to_lowercase).collect()
    };
    let wanted: BTreeSet<String> = texts.iter().flat_map(|t| words(t)).collect();
    let lines: Vec<&str> = statement
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("def ") && !l.starts_with("from ") && !l.starts_with("import "))
        .filter(|l| l.chars().any(char::is_alphanumeric))
        .collect();
    let mut best: Option<(usize, &str)> = None;
    for line in &lines {
        let shared = words(line).intersection(&wanted).count();
        if shared > 0 && best.is_none_or(|(b, _)| shared > b) {
            best = Some((shared, line));
        }
    }
    best.map(|(_, l)| l).or_else(|| lines.first().copied()).map(|l| l.trim_matches('"').trim().to_string())
}

/// The report as Markdown: one section per disputed test.
pub fn render_markdown(list: &[DisputedTest]) -> String {
    let mut out = String::from("# Disputed tests\n\n");
    let _ = writeln!(
        out,
        "Tests that samples of at least {MIN_MODELS} different models fail with the same output while passing every \
         other test of the problem: review each (is the reference right on this input? does the statement allow \
         it?), and give `tests gen --drop-disputed FILE` the ones to drop, each with its reason.\n"
    );
    if list.is_empty() {
        out.push_str("None.\n");
        return out;
    }
    for d in list {
        let _ = writeln!(out, "## {} test {}{}\n", d.task_id, d.test, if d.widened { " (widened)" } else { "" });
        if let Some(line) = &d.statement_line {
            let _ = writeln!(out, "- statement: {line}");
        }
        let _ = writeln!(out, "- input: `{}`", d.input.replace('`', "'"));
        let _ = writeln!(out, "- reference: `{}`", d.reference.replace('`', "'"));
        let _ = writeln!(out, "- crowd ({} samples): `{}`", d.samples, d.crowd.replace('`', "'"));
        let _ = writeln!(out, "- models: {}\n", d.models.join(", "));
    }
    out
}

/// The report as JSON lines, the form `tests gen --drop-disputed` reads
/// back once reviewed.
pub fn render_jsonl(list: &[DisputedTest]) -> String {
    list.iter().filter_map(|d| serde_json::to_string(d).ok()).map(|l| l + "\n").collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Judged;
    use crate::verdict::{Class, Failure, Verdict};

    fn record(model: &str, task: &str, only: Option<usize>, got: &str) -> Record {
        let mut verdict = Verdict::plain(only.is_none(), 0.1);
        verdict.only_failure = only;
        verdict.class = Some(if only.is_some() { Class::Wrong } else { Class::Passed });
        verdict.first_failure = only.map(|n| Failure {
            test: Some(n),
            input: Some("f('Ñary')".into()),
            expected: Some("['Ñary']".into()),
            got: Some(got.into()),
            message: "wrong answer".into(),
        });
        let judged = Judged {
            task_id: task.into(),
            model: model.into(),
            subset: None,
            difficulty: None,
            mode: "native".into(),
            judge: String::new(),
            verdict,
            sample_key: format!("{model}/{task}"),
            sample_index: 0,
            sandbox: None,
        };
        Record { judged, fields: Default::default() }
    }

    #[test]
    fn three_models_agreeing_on_one_other_answer_dispute_a_test() {
        let records = vec![
            record("a", "t", Some(2), "[]"),
            record("b", "t", Some(2), "[]"),
            record("b", "t", Some(2), "[]"),
            record("c", "t", Some(2), "[]"),
            record("d", "t", Some(2), "['x']"),
            record("e", "t", None, ""),
            // Two models only: not disputed.
            record("a", "u", Some(1), "0"),
            record("b", "u", Some(1), "0"),
        ];
        let list = disputed(&records);
        assert_eq!(list.len(), 1, "{list:?}");
        let d = &list[0];
        assert_eq!((d.task_id.as_str(), d.test, d.crowd.as_str(), d.samples), ("t", 2, "[]", 4));
        assert_eq!(d.models, vec!["a", "b", "c"]);
        assert_eq!(d.reference, "['Ñary']");
        let md = render_markdown(&list);
        assert!(md.contains("## t test 2") && md.contains("crowd (4 samples): `[]`"), "{md}");
        let back: DisputedTest = serde_json::from_str(render_jsonl(&list).trim()).expect("reads back");
        assert_eq!(&back, d);
    }

    #[test]
    fn a_different_answer_each_is_no_crowd() {
        let records =
            vec![record("a", "t", Some(2), "1"), record("b", "t", Some(2), "2"), record("c", "t", Some(2), "3")];
        assert!(disputed(&records).is_empty());
    }

    #[test]
    fn the_relevant_line_shares_most_words() {
        let statement = "def select_words(s, n):\n    \"\"\"Given a string s and a natural number n, return words\n    \
                         Note: you may assume the input string contains only letters and spaces.\n    \
                         select_words(\"Mary had a little lamb\", 4) ==> [\"little\"]\n    \"\"\"";
        let line = relevant_line(statement, &["select_words('Ñary ñad a ñittle ñamb', 4)", "['little']"]);
        assert_eq!(line.as_deref(), Some("select_words(\"Mary had a little lamb\", 4) ==> [\"little\"]"));
        let line = relevant_line(statement, &["zz"]);
        assert_eq!(line.as_deref(), Some("Given a string s and a natural number n, return words"));
    }
}
