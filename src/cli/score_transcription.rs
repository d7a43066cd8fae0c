//! `flowbench score-transcription`: score a samples file of transcriptions
//! (`generate --condition transcribe`) against the bench's source charts,
//! on the graph, and (unless `--no-execute`) by running `chart2py` of each
//! transcription on the problem's tests. One JSON line per sample.
//!
//! Exit codes: 0 every line scored (an unreadable reply scores 0 with its
//! reason: that is a result), 1 some lines were not samples of the bench
//! (not JSON, unknown task), 2 the bench or samples file is unreadable.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;

use super::choices::Clock;
use crate::exec::{ExecConfig, LazyExecutor};
use crate::judge::legacy::CODEVISION_PRELUDE;
use crate::judge::native::TimePolicy;
use crate::judge::run::JudgeSettings;
use crate::transcription::samples::{Execution, score_lines};

#[derive(Debug, Args)]
pub struct ScoreTranscriptionArgs {
    /// The built benchmark directory (its charts are the sources).
    #[arg(long, default_value = "dist")]
    bench: PathBuf,
    /// Samples JSONL: `task_id` plus `response` (or `completion`).
    #[arg(long)]
    samples: PathBuf,
    /// Scores JSONL to write (one line per sample, in sample order).
    #[arg(short, long)]
    output: PathBuf,
    /// Graph scores only: do not run the transcriptions' programs.
    #[arg(long)]
    no_execute: bool,
    /// Seconds per test when running a transcription's program.
    #[arg(long, default_value_t = 3.0)]
    timeout: f64,
    /// What the programs' time limits measure. CPU time by default: a
    /// score must not depend on how loaded the machine is.
    #[arg(long, value_enum, default_value_t = Clock::Cpu)]
    clock: Clock,
    /// Concurrent sandbox workers [default: 3 × cores].
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Python for the programs [default: the `flowbench env` venv].
    #[arg(long)]
    python: Option<PathBuf>,
}

pub fn run(args: ScoreTranscriptionArgs) -> anyhow::Result<ExitCode> {
    let (bench, diags) = crate::ablation::bench::load_bench(&args.bench)?;
    for d in &diags {
        eprintln!("warning: {d}");
    }
    let sources = crate::ablation::transcribe_runs::source_charts(&bench);
    if sources.is_empty() {
        anyhow::bail!("{}: no source charts (is it a built dist/ directory?)", args.bench.display());
    }
    let text = std::fs::read_to_string(&args.samples).with_context(|| format!("reading {}", args.samples.display()))?;
    let timeout = Duration::try_from_secs_f64(args.timeout)
        .map_err(|_| anyhow::anyhow!("--timeout {}: not a number of seconds", args.timeout))?;
    let settings = JudgeSettings {
        mode: crate::judge::run::Mode::Auto,
        strict_types: false,
        legacy_limit: timeout,
        time: TimePolicy { default: timeout, floor: Duration::from_secs(1), factor: 4.0 },
        clock: args.clock.into(),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let sandbox = LazyExecutor::new(
        ExecConfig {
            workers: args.jobs.unwrap_or(3 * cores).max(1),
            human_eval_compat: true,
            stop_after_timeout: true,
            prelude: CODEVISION_PRELUDE.to_string(),
            ..ExecConfig::default()
        }
        .with_interpreter(args.python.as_deref(), None),
    );
    let execution = Execution { problems: &bench.problems, settings: &settings, sandbox: &sandbox };
    let scored = score_lines(&text, &sources, (!args.no_execute).then_some(&execution));
    let lines = scored.lines;
    let mut out = String::new();
    for line in &lines {
        out.push_str(&serde_json::Value::Object(line.clone()).to_string());
        out.push('\n');
    }
    crate::outfile::write_atomic(&args.output, out.as_bytes())
        .with_context(|| format!("writing {}", args.output.display()))?;
    for problem in &scored.unusable {
        eprintln!("warning: {}: {problem}", args.samples.display());
    }
    eprintln!("{}: {}", args.output.display(), summary(&lines));
    if let Some(first) = scored.not_run.first() {
        eprintln!(
            "error: {}: {} of the programs could not be run (their `executes` is null; run again to score them); \
             first: {first}",
            args.samples.display(),
            scored.not_run.len()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(if scored.unusable.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `N scored, P parsed, mean relaxed triple F1 X, E execute`.
fn summary(lines: &[serde_json::Map<String, serde_json::Value>]) -> String {
    let parsed = lines.iter().filter(|l| l["parsed"].as_bool() == Some(true)).count();
    let f1: f64 = lines.iter().filter_map(|l| l["triple_f1_relaxed"].as_f64()).sum();
    let executes = lines.iter().filter(|l| l["executes"].as_bool() == Some(true)).count();
    let mean = if lines.is_empty() { 0.0 } else { f1 / lines.len() as f64 };
    format!(
        "{} transcriptions scored, {parsed} parsed, mean relaxed triple F1 {mean:.3}, {executes} execute",
        lines.len()
    )
}
