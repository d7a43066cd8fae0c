//! The kill search: which tests tell each mutant from the reference. Many
//! mutants share one sandbox job, each defined in its own fresh globals, so
//! a problem's mutants cost a handful of forks rather than one (or several)
//! each.
//!
//! Mutants are the reference's own code with one change (the reference is
//! the author's, not a model's sample), and each gets fresh globals, so
//! sharing a process cannot make one mutant's verdict depend on another's
//! beyond what the interpreter itself keeps (imported modules).

use std::time::Duration;

use rayon::prelude::*;
use serde_json::Value as Json;

use flowbench_exec::{CallArgs, CallStyle, Job, Limits, Status};
use flowbench_problem::compare::CompareOptions;
use flowbench_problem::sandbox::{Sandbox, SandboxFailure};

use super::generate::same;
use super::reference::{Run, backstop, is_counted, ops_cap, run_of};
use super::score::ScoredTest;

/// Calls in a mutant's first step while looking for a kill: a mutant is
/// usually killed by it, so later (larger) tests are often never run. Each
/// further step is twice the size of the one before: a mutant that survives
/// the first step tends to survive them all (an equivalent one runs the
/// whole pool). Not smaller: a step runs to its end whatever its first call
/// gave (the expected values never enter the sandbox; only a mutant that
/// raises, a kill whatever was expected, skips the rest), yet on the bank's
/// variants a first step of 8 ran a quarter fewer calls for 70 % more jobs
/// (each mutant's every round is defined again in a new job), and a job,
/// a fork, costs hundreds of calls.
const FIRST_STEP: usize = 48;

/// Fewest calls in one sandbox job (unless the round has fewer).
const JOB_LEAST_CALLS: usize = FIRST_STEP;

/// Reference time (seconds) of a mutant's first step, doubling like
/// [`FIRST_STEP`]: where the reference is slow the step ends by time, so a
/// mutant killed by an early test does not run dozens of slow ones first.
const FIRST_STEP_S: f64 = 0.01;

/// Most calls in one sandbox job (a round with more calls is cut into
/// several jobs, spread over the workers).
const JOB_CALLS: usize = 1024;

/// Most reference time (seconds) in one job: where the reference is slow,
/// a job of many mutants' steps ends by time, so one mutant that kills the
/// process costs the others little re-running.
const JOB_TIME_S: f64 = 0.25;

/// Entry point of the dispatcher that defines mutant `k` (once per job, in
/// fresh globals copied from the job's own) and calls its wrapper.
const DISPATCH: &str = "__flowbench_mutant__";

/// What the search found for one mutant.
#[derive(Debug, Clone, Default)]
pub struct Found {
    /// Its killers in each suite (test indices, sorted).
    pub killers: Vec<Vec<usize>>,
    /// Every test it ran here, and whether it killed it (`prior` ones
    /// are not repeated).
    pub verdicts: Vec<(usize, bool)>,
}

/// Each mutant's (`sources`, wrapped like the reference) killers among
/// `tests`, one list per suite: `suite[i]` is the suite test `i` belongs to.
/// Tests run in `order` (cheapest first); a suite's tests stop running on a
/// mutant once that suite has a killer for it. Every alive
/// mutant's next step runs in each round, many mutants per job.
/// `prior[m]` (empty, or one list per mutant) holds verdicts already known
/// for mutant `m`, `(test, kills)`: those tests are not run again.
#[allow(clippy::too_many_arguments)]
pub fn kill_search(
    sandbox: &dyn Sandbox,
    sources: &[String],
    tests: &[ScoredTest],
    suite: &[usize],
    order: &[usize],
    cap: Duration,
    opts: &CompareOptions,
    prior: &[Vec<(usize, bool)>],
) -> Result<Vec<Found>, SandboxFailure> {
    let suites = suite.iter().max().map_or(1, |m| m + 1);
    let mut searches: Vec<Search> = (0..sources.len())
        .map(|m| {
            let known = prior.get(m).map_or(&[][..], Vec::as_slice);
            let mut killers = vec![Vec::new(); suites];
            let mut decided = vec![false; tests.len()];
            for &(i, kills) in known {
                decided[i] = true;
                if kills {
                    killers[suite[i]].push(i);
                }
            }
            let pending = order.iter().copied().filter(|&i| !decided[i]).collect();
            Search { pending, size: FIRST_STEP, budget: FIRST_STEP_S, killers, verdicts: Vec::new() }
        })
        .collect();
    loop {
        let mut steps = Vec::new();
        for (mutant, s) in searches.iter_mut().enumerate() {
            s.pending.retain(|&i| s.killers[suite[i]].is_empty());
            if s.pending.is_empty() {
                continue;
            }
            let (len, grow) = next_step(tests, &s.pending, s.size, s.budget, cap);
            let step: Vec<usize> = s.pending.drain(..len).collect();
            if grow {
                s.size *= 2;
                s.budget *= 2.0;
            }
            let slowest = |of: fn(&ScoredTest) -> f64| step.iter().map(|&i| of(&tests[i])).fold(0.0, f64::max);
            let limits = job_limits(slowest(|t| t.cost_s), cap);
            let clock = wider(limits, job_limits(slowest(|t| t.time_s), cap));
            steps.push(Step { mutant, tests: step, limits, clock });
        }
        if steps.is_empty() {
            break;
        }
        let jobs = pack(steps, tests, sandbox.batch_jobs());
        let results: Vec<Vec<(usize, usize, Run)>> =
            jobs.par_iter().map(|job| run_job(sandbox, sources, tests, job)).collect::<Result<_, SandboxFailure>>()?;
        let mut not_run: Vec<Vec<usize>> = vec![Vec::new(); sources.len()];
        for (mutant, i, run) in results.into_iter().flatten() {
            let killed = match &run {
                // After a call that ended the process: run it next round.
                Run::NotRun => {
                    not_run[mutant].push(i);
                    continue;
                }
                Run::Value(v, _) => !same(v, &tests[i].expected, opts),
                _ => true,
            };
            searches[mutant].verdicts.push((i, killed));
            if killed {
                searches[mutant].killers[suite[i]].push(i);
            }
        }
        for (s, again) in searches.iter_mut().zip(not_run) {
            s.pending.splice(..0, again);
        }
    }
    Ok(searches
        .into_iter()
        .map(|mut s| {
            for k in &mut s.killers {
                k.sort_unstable();
            }
            Found { killers: s.killers, verdicts: s.verdicts }
        })
        .collect())
}

