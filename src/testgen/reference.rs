//! Running the reference (or a mutant of it) on many inputs in the sandbox,
//! many calls per job, jobs spread over the sandbox's workers.

use std::time::Duration;

use rayon::prelude::*;
use serde_json::Value as Json;

use crate::exec::{CallArgs, CallStyle, Job, Limits, Status};
use crate::judge::run::Sandbox;

/// Name of the wrapper that calls `valid()` (when defined) and then the
/// entry point, so both run in the same sandboxed call.
pub const WRAPPER: &str = "__flowbench_reference__";

/// Calls per sandbox job: enough to amortise the fork, few enough that
/// both workers get work on a small problem.
const CHUNK: usize = 48;

/// Most calls per job once every worker has two jobs: a job costs a fork
/// and its clean-up (about 5 ms), so a pool of a thousand cheap inputs
/// runs in a handful of jobs, not twenty.
const LARGEST_CHUNK: usize = 512;

/// The entry point of a whole-program (`stdio`) problem: the program is
/// run as `__main__`, its one argument is its standard input.
pub const PROGRAM: &str = "__main__";

/// `solution` plus the wrapper: it returns `["ok", result]`, or
/// `["invalid"]` when `valid(*args)` is false. A whole program
/// ([`PROGRAM`]) is wrapped by [`wrap_program`].
pub fn wrap(solution: &str, entry_point: &str, call_style: CallStyle, has_valid: bool) -> String {
    if entry_point == PROGRAM {
        return wrap_program(solution);
    }
    let call = match call_style {
        CallStyle::Function => entry_point.to_string(),
        CallStyle::SolutionMethod => format!("Solution().{entry_point}"),
    };
    let check = if has_valid { "    if not valid(*args):\n        return [\"invalid\"]\n" } else { "" };
    format!("{solution}\n\n\ndef {WRAPPER}(*args):\n{check}    return [\"ok\", {call}(*args)]\n")
}

/// A whole program as the wrapper function of one argument, its standard
/// input, returning what it printed. This way validation, the kill search
/// and scoring run programs exactly as they run functions: many inputs
/// per sandbox job, each run in fresh globals as `__main__`. The program
/// is compiled once per job, from a string literal, so a mutant of it is
/// wrapped the same way. It reads through `sys.stdin` (`input()`,
/// `sys.stdin.readline`, `sys.stdin.buffer`) and prints through
/// `sys.stdout`; `sys.exit(0)` ends it normally. Its output is returned
/// with trailing spaces and blank lines removed and one final newline,
/// the judge's `lines` checker's reading: a test then stores what every
/// correct program prints, and a mutant that changes only trailing
/// whitespace (which no checker rejects) is not counted as killed.
pub fn wrap_program(program: &str) -> String {
    let literal = serde_json::to_string(program).unwrap_or_default();
    PROGRAM_WRAPPER.replace("__FB_LITERAL__", &literal).replace("__FB_WRAPPER__", WRAPPER)
}

/// [`wrap_program`]'s text; a JSON string literal is a Python one.
const PROGRAM_WRAPPER: &str = r#"__fb_program__ = compile(__FB_LITERAL__, "solution.py", "exec")


def __FB_WRAPPER__(stdin):
    import io, sys
    saved = (sys.stdin, sys.stdout)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n")
    sys.stdout = out
    try:
        try:
            exec(__fb_program__, {"__name__": "__main__"})
        except SystemExit as e:
            if e.code not in (None, 0, False):
                raise RuntimeError("the program exited with status %r" % (e.code,))
        out.flush()
        text = out.buffer.getvalue().decode("utf-8", "replace")
    finally:
        sys.stdin, sys.stdout = saved
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return ["ok", "\n".join(lines) + "\n" if lines else ""]
"#;

