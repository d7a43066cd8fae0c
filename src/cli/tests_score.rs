//! `flowbench tests score`: wiring only; the work is in `testgen::score`
//! (first-order mutants) and `testgen::differential` (higher-order and
//! alternative-algorithm mutants).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::exec::LazyExecutor;
use crate::judge::summary::{Counting, CountingError};
use crate::testgen::differential::{Overall, Totals, score_differential};
use crate::testgen::generate::GenInput;
use crate::testgen::score::{EquivalencePool, Fate, MutantReport, Score, ScoredTest, Suite, mutants, score_suites};
use crate::testgen::tests_file::{self, TESTS};

use super::tests_gen::{Common, each_in_order, executor, name_of, scored};

/// `tests score`.
#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    #[command(flatten)]
    common: Common,
    /// Tests to score: a tests.jsonl or a problem.json; a relative name that
    /// is not an existing file is looked up in each problem directory
    /// (`--tests problem.json` scores the original tests) [default: tests.jsonl].
    /// Repeat it to score several suites against the same mutants (each
    /// scored as if alone; the mutants and the equivalence check are shared).
    #[arg(long)]
    tests: Vec<PathBuf>,
    /// One JSON line per problem (and suite): problem, mutants, equivalent,
    /// killed, score (first-order), `higher_order` and `alternative` (each
    /// mutants, equivalent, killed, score), and `tests` (the suite's file
    /// name) when several are scored; with several problems, a closing
    /// `"overall": true` line per suite.
    #[arg(long)]
    json: bool,
    /// Score the first-order mutants only (what `tests gen --score`
    /// records), not the higher-order and alternative-algorithm ones.
    #[arg(long)]
    first_order_only: bool,
    /// Instead of mutants, judge each suite by labelled programs: a samples
    /// JSONL (`task_id`, `completion` or `response`, and `"label":
    /// "correct"` or `"wrong"`); prints each suite's TPR (correct programs
    /// accepted) and TNR (wrong ones rejected), per problem and overall,
    /// and each program judged against its label.
    #[arg(long, value_name = "FILE")]
    labelled: Option<PathBuf>,
    /// With --labelled: the failure classes that count as accepted
    /// (strict, slow, or slow,widened), as `judge --count`.
    #[arg(long, default_value = "strict", value_parser = counting, requires = "labelled")]
    count: Counting,
}

fn counting(text: &str) -> Result<Counting, CountingError> {
    Counting::parse(text)
}