/// One mutant's search so far.
struct Search {
    /// Tests not yet run, in order.
    pending: Vec<usize>,
    /// Size and reference-time budget of its next step.
    size: usize,
    budget: f64,
    killers: Vec<Vec<usize>>,
    verdicts: Vec<(usize, bool)>,
}

/// One mutant's tests for this round, and the per-call limit they need.
struct Step {
    mutant: usize,
    tests: Vec<usize>,
    limits: Limits,
    /// The limits that also follow the reference's measured time: what the
    /// clock enforces on a counted mutant ([`run_job`]).
    clock: Limits,
}

/// A sandbox job: several mutants' steps under one per-call limit.
struct PackedJob {
    steps: Vec<Step>,
    limits: Limits,
    clock: Limits,
}

/// The larger of two limits, each part on its own.
fn wider(a: Limits, b: Limits) -> Limits {
    Limits { wall: a.wall.max(b.wall), cpu: a.cpu.max(b.cpu) }
}

/// Packs a round's steps into jobs: steps with similar limits together (a
/// job's limit is its slowest step's, and at most twice its quickest's, as
/// in [`next_step`]), each job at most [`JOB_CALLS`] calls and
/// [`JOB_TIME_S`] of reference time, and small enough that the round is
/// cut into about `share` jobs (the sandbox's [`Sandbox::batch_jobs`]), so
/// every worker gets some of it.
fn pack(mut steps: Vec<Step>, tests: &[ScoredTest], share: usize) -> Vec<PackedJob> {
    steps.sort_by_key(|s| (s.limits.wall, s.mutant));
    let calls: usize = steps.iter().map(|s| s.tests.len()).sum();
    let time: f64 = steps.iter().flat_map(|s| &s.tests).map(|&i| tests[i].time_s).sum();
    let share = share.max(1);
    let (most_calls, most_time) =
        (calls.div_ceil(share).clamp(JOB_LEAST_CALLS, JOB_CALLS), (time / share as f64).min(JOB_TIME_S));
    let mut jobs: Vec<PackedJob> = Vec::new();
    let (mut job_calls, mut job_time) = (0usize, 0.0f64);
    for step in steps {
        let (n, t) = (step.tests.len(), step.tests.iter().map(|&i| tests[i].time_s).sum::<f64>());
        let fits = jobs.last().is_some_and(|j| {
            job_calls + n <= most_calls && job_time + t <= most_time && step.limits.wall <= j.steps[0].limits.wall * 2
        });
        if fits {
            let job = jobs.last_mut().expect("a job to join");
            job.limits = step.limits;
            job.clock = wider(job.clock, step.clock);
            job.steps.push(step);
            (job_calls, job_time) = (job_calls + n, job_time + t);
        } else {
            (job_calls, job_time) = (n, t);
            jobs.push(PackedJob { limits: step.limits, clock: step.clock, steps: vec![step] });
        }
    }
    jobs
}

