//! `flowbench generate`: ask a model (any OpenAI-compatible endpoint) for
//! samples under one condition, resumably, into Code-Vision's samples JSONL;
//! or use an offline stand-in (`--model reference|starter|mixed|original|fragile`
//! answer code, `transcriber|noisy-transcriber` answer the chart, the latter with
//! one seeded misreading recorded in `edits`). The two-step condition
//! `flowchart-then-code` runs through `ablation::two_step`, its step 2 by
//! another model with `--coder`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;

use super::prompts::SamplingArgs;
use crate::ablation::answer::{Answered, Answerer as _, Endpoint};
use crate::ablation::prompts::{Condition, Sampling, Templates};
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
    /// are kept in NAME.transcriptions.jsonl beside the output); a code
    /// condition followed by +cot (flowchart+cot, …) asks the model to
    /// reason step by step first.
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
    /// flowchart-then-code only: the model that writes the code of step 2
    /// from the evaluated model's Mermaid (HumanEval-V's V2T2C with a fixed
    /// coder); the evaluated model only reads the chart. An offline
    /// stand-in name codes for an offline --model.
    #[arg(long, value_name = "MODEL")]
    coder: Option<String>,
    /// The coder's OpenAI-compatible base URL (default: --endpoint).
    #[arg(long, value_name = "URL", requires = "coder")]
    coder_endpoint: Option<String>,
    /// Environment variable holding the coder's API key (default: --api-key-env).
    #[arg(long, value_name = "VAR", requires = "coder")]
    coder_api_key_env: Option<String>,
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
    let coder_sampling = coder_sampling(&args, &sampling)?;
    let templates = Templates::load(args.templates.as_deref())?;
    let plan = Plan {
        records: &records,
        dist: &args.bench,
        condition: &args.condition,
        templates: &templates,
        sampling: &sampling,
        samples,
        coder: coder_sampling.as_ref(),
    };
    if let Some(stand_in) = StandIn::named(&args.sampling.model) {
        let answered = stand_in.answer(&plan, &args.output, &crate::progress::Silent)?;
        return Ok(report(&args, &answered, &diags));
    }
    let endpoint = args.endpoint.clone().with_context(|| {
        format!("--endpoint is required (or use an offline --model: {})", crate::ablation::stand_in::NAMES.join(", "))
    })?;
    let client = chat_client(&args, endpoint, &args.api_key_env)?;
    let coder = match &args.coder {
        Some(_) => {
            let endpoint = args.coder_endpoint.clone().or_else(|| args.endpoint.clone()).unwrap_or_default();
            Some(chat_client(&args, endpoint, args.coder_api_key_env.as_deref().unwrap_or(&args.api_key_env))?)
        }
        None => None,
    };
    let cache = (args.cache != "none").then(|| Cache::new(std::path::Path::new(&args.cache)));
    let opts = BatchOptions { jobs: args.jobs, cache };
    let bar = super::progress::bar(0, "requests", args.quiet);
    let answered = Endpoint { client: &client, coder: coder.as_ref(), opts: &opts }.answer(&plan, &args.output, &bar);
    bar.finish();
    Ok(report(&args, &answered?, &diags))
}

/// The coder's sampling settings (`--coder`: the evaluated model's with the
/// coder's name), after checking that the options make sense together: a
/// second step to code, and a coder of the same kind as the model (an
/// offline stand-in for an offline model, an endpoint for an endpoint).
fn coder_sampling(args: &GenerateArgs, sampling: &Sampling) -> anyhow::Result<Option<Sampling>> {
    let Some(coder) = &args.coder else { return Ok(None) };
    anyhow::ensure!(
        args.condition.is_two_step(),
        "--coder {coder}: only flowchart-then-code has a second step for another model to code (condition {})",
        args.condition
    );
    let (model_offline, coder_offline) =
        (StandIn::named(&args.sampling.model).is_some(), StandIn::named(coder).is_some());
    anyhow::ensure!(
        model_offline == coder_offline,
        "--coder {coder}: an offline stand-in codes only for an offline --model, and a model behind an endpoint only \
         for one behind an endpoint (--model {})",
        args.sampling.model
    );
    anyhow::ensure!(
        coder_offline || args.coder_endpoint.is_some() || args.endpoint.is_some(),
        "--coder {coder} needs an endpoint: give --coder-endpoint (or --endpoint, which it shares by default)"
    );
    Ok(Some(Sampling { model: coder.clone(), ..sampling.clone() }))
}

/// A client for `endpoint` with the key in `key_env` and the run's limits.
fn chat_client(args: &GenerateArgs, endpoint: String, key_env: &str) -> anyhow::Result<ChatClient> {
    let timeout = Duration::try_from_secs_f64(args.timeout)
        .map_err(|_| anyhow::anyhow!("--timeout {}: not a number of seconds", args.timeout))?;
    Ok(ChatClient::new(ClientConfig {
        endpoint,
        api_key: std::env::var(key_env).ok().filter(|k| !k.is_empty()),
        timeout,
        retry: RetryPolicy { max_retries: args.retries, ..RetryPolicy::default() },
        pool: args.jobs,
    })?)
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
