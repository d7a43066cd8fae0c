//! The build phase's one entry point, [`build`]: a whole bank (or one shard
//! of it) into `dist/` — the no-op check, every problem built in parallel,
//! then the shard directory or the dist, its manifest and the record of
//! what it was built from. The command line only turns options into a
//! [`Plan`] and prints the [`Outcome`].
//!
//! Still `anyhow` inside: the steps it sequences (`dist`, `shard`,
//! `unchanged`) return it.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use rayon::prelude::*;

use crate::exec::LazyExecutor;
use crate::progress::Progress;
use crate::render::pipeline::Renderer;
use crate::shard::Shard;

use super::build::{BuildOptions, Builder, Built};
use super::dist::Manifest;
use super::unchanged::{self, UpToDate};

/// What to build.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The banks as given (for messages and the output overlap check).
    pub banks: Vec<PathBuf>,
    /// Every problem directory of the banks ([`problem_dirs`]).
    pub problems: Vec<PathBuf>,
    /// Only this slice of them, into a shard directory.
    pub shard: Option<Shard>,
    /// Threads building problems at once.
    pub threads: usize,
    pub opts: BuildOptions,
}

/// What a build did.
#[derive(Debug)]
pub enum Outcome {
    /// Nothing to do: the last build's warnings, manifest and Table 1.
    UpToDate(UpToDate),
    /// A shard directory written.
    Shard(ShardOutcome),
    /// The dist written.
    Dist { manifest: Manifest, rebuilt: usize, python: String },
}

/// A shard build's counts.
#[derive(Debug)]
pub struct ShardOutcome {
    pub shard: Shard,
    /// Problems in the whole bank.
    pub bank: usize,
    pub built: Vec<Built>,
    pub rebuilt: usize,
    /// The Python that validated (or why none did).
    pub python: String,
}

impl ShardOutcome {
    /// The names of the shard's problems that failed.
    pub fn failed(&self) -> Vec<&str> {
        self.built.iter().filter(|b| !b.report.ok).map(|b| b.report.name.as_str()).collect()
    }
}

/// The problem directories of every bank, by name. Each problem's artefacts
/// are named after its directory, so one name in two banks is refused.
pub fn problem_dirs(banks: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut by_name: BTreeMap<OsString, PathBuf> = BTreeMap::new();
    for bank in banks {
        for dir in super::problem_dirs(bank)? {
            let name = dir.file_name().map(ToOwned::to_owned).unwrap_or_default();
            if let Some(first) = by_name.get(&name) {
                anyhow::bail!(
                    "{} and {}: two problems named {:?} (each bank's problem directories must have distinct names)",
                    first.display(),
                    dir.display(),
                    name
                );
            }
            by_name.insert(name, dir);
        }
    }
    if by_name.is_empty() {
        anyhow::bail!("{}: no problems (directories with flowchart.mmd)", shown(banks));
    }
    Ok(by_name.into_values().collect())
}

/// The banks' paths as the messages name them.
fn shown(banks: &[PathBuf]) -> String {
    banks.iter().map(|b| b.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// Builds `plan` (see the module docs). The sandbox starts only when a
/// problem needs validating, so a no-op rebuild spawns no process at all.
/// Each built problem's diagnostics are noted on `progress`.
pub fn build(plan: Plan, sandbox: &LazyExecutor, progress: &dyn Progress) -> anyhow::Result<Outcome> {
    // The binary is named before any work: a shard that cannot say what
    // built it could never be merged.
    let binary_sha256 = plan.shard.map(|_| super::shard::running_binary_sha256()).transpose()?;
    let mine: Vec<PathBuf> = match plan.shard {
        Some(shard) => {
            shard.owned(&plan.problems, |d| d.file_name().map(ToOwned::to_owned)).into_iter().cloned().collect()
        }
        None => plan.problems.clone(),
    };
    progress.add_total(mine.len() as u64);
    let renderer = Renderer::default();
    let mut builder = Builder { renderer: &renderer, sandbox, opts: plan.opts };
    let out = builder.opts.out.clone();
    let banks: Vec<&Path> = plan.banks.iter().map(PathBuf::as_path).collect();
    crate::outfile::refuse_dir_overlap("-o", &out, &banks)?;
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let inputs = unchanged::inputs_digest(&plan.problems, &builder.opts)
        .with_context(|| format!("reading problem bank {}", shown(&plan.banks)))?;
    if !builder.opts.force
        && plan.shard.is_none()
        && let Some(last) = unchanged::up_to_date(&out, &inputs)
    {
        return Ok(Outcome::UpToDate(last));
    }
    let built = build_each(&builder, &plan.problems, &mine, plan.threads, progress)?;
    builder.opts.weak_sandbox = sandbox.isolation().filter(|i| i != "full");
    let python = match sandbox.started() {
        Some(Ok(e)) => format!("python {}", e.python_version()),
        Some(Err(e)) => format!("sandbox failed: {e}"),
        None => "nothing to validate".into(),
    };
    let rebuilt = built.iter().filter(|b| b.rebuilt).count();
    if let (Some(shard), Some(binary_sha256)) = (plan.shard, binary_sha256) {
        let done = super::shard::ShardBuild {
            shard,
            bank: &plan.problems,
            inputs_digest: inputs,
            binary_sha256,
            built: &built,
        };
        super::shard::write_shard(&out, &done, &builder.opts)?;
        let bank = plan.problems.len();
        return Ok(Outcome::Shard(ShardOutcome { shard, bank, built, rebuilt, python }));
    }
    let manifest = super::dist::write_dist(&out, &built, &builder.opts)?;
    unchanged::record(&out, &inputs, &manifest)?;
    Ok(Outcome::Dist { manifest, rebuilt, python })
}

/// Builds the problems of `mine` on `threads` threads, noting their
/// diagnostics; refuses a build the machine could not do.
fn build_each(
    builder: &Builder,
    bank: &[PathBuf],
    mine: &[PathBuf],
    threads: usize,
    progress: &dyn Progress,
) -> anyhow::Result<Vec<Built>> {
    // Duplicate task ids span problems: asked of the whole bank, also in a shard.
    let duplicates = super::duplicate_task_ids(bank);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let built: Vec<Built> = pool.install(|| {
        mine.par_iter()
            .map(|d| {
                let b = match duplicates.get(d) {
                    Some(why) => Built::failed(d, why.clone()),
                    None => builder.build(d),
                };
                progress.advance();
                b
            })
            .collect()
    });
    for b in &built {
        for d in &b.report.diagnostics {
            progress.note(d);
        }
    }
    refuse_machine_failures(&built)?;
    Ok(built)
}

/// Stops the build with one error when the machine could not build some
/// problems (the sandbox did not start or run): the same failure would
/// otherwise be printed once per problem, and a Table 1 of those problems
/// would report the machine, not the bank. Their work was not cached, so a
/// rerun once the machine is fixed builds them; the others stay cached.
fn refuse_machine_failures(built: &[Built]) -> anyhow::Result<()> {
    let failed: Vec<&str> = built.iter().filter_map(|b| b.machine_failure.as_deref()).collect();
    let Some(first) = failed.first() else { return Ok(()) };
    let mut reasons: Vec<&str> = failed.clone();
    reasons.sort_unstable();
    reasons.dedup();
    let others = if reasons.len() > 1 { format!(" (and {} other reasons)", reasons.len() - 1) } else { String::new() };
    anyhow::bail!(
        "{first}{others}\n{} of {} problems were not built because the sandbox could not run their reference \
         solutions; nothing of theirs was cached, so `flowbench build` builds them once this is fixed",
        failed.len(),
        built.len()
    )
}
