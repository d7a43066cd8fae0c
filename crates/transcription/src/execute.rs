//! The executable score: did the model read enough to rebuild a working
//! program? The transcription is read back into Python (`chart2py`, from
//! the graph alone) and judged on the problem's tests like any sample. The
//! function's name and parameters come from the problem's starter code:
//! the bank's charts start at a bare `Start`, so the image never names them.

use flowbench_author::chart2py::{Signature, graph_to_python};
use flowbench_author::execute::{Execution, NoRun, judge_program};
use flowbench_author::graph::{Graph, GraphError};
use flowbench_chart::mermaid::Flowchart;
use flowbench_judge::problems_file::LoadedProblem;
use flowbench_judge::run::{JudgeSettings, Sandbox};

/// Whether `chart`'s program passes `problem`'s tests, and the verdict (or
/// why there is none: labels that stay prose, a problem without tests).
/// A failure of the sandbox is the error: the machine's, never a verdict on
/// the transcription.
pub fn executes(
    chart: &Flowchart,
    problem: &LoadedProblem,
    settings: &JudgeSettings,
    sandbox: &dyn Sandbox,
) -> Result<(Option<bool>, String), MachineFailure> {
    let code = match program(chart, &problem.problem.starter_code, &problem.problem.entry_point) {
        Ok(code) => code,
        Err(why) => return Ok((Some(false), why.to_string())),
    };
    match judge_program(code, problem, settings, sandbox) {
        Ok(Execution::Passed { .. }) => Ok((Some(true), "passed".into())),
        Ok(Execution::Failed(c)) => Ok((Some(false), c.result)),
        Ok(Execution::NotCode(why)) => Ok((Some(false), why)),
        Err(NoRun::NotJudgeable(why)) => Ok((None, why)),
        Err(NoRun::Sandbox(why)) => Err(MachineFailure(why)),
    }
}

/// The sandbox could not run a transcription's program.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the sandbox could not run the program: {0}")]
pub struct MachineFailure(pub String);

/// A chart `chart2py` cannot read as a program.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("chart2py: {}", .0.message)]
pub struct NotAProgram(pub GraphError);

/// `chart2py` of `chart`, the function named and parameterised as the
/// starter code defines `entry_point` (when it does); the error says why
/// the chart is not a program.
pub fn program(chart: &Flowchart, starter_code: &str, entry_point: &str) -> Result<String, NotAProgram> {
    let params = parameters(starter_code, entry_point);
    let entry = params.as_ref().map(|params| Signature { name: entry_point, params, nested: &[] });
    Graph::new(chart).and_then(|g| graph_to_python(&g, entry)).map_err(NotAProgram)
}

/// The parameter names of `def name(…)` in `starter`, if it defines it.
fn parameters(starter: &str, name: &str) -> Option<Vec<String>> {
    let at = starter.find(&format!("def {name}("))? + name.len() + 5;
    let mut depth = 0usize;
    let mut end = None;
    for (i, c) in starter[at..].char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' if depth == 0 => {
                end = Some(at + i);
                break;
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let inside = &starter[at..end?];
    let (mut params, mut depth, mut current) = (Vec::new(), 0usize, String::new());
    for c in inside.chars().chain(std::iter::once(',')) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                let name = current.split([':', '=']).next().unwrap_or("").trim().trim_start_matches('*').to_string();
                if !name.is_empty() && name != "self" && name != "/" {
                    params.push(name);
                }
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    Some(params)
}

#[cfg(test)]
mod tests {
    use super::parameters;

    #[test]
    fn reads_parameter_names_from_the_starter_code() {
        let starter = "from typing import List\n\ndef f(xs: List[int], k: int = 3, *rest, **kw) -> int:\n    pass\n";
        assert_eq!(parameters(starter, "f"), Some(vec!["xs".into(), "k".into(), "rest".into(), "kw".into()]));
        assert_eq!(parameters("def g():\n    pass\n", "g"), Some(vec![]));
        assert_eq!(parameters("def g():\n", "h"), None);
    }
}
