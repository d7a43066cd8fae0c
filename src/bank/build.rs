//! `build`: check, format and render every flowchart of a bank, and prove
//! each problem's tests against its reference solution in the sandbox.
//!
//! Each problem's artefacts are written as soon as it is done, with a stamp
//! of its inputs, so an interrupted build resumes where it stopped and an
//! unchanged problem is not rebuilt. Every artefact is deterministic; run
//! times go to stderr only.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::judge::compare::{CompareOptions, DEFAULT_FLOAT_TOLERANCE};
use crate::judge::native::{PreparedTests, native_job, native_verdict};
use crate::judge::problem::{Category, Problem};
use crate::judge::run::Sandbox;
use crate::mermaid::diagnostic::{Severity, render_diagnostic};
use crate::mermaid::lint::{Checked, check};
use crate::mermaid::{Flowchart, Shape, fmt};
use crate::layout::drawn::Drawing;
use crate::layout::metrics::measure;
use crate::render::pipeline::Renderer;
use crate::render::style::{StyleFile, resolve};

use super::{BankProblem, FLOWCHART, PROBLEM, SOLUTION};

/// How to build.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Output root; each problem gets `OUT/<name>/`.
    pub out: PathBuf,
    /// Treat lint warnings as errors.
    pub deny_warnings: bool,
    /// Rebuild problems whose stamp says they are up to date.
    pub force: bool,
    /// Per-test limit when running the reference solution.
    pub time_limit: std::time::Duration,
    /// Report an ambiguous picture (edge through a node, label over a
    /// label or node, label crossed by another edge) as a warning instead
    /// of refusing the problem.
    pub allow_ambiguous: bool,
}

/// Test counts by category.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestCounts {
    pub typical: usize,
    pub edge: usize,
    pub large: usize,
}

/// What building one problem found; `report.json` in its output directory.
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
    /// Files written, relative to the output root.
    pub outputs: Vec<String>,
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
    pub fn build(&self, dir: &Path) -> ProblemReport {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut report = ProblemReport { name: name.clone(), ..ProblemReport::default() };
        let out_dir = self.opts.out.join(&name);
        let bank = match super::load(dir) {
            Ok(b) => b,
            Err(e) => {
                report.diagnostics.push(format!("error: {e:#}"));
                return report;
            }
        };
        let stamp = stamp(&bank, &self.opts);
        if !self.opts.force
            && let Some(previous) = up_to_date(&out_dir, &stamp)
        {
            return previous;
        }
        if let Err(e) = self.build_loaded(&bank, &out_dir, &mut report) {
            report.ok = false;
            report.diagnostics.push(format!("error: {e:#}"));
        }
        // The stamp goes last: a crash before this point means a rebuild.
        let written = std::fs::create_dir_all(&out_dir)
            .and_then(|()| std::fs::write(out_dir.join("report.json"), to_json(&report)))
            .and_then(|()| std::fs::write(out_dir.join(".stamp"), &stamp));
        if let Err(e) = written {
            report.ok = false;
            report.diagnostics.push(format!("error: writing {}: {e}", out_dir.display()));
        }
        report
    }

    fn build_loaded(&self, bank: &BankProblem, out_dir: &Path, report: &mut ProblemReport) -> anyhow::Result<()> {
        let path = bank.dir.join(FLOWCHART);
        let shown = path.display().to_string();
        let chart = match check(&bank.flowchart) {
            Checked::Err(d) => {
                report.diagnostics.push(render_diagnostic(&shown, &bank.flowchart, &d));
                return Ok(());
            }
            Checked::Ok { chart, warnings } => {
                let mut denied = false;
                for w in &warnings {
                    denied |= self.opts.deny_warnings || w.severity == Severity::Error;
                    report.diagnostics.push(render_diagnostic(&shown, &bank.flowchart, w));
                }
                if denied {
                    return Ok(());
                }
                chart
            }
        };
        describe(&chart, &bank.problem, report);
        std::fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
        let mut write = |file: &str, bytes: &[u8]| -> anyhow::Result<()> {
            let target = out_dir.join(file);
            std::fs::write(&target, bytes).with_context(|| format!("writing {}", target.display()))?;
            report.outputs.push(format!("{}/{file}", bank.name));
            Ok(())
        };
        write(FLOWCHART, fmt::format(&chart).as_bytes())?;
        let style = resolve(&chart.config, None, &StyleFile::default()).map_err(|e| anyhow::anyhow!("{shown}: style: {e}"))?;
        let drawn = self.renderer.svg(&chart, &style).with_context(|| format!("rendering {shown}"))?;
        // Validity gate: a picture a model could misread never enters a
        // benchmark (measured on the curves as drawn).
        let drawing = Drawing::from_layout(&chart, &drawn.geometry, style.curve);
        let (_, defects) = measure(&drawing);
        let level = if self.opts.allow_ambiguous { "warning" } else { "error" };
        for d in &defects {
            report.diagnostics.push(format!("{level}: {shown}: ambiguous picture: {}", d.describe(&drawing)));
        }
        if !defects.is_empty() && !self.opts.allow_ambiguous {
            return Ok(());
        }
        write("flowchart.svg", drawn.svg.as_bytes())?;
        // The PNG as `flowbench render` makes it, byte for byte.
        let for_png = self.renderer.for_png(&chart, &style, drawn);
        write("flowchart.png", &self.renderer.png_of(&for_png, 1.0).with_context(|| format!("rasterising {shown}"))?)?;
        write(SOLUTION, bank.solution.as_bytes())?;
        let passed = self.validate(bank)?;
        report.reference_passed = passed;
        report.ok = passed == bank.problem.tests.len() && !bank.problem.tests.is_empty();
        if bank.problem.tests.is_empty() {
            report.diagnostics.push(format!("error: {}: no tests", bank.dir.join(PROBLEM).display()));
        }
        if report.ok {
            write(PROBLEM, to_json(&bank.problem).as_bytes())?;
        }
        Ok(())
    }

    /// Runs the reference solution on every test, in the sandbox like any
    /// candidate, and returns how many it passed; failures are errors.
    fn validate(&self, bank: &BankProblem) -> anyhow::Result<usize> {
        let p = &bank.problem;
        let tests = PreparedTests::new(p).map_err(|e| anyhow::anyhow!("{}: {e}", bank.dir.join(PROBLEM).display()))?;
        let limits = crate::exec::Limits { wall: self.opts.time_limit, cpu: self.opts.time_limit };
        let outcome = self.sandbox.run_job(&native_job(p, bank.solution.clone(), limits));
        let opts = CompareOptions {
            float_tolerance: p.float_tolerance.unwrap_or(DEFAULT_FLOAT_TOLERANCE),
            strict_types: false,
        };
        let verdict = native_verdict(p, &tests, &outcome, &opts, self.opts.time_limit)
            .map_err(|e| anyhow::anyhow!("sandbox: {e}"))?;
        if !verdict.passed {
            let f = verdict.first_failure.unwrap_or_default();
            anyhow::bail!(
                "{}: the reference solution fails test {}: {} (input {}, expected {}, got {})",
                bank.dir.join(SOLUTION).display(),
                f.test.map_or_else(|| "?".into(), |t| t.to_string()),
                f.message,
                f.input.unwrap_or_default(),
                f.expected.unwrap_or_default(),
                f.got.unwrap_or_default(),
            );
        }
        Ok(verdict.tests_passed.unwrap_or(0))
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

/// A fingerprint of everything that decides a problem's artefacts.
fn stamp(bank: &BankProblem, opts: &BuildOptions) -> String {
    let problem = serde_json::to_string(&bank.problem).unwrap_or_default();
    let parts = [
        env!("CARGO_PKG_VERSION"),
        &bank.flowchart,
        &bank.solution,
        &problem,
        if opts.deny_warnings { "deny" } else { "warn" },
        if opts.allow_ambiguous { "allow-ambiguous" } else { "gate" },
    ];
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0xff]) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}\n")
}

