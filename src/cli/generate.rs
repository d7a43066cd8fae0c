//! `flowbench generate`: ask a model (any OpenAI-compatible endpoint) for
//! samples under one condition, resumably, into Code-Vision's samples JSONL;
//! or use an offline stand-in (`--model reference|starter|mixed|original|fragile`
//! answer code, `transcriber|noisy-transcriber` answer the chart, the latter with
//! one seeded misreading recorded in `edits`). The two-step condition
//! `flowchart-then-code` runs through `ablation::two_step`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;

use super::prompts::SamplingArgs;
use crate::ablation::answer::{Answered, Answerer as _, Endpoint};
use crate::ablation::prompts::{Condition, Templates};
use crate::ablation::stand_in::StandIn;
use crate::ablation::two_step::{Plan, transcriptions_path};
use crate::bank::dist_record::read_dist;
use crate::client::retry::RetryPolicy;
use crate::client::{BatchOptions, BatchReport, Cache, ChatClient, ClientConfig};

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The built benchmark directory.
    #[arg(long, default_value = "dist")]
    bench: PathBuf,
    /// flowchart, flowchart@STYLE, mermaid, mermaid@verbatim, text,
    /// signature (the starter code alone), transcribe, transcribe@STYLE,
    /// flowchart-then-code or flowchart-then-code@STYLE (step 1's answers
    /// are kept in NAME.transcriptions.jsonl beside the output).
    #[arg(long, default_value = "flowchart")]
    condition: Condition,
    /// Base URL of an OpenAI-compatible API (e.g. http://127.0.0.1:8000/v1);
    /// not needed for the offline stand-ins `--model
    /// reference|starter|mixed|original|fragile` and
    /// `transcriber|noisy-transcriber`.
    #[arg(long)]
    endpoint: Option<String>,
    /// Environment variable holding the API key (unset: no key sent).
    #[arg(long, default_value = "OPENAI_API_KEY")]
    api_key_env: String,
    /// Samples JSONL (appended to as answers arrive; re-runs resume).
    #[arg(short, long)]
    output: PathBuf,
    /// Requests in flight.
    #[arg(short = 'j', long, default_value_t = 8)]
    jobs: usize,
    /// Seconds one attempt may take.
    #[arg(long, default_value_t = 300.0)]
    timeout: f64,
    /// Retries per request on 429/5xx/timeouts/dropped connections.
    #[arg(long, default_value_t = 8)]
    retries: u32,
    /// Answer cache directory (`none` to disable).
    #[arg(long, default_value = ".flowbench/cache")]
    cache: String,
    /// Directory with edited prompt templates.
    #[arg(long)]
    templates: Option<PathBuf>,
    #[command(flatten)]
    sampling: SamplingArgs,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let (records, diags) = read_dist(&args.bench)?;
    for d in &diags {
        eprintln!("warning: {d}");
    }
    let samples = args.sampling.samples.max(1);
    let sampling = args.sampling.sampling();
    let templates = Templates::load(args.templates.as_deref())?;
    let plan = Plan {
        records: &records,
        dist: &args.bench,
        condition: &args.condition,
        templates: &templates,
        sampling: &sampling,
        samples,
    };
    if let Some(stand_in) = StandIn::named(&args.sampling.model) {
        let answered = stand_in.answer(&plan, &args.output, &crate::progress::Silent)?;
        return Ok(report(&args, &answered, &diags));
    }
    let endpoint = args.endpoint.clone().with_context(|| {
        format!("--endpoint is required (or use an offline --model: {})", crate::ablation::stand_in::NAMES.join(", "))
    })?;
    let timeout = Duration::try_from_secs_f64(args.timeout)
        .map_err(|_| anyhow::anyhow!("--timeout {}: not a number of seconds", args.timeout))?;
    let client = ChatClient::new(ClientConfig {
        endpoint,
        api_key: std::env::var(&args.api_key_env).ok().filter(|k| !k.is_empty()),
        timeout,
        retry: RetryPolicy { max_retries: args.retries, ..RetryPolicy::default() },
        pool: args.jobs,
    });
    let cache = (args.cache != "none").then(|| Cache::new(std::path::Path::new(&args.cache)));
    let opts = BatchOptions { jobs: args.jobs, cache };
    let bar = super::progress::bar(0, "requests", args.quiet);
    let answered = Endpoint { client: &client, opts: &opts }.answer(&plan, &args.output, &bar);
    bar.finish();
    Ok(report(&args, &answered?, &diags))
}

/// Prints what answering did; the exit code: 1 when some sample is
/// missing or the bench had problems.
fn report(args: &GenerateArgs, answered: &Answered, diags: &[impl std::fmt::Display]) -> ExitCode {
    let complete = match answered {
        Answered::StandIn { count, what } => {
            eprintln!("{}: {count} {what} from the {} stand-in", args.output.display(), args.sampling.model);
            return ExitCode::SUCCESS;
        }
        Answered::Batch(report) => {
            print_report(&args.output, report);
            report.failed.is_empty() && diags.is_empty()
        }
        Answered::TwoStep(report) => {
            print_report(&transcriptions_path(&args.output), &report.transcriptions);
            print_report(&args.output, &report.code);
            if report.waiting > 0 {
                eprintln!(
                    "{}: {} samples wait for their transcription (re-run to retry)",
                    args.output.display(),
                    report.waiting
                );
            }
            report.transcriptions.failed.is_empty() && report.code.failed.is_empty() && report.waiting == 0
        }
    };
    if complete { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

fn print_report(output: &std::path::Path, report: &BatchReport) {
    eprintln!(
        "{}: {} answered ({} from the network, {} from the cache, {} already there), {} failed",
        output.display(),
        report.fetched + report.cached + report.resumed,
        report.fetched,
        report.cached,
        report.resumed,
        report.failed.len()
    );
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
}
