//! The ablation's transcribe runs: recognised by their samples' `condition`,
//! scored on the graph (not judged) into `results/NAME.scores.jsonl`, then
//! paired with the code runs of the same model and rendering for the
//! perception-or-reasoning section (`ablation::attribution`) and its
//! side-by-side drawings.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::str::FromStr as _;

use flowbench_support::FileError;

use serde_json::Value as Json;

use super::attribution::{ReadRule, ReadRun, Section, attribute};
use super::attribution_report::{SideBySide, side_by_side};
use super::bench::Bench;
use super::compare::Run;
use super::prompts::Condition;
use super::signature::Label;
use flowbench_chart::mermaid::Flowchart;
use flowbench_transcription::Score;
use flowbench_transcription::samples::{Execution, score_lines};

/// Failed problems drawn side by side per code run (the page stays small).
const SIDE_BY_SIDE_LIMIT: usize = 6;

/// A scored transcribe run and each problem's first reply (for drawing).
pub struct ScoredRead {
    pub run: ReadRun,
    pub replies: BTreeMap<String, String>,
}

/// A run's samples that cannot be read, or its scores that cannot be written.
pub type RunFileError = FileError;

fn read(path: &Path) -> Result<String, RunFileError> {
    std::fs::read_to_string(path).map_err(FileError::reading(path))
}

/// Whether a run's samples are transcriptions: their `condition` field is
/// `transcribe` or `transcribe@STYLE` (the first line with one decides; a
/// run without the field is a code run, as before).
pub fn is_transcribe_run(files: &[PathBuf]) -> Result<bool, RunFileError> {
    for file in files {
        let text = read(file)?;
        let condition = text
            .lines()
            .find_map(|l| serde_json::from_str::<Json>(l).ok()?.get("condition")?.as_str().map(str::to_string));
        if let Some(c) = condition {
            return Ok(Condition::from_str(&c).is_ok_and(|c| c.is_transcription()));
        }
    }
    Ok(false)
}

/// The bench's source charts by task id (a chart that does not parse is
/// left out with a warning: its transcriptions cannot be scored).
pub fn source_charts(bench: &Bench) -> HashMap<String, Flowchart> {
    let mut out = HashMap::new();
    for r in &bench.records {
        match flowbench_chart::mermaid::parse(&r.mermaid) {
            Ok(chart) => {
                out.insert(r.task_id.clone(), chart);
            }
            Err(e) => eprintln!("warning: {}: its source chart does not parse ({}); not scored", r.task_id, e.message),
        }
    }
    out
}