/// Runs one packed job: `(mutant, test, what the call gave)` per call, in
/// order. When a call ends the process (a timeout), the job goes on at once
/// in a new one with the other mutants' calls (the worker would otherwise
/// idle until the round ends); the stopped mutant's later calls are
/// [`Run::NotRun`], for the search to re-queue if it still needs them. A
/// counted mutant past its cap does not end the process: it answers
/// "over", and the dispatcher skips its later calls alike, as it does after
/// a mutant raises or refuses an input (`dispatch.py`).
fn run_job(
    sandbox: &dyn Sandbox,
    sources: &[String],
    tests: &[ScoredTest],
    job: &PackedJob,
) -> Result<Vec<(usize, usize, Run)>, SandboxFailure> {
    // A counted mutant is stopped by its count (the job's CPU limit in
    // operations), the clock only a backstop: which mutants a test kills
    // by time is then the same on a loaded machine. The count does not see
    // work done in C (`xs.count(x)` in a loop), so the backstop also
    // follows the reference's measured time: a mutant doing the
    // reference's own work in C is not stopped by a clock set for the few
    // operations counted, which a loaded machine runs past.
    let counted = job.steps.iter().all(|s| is_counted(&sources[s.mutant]));
    let (cap, limits) = if counted { (Some(ops_cap(job.limits.cpu)), backstop(job.clock)) } else { (None, job.limits) };
    let source = dispatcher(job.steps.iter().map(|s| sources[s.mutant].as_str()), cap);
    // (position of the mutant in the job, its index, the test)
    let who: Vec<(usize, usize, usize)> = job
        .steps
        .iter()
        .enumerate()
        .flat_map(|(k, step)| step.tests.iter().map(move |&i| (k, step.mutant, i)))
        .collect();
    let mut runs: Vec<Run> = vec![Run::NotRun; who.len()];
    let mut todo: Vec<usize> = (0..who.len()).collect();
    while !todo.is_empty() {
        let calls = todo
            .iter()
            .map(|&c| {
                let (k, _, i) = who[c];
                CallArgs {
                    args: std::iter::once(Json::from(k)).chain(tests[i].args.iter().cloned()).collect(),
                    kwargs: Default::default(),
                }
            })
            .collect::<Vec<CallArgs>>();
        let outcome = sandbox.run_job(&Job::Calls {
            source: source.clone(),
            entry_point: DISPATCH.into(),
            call_style: CallStyle::Function,
            calls: calls.into(),
            limits,
        });
        flowbench_support::timings::count("kill jobs", 1);
        flowbench_support::timings::count("kill calls", outcome.calls.len() as u64);
        if flowbench_support::timings::enabled() {
            // Each costs its call's whole CPU limit (at least [`CPU_FLOOR_S`]).
            let timeouts = outcome.calls.iter().filter(|c| c.status == Status::TimedOut).count();
            flowbench_support::timings::count("kill timeouts", timeouts as u64);
        }
        if let Status::SandboxError { detail } = &outcome.status {
            return Err(SandboxFailure(detail.clone()));
        }
        // The dispatcher only defines strings and a function: a failure to
        // define it is the sandbox's, not a mutant's.
        if outcome.status != Status::Completed {
            return Err(SandboxFailure(format!("the mutant dispatcher failed: {:?}", outcome.status)));
        }
        let mut got: Vec<Run> = outcome.calls.iter().take(todo.len()).map(run_of).collect();
        if got.is_empty() {
            // The sandbox records the call a process died in; should it
            // not, the first call is blamed, so every job makes progress.
            got.push(Run::Raised("the process ended before this call".into()));
        }
        let done = got.len();
        for (&c, run) in todo.iter().zip(got) {
            runs[c] = run;
        }
        let stopped = who[todo[done - 1]].0;
        todo = todo.split_off(done).into_iter().filter(|&c| who[c].0 != stopped).collect();
    }
    Ok(who.into_iter().zip(runs).map(|((_, m, i), r)| (m, i, r)).collect())
}

/// The dispatcher (`dispatch.py`): defines [`DISPATCH`], which defines
/// mutant `k` on its first call and calls its wrapper.
const DISPATCHER: &str = include_str!("py/sandbox/dispatch.py");

/// Python source defining [`DISPATCH`] over `sources` (see `dispatch.py`),
/// each call's counted operations capped at `cap` (when counted).
fn dispatcher<'a>(sources: impl Iterator<Item = &'a str>, cap: Option<u64>) -> String {
    // A JSON string is a valid Python string literal.
    let literals: Vec<String> = sources.map(|s| Json::from(s).to_string()).collect();
    let cap = cap.map_or("None".to_string(), |c| c.to_string());
    format!("__fb_mutants__ = [{}]\n__fb_job_cap__ = {cap}\n{DISPATCHER}", literals.join(",\n"))
}

