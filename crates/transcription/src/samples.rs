//! Scoring a samples file of transcriptions (`generate --condition
//! transcribe` writes them): one output line per input line, in input
//! order, whatever the line holds — a malformed line or an unknown task is
//! a line with a reason, never the end of the run.

use std::collections::HashMap;

use rayon::prelude::*;
use serde_json::{Map, Value as Json};

use flowbench_chart::mermaid::Flowchart;
use flowbench_judge::problems_file::ProblemSet;
use flowbench_judge::run::{JudgeSettings, Sandbox};

use super::{Score, Source, read_reply};

/// What the executable score needs (absent: `executes` stays `null`).
pub struct Execution<'a> {
    pub problems: &'a ProblemSet,
    pub settings: &'a JudgeSettings,
    pub sandbox: &'a dyn Sandbox,
}

/// The sample fields copied to the score line, to say what was scored.
const KEPT: [&str; 4] = ["condition", "model", "custom_id", "edits"];

/// A samples file scored.
#[derive(Debug, Default)]
pub struct Scored {
    /// One score line per input line, in input order.
    pub lines: Vec<Map<String, Json>>,
    /// What was wrong with the input lines that were not samples of the bench.
    pub unusable: Vec<String>,
    /// The samples whose program the sandbox could not run (`executes` stays
    /// null: a failure of the machine, scored again by a re-run).
    pub not_run: Vec<String>,
}

/// Scores every line of `text` against `sources` (source chart by task id).
pub fn score_lines(text: &str, sources: &HashMap<String, Flowchart>, execution: Option<&Execution>) -> Scored {
    let prepared: HashMap<&str, Source> = sources.iter().map(|(id, chart)| (id.as_str(), Source::of(chart))).collect();
    let lines: Vec<(usize, &str)> =
        text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(i, l)| (i + 1, l)).collect();
    let scored: Vec<(Map<String, Json>, LineTrouble)> =
        lines.par_iter().map(|&(number, line)| score_line(number, line, &prepared, execution)).collect();
    let mut out = Scored::default();
    for (line, trouble) in scored {
        match trouble {
            LineTrouble::None => {}
            LineTrouble::NotASample(why) => out.unusable.push(why),
            LineTrouble::NotRun(why) => out.not_run.push(why),
        }
        out.lines.push(line);
    }
    out
}

/// What went wrong on a line besides its score.
enum LineTrouble {
    None,
    /// The line is not a sample of the bench.
    NotASample(String),
    /// The machine failed to run its program.
    NotRun(String),
}

/// One line's score, and what went wrong besides.
fn score_line(
    number: usize,
    line: &str,
    prepared: &HashMap<&str, Source>,
    execution: Option<&Execution>,
) -> (Map<String, Json>, LineTrouble) {
    let sample: Map<String, Json> = match serde_json::from_str(line) {
        Ok(Json::Object(m)) => m,
        _ => {
            let why = format!("line {number}: not a JSON object");
            return (output(None, &Map::new(), Score::refused(why.clone())), LineTrouble::NotASample(why));
        }
    };
    let task_id = sample.get("task_id").and_then(Json::as_str);
    let Some((id, source)) = task_id.and_then(|id| prepared.get_key_value(id)) else {
        let why = format!("line {number}: task_id {task_id:?} is not a problem of the bench");
        return (output(task_id, &sample, Score::refused(why.clone())), LineTrouble::NotASample(why));
    };
    let reply = ["response", "completion"].iter().find_map(|k| sample.get(*k).and_then(Json::as_str)).unwrap_or("");
    let read = read_reply(reply);
    let mut score = source.score_read(&read);
    let mut trouble = LineTrouble::None;
    if let (Some(exec), Ok((chart, _))) = (execution, &read) {
        (score.executes, score.execution) = match exec.problems.by_id.get(*id) {
            Some(problem) => match super::execute::executes(chart, problem, exec.settings, exec.sandbox) {
                Ok((passed, why)) => (passed, Some(why)),
                Err(failure) => {
                    trouble = LineTrouble::NotRun(format!("line {number} ({id}): {failure}"));
                    (None, Some(failure.to_string()))
                }
            },
            None => (None, Some("no tests for this problem".into())),
        };
    }
    (output(Some(id), &sample, score), trouble)
}

fn output(task_id: Option<&str>, sample: &Map<String, Json>, score: Score) -> Map<String, Json> {
    let mut out = Map::new();
    out.insert("task_id".into(), task_id.map_or(Json::Null, |t| Json::String(t.into())));
    if let Ok(Json::Object(fields)) = serde_json::to_value(&score) {
        out.extend(fields);
    }
    for key in KEPT {
        if let Some(v) = sample.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    out
}
