//! Running the reference (or a mutant of it) on many inputs in the sandbox,
//! many calls per job, jobs spread over the sandbox's workers.

use std::time::Duration;

use rayon::prelude::*;
use serde_json::Value as Json;

use flowbench_exec::{CallArgs, CallStyle, Job, Limits, Status};
use flowbench_problem::sandbox::{Sandbox, SandboxFailure};

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

/// How many counted operations (a loop's turn, a function's call, a
/// comprehension's element, see [`COUNTED_WRAPPER`]) a call of a function
/// may spend per second of its time limit. CPython runs 3–20 million of
/// them a second on this kind of code (a trial division's turn is the
/// slowest, a bare `range` loop's the fastest), so five million puts the
/// cap at or under the wall limit for nearly all of it.
pub const OPS_PER_SECOND: f64 = 5e6;

/// How far past its limit a counted call may run before the sandbox stops
/// it by the clock: the cap on operations decides, so that the same input
/// is kept or dropped on an idle and a loaded machine (issue 26), and the
/// clock is all a call spent in C (a huge `pow`, a `sorted`) is measured
/// by. Three times held 163 of 164 HumanEval problems' tests identical
/// beside two CPU hogs, but every runaway in C cost three limits, which
/// took the yardstick from under 3 minutes to 256 s; twice is the least
/// that leaves a loaded machine (half speed) the count's decision.
pub const WALL_BACKSTOP: u32 = 2;

/// `solution` plus the wrapper: it returns `["ok", result, operations]`,
/// `["invalid"]` when `valid(*args)` is false, or `["over"]` when the call
/// spent more operations than its cap. A whole program ([`PROGRAM`]) is
/// wrapped by [`wrap_program`] and not counted.
pub fn wrap(solution: &str, entry_point: &str, call_style: CallStyle, has_valid: bool) -> String {
    if entry_point == PROGRAM {
        return wrap_program(solution);
    }
    let call = match call_style {
        CallStyle::Function => entry_point.to_string(),
        CallStyle::SolutionMethod => format!("Solution().{entry_point}"),
    };
    let check = if has_valid { "        if not valid(*__fb_args__):\n            return [\"invalid\"]\n" } else { "" };
    COUNTED_WRAPPER
        .replace("__FB_LITERAL__", &serde_json::to_string(solution).unwrap_or_default())
        .replace("__FB_WRAPPER__", WRAPPER)
        .replace(CHECK_LINE, check)
        .replace("__FB_CALL__", &call)
}

/// The line of [`COUNTED_WRAPPER`] that becomes the call of `valid()`,
/// or nothing: a whole line, so that the template parses as Python.
const CHECK_LINE: &str = "        __FB_CHECK__\n";

/// Set in every counted wrapper; [`run_chunks`] sets the cap per job.
const COUNTS_OPERATIONS: &str = "__fb_cap__ = None\n";

/// [`wrap`]'s text. Wall time is not a measure the generator can decide
/// by: HumanEval-25's 2^53 + 1 took 0.8–0.9 s against its 1 s limit, and
/// was kept on one idle run and dropped on the next (more so under load).
/// The solution is compiled with a tick at the top of every function,
/// `while` body, comprehension element and lambda, and one beside every
/// `for` turn's item; a tick is a range iterator's `__next__` (no Python
/// frame: 25–30 ns, which makes a recursive Fibonacci 1.4 times slower),
/// and a `for` draws its ticks in C through `zip` (a trial division's loop
/// runs 1.45 times slower counted, against 1.75 with a call in its body).
/// The call is over its cap when the iterator runs dry (a called tick
/// raises `StopIteration` there and a `for` stops; the wrapper reads
/// "over" from the empty iterator whatever the code made of it). The
/// wrapper's own
/// names start `__fb_`, so no solution's name is shadowed (an entry point
/// called `total` once was).
const COUNTED_WRAPPER: &str = include_str!("py/sandbox/counted_wrapper.py");

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
const PROGRAM_WRAPPER: &str = include_str!("py/sandbox/program_wrapper.py");

