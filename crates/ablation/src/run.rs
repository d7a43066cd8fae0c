//! The ablation phase's one entry point, [`run`]: judge each condition's
//! samples (resumably; a transcribe run is scored on the graph instead),
//! judge failed variant samples again on their originals, then build the
//! comparison and its memorisation, signature, attribution and invariance
//! sections and write them as Markdown, JSON, CSV and HTML. The command
//! line only turns options into a [`Plan`] and prints the [`Report`].
//!
//! Errors are [`RunError`]: the judge's, or a file that could not be
//! read or written.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use flowbench_support::FileError;

use super::attribution::{self, ReadRule};
use super::attribution_report::{self, SideBySide};
use super::bench::Bench;
use super::compare::{Ablation, Run, compare_runs, task_scores};
use super::html::{ProblemView, html_with};
use super::invariance;
use super::invariance_report::{self, SensitiveImages};
use super::memorisation::FamousAnswers;
use super::report::{csv, markdown};
use super::signature::{Label, gaps, label};
use super::transcribe_runs::{self, ScoredRead};
use flowbench_chart::mermaid::Flowchart;
use flowbench_exec::LazyExecutor;
use flowbench_judge::problems_file::{Diagnostic, LoadedProblem};
use flowbench_judge::records::{Judged, Record, ResultsFileError, record_line, write_records};
use flowbench_judge::run::JudgeSettings;
use flowbench_judge::samples::{Sample, SampleOptions, SamplesFileError, load_samples};
use flowbench_judge::session::{Session, SessionError};
use flowbench_support::progress::Progress;
use flowbench_transcription::samples::Execution;

