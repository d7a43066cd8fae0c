//! `flowbench tests gen` (and what `tests score`, in `tests_score`, shares
//! with it): wiring only; the work is in `testgen`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::exec::{ExecConfig, LazyExecutor};
use crate::progress::Progress as _;
use crate::shard::Shard;

use super::progress::Bar;
use crate::judge::problem::Category;
use crate::testgen::generate::{constant_suite, generate, show_counts};
use crate::testgen::score::{Score, ScoredTest, Suite, mutants, score_suites};
use crate::testgen::ship::{self, Kills};
use crate::testgen::strengthen::{Strengthened, strengthen};
use crate::testgen::tests_file::{self, GeneratedTest, TESTS};

/// Options shared by `gen` and `score`.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// Problem directories (solution.py + problem.toml [+ problem.json]).
    #[arg(required = true)]
    pub(super) dirs: Vec<PathBuf>,
    /// Python for the sandboxed reference [default: the `flowbench env`
    /// venv, created on first use].
    #[arg(long)]
    python: Option<PathBuf>,
    /// Python that runs the generator helpers (they parse, never run, the solution).
    #[arg(long, default_value = "python3")]
    pub(super) helper_python: PathBuf,
    /// Sandbox workers [default: all cores].
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// DANGER: run the references even when a sandbox step fails (recorded
    /// in tests.jsonl's header).
    #[arg(long)]
    allow_weak_sandbox: bool,
}

/// `tests gen`.
#[derive(Debug, clap::Args)]
pub struct GenArgs {
    #[command(flatten)]
    common: Common,
    /// Write only the tests `build` ships (see `testgen::ship`: the
    /// originals, each mutant's first killer, one edge test of each kind,
    /// the largest inputs, the floors) instead of marking the others
    /// `"shipped": false`.
    #[arg(long)]
    reduce: bool,
    /// Also measure the mutation score of the tests written and record it
    /// in the tests file's header.
    #[arg(long)]
    score: bool,
    /// With the score, also score the problem's original tests
    /// (problem.json) against the same mutants and record it beside
    /// (`originals_mutation`): how much the generated tests add. Implies
    /// `--score`.
    #[arg(long)]
    score_originals: bool,
    /// Skip the mutant-guided step (a random input that kills each mutant
    /// the generated tests leave alive is added to them).
    #[arg(long)]
    no_strengthen: bool,
    /// Generate only slice I of N (0-based), e.g. `--shard 2/8`: the DIRs
    /// at positions I, I+N, … when sorted by directory name (then path), so
    /// every machine splits the same list alike. Each problem's tests go to
    /// its own directory, so shards need no merge.
    #[arg(long)]
    shard: Option<Shard>,
}

/// The sandbox for the references, started now: every problem needs it,
/// and one that cannot start is one error, not one per problem.
pub(super) fn executor(c: &Common, bar: &Bar) -> anyhow::Result<LazyExecutor> {
    let mut cfg = ExecConfig {
        stop_after_timeout: true,
        preload_packages: uses_packages(&c.dirs),
        allow_weak_sandbox: c.allow_weak_sandbox,
        ..ExecConfig::default()
    }
    .with_interpreter(c.python.as_deref(), None);
    if let Some(j) = c.jobs {
        cfg.workers = j.max(1);
    }
    let executor = LazyExecutor::new(cfg).with_progress(Arc::new(bar.clone()));
    executor.get()?;
    Ok(executor)
}

/// Whether any reference names a pinned package (a mention is enough:
/// preloading only saves it the import).
pub(super) fn uses_packages(dirs: &[PathBuf]) -> bool {
    dirs.iter().any(|d| {
        std::fs::read_to_string(d.join("solution.py"))
            .map_or(true, |s| ["numpy", "sympy", "sortedcontainers"].iter().any(|p| s.contains(p)))
    })
}

pub(super) fn name_of(dir: &Path) -> String {
    dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| dir.display().to_string())
}

pub(super) fn scored(tests: &[GeneratedTest]) -> Vec<ScoredTest> {
    tests.iter().map(ScoredTest::from).collect()
}