/// The previous report when the stamp matches and every output exists.
fn up_to_date(out_dir: &Path, stamp: &str) -> Option<ProblemReport> {
    if std::fs::read_to_string(out_dir.join(".stamp")).ok()? != stamp {
        return None;
    }
    let report: ProblemReport = serde_json::from_str(&std::fs::read_to_string(out_dir.join("report.json")).ok()?).ok()?;
    let root = out_dir.parent()?;
    report.outputs.iter().all(|f| root.join(f).is_file()).then_some(report)
}

/// Pretty JSON with a trailing newline (artefacts are meant to be diffed).
pub fn to_json<T: Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}

/// The bank-wide summary written as `summary.json` and `summary.md`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Summary {
    pub problems: usize,
    pub ok: usize,
    pub nodes: usize,
    pub edges: usize,
    pub decisions: usize,
    pub tests: TestCounts,
    pub reports: Vec<ProblemReport>,
}

impl Summary {
    /// Totals over `reports` (kept in the given order).
    pub fn new(reports: Vec<ProblemReport>) -> Summary {
        let mut s = Summary { problems: reports.len(), ..Summary::default() };
        for r in &reports {
            s.ok += usize::from(r.ok);
            s.nodes += r.nodes;
            s.edges += r.edges;
            s.decisions += r.decisions;
            s.tests.typical += r.tests.typical;
            s.tests.edge += r.tests.edge;
            s.tests.large += r.tests.large;
        }
        s.reports = reports;
        s
    }

    /// A Markdown table of the bank, one row per problem.
    pub fn markdown(&self) -> String {
        let mut md = String::from("# Problem bank\n\n| problem | ok | nodes | edges | decisions | tests (typical/edge/large) |\n|---|---|---:|---:|---:|---|\n");
        for r in &self.reports {
            md.push_str(&format!(
                "| {} | {} | {} | {} | {} | {}/{}/{} |\n",
                r.name,
                if r.ok { "yes" } else { "**no**" },
                r.nodes,
                r.edges,
                r.decisions,
                r.tests.typical,
                r.tests.edge,
                r.tests.large
            ));
        }
        md.push_str(&format!(
            "\n{} of {} problems built; {} tests ({} typical, {} edge, {} large).\n",
            self.ok,
            self.problems,
            self.tests.typical + self.tests.edge + self.tests.large,
            self.tests.typical,
            self.tests.edge,
            self.tests.large
        ));
        md
    }

    /// `problems.jsonl` for `flowbench judge`: every problem that built,
    /// one line each, in bank order.
    pub fn problems_jsonl(&self, out: &Path) -> anyhow::Result<String> {
        let mut lines = String::new();
        for r in self.reports.iter().filter(|r| r.ok) {
            let path = out.join(&r.name).join(PROBLEM);
            let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            let p: Problem = serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
            lines.push_str(&serde_json::to_string(&p)?);
            lines.push('\n');
        }
        Ok(lines)
    }
}
