//! `flowbench check FILE…`: parse and lint flowcharts, optionally fixing the
//! common LLM mistakes first (`--fix`). A problem directory is checked as a
//! whole (`bank::problem_check`).
//!
//! Exit codes: 0 clean (warnings allowed), 1 warnings with `--deny` or a
//! chart unfaithful to its `--against` solution, 2 any error (unreadable file
//! or parse error).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::mermaid::ParseOptions;
use crate::mermaid::diagnostic::{Severity, render_diagnostic};
use crate::mermaid::fix::fix_with;
use crate::mermaid::lint::{Checked, check_with};

use rayon::prelude::*;

use super::against::{Printed, Solution};
use super::mmd_io::{read_source, write_source};

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Mermaid files to check; `-` reads standard input; a problem
    /// directory checks the whole problem.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Deny warnings: exit 1 when there are any.
    #[arg(long)]
    pub deny: bool,
    /// Rewrite common LLM mistakes (unquoted special characters, `"` in
    /// labels, trailing `%%` comments, keywords as ids, …) before checking;
    /// writes each file in place and reports every change.
    #[arg(long)]
    pub fix: bool,
    /// With `--fix`: print the fixed text instead of writing the file.
    #[arg(long, requires = "fix")]
    pub stdout: bool,
    /// Also check each chart is faithful to this Python solution (inputs,
    /// outputs, decisions, loops, nesting, branches, helpers).
    #[arg(long, value_name = "SOLUTION")]
    pub against: Option<PathBuf>,
    /// With `--against`: the function the chart draws (`name`, `Class.name`).
    #[arg(long, requires = "against")]
    pub entry: Option<String>,
    /// With `--against`: print one JSON report per chart (mismatches with
    /// chart and code positions, similarity score, evidence) on standard
    /// output.
    #[arg(long)]
    pub json: bool,
    /// Check each chart against the solution beside it (`X.py` beside
    /// `X.mmd`, else `solution.py` in its directory), walking directories
    /// for `.mmd` files: a batch in one process, the sandbox started once.
    #[arg(long, conflicts_with_all = ["against", "fix"])]
    pub beside: bool,
    /// With `--against`: run each chart that reads as code on this
    /// problem's tests (a problem directory, its `problem.json`, or a
    /// problems JSONL with `--task`). Default: the `problem.json` beside
    /// the solution, if there is one.
    #[arg(long, requires = "against", value_name = "PROBLEM")]
    pub tests: Option<PathBuf>,
    /// With `--tests` naming a problems JSONL: the problem's `task_id`.
    #[arg(long, requires = "tests")]
    pub task: Option<String>,
    /// Refuse charts with more edges than this (mermaid's maxEdges, 500);
    /// raise it for generated charts.
    #[arg(long, default_value_t = 500)]
    pub max_edges: usize,
}

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    if args.json && args.against.is_none() && !args.beside {
        anyhow::bail!("--json goes with --against or --beside");
    }
    if args.beside {
        return run_beside(&args);
    }
    let (mut errors, mut warnings, mut mismatches, mut unfaithful) = (0usize, 0usize, 0usize, 0usize);
    let solution = match &args.against {
        Some(path) => match against_solution(&args, path)? {
            Ok(solution) => Some(solution),
            Err(code) => return Ok(code),
        },
        None => None,
    };
    let sandbox = problem_sandbox();
    let candidates = crate::exec::LazyExecutor::new(crate::author::execute::sandbox_config());
    let cache = crate::author::behaviour::InputCache::default();
    let opts = ParseOptions { max_edges: args.max_edges, ..ParseOptions::default() };
    for path in &args.files {
        let name = path.display().to_string();
        if path.is_dir() {
            let found = crate::bank::problem_check::check_problem(path, &sandbox, std::time::Duration::from_secs(10));
            for e in &found {
                eprintln!("error: {e}");
            }
            errors += found.len();
            if found.is_empty() {
                eprintln!("{name}: problem ok");
            }
            continue;
        }
        let mut source = match read_source(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {name}: {e:#}");
                errors += 1;
                continue;
            }
        };
        if args.fix {
            source = fix(&args, path, &name, &source, &opts)?;
        }
        let mut out = Printed::default();
        let (e, w, found) =
            check_text(&mut out, &args, &name, &source, &opts, solution.as_ref(), (&candidates, &cache));
        out.flush();
        (errors, warnings) = (errors + e, warnings + w);
        if let Some(found) = found {
            (mismatches, unfaithful) = (mismatches + found, unfaithful + usize::from(found > 0));
        }
    }
    let against = solution.as_ref().map(|s| (s.name.as_str(), mismatches, unfaithful));
    Ok(summarise(&args, errors, warnings, against))
}

