//! `flowbench tests gen` and `flowbench tests score`: wiring only; the work
//! is in `testgen`.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::exec::{ExecConfig, Executor};
use crate::judge::problem::{Category, Problem};
use crate::testgen::generate::{GenInput, generate, show_counts};
use crate::testgen::score::{Fate, Score, ScoredTest, reduce, score, score_mutants};
use crate::testgen::tests_file::{self, GeneratedTest, TESTS};

/// Options shared by `gen` and `score`.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// Problem directories (solution.py + problem.toml [+ problem.json]).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Python for the sandboxed reference [default: the `flowbench env`
    /// venv, else python3].
    #[arg(long)]
    python: Option<PathBuf>,
    /// Python that runs the generator helpers (they parse, never run, the solution).
    #[arg(long, default_value = "python3")]
    helper_python: PathBuf,
    /// Sandbox workers [default: all cores].
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
}

/// `tests gen`.
#[derive(Debug, clap::Args)]
pub struct GenArgs {
    #[command(flatten)]
    common: Common,
    /// Keep only a small suite that kills every mutant the full suite kills
    /// and still meets the floors (greedy set cover).
    #[arg(long)]
    reduce: bool,
    /// Also print the mutation score of the tests written.
    #[arg(long)]
    score: bool,
}

/// `tests score`.
#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    #[command(flatten)]
    common: Common,
    /// Tests to score: a tests.jsonl or a problem.json; a relative name that
    /// is not an existing file is looked up in each problem directory
    /// (`--tests problem.json` scores the original tests) [default: tests.jsonl].
    #[arg(long)]
    tests: Option<PathBuf>,
    /// One JSON line per problem: problem, mutants, equivalent, killed, score.
    #[arg(long)]
    json: bool,
}

fn executor(c: &Common) -> anyhow::Result<Executor> {
    let mut cfg = ExecConfig { stop_after_timeout: true, ..ExecConfig::default() };
    if let Some(p) = &c.python {
        cfg.python = p.clone();
    }
    if let Some(j) = c.jobs {
        cfg.workers = j.max(1);
    }
    Ok(Executor::start(cfg)?)
}

fn bar(n: usize) -> indicatif::ProgressBar {
    if std::io::stderr().is_terminal() { indicatif::ProgressBar::new(n as u64) } else { indicatif::ProgressBar::hidden() }
}

fn name_of(dir: &Path) -> String {
    dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| dir.display().to_string())
}

fn scored(tests: &[GeneratedTest]) -> Vec<ScoredTest> {
    tests.iter().map(|t| ScoredTest { args: t.args.clone(), expected: t.expected.clone(), time_s: t.reference_time_s }).collect()
}