/// How many of `pending` (cheapest first) the next step runs, and whether
/// it was cut by its size or time (the next one may then be twice as
/// large): at most `size` tests and `budget` seconds of reference time,
/// and no test whose own limit is more than twice the first one's. A job's
/// limit follows its slowest test, so mixing one slow test into a step of
/// quick ones would let a mutant that hangs on a quick one wait the slow
/// one's limit.
fn next_step(tests: &[ScoredTest], pending: &[usize], size: usize, budget: f64, cap: Duration) -> (usize, bool) {
    let limit = |i: usize| job_limits(tests[i].cost_s, cap).wall;
    let first = limit(pending[0]);
    let mut spent = tests[pending[0]].time_s;
    for (len, &next) in pending.iter().enumerate().skip(1) {
        if len == size || spent + tests[next].time_s > budget {
            return (len, true);
        }
        if limit(next) > first * 2 {
            return (len, false);
        }
        spent += tests[next].time_s;
    }
    (pending.len(), false)
}

/// Per-call limits for tests whose slowest reference cost is `slowest`
/// (seconds of counted operations, [`ScoredTest::cost_s`]): ten times
/// that, at most the validation limit `cap`; at least 0.25 s of wall clock
/// but only [`CPU_FLOOR_S`] of CPU. A counted mutant's cap is the CPU
/// limit in operations ([`run_job`]): ten times the reference's own count.
/// Bounding each job by its own tests rather than the suite's slowest
/// keeps a mutant that loops forever on a tiny input from costing the
/// large tests' limit.
fn job_limits(slowest: f64, cap: Duration) -> Limits {
    let (ten, cap) = (slowest * 10.0, cap.as_secs_f64().max(0.25));
    Limits {
        wall: Duration::from_secs_f64(ten.clamp(0.25, cap)),
        cpu: Duration::from_secs_f64(ten.clamp(CPU_FLOOR_S, cap)),
    }
}

/// Least CPU time a mutant's call gets (and, counted, its operations at
/// [`super::reference::OPS_PER_SECOND`]: a quarter of a million): an
/// endless loop (a mutated loop update) is the commonest kill by time, and
/// each one costs this much. Fifty milliseconds is hundreds of times a
/// typical test's reference time.
const CPU_FLOOR_S: f64 = 0.05;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::WRAPPER;

    fn test(time_s: f64) -> ScoredTest {
        ScoredTest {
            args: vec![],
            expected: Json::Null,
            time_s,
            cost_s: time_s,
            ops: None,
            timing_only: false,
            widened: None,
        }
    }

    #[test]
    fn a_step_never_mixes_a_slow_test_into_quick_ones() {
        let tests = vec![test(0.001), test(0.001), test(0.2), test(0.2)];
        let cap = Duration::from_secs(2);
        assert_eq!(next_step(&tests, &[0, 1, 2, 3], 48, 10.0, cap), (2, false));
        assert_eq!(next_step(&tests, &[2, 3], 48, 10.0, cap), (2, false));
        assert_eq!(next_step(&tests, &[0, 1, 2], 1, 10.0, cap), (1, true));
    }

    #[test]
    fn packing_keeps_limits_apart_and_every_step_once() {
        let tests: Vec<ScoredTest> = (0..10).map(|i| test(if i < 5 { 0.001 } else { 0.3 })).collect();
        let cap = Duration::from_secs(2);
        let steps: Vec<Step> = (0..6)
            .map(|m| {
                let ids: Vec<usize> = if m % 2 == 0 { (0..5).collect() } else { (5..10).collect() };
                let limits = job_limits(ids.iter().map(|&i| tests[i].cost_s).fold(0.0, f64::max), cap);
                Step { mutant: m, tests: ids, limits, clock: limits }
            })
            .collect();
        let jobs = pack(steps, &tests, 4);
        let mut seen: Vec<usize> = jobs.iter().flat_map(|j| j.steps.iter().map(|s| s.mutant)).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..6).collect::<Vec<_>>());
        for j in &jobs {
            assert!(
                j.steps.iter().all(|s| s.limits.wall <= j.limits.wall && j.limits.wall <= s.limits.wall * 2),
                "a job mixes limits"
            );
        }
    }

    #[test]
    fn the_dispatcher_is_python_that_quotes_any_source() {
        let src = dispatcher(["def f():\n    return \"a\\\\b\"\n", "x = '''\u{e9}'''\n"].into_iter(), Some(250_000));
        assert!(src.contains("__fb_mutants__ = [\"def f():\\n    return \\\"a\\\\\\\\b\\\"\\n\""), "{src}");
        assert!(src.contains(&format!("def {DISPATCH}(k, *args):")));
        assert!(src.contains(&format!("ns[\"{WRAPPER}\"](*args)")), "the dispatcher calls the reference's wrapper");
    }
}
