//! `flowbench build`: build the problem bank into the `dist/` benchmark,
//! optionally one shard of many (`--shard I/N`); `flowbench build merge`
//! combines the shards into the `dist/` one unsharded build writes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::bank::build::BuildOptions;
use crate::bank::dist::Manifest;
use crate::bank::phase::{Outcome, Plan, ShardOutcome};
use crate::bank::styles::BuildStyle;
use crate::bank::unchanged;
use crate::exec::{ExecConfig, LazyExecutor};
use crate::render::style::{StyleFile, parse_sweep};
use crate::shard::Shard;

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct BuildArgs {
    #[command(subcommand)]
    command: Option<BuildCommand>,
    /// The problem bank: one directory per problem. Repeat it to build
    /// several banks as one (e.g. `--problems problems --problems variants`,
    /// so originals and their variants share a dist).
    #[arg(long, default_value = "problems")]
    problems: Vec<PathBuf>,
    /// Where the artefacts go.
    #[arg(short, long, default_value = "dist")]
    output: PathBuf,
    /// Treat lint warnings as errors.
    #[arg(long)]
    deny: bool,
    /// Rebuild problems that are up to date.
    #[arg(long)]
    force: bool,
    /// Warn about an ambiguous picture (an edge drawn through a node, a
    /// label over a label or node, a label crossed by another edge) instead
    /// of refusing the problem.
    #[arg(long)]
    allow_ambiguous: bool,
    /// Per-test time limit for the reference solutions, seconds.
    #[arg(long, default_value_t = 10.0)]
    time_limit: f64,
    /// Python for the reference solutions [default: the `flowbench env`
    /// venv, created on first use].
    #[arg(long)]
    python: Option<PathBuf>,
    /// DANGER: run reference solutions even when a sandbox step fails.
    #[arg(long)]
    allow_weak_sandbox: bool,
    /// Threads (and sandbox workers) [default: all cores].
    #[arg(short = 'j', long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    jobs: Option<usize>,
    /// A style file (as `flowbench render --style`); its name is the style id.
    #[arg(long, conflicts_with = "styles")]
    style: Option<PathBuf>,
    /// Theme for every style: default, neutral, dark or forest.
    #[arg(long)]
    theme: Option<String>,
    /// A sweep file (as `flowbench render --sweep`): one image set per style.
    #[arg(long)]
    styles: Option<PathBuf>,
    /// Render every problem in the robustness set (styles/robustness.toml:
    /// default, handDrawn, greyscale, LR, orthogonal, scan light and heavy,
    /// 512 px wide).
    #[arg(long, conflicts_with_all = ["styles", "style"])]
    robustness: bool,
    /// Build only slice I of N (0-based), e.g. `--shard 2/8`: the problems
    /// at positions I, I+N, … in name order, into a shard directory (-o)
    /// for `flowbench build merge`.
    #[arg(long)]
    shard: Option<Shard>,
    /// Problems of the bank's source that the bank does not hold, with why:
    /// a JSONL file of `{"task_id": …, "reason": …}` (what
    /// `scripts/codevision-rebuild.sh` writes as OUT/left-out.jsonl). The
    /// manifest records them, so the dist and its exports say what they
    /// leave out.
    #[arg(long, value_name = "FILE")]
    left_out: Option<PathBuf>,
}

#[derive(Debug, clap::Subcommand)]
enum BuildCommand {
    /// Combine the shard directories of `build --shard I/N` (all N of them)
    /// into the dist one unsharded build writes.
    Merge(MergeArgs),
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// The shards' output directories, one per shard, in any order.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// The merged dist.
    #[arg(short, long)]
    output: PathBuf,
}

/// The build's styles from `--style`, `--theme` and `--styles`.
fn build_styles(args: &BuildArgs) -> anyhow::Result<Vec<BuildStyle>> {
    let overrides = StyleFile { theme: args.theme.clone(), ..StyleFile::default() };
    let mut probe = crate::render::style::Style::default();
    overrides.apply(&mut probe).map_err(|e| anyhow::anyhow!("--{e}"))?;
    let stem = |p: &PathBuf| p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let mut styles: Vec<BuildStyle> = if args.robustness {
        let mut set = crate::bank::styles::robustness_styles()?;
        set.iter_mut().for_each(|s| s.overrides = overrides.clone());
        set
    } else if let Some(path) = &args.styles {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let entries = parse_sweep(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        entries.into_iter().map(|e| BuildStyle::new(&e.name, e.style, overrides.clone())).collect()
    } else if let Some(path) = &args.style {
        let file = StyleFile::load(path)?;
        let name = match &args.theme {
            Some(t) => format!("{}-{t}", stem(path)),
            None => stem(path),
        };
        vec![BuildStyle::new(&name, file, overrides.clone())]
    } else {
        let name = args.theme.clone().unwrap_or_else(|| "default".into());
        vec![BuildStyle::new(&name, StyleFile::default(), overrides.clone())]
    };
    styles.dedup_by(|a, b| a.name == b.name);
    for (i, s) in styles.iter().enumerate() {
        if let Some(other) = styles[..i].iter().find(|o| o.id == s.id) {
            let (a, b) = (&other.name, &s.name);
            anyhow::bail!("styles {a:?} and {b:?} would share the image directory {:?}: rename one", s.id);
        }
    }
    Ok(styles)
}

pub fn run(args: BuildArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        Some(BuildCommand::Merge(m)) => merge(m),
        None => build(args),
    }
}