pub fn run_score(args: ScoreArgs) -> anyhow::Result<ExitCode> {
    if let Some(file) = &args.labelled {
        return super::tests_labelled::run(super::tests_labelled::Labelled {
            file,
            dirs: &args.common.dirs,
            suites: &suite_names(&args.tests),
            json: args.json,
            jobs: args.common.jobs,
            counting: args.count,
        });
    }
    let bar = super::progress::bar(args.common.dirs.len() as u64, "problems", false);
    let executor = executor(&args.common, &bar)?;
    let mut failed = 0;
    let names = suite_names(&args.tests);
    let several = names.len() > 1;
    let mut overall = vec![Overall::default(); names.len()];
    each_in_order(
        &args.common.dirs,
        &bar,
        |dir| score_one(&executor, &args, dir),
        |dir, result| match result {
            Ok(scores) => bar.suspend(|| {
                for ((s, suite), total) in scores.into_iter().zip(&names).zip(&mut overall) {
                    let label = several.then_some(suite.as_str());
                    match s {
                        Ok(s) => {
                            total.add(&s);
                            print!("{}", if args.json { json_line(&s, label) } else { text(&s, label) });
                        }
                        Err(e) => {
                            failed += 1;
                            eprintln!("error: {e:#}");
                        }
                    }
                }
            }),
            Err(e) => {
                failed += 1;
                bar.suspend(|| eprintln!("error: {}", super::tests_gen::naming(dir, &e)));
            }
        },
    );
    bar.finish();
    if args.common.dirs.len() > 1 {
        for (total, suite) in overall.iter().zip(&names) {
            let label = several.then_some(suite.as_str());
            print!("{}", if args.json { overall_json(total, label) } else { overall_text(total, label) });
        }
    }
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The suites' names as printed: `--tests` as given, else tests.jsonl.
fn suite_names(tests: &[PathBuf]) -> Vec<String> {
    if tests.is_empty() { vec![TESTS.to_string()] } else { tests.iter().map(|t| t.display().to_string()).collect() }
}

/// The tests `--tests` names for `dir`.
pub fn load_tests(dir: &Path, tests: Option<&Path>) -> anyhow::Result<Vec<ScoredTest>> {
    let path = match tests {
        None => dir.join(TESTS),
        Some(p) if p.is_relative() && !p.exists() => dir.join(p),
        Some(p) => p.to_path_buf(),
    };
    let text = std::fs::read_to_string(&path).map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
    // A problem.json (a whole program's too: its tests as the bank holds them).
    if let Ok(p) = crate::bank::spec::read_problem(&path, &text) {
        return Ok(p.tests.iter().map(ScoredTest::from).collect());
    }
    let (_, tests) = tests_file::read(&path)?;
    Ok(scored(&tests))
}

/// Each suite's score, or why it could not be scored (a missing tests file
/// costs only its own suite). `Err` when nothing could be scored.
fn score_one(executor: &LazyExecutor, args: &ScoreArgs, dir: &Path) -> anyhow::Result<Vec<anyhow::Result<Score>>> {
    let input: GenInput = crate::bank::spec::gen_input(&crate::bank::ProblemDir::read(dir))?;
    let python = &args.common.helper_python;
    let loaded: Vec<anyhow::Result<Vec<ScoredTest>>> = if args.tests.is_empty() {
        vec![load_tests(dir, None)]
    } else {
        args.tests.iter().map(|t| load_tests(dir, Some(t))).collect()
    };
    // The mutants first: a solution that does not parse is the error to show.
    let mutants = mutants(python, &input)?;
    let suites: Vec<Suite> = loaded.iter().filter_map(|l| l.as_ref().ok().map(|t| Suite::Tests(t))).collect();
    let name = name_of(dir);
    let mut scores = if suites.is_empty() {
        Vec::new()
    } else if args.first_order_only {
        score_suites(python, executor, &input, &mutants, &name, &suites, &mut [], &EquivalencePool::default())?
    } else {
        score_differential(python, executor, &input, &name, &mutants, &suites)?
    }
    .into_iter();
    Ok(loaded.into_iter().map(|l| l.and_then(|_| scores.next().ok_or_else(|| anyhow::anyhow!("not scored")))).collect())
}

fn json_line(s: &Score, suite: Option<&str>) -> String {
    let mut value = serde_json::to_value(s).unwrap_or_default();
    if let (Some(suite), Some(map)) = (suite, value.as_object_mut()) {
        map.insert("tests".into(), suite.into());
    }
    format!("{value}\n")
}

fn text(s: &Score, suite: Option<&str>) -> String {
    let mut out = format!(
        "{}{}: {} mutants, {} likely equivalent, {} killed, mutation score {:.3}\n",
        s.problem,
        suite.map(|t| format!(" ({t})")).unwrap_or_default(),
        s.mutants,
        s.equivalent,
        s.killed,
        s.score
    );
    let sets = [("higher-order", &s.higher_order), ("alternative-algorithm", &s.alternative)];
    for (label, set) in sets.iter().filter_map(|(l, set)| Some((l, set.as_ref()?))) {
        out.push_str(&format!(
            "  {label} mutants: {}, {} likely equivalent, {} killed, score {:.3}\n",
            set.mutants, set.equivalent, set.killed, set.score
        ));
    }
    survivors(&mut out, "", s.reports.iter());
    for (label, set) in sets.iter().filter_map(|(l, set)| Some((l, set.as_ref()?))) {
        survivors(&mut out, &format!("{label} "), set.reports.iter());
    }
    out
}

/// Each surviving mutant of `reports` as its kind and diff.
fn survivors<'a>(out: &mut String, label: &str, reports: impl Iterator<Item = &'a MutantReport>) {
    for r in reports.filter(|r| r.fate == Fate::Survived) {
        out.push_str(&format!("  surviving {label}mutant (line {}, {}):\n", r.line, r.kind));
        for l in r.diff.lines().skip(2) {
            out.push_str(&format!("    {l}\n"));
        }
    }
}

fn overall_json(total: &Overall, suite: Option<&str>) -> String {
    let mut value = serde_json::to_value(total).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.insert("overall".into(), true.into());
        if let Some(suite) = suite {
            map.insert("tests".into(), suite.into());
        }
    }
    format!("{value}\n")
}

fn overall_text(total: &Overall, suite: Option<&str>) -> String {
    let figures = |t: &Totals| format!("{} of {} killed, score {:.3}", t.killed, t.mutants - t.equivalent, t.score);
    let mut out = format!(
        "overall{} over {} problems: first-order {}",
        suite.map(|t| format!(" ({t})")).unwrap_or_default(),
        total.problems,
        figures(&total.first_order)
    );
    for (label, set) in [("higher-order", &total.higher_order), ("alternative-algorithm", &total.alternative)] {
        if let Some(t) = set {
            out.push_str(&format!("; {label} {}", figures(t)));
        }
    }
    out.push('\n');
    out
}
