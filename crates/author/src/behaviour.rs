//! Behaviour decides: a chart is faithful when the program it draws does
//! what the code does. The chart is written as Python ([`super::execute::chart_program`]:
//! the solution supplies the name, parameters and class its Start does not
//! give) and run beside the reference, in the candidates' sandbox, on
//! inputs made from the solution ([`super::inputs`]); the first input on
//! which the two differ is the counterexample.
//!
//! # How it works
//!
//! Both programs are wrapped by `flowbench-testgen`'s counted wrapper, so a
//! chart that loops forever stops at the same operations cap a reference
//! would (the judge's kind of limit) and is a counterexample, not a hang;
//! values are compared as the judge compares them
//! (`flowbench_testgen::generate::same`). Inputs are made once per solution
//! and kept in an [`InputCache`], so the charts of one solution (a faithful
//! one and its wrong twin, or every reply of an `author` session) share
//! them.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use flowbench_chart::mermaid::Flowchart;
use flowbench_exec::CallStyle;
use flowbench_problem::sandbox::SandboxFailure;
use flowbench_problem::value::Value;
use flowbench_support::timings::time;
use flowbench_testgen::generate::{compare_options, same};
use flowbench_testgen::reference::{Run, run_all, wrap};
use flowbench_testgen::spec::TestSpec;
use serde_json::Value as Json;

use super::against::Behave;
use super::inputs::{Found, InputsError, NoInputs, call_limits, call_style, find_inputs};
use super::reader::Program;

/// Seconds (of a call's quarter-second limit, counted) past which the
/// reference was slow enough that a chart running out of time on the same
/// input is no counterexample.
const SLOW_REFERENCE: f64 = 0.02;

/// What running the chart beside the code showed.
#[derive(Debug, Clone, PartialEq)]
pub enum Behaviour {
    /// The chart's program returned what the code returns on every input.
    Agreed(Agreement),
    /// It differs on an input.
    Differs(Disagreement, Agreement),
    /// The chart reads as no program (which node, and why).
    NotCode(String),
    /// No input could be made (why); the evidence stays structural.
    NoInputs(String),
}

/// How many inputs, from where, agreed.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Agreement {
    /// Where the inputs' shapes came from.
    pub origin: String,
    /// Inputs run (the reference answered each).
    pub inputs: usize,
    /// Inputs on which the chart returned the code's value.
    pub agreed: usize,
}

/// An input on which the chart and the code differ.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Disagreement {
    /// The call, as Python (`f([3, 1])`).
    pub call: String,
    /// The code's value (Python repr).
    pub code: String,
    /// What the chart did: a value, an exception, or a runaway.
    pub chart: ChartRun,
    /// The chart's nodes (indices) most tied to the inputs it gets wrong,
    /// all equally: run most by failing inputs and least by the others
    /// ([`suspects`]). Empty when the chart's runs could not be traced.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suspects: Vec<usize>,
}

/// What the chart's program did on one input.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "lowercase", tag = "outcome", content = "detail")]
pub enum ChartRun {
    Returned(String),
    Raised(String),
    /// Past the call's limits (a loop that never ends, most often).
    TimedOut,
}

impl std::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (call, code) = (&self.call, &self.code);
        match &self.chart {
            ChartRun::Returned(v) => write!(f, "on {call} the code returns {code}, the chart computes {v}"),
            ChartRun::Raised(e) => write!(f, "on {call} the code returns {code}, the chart raises {e}"),
            ChartRun::TimedOut => {
                write!(f, "on {call} the code returns {code}, the chart does not finish (a loop that never ends?)")
            }
        }
    }
}

/// Inputs made per solution (and entry), shared by every chart checked
/// against it in one process.
#[derive(Default)]
pub struct InputCache {
    found: Mutex<HashMap<(String, String), Result<Found, NoInputs>>>,
}

impl InputCache {
    /// The inputs of `program` (made now, or earlier in this process).
    fn get(
        &self,
        program: &Program,
        chart: &Flowchart,
        behave: &Behave,
    ) -> Result<Result<Found, NoInputs>, SandboxFailure> {
        let (source, sandbox) = (behave.source, behave.sandbox);
        // Two problems may share a solution's text: their specs differ.
        let spec = behave.spec.map(|s| serde_json::to_string(s).unwrap_or_default()).unwrap_or_default();
        let key = (format!("{source}\0{spec}"), program.entry.qual.clone());
        let lock = || self.found.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(found) = lock().get(&key) {
            return Ok(found.clone());
        }
        let made = match find_inputs(program, source, &input_hints(program, chart), behave.spec, sandbox) {
            Ok(found) => Ok(found),
            Err(InputsError::None(why)) => Err(why),
            Err(InputsError::Sandbox(failure)) => return Err(failure),
        };
        lock().insert(key, made.clone());
        Ok(made)
    }
}

