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
use crate::testgen::generate::show_counts;
use crate::testgen::reviewed::Reviewed;
use crate::testgen::score::ScoredTest;
use crate::testgen::suite::{Policy, Suite, make_suite};
use crate::testgen::tests_file::GeneratedTest;

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
    pub(super) jobs: Option<usize>,
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
    /// Reviewed disputed tests to drop: `judge`'s `RESULTS.disputed.jsonl`
    /// with the lines of the tests to keep deleted and each other line's
    /// `reason` filled in (lines match a problem by `task_id` and a test
    /// by `args`). The header lists each dropped test with its reason, and
    /// later `tests gen` runs keep them dropped.
    #[arg(long, value_name = "FILE")]
    drop_disputed: Option<PathBuf>,
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
    let reviewed = match &args.drop_disputed {
        Some(path) => Reviewed::read(path)?,
        None => Reviewed::default(),
    };
    let bar = super::progress::bar(dirs.len() as u64, "problems", false);
    let executor = executor(&args.common, &bar)?;
    let mut failed = 0;
    each_in_order(
        &dirs,
        &bar,
        |dir| gen_one(&executor, &args, &reviewed, dir),
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

fn gen_one(executor: &LazyExecutor, args: &GenArgs, reviewed: &Reviewed, dir: &Path) -> anyhow::Result<String> {
    let mut input = crate::bank::spec::gen_input(&crate::bank::ProblemDir::read(dir))?;
    for d in reviewed.dropped_for(dir, &name_of(dir)) {
        if !input.spec.dropped_tests.iter().any(|s| s.args == d.args) {
            input.spec.dropped_tests.push(d);
        }
    }
    let policy = Policy::Full {
        strengthen: !args.no_strengthen,
        reduce: args.reduce,
        score: args.score,
        score_originals: args.score_originals,
    };
    let mut suite = make_suite(&args.common.helper_python, executor, input, policy)?;
    suite.generated.header.weak_sandbox = executor.isolation().filter(|i| i != "full");
    suite.write(dir)?;
    Ok(summary_line(dir, &suite))
}

/// The line `tests gen` prints for a problem: its counts and what each
/// step did.
fn summary_line(dir: &Path, suite: &Suite) -> String {
    let (g, h) = (&suite.generated, &suite.generated.header);
    let mut note = String::new();
    if g.predicted_timeouts > 0 {
        note = format!("; {} large inputs not run (predicted past the limit)", g.predicted_timeouts);
    }
    if let Some(added) = suite.added.filter(|&n| n > 0) {
        note += &format!("; {added} added to kill surviving mutants");
    }
    if let Some(shipped) = suite.shipped {
        note += &format!("; {shipped} ship");
    }
    if let Some((before, after)) = suite.reduced {
        note += &format!("; reduced {before} → {after} tests (the scoring-only ones dropped)");
    }
    if let Some(s) = h.mutation {
        note.push_str(&format!(
            "; mutation score {:.3} ({} killed, {} equivalent, {} mutants)",
            s.score, s.killed, s.equivalent, s.mutants
        ));
    }
    if let Some(o) = h.originals_mutation {
        note.push_str(&format!("; the original tests' {:.3} ({} killed)", o.score, o.killed));
    }
    format!(
        "{}: {} tests ({} typical, {} edge, {} large); dropped: {}{note}",
        name_of(dir),
        g.tests.len(),
        h.typical,
        h.edge,
        h.large,
        show_counts(&h.dropped)
    )
}

/// `e` with the problem directory in front, unless it names it already (a
/// sandbox failure does not know which problem it was running).
pub(super) fn naming(dir: &Path, e: &anyhow::Error) -> String {
    let message = format!("{e:#}");
    let shown = dir.display().to_string();
    if message.contains(shown.trim_end_matches('/')) { message } else { format!("{shown}: {message}") }
}