/// Scores a transcribe run's samples into `output` (one line per sample
/// line, bad lines with their reason) and reads them back as a [`ReadRun`].
pub fn score_run(
    name: &str,
    files: &[PathBuf],
    sources: &HashMap<String, Flowchart>,
    execution: &Execution,
    output: &Path,
) -> Result<(ScoredRead, Vec<String>), RunFileError> {
    let mut text = String::new();
    for file in files {
        text.push_str(&read(file)?);
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    let scored = score_lines(&text, sources, Some(execution));
    let lines = scored.lines;
    // A program the sandbox could not run is read as not executed: said
    // beside the lines that were not samples, never taken as a verdict.
    let unusable = scored.unusable.into_iter().chain(scored.not_run).collect();
    let mut out = String::new();
    let mut scores: BTreeMap<String, Vec<Score>> = BTreeMap::new();
    for line in &lines {
        out.push_str(&Json::Object(line.clone()).to_string());
        out.push('\n');
        let Some(task) = line.get("task_id").and_then(Json::as_str) else { continue };
        if let Some(score) = read_score(line) {
            scores.entry(task.to_string()).or_default().push(score);
        }
    }
    flowbench_support::outfile::write_atomic(output, out.as_bytes()).map_err(FileError::writing(output))?;
    let replies = first_replies(&text);
    let uniform = |key: &str| {
        let mut values = lines.iter().filter_map(|l| l.get(key).and_then(Json::as_str));
        let first = values.next()?;
        values.all(|v| v == first).then(|| first.to_string())
    };
    let label = Label {
        model: uniform("model").unwrap_or_else(|| "-".into()),
        condition: uniform("condition").unwrap_or_else(|| "transcribe".into()),
        coder: None,
    };
    Ok((ScoredRead { run: ReadRun { name: name.to_string(), label, scores }, replies }, unusable))
}

/// A score line read back. Not `Score`'s own `Deserialize`: its flattened
/// counts do not read back under serde_json's `arbitrary_precision` (the
/// numbers arrive as maps), so the counts are read on their own and the
/// figures taken from the line.
fn read_score(line: &serde_json::Map<String, Json>) -> Option<Score> {
    let counts: flowbench_transcription::Counts = serde_json::from_value(Json::Object(line.clone())).ok()?;
    let parsed = line.get("parsed").and_then(Json::as_bool).unwrap_or(false);
    let reason = line.get("reason").and_then(Json::as_str).map(str::to_string);
    let fixes = line.get("fixes").and_then(Json::as_u64).unwrap_or(0) as usize;
    let mut score = Score::from_counts(counts, parsed, reason, fixes);
    score.triple_f1_relaxed = line.get("triple_f1_relaxed").and_then(Json::as_f64)?;
    score.triple_f1_strict = line.get("triple_f1_strict").and_then(Json::as_f64).unwrap_or(score.triple_f1_strict);
    score.executes = line.get("executes").and_then(Json::as_bool);
    score.execution = line.get("execution").and_then(Json::as_str).map(str::to_string);
    Some(score)
}

/// Each task's first reply in a samples text.
fn first_replies(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Ok(Json::Object(m)) = serde_json::from_str::<Json>(line) else { continue };
        let Some(task) = m.get("task_id").and_then(Json::as_str) else { continue };
        let reply = ["response", "completion"].iter().find_map(|k| m.get(*k).and_then(Json::as_str)).unwrap_or("");
        out.entry(task.to_string()).or_insert_with(|| reply.to_string());
    }
    out
}

/// The section: every image code run against its model's transcribe run.
/// Without any transcribe run there is no section at all (reports of
/// code-only ablations are unchanged).
pub fn section(reads: &[ScoredRead], code: &[Run], labels: &[Label], rule: ReadRule) -> Section {
    if reads.is_empty() {
        return Section::default();
    }
    let read_runs: Vec<ReadRun> = reads.iter().map(|r| r.run.clone()).collect();
    let pairs: Vec<(&Run, &Label)> = code.iter().zip(labels).collect();
    attribute(&read_runs, &pairs, rule)
}

/// The failed problems of each pair drawn side by side (at most
/// [`SIDE_BY_SIDE_LIMIT`] per pair): perception failures first (their
/// drawings show the misreading in red), then reasoning failures, each in
/// task order.
pub fn side_by_sides(section: &Section, reads: &[ScoredRead], sources: &HashMap<String, Flowchart>) -> Vec<SideBySide> {
    let renderer = flowbench_chart::render::pipeline::Renderer::default();
    let mut out = Vec::new();
    for a in &section.pairs {
        let Some(read) = reads.iter().find(|r| r.run.name == a.transcribe_run) else { continue };
        let mut failed: Vec<_> = a.problems.iter().filter_map(|p| p.failure.map(|f| (p, f))).collect();
        failed.sort_by_key(|(_, f)| *f != "perception");
        for (p, failure) in failed.into_iter().take(SIDE_BY_SIDE_LIMIT) {
            let (Some(source), Some(reply)) = (sources.get(&p.task_id), read.replies.get(&p.task_id)) else { continue };
            out.push(SideBySide {
                code_run: a.code_run.clone(),
                task_id: p.task_id.clone(),
                failure: failure.to_string(),
                triple_f1: p.triple_f1,
                drawings: side_by_side(&renderer, source, reply),
            });
        }
    }
    out
}