/// Runs the chart beside the code. `Err`: the sandbox failed.
pub fn run_behaviour(
    program: &Program,
    chart: &Flowchart,
    borrowed: &[super::against::Borrowed],
    behave: &Behave,
) -> Result<Behaviour, SandboxFailure> {
    let sandbox = behave.sandbox;
    let code = match super::execute::chart_program_borrowing(program, chart, borrowed) {
        Ok(code) => code,
        Err(why) => return Ok(Behaviour::NotCode(unreadable(chart, &why))),
    };
    let found = match behave.cache.get(program, chart, behave)? {
        Ok(found) => found,
        Err(why) => return Ok(Behaviour::NoInputs(why.to_string())),
    };
    let style = match call_style(program) {
        Ok(s) => s,
        Err(why) => return Ok(Behaviour::NoInputs(why.to_string())),
    };
    let wrapped = wrap(&code, &program.entry.name, style, false);
    let inputs: Vec<Vec<Json>> = found.tests.iter().map(|(a, _, _)| a.clone()).collect();
    let chart_runs = time("behaviour chart", || run_all(sandbox, &wrapped, &inputs, call_limits()))?;
    let opts = compare_options(&TestSpec::default());
    let mut agreement = Agreement { origin: found.origin.clone(), inputs: inputs.len(), agreed: 0 };
    let mut first = None;
    // Per input: whether the chart got it wrong (`None`: not counted).
    let mut failed: Vec<Option<bool>> = Vec::with_capacity(inputs.len());
    for ((args, expected, cost), run) in found.tests.iter().zip(chart_runs.iter().cloned()) {
        let chart_run = match run {
            Run::Value(v, _) if same(&v, expected, &opts) => {
                agreement.agreed += 1;
                failed.push(Some(false));
                continue;
            }
            // A chart may draw a slower way to the same result: running out
            // of time where the code itself took a good share of the limit
            // says nothing; where the code was quick, it is a runaway.
            Run::TimedOut if *cost > SLOW_REFERENCE => {
                agreement.inputs -= 1;
                failed.push(None);
                continue;
            }
            Run::Value(v, _) => ChartRun::Returned(repr(&v)),
            Run::TimedOut => ChartRun::TimedOut,
            Run::Raised(e) | Run::Unencodable(e) => ChartRun::Raised(last_line(&e)),
            Run::Invalid | Run::NotRun => ChartRun::Raised("no answer".into()),
        };
        failed.push(Some(true));
        if first.is_none() {
            first = Some(Disagreement {
                call: call_text(&program.entry.name, args),
                code: repr(expected),
                chart: chart_run,
                suspects: Vec::new(),
            });
        }
    }
    if let Some(d) = first.as_mut()
        && let Ok(traced) = super::execute::chart_program_traced(program, chart, borrowed)
    {
        let wrapped = wrap(&traced, super::execute::TRACED_ENTRY, CallStyle::Function, false);
        // An input the chart did not finish leaves no trace; traced, it
        // would only run out of time again.
        let finished: Vec<usize> = (0..inputs.len()).filter(|&i| chart_runs[i] != Run::TimedOut).collect();
        let traced_inputs: Vec<Vec<Json>> = finished.iter().map(|&i| inputs[i].clone()).collect();
        let runs = time("behaviour traced", || run_all(sandbox, &wrapped, &traced_inputs, call_limits()))?;
        let mut hits: Vec<Option<Vec<usize>>> = vec![None; inputs.len()];
        for (i, run) in finished.into_iter().zip(runs) {
            hits[i] = hit_ids(&run);
        }
        d.suspects = suspects(&hits, &failed);
    }
    if !borrowed.is_empty() {
        agreement
            .origin
            .push_str(&format!("; {} prose line(s) read as the code lines their words match", borrowed.len()));
    }
    Ok(match first {
        // Words taken for code that names what the chart does not: the
        // borrowing failed, not the chart; the structure decides.
        Some(Disagreement { chart: ChartRun::Raised(e), .. }) if !borrowed.is_empty() && e.starts_with("NameError") => {
            Behaviour::NotCode(format!("its prose lines, read as the code they match, do not run: {e}"))
        }
        Some(d) => Behaviour::Differs(d, agreement),
        None => Behaviour::Agreed(agreement),
    })
}

/// The ids a traced run recorded (`None`: it did not finish).
fn hit_ids(run: &Run) -> Option<Vec<usize>> {
    let Run::Value(Json::Array(ids), _) = run else { return None };
    ids.iter().map(|id| id.as_u64().and_then(|i| usize::try_from(i).ok())).collect()
}

