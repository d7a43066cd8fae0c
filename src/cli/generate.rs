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
use serde_json::{Map, Value as Json, json};

use super::prompts::SamplingArgs;
use crate::ablation::prompts::{Condition, Templates, build_requests, request_id};
use crate::ablation::two_step::{Plan, step_fields, transcriptions_path};
use crate::bank::dist_record::{DistRecord, read_dist};
use crate::client::retry::RetryPolicy;
use crate::client::{BatchOptions, BatchReport, Cache, ChatClient, ClientConfig, Request, run_batch};
use crate::judge::extract::Extract;

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
    if let Some(answer) = stand_in(&args.sampling.model) {
        return offline(&args, &records, samples, answer);
    }
    let endpoint = args.endpoint.clone().context(
        "--endpoint is required (or use an offline --model: reference, starter, mixed, original, fragile, transcriber, noisy-transcriber)",
    )?;
    let templates = Templates::load(args.templates.as_deref())?;
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
    if args.condition.is_two_step() {
        return two_step(&args, &client, &records, &templates, &opts, &bar, samples);
    }
    let requests =
        build_requests(&records, &args.bench, &args.condition, &templates, &args.sampling.sampling(), samples)?;
    let wanted = &args.condition;
    let by_id: std::collections::HashMap<String, &DistRecord> =
        records.iter().flat_map(|r| (0..samples).map(move |i| (request_id(wanted, &r.task_id, i), r))).collect();
    let condition = args.condition.clone();
    let model = args.sampling.model.clone();
    let report = run_batch(&client, &requests, &args.output, &opts, &bar, |request: &Request, answer: &Json| {
        let response = answer["choices"][0]["message"]["content"].as_str().unwrap_or("").to_string();
        sample_line(
            by_id.get(&request.id).map_or("", |r| r.task_id.as_str()),
            &response,
            answer.get("usage").cloned().unwrap_or(Json::Null),
            &condition,
            &model,
        )
    })?;
    bar.finish();
    print_report(&args.output, &report);
    Ok(if report.failed.is_empty() && diags.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
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

/// The two-step condition against a model: transcriptions first (kept
/// beside the output), then code from each transcription.
fn two_step(
    args: &GenerateArgs,
    client: &ChatClient,
    records: &[DistRecord],
    templates: &Templates,
    opts: &BatchOptions,
    bar: &super::progress::Bar,
    samples: usize,
) -> anyhow::Result<ExitCode> {
    let sampling = args.sampling.sampling();
    let plan = Plan { records, dist: &args.bench, condition: &args.condition, templates, sampling: &sampling, samples };
    let report = crate::ablation::two_step::run(client, &plan, &args.output, opts, bar, |record, reply, usage| {
        sample_line(&record.task_id, reply, usage, &args.condition, &args.sampling.model)
    })?;
    bar.finish();
    print_report(&transcriptions_path(&args.output), &report.transcriptions);
    print_report(&args.output, &report.code);
    if report.waiting > 0 {
        eprintln!(
            "{}: {} samples wait for their transcription (re-run to retry)",
            args.output.display(),
            report.waiting
        );
    }
    let complete = report.transcriptions.failed.is_empty() && report.code.failed.is_empty() && report.waiting == 0;
    Ok(if complete { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// A samples line in Code-Vision's format plus the condition and model.
/// The completion is the code in the response, or for a transcription its
/// Mermaid.
fn sample_line(task_id: &str, response: &str, usage: Json, condition: &Condition, model: &str) -> Map<String, Json> {
    let completion = if condition.is_transcription() {
        crate::author::review::extract_mermaid(response).unwrap_or_default()
    } else {
        Extract::CodeVision.apply(response)
    };
    let mut m = Map::new();
    m.insert("task_id".into(), json!(task_id));
    m.insert("completion".into(), json!(completion));
    m.insert("response".into(), json!(response));
    m.insert("usage".into(), usage);
    m.insert("condition".into(), json!(condition.to_string()));
    m.insert("model".into(), json!(model));
    m
}

/// Golden-ratio multiplier that spreads an FNV hash into its top bit.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// An offline stand-in's answer to sample `i` of a record (given every
/// record of the bench): the response and, for the noisy transcriber, the
/// misreadings made.
type Answer = fn(&DistRecord, usize, &[DistRecord], &Condition) -> (String, Option<Json>);

/// The `fragile` stand-in's failures, stated: (rendering, problem). Under
/// that rendering (`default`: the plain `flowchart` condition; otherwise
/// the style of `flowchart@STYLE`) it answers the problem with the starter
/// code, which fails; everywhere else (every other problem, rendering and
/// condition) with the reference, which passes. So the ablation's
/// invariance section must find exactly these problems render-sensitive.
pub(super) const FRAGILE_FAILS: [(&str, &str); 4] =
    [("default", "digit_sum"), ("handDrawn", "gcd"), ("scan-heavy", "gcd"), ("scan-heavy", "is_prime")];

/// Whether `fragile` fails `task_id` under `condition` ([`FRAGILE_FAILS`]).
fn fragile_fails(task_id: &str, condition: &Condition) -> bool {
    let rendering = match condition {
        Condition::Flowchart(None) => "default",
        Condition::Flowchart(Some(style)) => style.as_str(),
        _ => return false,
    };
    FRAGILE_FAILS.contains(&(rendering, task_id))
}

/// The offline stand-ins: what each answers for a record. `mixed` is right
/// on a deterministic half (the top bit of the task id's FNV hash after a
/// golden-ratio multiply: FNV's own bits split short similar ids badly), so
/// a demo ablation has differences in both directions. `original` is the
/// model that remembers the famous problem: on a variant (`flowbench
/// variants`) it answers the ORIGINAL's reference, elsewhere the reference.
/// `transcriber` answers the source chart; `noisy-transcriber` the chart
/// with one misreading seeded by the task and sample. `fragile` is thrown
/// by some renderings only ([`FRAGILE_FAILS`]).
fn stand_in(model: &str) -> Option<Answer> {
    match model {
        "reference" => Some(|r, _, _, _| code(r.reference_program())),
        "fragile" => Some(|r, _, _, condition| {
            code(if fragile_fails(&r.task_id, condition) { r.starter_code.clone() } else { r.reference_program() })
        }),
        "original" => Some(|r, _, all, _| {
            let original = r.variant_of.as_ref().and_then(|o| all.iter().find(|x| &x.task_id == o));
            code(original.unwrap_or(r).reference_program())
        }),
        "starter" => Some(|r, _, _, _| code(r.starter_code.clone())),
        "mixed" => Some(|r, _, _, _| {
            if crate::judge::samples::fnv1a(r.task_id.as_bytes()).wrapping_mul(GOLDEN) >> 63 == 0 {
                code(r.reference_program())
            } else {
                code(r.starter_code.clone())
            }
        }),
        "transcriber" => Some(|r, _, _, _| (mermaid_block(&r.mermaid), None)),
        "noisy-transcriber" => Some(|r, i, _, _| noisy_transcription(r, i)),
        _ => None,
    }
}

fn code(program: String) -> (String, Option<Json>) {
    (format!("```python\n{}\n```\n", program.trim_end()), None)
}

fn mermaid_block(text: &str) -> String {
    format!("```mermaid\n{}\n```\n", text.trim_end())
}

/// The source chart with one seeded misreading, and the edit as JSON.
fn noisy_transcription(r: &DistRecord, i: usize) -> (String, Option<Json>) {
    let seed = crate::judge::samples::fnv1a(r.task_id.as_bytes()) ^ (i as u64).wrapping_mul(GOLDEN);
    let noisy =
        crate::mermaid::parse(&r.mermaid).ok().and_then(|chart| crate::transcription::noise::noisy(&chart, seed));
    match noisy {
        Some((chart, edit)) => (
            mermaid_block(&crate::mermaid::fmt::format(&chart)),
            Some(json!([serde_json::to_value(edit).unwrap_or_default()])),
        ),
        None => (mermaid_block(&r.mermaid), Some(json!([]))),
    }
}

fn offline(args: &GenerateArgs, records: &[DistRecord], samples: usize, answer: Answer) -> anyhow::Result<ExitCode> {
    if args.condition.is_two_step() {
        return offline_two_step(args, records, samples, answer);
    }
    let mut text = String::new();
    for r in records {
        for i in 0..samples {
            let (response, edits) = answer(r, i, records, &args.condition);
            let mut line = Map::new();
            line.insert("custom_id".into(), json!(request_id(&args.condition, &r.task_id, i)));
            line.extend(sample_line(&r.task_id, &response, Json::Null, &args.condition, &args.sampling.model));
            if let Some(edits) = edits {
                line.insert("edits".into(), edits);
            }
            text.push_str(&Json::Object(line).to_string());
            text.push('\n');
        }
    }
    write_stand_in_samples(args, &text, records.len() * samples, "samples")
}

/// Writes a stand-in's samples to `--output` and says how many.
fn write_stand_in_samples(args: &GenerateArgs, text: &str, count: usize, what: &str) -> anyhow::Result<ExitCode> {
    crate::outfile::write_atomic(&args.output, text.as_bytes())
        .with_context(|| format!("writing {}", args.output.display()))?;
    eprintln!("{}: {count} {what} from the {} stand-in", args.output.display(), args.sampling.model);
    Ok(ExitCode::SUCCESS)
}

/// The two-step condition with a stand-in: step 1 is the stand-in's
/// transcription (the transcribers' own, the source chart for the code
/// stand-ins), step 2 its code for the Mermaid it is then given — for the
/// transcribers, `chart2py` of that Mermaid (so a misread chart becomes a
/// wrong program), for the others their usual answer. The requests are
/// the real ones (images by digest in the sample).
fn offline_two_step(
    args: &GenerateArgs,
    records: &[DistRecord],
    samples: usize,
    answer: Answer,
) -> anyhow::Result<ExitCode> {
    let templates = Templates::load(args.templates.as_deref())?;
    let sampling = args.sampling.sampling();
    let plan = Plan {
        records,
        dist: &args.bench,
        condition: &args.condition,
        templates: &templates,
        sampling: &sampling,
        samples,
    };
    let first = plan.transcription_requests()?;
    let transcribes = matches!(args.sampling.model.as_str(), "transcriber" | "noisy-transcriber");
    let mut text = String::new();
    for (n, (r, i)) in records.iter().flat_map(|r| (0..samples).map(move |i| (r, i))).enumerate() {
        let (step1, edits) = if args.sampling.model == "noisy-transcriber" {
            noisy_transcription(r, i)
        } else {
            (mermaid_block(&r.mermaid), None)
        };
        let request = plan.code_request(r, i, &step1);
        let step2 = if transcribes {
            code_from_mermaid(r, &crate::ablation::two_step::transcription_of(&step1))
        } else {
            answer(r, i, records, &args.condition).0
        };
        let mut line = Map::new();
        line.insert("custom_id".into(), json!(request.id));
        line.extend(sample_line(&r.task_id, &step2, Json::Null, &args.condition, &args.sampling.model));
        line.extend(step_fields(&first[n].body, &step1, &request.body, &step2));
        if let Some(edits) = edits {
            line.insert("edits".into(), edits);
        }
        text.push_str(&Json::Object(line).to_string());
        text.push('\n');
    }
    write_stand_in_samples(args, &text, records.len() * samples, "two-step samples")
}

/// A stand-in's code for a chart given as Mermaid text: `chart2py` of it,
/// named as the starter code names the function; a chart it cannot read
/// (or no chart at all) gets the starter code back, which fails the tests.
fn code_from_mermaid(r: &DistRecord, mermaid: &str) -> String {
    let program = crate::transcription::read_reply(mermaid)
        .ok()
        .and_then(|(chart, _)| crate::transcription::execute::program(&chart, &r.starter_code, &r.entry_point).ok());
    code(program.unwrap_or_else(|| r.starter_code.clone())).0
}