pub fn run_gen(args: GenArgs) -> anyhow::Result<ExitCode> {
    let dirs: Vec<PathBuf> = match args.shard {
        Some(shard) => shard
            .owned(&args.common.dirs, |d| (d.file_name().map(ToOwned::to_owned), d.clone()))
            .into_iter()
            .cloned()
            .collect(),
        None => args.common.dirs.clone(),
    };
    if let Some(shard) = args.shard {
        eprintln!("shard {shard}: {} of the {} problems", dirs.len(), args.common.dirs.len());
        if dirs.is_empty() {
            return Ok(ExitCode::SUCCESS);
        }
    }
    let bar = super::progress::bar(dirs.len() as u64, "problems", false);
    let executor = executor(&args.common, &bar)?;
    let mut failed = 0;
    each_in_order(
        &dirs,
        &bar,
        |dir| gen_one(&executor, &args, dir),
        |dir, result| match result {
            Ok(line) => bar.suspend(|| println!("{line}")),
            Err(e) => {
                failed += 1;
                bar.suspend(|| eprintln!("error: {}", naming(dir, &e)));
            }
        },
    );
    bar.finish();
    crate::timings::report_counts();
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Runs `work` on the problems in parallel (a problem's own jobs are few,
/// so one at a time leaves cores idle) and hands each result to `emit` in
/// the order of `dirs` as soon as it and every earlier one are done: output
/// stays deterministic and still appears as the work goes.
/// `FLOWBENCH_TIMINGS=1` prints each problem's time to stderr.
pub(super) fn each_in_order<T: Send>(
    dirs: &[PathBuf],
    bar: &Bar,
    work: impl Fn(&Path) -> T + Sync,
    emit: impl FnMut(&Path, T) + Send,
) {
    let state = Mutex::new((0usize, BTreeMap::<usize, T>::new(), emit));
    let timings = crate::timings::enabled();
    dirs.par_iter().enumerate().for_each(|(i, dir)| {
        bar.set_message(name_of(dir));
        let started = std::time::Instant::now();
        let result = work(dir);
        if timings {
            bar.suspend(|| eprintln!("timing: {} {:.2} s", name_of(dir), started.elapsed().as_secs_f64()));
        }
        bar.advance();
        let mut guard = state.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let (next, pending, emit) = &mut *guard;
        pending.insert(i, result);
        while let Some(ready) = pending.remove(next) {
            emit(&dirs[*next], ready);
            *next += 1;
        }
    });
}

fn gen_one(executor: &LazyExecutor, args: &GenArgs, dir: &Path) -> anyhow::Result<String> {
    let python = &args.common.helper_python;
    let mut input = crate::bank::spec::gen_input(dir)?;
    let mut generated = generate(python, executor, &input)?;
    if let Some(spec) = generated.narrowed.take() {
        input.spec = spec;
    }
    if !generated.floor_errors.is_empty() {
        anyhow::bail!("{}\n(no tests written)", generated.floor_errors.join("\n"));
    }
    let mut note = String::new();
    if generated.predicted_timeouts > 0 {
        note = format!("; {} large inputs not run (predicted past the limit)", generated.predicted_timeouts);
    }
    let mut strengthened = None;
    let before_strengthening = generated.tests.len();
    if !args.no_strengthen {
        let st = strengthen(python, executor, &input, &mut generated)?;
        if st.added > 0 {
            note += &format!("; {} added to kill surviving mutants", st.added);
        }
        strengthened = Some(st);
    }
    if let Some(st) = &strengthened {
        let kills = Kills { known: &st.known, added_from: before_strengthening };
        if let Some(shipped) = ship::mark(&mut generated, &kills, &input.spec.floors) {
            note += &format!("; {shipped} ship");
        }
    }
    if args.reduce {
        if strengthened.is_none() {
            anyhow::bail!("--reduce picks the tests to keep from the mutant-guided step's kills; drop --no-strengthen");
        }
        let before = generated.tests.len();
        generated.tests.retain(|t| t.shipped);
        let h = &mut generated.header;
        h.shipped = None;
        h.typical = generated.tests.iter().filter(|t| t.category == Category::Typical).count();
        h.edge = generated.tests.iter().filter(|t| t.category == Category::Edge).count();
        h.large = generated.tests.iter().filter(|t| t.category == Category::Large).count();
        note += &format!("; reduced {before} → {} tests (the scoring-only ones dropped)", generated.tests.len());
    }
    if args.score || args.score_originals {
        // After the mutant-guided step the kills are known; a reduced suite
        // is scored afresh.
        let tests = scored(&generated.tests);
        let made;
        // The verdicts the mutant-guided step found on the generated tests
        // spare rerunning the original tests among them.
        let (suite, mutants, known) = match (&mut strengthened, args.reduce) {
            (Some(Strengthened { alive, mutants, known, .. }), false) => {
                (Suite::Alive(alive), mutants.as_slice(), known.as_mut_slice())
            }
            _ => {
                made = mutants(python, &input)?;
                (Suite::Tests(&tests), made.as_slice(), &mut [][..])
            }
        };
        // No original test the native judge can run (HumanEval checks
        // written as code): nothing to compare, and no equivalence runs for
        // an empty suite's survivors.
        let originals: Vec<ScoredTest> =
            if args.score_originals { input.originals.iter().map(ScoredTest::from).collect() } else { Vec::new() };
        let mut suites = vec![suite];
        if !originals.is_empty() {
            suites.push(Suite::Tests(&originals));
        }
        let mut scores = score_suites(python, executor, &input, mutants, &name_of(dir), &suites, known)?
            .into_iter()
            .map(|s| summary(&s));
        let s = scores.next().ok_or_else(|| anyhow::anyhow!("{}: not scored", dir.display()))?;
        note.push_str(&format!(
            "; mutation score {:.3} ({} killed, {} equivalent, {} mutants)",
            s.score, s.killed, s.equivalent, s.mutants
        ));
        generated.header.mutation = Some(s);
        generated.header.originals_mutation = scores.next();
        if let Some(o) = generated.header.originals_mutation {
            note.push_str(&format!("; the original tests' {:.3} ({} killed)", o.score, o.killed));
        }
    }
    if let Some(why) = constant_suite(&generated.tests) {
        anyhow::bail!("{} ({}): {why}\n(no tests written)", dir.display(), dir.join("solution.py").display());
    }
    generated.header.weak_sandbox = executor.isolation().filter(|i| i != "full");
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

/// `e` with the problem directory in front, unless it names it already (a
/// sandbox failure does not know which problem it was running).
pub(super) fn naming(dir: &Path, e: &anyhow::Error) -> String {
    let message = format!("{e:#}");
    let shown = dir.display().to_string();
    if message.contains(shown.trim_end_matches('/')) { message } else { format!("{shown}: {message}") }
}

fn summary(s: &Score) -> tests_file::MutationSummary {
    tests_file::MutationSummary {
        mutants: s.mutants,
        equivalent: s.equivalent,
        killed: s.killed,
        score: s.score,
        bound: tests_file::Bound::Exact,
    }
}