/// The chart nodes most tied to the failing inputs (spectrum-based fault
/// localisation, Ochiai's measure): a node — or a decision's Yes branch —
/// scores `ef / sqrt(F · (ef + ep))`, where `ef` and `ep` count the failing
/// and passing inputs that ran it and `F` every failing input. A wrong step
/// runs on the inputs it spoils and, in general, on few others. `hits[i]`:
/// the ids input `i` recorded (`2·node`, `2·node + 1` for a Yes branch);
/// `failed[i]`: whether the chart got it wrong. Every node of the best
/// score, ascending; none when no failing input was traced.
fn suspects(hits: &[Option<Vec<usize>>], failed: &[Option<bool>]) -> Vec<usize> {
    let mut counts: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    let mut all_failing = 0.0;
    for (ids, wrong) in hits.iter().zip(failed) {
        let (Some(ids), Some(wrong)) = (ids, wrong) else { continue };
        all_failing += f64::from(u8::from(*wrong));
        for &id in ids {
            let c = counts.entry(id).or_default();
            if *wrong {
                c.0 += 1.0;
            } else {
                c.1 += 1.0;
            }
        }
    }
    let score = |&(ef, ep): &(f64, f64)| if ef == 0.0 { 0.0 } else { ef / (all_failing * (ef + ep)).sqrt() };
    let best = counts.values().map(score).fold(0.0, f64::max);
    if best == 0.0 {
        return Vec::new();
    }
    let mut nodes: Vec<usize> = counts.iter().filter(|(_, c)| score(c) >= best - 1e-9).map(|(&id, _)| id / 2).collect();
    nodes.dedup();
    nodes
}

/// Why a chart is no program, naming the node that stops it.
fn unreadable(chart: &Flowchart, why: &super::graph::GraphError) -> String {
    match why.node.and_then(|i| chart.nodes.get(i)) {
        Some(n) if !why.message.contains(&n.id) => {
            format!("node {} `{}` cannot be read as code: {}", n.id, n.label.replace('\n', " "), why.message)
        }
        _ => why.message.clone(),
    }
}

/// `f(arg, …)` as Python.
fn call_text(name: &str, args: &[Json]) -> String {
    let shown: Vec<String> = args.iter().map(repr).collect();
    format!("{name}({})", shown.join(", "))
}

/// A tagged JSON value as Python writes it (shortened past 120 characters).
fn repr(v: &Json) -> String {
    match Value::decode(v) {
        Ok(value) => value.repr_truncated(120),
        Err(_) => v.to_string(),
    }
}

/// The exception line of a traceback.
fn last_line(e: &str) -> String {
    e.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or(e).trim().to_owned()
}

/// Per parameter, the words of the chart's Input node about it (`nums:
/// List[int]`, `the list of heights`): a hint to [`super::inputs`].
pub fn input_hints(program: &Program, chart: &Flowchart) -> BTreeMap<String, String> {
    let mut hints = BTreeMap::new();
    let inputs = chart.nodes.iter().filter(|n| n.label.to_lowercase().contains("input"));
    let segments: Vec<String> = inputs
        .flat_map(|n| {
            super::labels::on_one_line(&n.label, ",")
                .replace(" and ", ",")
                .split([',', ';', '\n'])
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    for p in &program.entry.params {
        let name = p.name.trim_start_matches('*');
        let about: Vec<&str> = segments
            .iter()
            .filter(|s| s.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == name))
            .map(String::as_str)
            .collect();
        if !about.is_empty() {
            hints.insert(name.to_owned(), about.join(" "));
        }
    }
    hints
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disagreement_reads_as_the_issue_says() {
        let d = Disagreement {
            call: call_text("f", &[serde_json::json!([3, 1])]),
            code: repr(&serde_json::json!(1)),
            chart: ChartRun::Returned(repr(&serde_json::json!(3))),
            suspects: Vec::new(),
        };
        assert_eq!(d.to_string(), "on f([3, 1]) the code returns 1, the chart computes 3");
    }

    #[test]
    fn the_suspect_runs_on_the_failing_inputs_and_few_others() {
        // Node 3 (id 6) runs on the two failing inputs only; node 1 (id 2)
        // on every input; node 2's Yes branch (id 5) on one failing, one
        // passing; the third input did not finish.
        let hits = vec![Some(vec![2, 6]), Some(vec![2, 5, 6]), None, Some(vec![2, 5]), Some(vec![2])];
        let failed = vec![Some(true), Some(true), Some(true), Some(false), Some(false)];
        assert_eq!(suspects(&hits, &failed), vec![3]);
        // No failing input traced: no suspect.
        assert!(suspects(&hits, &[Some(false); 5]).is_empty());
    }

    #[test]
    fn hints_are_the_input_words_about_each_parameter() {
        let program = crate::reader::read_program("def f(nums, k):\n    return k\n", None).expect("reads");
        let chart = flowbench_chart::mermaid::parse(
            "flowchart TD\n  A[/Input: nums: List of int, k: integer/] --> B([Return k])\n",
        )
        .expect("parses");
        let hints = input_hints(&program, &chart);
        assert_eq!(hints["nums"], "Input: nums: List of int");
        assert_eq!(hints["k"], " k: integer");
    }
}