/// Prints the run's summary line; the exit code: 2 with errors, 1 with
/// denied warnings or an unfaithful chart. `against`: the solution's name,
/// the mismatches and the charts they were in.
fn summarise(args: &CheckArgs, errors: usize, warnings: usize, against: Option<(&str, usize, usize)>) -> ExitCode {
    let mut summary = format!("checked {} file(s): {errors} error(s), {warnings} warning(s)", args.files.len());
    if args.deny && warnings > 0 {
        summary.push_str(" (warnings denied)");
    }
    // Mismatches print as errors above: the count says how many there were.
    if let Some((name, mismatches, unfaithful)) = against {
        summary.push_str(&format!(", {mismatches} mismatch(es) with {name} in {unfaithful} chart(s)"));
    }
    eprintln!("{summary}");
    let unfaithful = against.is_some_and(|(_, _, charts)| charts > 0);
    if errors > 0 {
        ExitCode::from(2)
    } else if (args.deny && warnings > 0) || unfaithful {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Checks one chart's text, writing its diagnostics (and, with a
/// solution, its comparison) into `out`: its errors, its warnings and its
/// mismatches with the solution (`None`: not compared).
fn check_text(
    out: &mut Printed,
    args: &CheckArgs,
    name: &str,
    source: &str,
    opts: &ParseOptions,
    solution: Option<&Solution>,
    (candidates, cache): (&crate::exec::LazyExecutor, &crate::author::behaviour::InputCache),
) -> (usize, usize, Option<usize>) {
    let (mut errors, mut mismatches) = (0, None);
    match check_with(source, opts) {
        Checked::Ok { warnings: ws, chart } => {
            if let Some(solution) = solution {
                match super::against::report(out, name, source, &chart, solution, candidates, cache, args.json) {
                    Ok(found) => mismatches = Some(found),
                    Err(e) => {
                        out.stderr.push_str(&format!(
                            "error: {name}: running the chart on the tests of {}: {e}\n",
                            solution.name
                        ));
                        errors += 1;
                    }
                }
            }
            for w in &ws {
                let mut w = w.clone();
                if args.deny {
                    w.severity = Severity::Error;
                }
                out.stderr.push_str(&render_diagnostic(name, source, &w));
            }
            (errors, ws.len(), mismatches)
        }
        Checked::Err(d) => {
            out.stderr.push_str(&render_diagnostic(name, source, &d));
            (1, 0, None)
        }
    }
}

/// `--beside`: every chart under `args.files` against the solution beside
/// it, one sandbox and one input cache for all. The solutions are checked
/// side by side (a solution's charts one after another, so they share its
/// inputs), and each chart's report prints whole, in the charts' order.
fn run_beside(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let mut charts = Vec::new();
    for path in &args.files {
        collect_charts(path, &mut charts)?;
    }
    let (mut planned, solutions) = plan_beside(args, &charts)?;
    check_side_by_side(args, &mut planned, &solutions);
    let errors: usize = planned.iter().map(|p| p.errors).sum();
    let unfaithful = planned.iter().filter(|p| p.unfaithful).count();
    for p in planned {
        p.out.flush();
    }
    eprintln!(
        "checked {} chart(s) against the solutions beside them: {unfaithful} unfaithful, {errors} error(s)",
        charts.len()
    );
    Ok(if errors > 0 {
        ExitCode::from(2)
    } else if unfaithful > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The solutions beside the charts, by path (`None`: unreadable, its error
/// printed).
type Solutions = std::collections::HashMap<PathBuf, Option<Solution>>;

/// Per chart, what is left to check (or the error that stops it), and the
/// solutions beside the charts, each read once.
fn plan_beside(args: &CheckArgs, charts: &[PathBuf]) -> anyhow::Result<(Vec<Planned>, Solutions)> {
    let mut solutions = Solutions::default();
    let mut planned = Vec::new();
    for chart in charts {
        let name = chart.display().to_string();
        let mut out = Printed::default();
        let Some(path) = solution_beside(chart) else {
            out.stderr.push_str(&format!(
                "error: {name}: no solution beside it (`{}` or `solution.py`)\n",
                stem_py(chart).display()
            ));
            planned.push(Planned::failed(out));
            continue;
        };
        if !solutions.contains_key(&path) {
            let read = against_solution(args, &path)?.ok();
            solutions.insert(path.clone(), read);
        }
        if solutions[&path].is_none() {
            planned.push(Planned::failed(out));
            continue;
        }
        match read_source(chart) {
            Ok(source) => planned.push(Planned {
                out,
                errors: 0,
                unfaithful: false,
                left: Some(ToCheck { name, source, solution: path }),
            }),
            Err(e) => {
                out.stderr.push_str(&format!("error: {name}: {e:#}\n"));
                planned.push(Planned::failed(out));
            }
        }
    }
    Ok((planned, solutions))
}

/// Checks what is left of `planned`, a solution's charts in turn and the
/// solutions side by side, adding each chart's report to its own.
fn check_side_by_side(args: &CheckArgs, planned: &mut [Planned], solutions: &Solutions) {
    let candidates = crate::exec::LazyExecutor::new(crate::author::execute::sandbox_config());
    let cache = crate::author::behaviour::InputCache::default();
    let opts = ParseOptions { max_edges: args.max_edges, ..ParseOptions::default() };
    let mut by_solution: std::collections::BTreeMap<&Path, Vec<usize>> = Default::default();
    for (i, p) in planned.iter().enumerate() {
        if let Some(left) = &p.left {
            by_solution.entry(left.solution.as_path()).or_default().push(i);
        }
    }
    let groups: Vec<&Vec<usize>> = by_solution.values().collect();
    let checked: Vec<(usize, Printed, usize, bool)> = groups
        .par_iter()
        .flat_map_iter(|group| {
            group.iter().filter_map(|&i| {
                let ToCheck { name, source, solution } = planned[i].left.as_ref()?;
                let solution = solutions[solution].as_ref()?;
                let mut out = Printed::default();
                let (e, _, found) =
                    check_text(&mut out, args, name, source, &opts, Some(solution), (&candidates, &cache));
                Some((i, out, e, found.is_some_and(|f| f > 0)))
            })
        })
        .collect();
    for (i, out, e, unfaithful) in checked {
        let p = &mut planned[i];
        p.out.stderr.push_str(&out.stderr);
        p.out.stdout.push_str(&out.stdout);
        (p.errors, p.unfaithful) = (p.errors + e, unfaithful);
    }
}

/// One chart of a `--beside` run: what it printed so far, its errors, and
/// what is left to check.
struct Planned {
    out: Printed,
    errors: usize,
    unfaithful: bool,
    left: Option<ToCheck>,
}

impl Planned {
    /// A chart stopped by an error already written in `out`.
    fn failed(out: Printed) -> Planned {
        Planned { out, errors: 1, unfaithful: false, left: None }
    }
}

/// A chart read and its solution found, to be checked.
struct ToCheck {
    name: String,
    source: String,
    solution: PathBuf,
}

/// `path`'s `.mmd` files (itself when it is a file), sorted.
fn collect_charts(path: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_charts(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "mmd") {
            out.push(p);
        }
    }
    Ok(())
}

fn stem_py(chart: &Path) -> PathBuf {
    chart.with_extension("py")
}

/// The solution a chart is checked against under `--beside`.
fn solution_beside(chart: &Path) -> Option<PathBuf> {
    let own = stem_py(chart);
    if own.is_file() {
        return Some(own);
    }
    chart.parent().map(|d| d.join("solution.py")).filter(|p| p.is_file())
}

/// The one-worker sandbox a problem directory's check runs its reference in.
fn problem_sandbox() -> crate::exec::LazyExecutor {
    crate::exec::LazyExecutor::new(
        crate::exec::ExecConfig { workers: 1, ..crate::exec::ExecConfig::default() }.with_interpreter(None, None),
    )
}

/// `--against`'s solution and its tests; `Err(2)` (said why) when they
/// cannot be read.
fn against_solution(args: &CheckArgs, path: &Path) -> anyhow::Result<Result<Solution, ExitCode>> {
    let code = read_source(path)?;
    let problem = super::against::problem_tests(path, args.tests.as_deref(), args.task.as_deref())
        .and_then(|problem| Ok((problem, super::against::problem_spec(path, args.tests.as_deref())?)));
    let (problem, spec) = match problem {
        Ok(found) => found,
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(Err(ExitCode::from(2)));
        }
    };
    match crate::author::read_program(&code, args.entry.as_deref()) {
        Ok(program) => Ok(Ok(Solution { name: path.display().to_string(), code, program, problem, spec })),
        Err(e) => {
            let at = if e.line > 0 { format!(":{}", e.line) } else { String::new() };
            eprintln!("error: {}{at}: {}", path.display(), e.message);
            Ok(Err(ExitCode::from(2)))
        }
    }
}

/// `--fix`: the pitfalls' rewrites said and written back (or to stdout);
/// returns the fixed text.
fn fix(args: &CheckArgs, path: &Path, name: &str, source: &str, opts: &ParseOptions) -> anyhow::Result<String> {
    let fixed = fix_with(source, &|t: &str| crate::mermaid::parse_with(t, opts));
    for c in &fixed.changes {
        let after = if c.after.is_empty() { "(removed)" } else { c.after.as_str() };
        eprintln!("{name}:{}:{}: fixed [{}] {} → {}", c.line, c.col, c.pitfall, c.before, after);
        if c.lossy {
            eprintln!(
                "{name}:{}:{}: note: lossy fix: the link had no target, so it was dropped and the original line kept in a `%%` comment above; add the target node by hand",
                c.line, c.col
            );
        }
    }
    if args.stdout || name == "-" {
        print!("{}", fixed.text);
    } else if fixed.text != source {
        write_source(path, &fixed.text)?;
    }
    Ok(fixed.text)
}