/// What a call that returned cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Measured by the clock (under the counter, for a counted call).
    pub wall: Duration,
    /// Counted operations ([`wrap`]); `None` for a whole program.
    pub ops: Option<u64>,
}

impl Cost {
    /// A cost known only by the clock.
    pub fn wall(wall: Duration) -> Cost {
        Cost { wall, ops: None }
    }

    /// What the generator decides by, in seconds of the limit: the counted
    /// operations at [`OPS_PER_SECOND`], the same on any load, or the clock
    /// over [`WALL_BACKSTOP`] when that is more (time in C, which the count
    /// does not see): the same test the sandbox makes, so a prediction
    /// from this cost is what running the input would decide. The clock
    /// alone for what is not counted.
    pub fn seconds(&self) -> f64 {
        let wall = self.wall.as_secs_f64();
        self.ops.map_or(wall, |ops| (ops as f64 / OPS_PER_SECOND).max(wall / f64::from(WALL_BACKSTOP)))
    }
}

/// What one call of the wrapper gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Run {
    /// The entry point returned this value (tagged JSON) at this cost.
    Value(Json, Cost),
    /// `valid()` rejected the input.
    Invalid,
    /// An exception, a crash or a resource limit other than time.
    Raised(String),
    /// Past the time limit, or (a counted call) past its operations' cap.
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
pub fn run_all(
    sandbox: &dyn Sandbox,
    source: &str,
    inputs: &[Vec<Json>],
    limits: Limits,
) -> Result<Vec<Run>, SandboxFailure> {
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
/// ([`flowbench_problem::sandbox::default_batch_jobs`]), whatever the sandbox says:
/// each job gets its share of the budget, so the cut decides where the run
/// stops, and the equivalence pool must stop alike in `variants` and
/// `tests score`.
pub fn run_within_budget(
    sandbox: &dyn Sandbox,
    source: &str,
    inputs: &[Vec<Json>],
    limits: Limits,
    budget_s: f64,
) -> Result<Vec<Run>, SandboxFailure> {
    run_chunks(sandbox, source, inputs, limits, false, Some(budget_s), flowbench_problem::sandbox::default_batch_jobs())
}

/// [`run_within_budget`] cut as the sandbox says ([`Sandbox::batch_jobs`]),
/// for a run whose stops only its caller reads (`variants`' screen).
pub fn run_within_budget_batched(
    sandbox: &dyn Sandbox,
    source: &str,
    inputs: &[Vec<Json>],
    limits: Limits,
    budget_s: f64,
) -> Result<Vec<Run>, SandboxFailure> {
    run_chunks(sandbox, source, inputs, limits, false, Some(budget_s), sandbox.batch_jobs())
}

/// Entry point of a budgeted job: the wrapper's call until the job's calls
/// have spent its budget, then `["skipped"]` at once.
const BUDGETED: &str = "__flowbench_budgeted__";

/// `source` (with the wrapper) plus [`BUDGETED`] over `budget_s` seconds,
/// each call charged its [`Cost::seconds`] (so the budget stops at the same
/// input on any load). A charge is never under the clock over
/// [`WALL_BACKSTOP`], so the clock cannot run past that many budgets.
fn budgeted(source: &str, budget_s: f64) -> String {
    let backstop = f64::from(WALL_BACKSTOP);
    format!(
        "{source}\n\nimport time as __fb_time__\n__fb_spent__ = [0.0]\n\n\
         def {BUDGETED}(*args):\n    global __fb_ops__\n    \
         if __fb_spent__[0] > {budget_s:?}:\n        return [\"skipped\"]\n    \
         __fb_ops__ = None\n    start = __fb_time__.perf_counter()\n    try:\n        return {WRAPPER}(*args)\n    \
         finally:\n        wall = __fb_time__.perf_counter() - start\n        \
         __fb_spent__[0] += wall if __fb_ops__ is None else max(__fb_ops__ / {OPS_PER_SECOND:?}, wall / {backstop:?})\n"
    )
}

/// `source` with its operations' cap for calls limited to `limits`, and
/// the limits the sandbox enforces: the clock's, [`WALL_BACKSTOP`] times
/// further for a counted source (its cap decides), as given for the rest.
fn with_cap(source: &str, limits: Limits) -> (String, Limits) {
    if !is_counted(source) {
        return (source.to_string(), limits);
    }
    (format!("{source}\n__fb_cap__ = {}\n", ops_cap(limits.wall)), backstop(limits))
}

/// Whether `source` ([`wrap`]ped) counts its operations: a function does,
/// a whole program does not.
pub fn is_counted(source: &str) -> bool {
    source.contains(COUNTS_OPERATIONS)
}

/// The operations a counted call limited to `limit` may spend.
pub fn ops_cap(limit: Duration) -> u64 {
    (limit.as_secs_f64() * OPS_PER_SECOND).round() as u64
}

/// What the sandbox enforces on a counted call whose cap is taken from
/// `limits`: the clock [`WALL_BACKSTOP`] times further, so the count
/// decides.
pub fn backstop(limits: Limits) -> Limits {
    Limits { wall: limits.wall * WALL_BACKSTOP, cpu: limits.cpu * WALL_BACKSTOP }
}

fn run_chunks(
    sandbox: &dyn Sandbox,
    source: &str,
    inputs: &[Vec<Json>],
    limits: Limits,
    resume: bool,
    budget_s: Option<f64>,
    jobs: usize,
) -> Result<Vec<Run>, SandboxFailure> {
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
    let (source, limits) = with_cap(&source, limits);
    let results: Vec<Result<Vec<Run>, SandboxFailure>> =
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
) -> Result<Vec<Run>, SandboxFailure> {
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
        flowbench_support::timings::count("reference jobs", 1);
        flowbench_support::timings::count("reference calls", outcome.calls.len() as u64);
        match &outcome.status {
            Status::SandboxError { detail } => return Err(SandboxFailure(detail.clone())),
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

pub(crate) fn run_of(c: &flowbench_exec::CallOutcome) -> Run {
    match (&c.status, &c.value) {
        (Status::Completed, Some(Json::Array(v)))
            if v.first() == Some(&Json::from("ok")) && (2..=3).contains(&v.len()) =>
        {
            Run::Value(v[1].clone(), Cost { wall: c.wall, ops: v.get(2).and_then(Json::as_u64) })
        }
        (Status::Completed, Some(Json::Array(v))) if v.first() == Some(&Json::from("over")) => Run::TimedOut,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A counted function gets its cap (five million operations a second
    /// of the limit) and twice the clock; a whole program, which is
    /// not counted, keeps its limits and gets no cap.
    #[test]
    fn a_counted_source_gets_its_cap_and_the_clock_as_a_backstop() {
        let limits = Limits { wall: Duration::from_millis(400), cpu: Duration::from_millis(400) };
        let function = wrap("def f(x):\n    return x\n", "f", CallStyle::Function, false);
        let (source, wider) = with_cap(&function, limits);
        assert!(source.ends_with("\n__fb_cap__ = 2000000\n"), "{source}");
        assert_eq!(wider.wall, Duration::from_millis(800));
        let program = wrap("print(input())\n", PROGRAM, CallStyle::Function, false);
        assert_eq!(with_cap(&program, limits), (program.clone(), limits));
    }

    /// A counted call is decided by its operations, or by half the clock
    /// when its time is spent in C; one that is not counted, by the clock.
    #[test]
    fn a_cost_is_in_seconds_of_counted_operations_when_they_are_known() {
        let counted = Cost { wall: Duration::from_millis(600), ops: Some(2_500_000) };
        assert_eq!(counted.seconds(), 0.5);
        let in_c = Cost { wall: Duration::from_secs(3), ops: Some(2_500_000) };
        assert_eq!(in_c.seconds(), 1.5, "half the clock when that is more");
        assert_eq!(Cost::wall(Duration::from_millis(250)).seconds(), 0.25);
    }
}