/// What one call of the wrapper gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Run {
    /// The entry point returned this value (tagged JSON) in this time.
    Value(Json, Duration),
    /// `valid()` rejected the input.
    Invalid,
    /// An exception, a crash or a resource limit other than time.
    Raised(String),
    TimedOut,
    /// The result is not a plain value.
    Unencodable(String),
    /// Not attempted: an earlier call in the same job stopped it (the
    /// kill search's shared jobs), or the job's budget was spent.
    NotRun,
}

/// Runs `source`'s wrapper once per input, in input order. `Err` only when
/// the sandbox itself failed (never a verdict on the code). A job that
/// stops early (a timeout when the executor stops there, or a call that
/// kills its process) is resumed after the call that stopped it, so one bad
/// input never costs the others.
pub fn run_all(sandbox: &dyn Sandbox, source: &str, inputs: &[Vec<Json>], limits: Limits) -> anyhow::Result<Vec<Run>> {
    run_chunks(sandbox, source, inputs, limits, true, None, sandbox.batch_jobs())
}

/// Like [`run_all`] for inputs in increasing order of cost (a random pool,
/// smallest first), with two stops. A chunk stops at its first timeout, and
/// its later inputs, which would cost more, are [`Run::NotRun`]: a pool that
/// crosses from two-digit to three-digit arguments of a cubic reference
/// pays one limit per chunk, not one per input. And the calls stop once
/// they have spent `budget_s` seconds in all (each job its share), kept
/// inside the sandboxed process, so a slow reference's pool costs one
/// round of jobs rather than a round per batch sized to what is left.
/// The run is cut as every caller cuts it
/// ([`crate::judge::run::default_batch_jobs`]), whatever the sandbox says:
/// each job gets its share of the budget, so the cut decides where the run
/// stops, and the equivalence pool must stop alike in `variants` and
/// `tests score`.
pub fn run_within_budget(
    sandbox: &dyn Sandbox,
    source: &str,
    inputs: &[Vec<Json>],
    limits: Limits,
    budget_s: f64,
) -> anyhow::Result<Vec<Run>> {
    run_chunks(sandbox, source, inputs, limits, false, Some(budget_s), crate::judge::run::default_batch_jobs())
}

/// [`run_within_budget`] cut as the sandbox says ([`Sandbox::batch_jobs`]),
/// for a run whose stops only its caller reads (`variants`' screen).
pub fn run_within_budget_batched(
    sandbox: &dyn Sandbox,
    source: &str,
    inputs: &[Vec<Json>],
    limits: Limits,
    budget_s: f64,
) -> anyhow::Result<Vec<Run>> {
    run_chunks(sandbox, source, inputs, limits, false, Some(budget_s), sandbox.batch_jobs())
}

/// Entry point of a budgeted job: the wrapper's call until the job's calls
/// have spent its budget, then `["skipped"]` at once.
const BUDGETED: &str = "__flowbench_budgeted__";

/// `source` (with the wrapper) plus [`BUDGETED`] over `budget_s` seconds.
fn budgeted(source: &str, budget_s: f64) -> String {
    format!(
        "{source}\n\nimport time as __fb_time__\n__fb_spent__ = [0.0]\n\n\
         def {BUDGETED}(*args):\n    if __fb_spent__[0] > {budget_s:?}:\n        return [\"skipped\"]\n    \
         start = __fb_time__.perf_counter()\n    try:\n        return {WRAPPER}(*args)\n    finally:\n        \
         __fb_spent__[0] += __fb_time__.perf_counter() - start\n"
    )
}

