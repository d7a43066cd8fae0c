//! The executable score: did the model read enough to rebuild a working
//! program? The transcription is read back into Python (`chart2py`, from
//! the graph alone) and judged on the problem's tests like any sample.

use serde_json::Map;

use crate::author::chart2py::chart_to_python;
use crate::judge::problems_file::LoadedProblem;
use crate::judge::run::{JudgeSettings, NoVerdict, Sandbox, judge_sample};
use crate::judge::samples::Sample;
use crate::mermaid::Flowchart;

/// Whether `chart`'s program passes `problem`'s tests, and the verdict (or
/// why there is none: labels that stay prose, a sandbox failure — a machine
/// failure is `None`, never a verdict on the transcription).
pub fn executes(
    chart: &Flowchart,
    problem: &LoadedProblem,
    settings: &JudgeSettings,
    sandbox: &dyn Sandbox,
) -> (Option<bool>, String) {
    let code = match chart_to_python(chart) {
        Ok(code) => code,
        Err(e) => return (Some(false), format!("chart2py: {}", e.message)),
    };
    let sample = Sample {
        fields: Map::new(),
        task_id: problem.problem.task_id.clone(),
        model: "transcription".into(),
        code,
        index: 0,
        key: String::new(),
    };
    match judge_sample(problem, &sample, settings, sandbox) {
        Ok((verdict, _, _)) => (Some(verdict.passed), verdict.result),
        Err(NoVerdict::NotJudgeable(why)) => (None, why),
        Err(NoVerdict::Sandbox(why)) => (None, format!("sandbox: {why}")),
    }
}
