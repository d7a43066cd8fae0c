//! One judging run over a results file. What the file already holds is
//! resumed; a run file beside it (when the caller pins settings) refuses to
//! mix verdicts of other settings; the samples still to judge run in the
//! sandbox and are appended as they finish (a kill loses at most one
//! line); at the end the file is sorted and, when asked, summarised.
//! `judge` and `ablation` are this with different options, and any new
//! task that judges samples reuses it instead of copying the loop.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use flowbench_exec::{LazyExecutor, StartError};
use flowbench_support::progress::Progress;

use super::problems_file::{Diagnostic, LoadedProblem};
use super::records::{
    Appender, Judged, Record, ResultsFileError, prepare_resume, read_records, record_line, sorted_unique, write_records,
};
use super::run::{JudgeSettings, NoVerdict, judge_all};
use super::run_file::{self, Environment, RunFile, RunFileError, RunSettings};
use super::samples::Sample;
use super::summary::{Counting, Summary, summarize_counting};
use super::summary_md::render_markdown;

/// Why a judging run stopped: its files, or a sandbox that cannot start
/// (a sample without a verdict is not an error: see [`Tally`]).
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    RunFile(#[from] RunFileError),
    #[error(transparent)]
    Results(#[from] ResultsFileError),
    #[error(transparent)]
    Sandbox(#[from] StartError),
    /// `--force` could not remove an earlier run's file.
    #[error("removing {}", path.display())]
    Remove {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// A summary that could not be written beside its results.
#[derive(Debug, thiserror::Error)]
pub enum SummaryError {
    /// Encoding the JSON summary (shown as the encoder's message alone).
    #[error("{error}")]
    Encode { path: PathBuf, error: serde_json::Error },
    #[error("writing {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// A results file open for judging.
pub struct Session<'a> {
    output: PathBuf,
    /// The verdict-changing settings pinned in the run file (`judge`);
    /// `None`: no run file (`ablation` pins its own).
    settings: Option<RunSettings>,
    /// Keys of the samples already judged.
    done: BTreeSet<String>,
    sandbox: &'a LazyExecutor,
    /// What resuming found (a dropped partial line, unreadable lines).
    pub diagnostics: Vec<Diagnostic>,
}

/// What [`Session::judge`] did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub judged: usize,
    /// No verdict: the problem has no tests of the kind asked for.
    pub skipped: usize,
    /// No verdict: the sandbox failed (retried on the next run).
    pub sandbox_errors: usize,
}

impl Tally {
    /// Samples that got no verdict.
    pub fn without_verdict(&self) -> usize {
        self.skipped + self.sandbox_errors
    }
}

impl<'a> Session<'a> {
    /// Opens `output`, resuming what it holds. With `settings`, the run
    /// file must record the same ones (or there is none yet), and is
    /// (re)written with them.
    pub fn open(
        output: &Path,
        settings: Option<RunSettings>,
        sandbox: &'a LazyExecutor,
    ) -> Result<Session<'a>, SessionError> {
        if let Some(settings) = &settings {
            run_file::check_resume(output, settings)?;
            let environment = run_file::read(output)?.and_then(|r| r.environment);
            run_file::write(output, &RunFile { settings: settings.clone(), environment })?;
        }
        let (done, diagnostics) = prepare_resume(output)?;
        Ok(Session { output: output.to_path_buf(), settings, done, sandbox, diagnostics })
    }

    /// Removes `output`'s results, summaries and run file, to judge from
    /// scratch (`--force`).
    pub fn discard(output: &Path) -> Result<(), SessionError> {
        let (md, json) = summary_paths(output);
        for path in [output.to_path_buf(), md, json, run_file::run_path(output)] {
            match std::fs::remove_file(&path) {
                Err(source) if source.kind() != std::io::ErrorKind::NotFound => {
                    return Err(SessionError::Remove { path, source });
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether the sample with `key` is judged already.
    pub fn is_done(&self, key: &str) -> bool {
        self.done.contains(key)
    }

    /// How many of the samples were judged by earlier runs.
    pub fn resumed(&self) -> usize {
        self.done.len()
    }

    /// Judges `work` with `workers` sandbox workers, appending each verdict
    /// as it comes. The sandbox starts here (an error when it cannot); a
    /// sample without a verdict is noted through `progress` and left for
    /// the next run.
    pub fn judge(
        &mut self,
        work: &[(&LoadedProblem, &Sample)],
        settings: &JudgeSettings,
        workers: usize,
        progress: &dyn Progress,
    ) -> Result<Tally, SessionError> {
        let mut tally = Tally::default();
        if work.is_empty() {
            return Ok(tally);
        }
        let sandbox = self.sandbox;
        let executor = sandbox.get()?;
        let confinement: Vec<String> = executor.confinement().iter().map(|(k, v)| format!("{k} {v}")).collect();
        progress.note(&format!(
            "judging {} samples with {workers} workers, Python {} ({})",
            work.len(),
            executor.python_version(),
            confinement.join("; ")
        ));
        let weak = (!executor.weaknesses().is_empty()).then(|| format!("weak: {}", executor.weaknesses().join("; ")));
        if let Some(w) = &weak {
            progress.note(&format!("WARNING: --allow-weak-sandbox: untrusted code runs with weaker isolation ({w})"));
        }
        if let Some(settings) = &self.settings {
            let environment = Environment {
                python: executor.python_version().to_string(),
                packages: executor.packages().clone(),
                sandbox: weak.clone().unwrap_or_else(|| "full".into()),
            };
            run_file::write(&self.output, &RunFile { settings: settings.clone(), environment: Some(environment) })?;
        }
        progress.add_total(work.len() as u64);
        let mut out = Appender::open(&self.output)?;
        let mut write_error: Option<ResultsFileError> = None;
        judge_all(work, settings, sandbox, workers, |problem, sample, result| {
            progress.advance();
            match result {
                Ok((verdict, mode, note)) => {
                    let p = &problem.problem;
                    let mut judged = Judged::new(sample, verdict, mode, note, p.subset.clone(), p.difficulty.clone());
                    judged.sandbox.clone_from(&weak);
                    tally.judged += 1;
                    if write_error.is_none() {
                        write_error = out.append(&record_line(sample, &judged)).err();
                    }
                    self.done.insert(sample.key.clone());
                }
                Err(NoVerdict::NotJudgeable(why)) => {
                    tally.skipped += 1;
                    progress.note(&format!("skipped: {why}"));
                }
                Err(NoVerdict::Sandbox(why)) => {
                    tally.sandbox_errors += 1;
                    progress.note(&format!("sandbox error on {} (not judged, retried on re-run): {why}", sample.key));
                }
            }
        });
        match write_error {
            Some(e) => Err(e.into()),
            None => Ok(tally),
        }
    }

    /// Rewrites the results file sorted by sample, one line per sample, and
    /// returns its records with what reading them found.
    pub fn finish(&self) -> Result<(Vec<Record>, Vec<Diagnostic>), ResultsFileError> {
        if !self.output.exists() {
            return Ok((Vec::new(), Vec::new()));
        }
        let (records, diagnostics) = read_records(&self.output)?;
        let (records, _) = sorted_unique(records);
        write_records(&self.output, &records)?;
        Ok((records, diagnostics))
    }
}

/// `results.jsonl` → `results.summary.md` / `results.summary.json`.
pub fn summary_paths(output: &Path) -> (PathBuf, PathBuf) {
    let stem = output.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "results".into());
    (output.with_file_name(format!("{stem}.summary.md")), output.with_file_name(format!("{stem}.summary.json")))
}

/// Writes the disputed tests among `records` ([`crate::disputed`]) beside
/// `output` (`STEM.disputed.md`, and `STEM.disputed.jsonl` for `tests gen
/// --drop-disputed` once reviewed), with what `problems` know of each, and
/// returns them.
pub fn write_disputed(
    output: &Path,
    records: &[Record],
    problems: Option<&super::problems_file::ProblemSet>,
) -> Result<Vec<crate::disputed::DisputedTest>, SummaryError> {
    use crate::disputed::{disputed, render_jsonl, render_markdown, with_problems};
    let mut list = disputed(records);
    if let Some(problems) = problems {
        list = with_problems(list, problems);
    }
    let (md_path, jsonl_path) = disputed_paths(output);
    write_file(&md_path, &render_markdown(&list))?;
    write_file(&jsonl_path, &render_jsonl(&list))?;
    Ok(list)
}

/// Where [`write_disputed`] writes, beside `output`.
pub fn disputed_paths(output: &Path) -> (PathBuf, PathBuf) {
    let stem = output.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "results".into());
    (output.with_file_name(format!("{stem}.disputed.md")), output.with_file_name(format!("{stem}.disputed.jsonl")))
}

/// Writes `records`' pass@`ks` summary beside `output` (Markdown and JSON),
/// its headline counting as passed what `counting` says, and returns the
/// summary and its Markdown.
pub fn write_summary(
    output: &Path,
    records: &[Record],
    ks: &[usize],
    counting: Counting,
) -> Result<(Summary, String), SummaryError> {
    let summary = summarize_counting(records, ks, counting);
    let (md_path, json_path) = summary_paths(output);
    let md = render_markdown(&summary, ks);
    write_file(&md_path, &md)?;
    let json = match serde_json::to_string_pretty(&summary) {
        Ok(json) => json + "\n",
        Err(error) => return Err(SummaryError::Encode { path: json_path, error }),
    };
    write_file(&json_path, &json)?;
    Ok((summary, md))
}

fn write_file(path: &Path, text: &str) -> Result<(), SummaryError> {
    flowbench_support::outfile::write_atomic(path, text.as_bytes())
        .map_err(|source| SummaryError::Write { path: path.to_path_buf(), source })
}