fn run_chunks(
    sandbox: &dyn Sandbox,
    source: &str,
    inputs: &[Vec<Json>],
    limits: Limits,
    resume: bool,
    budget_s: Option<f64>,
    jobs: usize,
) -> anyhow::Result<Vec<Run>> {
    // Chunk `j` takes inputs j, j + n, j + 2n, …: inputs usually come
    // smallest (or cheapest category) first, so the large ones, and the
    // timeouts among them, spread over the workers instead of queueing in
    // the last chunk; at most `jobs` chunks unless they would be too large.
    let spread = jobs.max(inputs.len().div_ceil(LARGEST_CHUNK));
    let n = inputs.len().div_ceil(CHUNK).min(spread).max(1);
    let chunks: Vec<Vec<Vec<Json>>> = (0..n).map(|j| inputs.iter().skip(j).step_by(n).cloned().collect()).collect();
    let (source, entry) = match budget_s {
        Some(b) => (budgeted(source, b / n as f64), BUDGETED),
        None => (source.to_string(), WRAPPER),
    };
    let results: Vec<anyhow::Result<Vec<Run>>> =
        chunks.par_iter().map(|chunk| run_chunk(sandbox, &source, entry, chunk, limits, resume)).collect();
    let mut out = vec![Run::NotRun; inputs.len()];
    for (j, r) in results.into_iter().enumerate() {
        for (k, run) in r?.into_iter().enumerate() {
            out[j + k * n] = run;
        }
    }
    Ok(out)
}

fn run_chunk(
    sandbox: &dyn Sandbox,
    source: &str,
    entry: &str,
    inputs: &[Vec<Json>],
    limits: Limits,
    resume: bool,
) -> anyhow::Result<Vec<Run>> {
    let mut out = Vec::with_capacity(inputs.len());
    while out.len() < inputs.len() {
        let rest = &inputs[out.len()..];
        let job = Job::Calls {
            source: source.to_string(),
            entry_point: entry.into(),
            call_style: CallStyle::Function,
            calls: rest
                .iter()
                .map(|a| CallArgs { args: a.clone(), kwargs: Default::default() })
                .collect::<Vec<_>>()
                .into(),
            limits,
        };
        let outcome = sandbox.run_job(&job);
        crate::timings::count("reference jobs", 1);
        crate::timings::count("reference calls", outcome.calls.len() as u64);
        match &outcome.status {
            Status::SandboxError { detail } => anyhow::bail!("sandbox: {detail}"),
            Status::Completed => {}
            other => {
                let why = format!("defining the code: {}", describe(other));
                out.extend(rest.iter().map(|_| Run::Raised(why.clone())));
                break;
            }
        }
        if outcome.calls.is_empty() {
            out.extend(rest.iter().map(|_| Run::Raised("not run: the process ended before this call".into())));
            break;
        }
        out.extend(outcome.calls.iter().take(rest.len()).map(run_of));
        if !resume && out.last() == Some(&Run::TimedOut) {
            out.resize(inputs.len(), Run::NotRun);
        }
    }
    Ok(out)
}

pub(crate) fn run_of(c: &crate::exec::CallOutcome) -> Run {
    match (&c.status, &c.value) {
        (Status::Completed, Some(Json::Array(v))) if v.first() == Some(&Json::from("ok")) && v.len() == 2 => {
            Run::Value(v[1].clone(), c.wall)
        }
        (Status::Completed, Some(Json::Array(v))) if v.first() == Some(&Json::from("invalid")) => Run::Invalid,
        (Status::Completed, Some(Json::Array(v))) if v.first() == Some(&Json::from("skipped")) => Run::NotRun,
        (Status::Completed, _) => Run::Unencodable(c.unencodable.clone().unwrap_or_else(|| "not a plain value".into())),
        (Status::TimedOut, _) => Run::TimedOut,
        (s, _) => Run::Raised(describe(s)),
    }
}

fn describe(status: &Status) -> String {
    match status {
        Status::Completed => "completed".into(),
        Status::Raised { class, message } => format!("{class}: {message}"),
        Status::TimedOut => "timed out".into(),
        Status::MemoryLimit => "memory limit".into(),
        Status::OutputLimit => "output limit".into(),
        Status::Crashed { detail } => format!("crashed: {detail}"),
        Status::SandboxError { detail } => format!("sandbox: {detail}"),
    }
}