pub fn run_gen(args: GenArgs) -> anyhow::Result<ExitCode> {
    let executor = executor(&args.common)?;
    let bar = bar(args.common.dirs.len());
    let mut failed = 0;
    for dir in &args.common.dirs {
        bar.set_message(name_of(dir));
        let result = gen_one(&executor, &args, dir);
        bar.inc(1);
        match result {
            Ok(line) => bar.suspend(|| println!("{line}")),
            Err(e) => {
                failed += 1;
                bar.suspend(|| eprintln!("error: {e:#}"));
            }
        }
    }
    bar.finish_and_clear();
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn gen_one(executor: &Executor, args: &GenArgs, dir: &Path) -> anyhow::Result<String> {
    let python = &args.common.helper_python;
    let input = crate::bank::spec::gen_input(dir)?;
    let mut generated = generate(python, executor, &input)?;
    if !generated.floor_errors.is_empty() {
        anyhow::bail!("{}\n(no tests written)", generated.floor_errors.join("\n"));
    }
    let mut note = String::new();
    if args.reduce {
        let full = score(python, executor, &input, &name_of(dir), &scored(&generated.tests), true)?;
        let categories: Vec<Category> = generated.tests.iter().map(|t| t.category).collect();
        let keep = reduce(&full.reports, &categories, &input.spec.floors);
        note = format!("; reduced {} → {} tests, still killing {} of {} mutants", generated.tests.len(), keep.len(), full.killed, full.mutants);
        generated.tests = keep.into_iter().map(|i| generated.tests[i].clone()).collect();
        let h = &mut generated.header;
        h.typical = generated.tests.iter().filter(|t| t.category == Category::Typical).count();
        h.edge = generated.tests.iter().filter(|t| t.category == Category::Edge).count();
        h.large = generated.tests.iter().filter(|t| t.category == Category::Large).count();
    }
    if args.score {
        let s = score(python, executor, &input, &name_of(dir), &scored(&generated.tests), false)?;
        note.push_str(&format!("; mutation score {:.3} ({} killed, {} equivalent, {} mutants)", s.score, s.killed, s.equivalent, s.mutants));
        generated.header.mutation =
            Some(tests_file::MutationSummary { mutants: s.mutants, equivalent: s.equivalent, killed: s.killed, score: s.score });
    }
    tests_file::write(&dir.join(TESTS), &generated.header, &generated.tests)?;
    let h = &generated.header;
    Ok(format!(
        "{}: {} tests ({} typical, {} edge, {} large); dropped: {}{note}",
        name_of(dir),
        generated.tests.len(),
        h.typical,
        h.edge,
        h.large,
        show_counts(&h.dropped)
    ))
}

pub fn run_score(args: ScoreArgs) -> anyhow::Result<ExitCode> {
    let executor = executor(&args.common)?;
    let bar = bar(args.common.dirs.len());
    let mut failed = 0;
    for dir in &args.common.dirs {
        bar.set_message(name_of(dir));
        let result = score_one(&executor, &args, dir);
        bar.inc(1);
        match result {
            Ok(s) => bar.suspend(|| print!("{}", if args.json { json_line(&s) } else { text(&s) })),
            Err(e) => {
                failed += 1;
                bar.suspend(|| eprintln!("error: {e:#}"));
            }
        }
    }
    bar.finish_and_clear();
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The tests `--tests` names for `dir`.
pub fn load_tests(dir: &Path, tests: Option<&Path>) -> anyhow::Result<Vec<ScoredTest>> {
    let path = match tests {
        None => dir.join(TESTS),
        Some(p) if p.is_relative() && !p.exists() => dir.join(p),
        Some(p) => p.to_path_buf(),
    };
    let text = std::fs::read_to_string(&path).map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
    if let Ok(p) = serde_json::from_str::<Problem>(&text) {
        return Ok(p.tests.into_iter().map(|t| ScoredTest { args: t.args, expected: t.expected, time_s: 0.0 }).collect());
    }
    let (_, tests) = tests_file::read(&path)?;
    Ok(scored(&tests))
}

fn score_one(executor: &Executor, args: &ScoreArgs, dir: &Path) -> anyhow::Result<Score> {
    let input: GenInput = crate::bank::spec::gen_input(dir)?;
    let python = &args.common.helper_python;
    let mutants = crate::testgen::score::mutants(python, &input)?;
    let tests = load_tests(dir, args.tests.as_deref())?;
    score_mutants(python, executor, &input, &mutants, &name_of(dir), &tests, false)
}

fn json_line(s: &Score) -> String {
    format!("{}\n", serde_json::to_string(s).unwrap_or_default())
}

fn text(s: &Score) -> String {
    let mut out = format!(
        "{}: {} mutants, {} likely equivalent, {} killed, mutation score {:.3}\n",
        s.problem, s.mutants, s.equivalent, s.killed, s.score
    );
    for r in s.reports.iter().filter(|r| r.fate == Fate::Survived) {
        out.push_str(&format!("  surviving mutant (line {}, {}):\n", r.line, r.kind));
        for l in r.diff.lines().skip(2) {
            out.push_str(&format!("    {l}\n"));
        }
    }
    out
}