/// Why an ablation stopped (a sample without a verdict is no error: it is
/// counted in [`Report::failures`]).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Samples(#[from] SamplesFileError),
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error(transparent)]
    Results(#[from] ResultsFileError),
    /// The results directory, a transcribe run or a report.
    #[error(transparent)]
    File(#[from] FileError),
    /// A report or result line that does not encode (or decode back).
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// What to compare.
pub struct Plan {
    pub bench: Bench,
    /// Problems found reading the bench (reported with the runs' own).
    pub bench_diagnostics: Vec<Diagnostic>,
    /// The conditions, baseline first: (name, samples files).
    pub runs: Vec<(String, Vec<PathBuf>)>,
    /// Where results (`results/`) and reports go.
    pub output: PathBuf,
    /// pass@k values to report.
    pub k: Vec<usize>,
    pub settings: JudgeSettings,
    /// Concurrent sandbox workers.
    pub workers: usize,
    /// Take the verdicts recorded in the samples instead of judging.
    pub recorded: bool,
    /// When a problem counts as read right (attribution).
    pub read_rule: ReadRule,
}

/// What the ablation found, beyond the files it wrote.
#[derive(Debug)]
pub struct Report {
    /// The Markdown report (also written as `ablation.md`).
    pub markdown: String,
    /// Warnings noted (problems with the bench or the samples).
    pub warnings: usize,
    /// Samples with no verdict (sandbox errors, unjudgeable problems).
    pub failures: usize,
    /// The reports' path without extension (`OUTPUT/ablation`).
    pub reports: PathBuf,
}

/// Runs the ablation of `plan` (see the module docs): results into
/// `OUTPUT/results/`, reports into `OUTPUT/ablation.{md,json,csv,html}`.
/// Each run's count and the warnings are noted on `progress`.
pub fn run(plan: &Plan, sandbox: &LazyExecutor, progress: &dyn Progress) -> Result<Report, RunError> {
    let results_dir = plan.output.join("results");
    std::fs::create_dir_all(&results_dir).map_err(FileError::creating(&results_dir))?;
    let bench = &plan.bench;
    let mut judge = Judging { sandbox, workers: plan.workers, settings: &plan.settings, progress, failures: 0 };
    let mut runs = Runs {
        variants: Variants::of(bench),
        scored: Vec::new(),
        labels: Vec::new(),
        famous: BTreeMap::new(),
        sources: transcribe_runs::source_charts(bench),
        reads: Vec::new(),
        diags: plan.bench_diagnostics.clone(),
    };
    for (name, files) in &plan.runs {
        if transcribe_runs::is_transcribe_run(files)? {
            // Transcriptions are scored on the graph, not judged as code.
            runs.score_transcriptions(&judge, bench, name, files, &results_dir)?;
        } else {
            runs.judge_code(&mut judge, plan, name, files, &results_dir)?;
        }
    }
    for d in &runs.diags {
        progress.note(&format!("warning: {d}"));
    }
    let warnings = runs.diags.len();
    let markdown = write_reports(&plan.output, &runs.sections(plan))?;
    Ok(Report { markdown, warnings, failures: judge.failures, reports: plan.output.join("ablation") })
}

/// What the runs gave so far, in run order.
struct Runs {
    variants: Variants,
    /// The code runs' per-problem scores and labels.
    scored: Vec<Run>,
    labels: Vec<Label>,
    /// Per code run: how its failed variant samples did on the originals.
    famous: BTreeMap<String, FamousAnswers>,
    /// The bench's source charts, for scoring and drawing transcriptions.
    sources: HashMap<String, Flowchart>,
    reads: Vec<ScoredRead>,
    diags: Vec<Diagnostic>,
}

impl Runs {
    /// Scores a transcribe run into `results/NAME.scores.jsonl`.
    fn score_transcriptions(
        &mut self,
        judge: &Judging,
        bench: &Bench,
        name: &str,
        files: &[PathBuf],
        results_dir: &Path,
    ) -> Result<(), RunError> {
        let output = results_dir.join(format!("{name}.scores.jsonl"));
        let execution = Execution { problems: &bench.problems, settings: judge.settings, sandbox: judge.sandbox };
        let (read, unusable) = transcribe_runs::score_run(name, files, &self.sources, &execution, &output)?;
        self.diags.extend(unusable.into_iter().map(|message| Diagnostic { file: files[0].clone(), line: 0, message }));
        judge.progress.note(&format!(
            "{name}: {} transcriptions scored ({})",
            read.run.scores.values().map(Vec::len).sum::<usize>(),
            output.display()
        ));
        self.reads.push(read);
        Ok(())
    }

    /// Judges a code run into `results/NAME.jsonl` (or takes its recorded
    /// verdicts), and its failed variant samples on their originals.
    fn judge_code(
        &mut self,
        judge: &mut Judging,
        plan: &Plan,
        name: &str,
        files: &[PathBuf],
        results_dir: &Path,
    ) -> Result<(), RunError> {
        let bench = &plan.bench;
        let output = results_dir.join(format!("{name}.jsonl"));
        let (records, run_diags) =
            if plan.recorded { recorded(bench, files, &output)? } else { judge.run(bench, files, &output)? };
        self.diags.extend(run_diags);
        judge.progress.note(&format!("{name}: {} samples judged ({})", records.len(), output.display()));
        if !plan.recorded && !self.variants.kind.is_empty() {
            let output = results_dir.join(format!("{name}.on-originals.jsonl"));
            let (crossed, more) = judge.on_originals(bench, &self.variants, files, &records, &output)?;
            self.diags.extend(more);
            self.famous.insert(name.to_string(), super::memorisation::famous(&crossed));
        }
        self.scored.push(Run { name: name.to_string(), scores: task_scores(&records) });
        self.labels.push(label(name, &records));
        Ok(())
    }
}

/// Every section of the report, computed from the runs.
struct Sections {
    ablation: Ablation,
    views: Vec<ProblemView>,
    views_json: serde_json::Value,
    attribution: Option<attribution::Section>,
    drawings: Vec<SideBySide>,
    invariance: invariance::Section,
    renderings: Vec<SensitiveImages>,
}

impl Runs {
    /// The comparison with its signature and memorisation gaps, and the
    /// attribution (with transcribe runs) and invariance sections.
    fn sections(mut self, plan: &Plan) -> Sections {
        let (bench, scored, labels) = (&plan.bench, &self.scored, &self.labels);
        let mut ablation = compare_runs(scored, &bench.problems.order, &plan.k);
        ablation.signature = gaps(scored, labels);
        ablation.reasoning = super::reasoning::pairs(scored, labels);
        ablation.coders = super::coder::gaps(scored, labels);
        ablation.memorisation = super::memorisation::gaps(scored, &self.variants.original);
        for gap in &mut ablation.memorisation {
            gap.famous = self.famous.remove(&gap.run);
        }
        let views = problem_views(bench, scored);
        let attribution = transcribe_runs::section(&self.reads, scored, labels, plan.read_rule);
        let drawings = transcribe_runs::side_by_sides(&attribution, &self.reads, &self.sources);
        let invariance = invariance::section(scored, labels);
        let renderings = super::invariance_images::images(bench, &invariance);
        Sections {
            views_json: views_json(&views, scored),
            ablation,
            views,
            attribution: (!self.reads.is_empty()).then_some(attribution),
            drawings,
            invariance,
            renderings,
        }
    }
}

/// Writes the reports; returns the Markdown.
fn write_reports(out: &Path, s: &Sections) -> Result<String, RunError> {
    let empty = attribution::Section::default();
    let attribution = s.attribution.as_ref().unwrap_or(&empty);
    let md = markdown(&s.ablation)
        + &attribution_report::markdown(attribution)
        + &invariance_report::markdown(&s.invariance);
    let mut json = serde_json::json!({ "ablation": s.ablation, "problems": s.views_json });
    if let Some(attribution) = &s.attribution {
        json["attribution"] = serde_json::to_value(attribution)?;
    }
    if !s.invariance.is_empty() {
        json["invariance"] = serde_json::to_value(&s.invariance)?;
    }
    write(&out.join("ablation.md"), &md)?;
    write(&out.join("ablation.csv"), &csv(&s.ablation))?;
    write(&out.join("ablation.json"), &(serde_json::to_string_pretty(&json)? + "\n"))?;
    let paired: String = super::report::paired_sections(&s.ablation).iter().map(|x| x.html()).collect();
    let sections = paired
        + &attribution_report::html(attribution, &s.drawings)
        + &invariance_report::html(&s.invariance, &s.renderings);
    write(&out.join("ablation.html"), &html_with(&s.ablation, &s.views, &sections))?;
    Ok(md)
}

fn write(path: &Path, text: &str) -> Result<(), FileError> {
    flowbench_support::outfile::write_atomic(path, text.as_bytes()).map_err(FileError::writing(path))
}
/// The sandbox, started on first need and shared by every run.
struct Judging<'a> {
    sandbox: &'a LazyExecutor,
    workers: usize,
    settings: &'a JudgeSettings,
    progress: &'a dyn Progress,
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
    ) -> Result<(Vec<Record>, Vec<Diagnostic>), RunError> {
        let (samples, mut diags) = load_samples(files, &bench.problems, SampleOptions::default())?;
        let mut session = Session::open(output, None, self.sandbox)?;
        diags.append(&mut session.diagnostics);
        let work: Vec<(&LoadedProblem, &Sample)> = samples
            .iter()
            .filter(|s| !session.is_done(&s.key))
            .filter_map(|s| bench.problems.by_id.get(&s.task_id).map(|p| (p, s)))
            .collect();
        let tally = session.judge(&work, self.settings, self.workers, self.progress)?;
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
    ) -> Result<(Vec<super::memorisation::Crossed>, Vec<Diagnostic>), RunError> {
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
        let tally = session.judge(&work, self.settings, self.workers, self.progress)?;
        self.failures += tally.without_verdict();
        let (judged, more) = session.finish()?;
        diags.extend(more);
        let passed: BTreeMap<&str, bool> =
            judged.iter().map(|r| (r.judged.sample_key.as_str(), r.judged.verdict.passed)).collect();
        let out = crossed
            .iter()
            .filter_map(|(s, variant)| {
                Some(super::memorisation::Crossed {
                    kind: variants.kind[*variant].clone(),
                    passes_original: *passed.get(s.key.as_str())?,
                })
            })
            .collect();
        Ok((out, diags))
    }
}

/// The samples' own recorded verdicts as results (nothing is run).
fn recorded(bench: &Bench, files: &[PathBuf], output: &Path) -> Result<(Vec<Record>, Vec<Diagnostic>), RunError> {
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
        let verdict = flowbench_judge::verdict::Verdict {
            passed,
            result: result.to_string(),
            error_class: None,
            tests_passed: None,
            tests_total: None,
            first_failure: None,
            time_s: 0.0,
            time_limit_s: 0.0,
            class: None,
            only_failure: None,
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
    let records: BTreeMap<&str, &flowbench_bank::dist_record::DistRecord> =
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
                    .and_then(|path| Some(flowbench_bank::dist_record::data_url(&path, &std::fs::read(&path).ok()?))),
                _ => None,
            };
            ProblemView {
                task_id: id.clone(),
                subset: p.subset.clone().unwrap_or_else(|| flowbench_judge::summary::NO_SUBSET.to_string()),
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