fn build(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    // Options first: a bad style file fails before the bank is read.
    let styles = build_styles(&args)?;
    let problems = crate::bank::phase::problem_dirs(&args.problems)?;
    if !(args.time_limit.is_finite()
        && args.time_limit > 0.0
        && args.time_limit <= crate::judge::problems_file::MAX_LIMIT_S)
    {
        anyhow::bail!("--time-limit {}: must be a positive number of seconds, at most a day", args.time_limit);
    }
    let left_out = match &args.left_out {
        Some(file) => flowbench_dist::manifest::read_left_out(file)?,
        None => Vec::new(),
    };
    let threads = args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |j| j.max(1));
    let bar = super::progress::bar(0, "problems", false);
    let cfg = ExecConfig { workers: threads, allow_weak_sandbox: args.allow_weak_sandbox, ..ExecConfig::default() }
        .with_interpreter(args.python.as_deref(), None);
    let sandbox = LazyExecutor::new(cfg).with_progress(Arc::new(bar.clone()));
    let plan = Plan {
        banks: args.problems.clone(),
        problems,
        shard: args.shard,
        threads,
        opts: BuildOptions {
            out: args.output.clone(),
            deny_warnings: args.deny,
            allow_ambiguous: args.allow_ambiguous,
            force: args.force,
            time_limit: Duration::from_secs_f64(args.time_limit),
            styles,
            weak_sandbox: None,
            left_out,
        },
    };
    let outcome = crate::bank::build(plan, &sandbox, &bar);
    bar.finish();
    Ok(match outcome? {
        Outcome::UpToDate(last) => report_up_to_date(&last, &args.output, started),
        Outcome::Shard(done) => report_shard(&done, &args.output, started),
        Outcome::Dist { manifest, rebuilt, python } => {
            print!("{}", crate::bank::table1::markdown(&manifest.table1));
            report_built(&manifest, rebuilt, &args.output, started, &python);
            if !manifest.failed.is_empty() {
                eprintln!("failed: {}", manifest.failed.join(", "));
            }
            if manifest.failed.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
    })
}

/// What a shard build prints: its counts and what to do next; exit code 1
/// when some of its problems failed (they are in the shard, and the merged
/// dist reports them as an unsharded build would).
fn report_shard(done: &ShardOutcome, out: &Path, started: Instant) -> ExitCode {
    let failed = done.failed();
    eprintln!(
        "built shard {} ({} of the bank's {} problems: {} built, {} rebuilt) into {} in {:.2} s ({}); \
         combine all {} shards with `flowbench build merge -o DIST SHARD_DIRS…`",
        done.shard,
        done.built.len(),
        done.bank,
        done.built.len() - failed.len(),
        done.rebuilt,
        out.display(),
        started.elapsed().as_secs_f64(),
        done.python,
        done.shard.count,
    );
    if !failed.is_empty() {
        eprintln!("failed: {}", failed.join(", "));
    }
    if failed.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// `build merge`: the shards' dist, its Table 1 and counts, as `build` prints them.
fn merge(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let manifest = crate::bank::shard::merge(&args.output, &args.shards)?;
    print!("{}", crate::bank::table1::markdown(&manifest.table1));
    eprintln!(
        "merged {} shards: {} of {} problems built ({} style{}) into {} in {:.2} s",
        args.shards.len(),
        manifest.built,
        manifest.problems,
        manifest.styles.len(),
        if manifest.styles.len() == 1 { "" } else { "s" },
        args.output.display(),
        started.elapsed().as_secs_f64(),
    );
    if !manifest.failed.is_empty() {
        eprintln!("failed: {}", manifest.failed.join(", "));
    }
    Ok(if manifest.failed.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// What a build with nothing to do prints: the last build's warnings, its
/// Table 1 and the counts, as a rebuild of cached problems would.
fn report_up_to_date(last: &unchanged::UpToDate, out: &std::path::Path, started: Instant) -> ExitCode {
    for d in &last.diagnostics {
        eprintln!("{d}");
    }
    let m = &last.manifest;
    print!("{}", crate::bank::table1::markdown(&m.table1));
    report_built(m, 0, out, started, "nothing to validate");
    ExitCode::SUCCESS
}

/// The build's last line: what was built, rebuilt and reused, and how long it took.
fn report_built(m: &Manifest, rebuilt: usize, out: &std::path::Path, started: Instant, python: &str) {
    eprintln!(
        "built {} of {} problems ({rebuilt} rebuilt, {} up to date; {} style{}) into {} in {:.2} s ({python})",
        m.built,
        m.problems,
        m.problems - rebuilt,
        m.styles.len(),
        if m.styles.len() == 1 { "" } else { "s" },
        out.display(),
        started.elapsed().as_secs_f64(),
    );
}
