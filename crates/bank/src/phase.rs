//! The build phase's one entry point, [`build`]: a whole bank (or one shard
//! of it) into `dist/` — the no-op check, every problem built in parallel,
//! then the shard directory or the dist, its manifest and the record of
//! what it was built from. The command line only turns options into a
//! [`Plan`] and prints the [`Outcome`].
//!
//! Errors are [`PhaseError`]: the step that failed, naming its file.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use flowbench_support::FileError;
use rayon::prelude::*;

use flowbench_chart::render::pipeline::Renderer;
use flowbench_exec::LazyExecutor;
use flowbench_support::outfile::RefusedOutput;
use flowbench_support::progress::Progress;
use flowbench_support::shard::Shard;

use super::build::{BuildOptions, Builder, Built};
use super::cache::WriteError;
use super::dist::Manifest;
use super::unchanged::{self, UpToDate};

/// Why a bank build stopped (a problem that fails is no error: its report
/// says why).
#[derive(Debug, thiserror::Error)]
pub enum PhaseError {
    #[error(transparent)]
    BankDir(#[from] super::BankDirError),
    /// One problem name in two banks.
    #[error(
        "{} and {}: two problems named {name:?} (each bank's problem directories must have distinct names)",
        .first.display(),
        .second.display()
    )]
    SameName { first: PathBuf, second: PathBuf, name: OsString },
    /// `banks`: the banks as the message names them.
    #[error("{banks}: no problems (directories with flowchart.mmd)")]
    NoProblems { banks: String },
    #[error(transparent)]
    Binary(#[from] super::shard::BinaryError),
    #[error(transparent)]
    Output(#[from] RefusedOutput),
    #[error(transparent)]
    File(#[from] FileError),
    /// The banks' files could not be read for their digest.
    #[error("reading problem bank {banks}")]
    Digest {
        banks: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The sandbox could not build some problems: the first reason (and
    /// how many other reasons there were), of how many problems.
    #[error(
        "{first}{}\n{failed} of {total} problems were not built because the sandbox could not run their reference \
         solutions; nothing of theirs was cached, so `flowbench build` builds them once this is fixed",
        if *.other_reasons > 0 { format!(" (and {} other reasons)", .other_reasons) } else { String::new() }
    )]
    MachineFailures { first: String, other_reasons: usize, failed: usize, total: usize },
    #[error(transparent)]
    Write(#[from] WriteError),
}

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
pub fn problem_dirs(banks: &[PathBuf]) -> Result<Vec<PathBuf>, PhaseError> {
    let mut by_name: BTreeMap<OsString, PathBuf> = BTreeMap::new();
    for bank in banks {
        for dir in super::problem_dirs(bank)? {
            let name = dir.file_name().map(ToOwned::to_owned).unwrap_or_default();
            if let Some(first) = by_name.get(&name) {
                return Err(PhaseError::SameName { first: first.clone(), second: dir, name });
            }
            by_name.insert(name, dir);
        }
    }
    if by_name.is_empty() {
        return Err(PhaseError::NoProblems { banks: shown(banks) });
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
pub fn build(plan: Plan, sandbox: &LazyExecutor, progress: &dyn Progress) -> Result<Outcome, PhaseError> {
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
    flowbench_support::outfile::refuse_dir_overlap("-o", &out, &banks)?;
    std::fs::create_dir_all(&out).map_err(FileError::creating(&out))?;
    let inputs = unchanged::inputs_digest(&plan.problems, &builder.opts)
        .map_err(|source| PhaseError::Digest { banks: shown(&plan.banks), source })?;
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
) -> Result<Vec<Built>, PhaseError> {
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
fn refuse_machine_failures(built: &[Built]) -> Result<(), PhaseError> {
    let failed: Vec<&str> = built.iter().filter_map(|b| b.machine_failure.as_deref()).collect();
    let Some(first) = failed.first() else { return Ok(()) };
    let mut reasons: Vec<&str> = failed.clone();
    reasons.sort_unstable();
    reasons.dedup();
    Err(PhaseError::MachineFailures {
        first: first.to_string(),
        other_reasons: reasons.len() - 1,
        failed: failed.len(),
        total: built.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn not_built(name: &str, why: &str) -> Built {
        Built::not_built(Path::new(name), why.to_string())
    }

    #[test]
    fn machine_failures_are_one_error_with_the_first_reason_and_the_counts() {
        let built = [not_built("a", "sandbox: no user namespaces"), Built::failed(Path::new("b"), "error: x".into())];
        let e = refuse_machine_failures(&built).unwrap_err();
        assert_eq!(
            e.to_string(),
            "sandbox: no user namespaces\n1 of 2 problems were not built because the sandbox could not run their \
             reference solutions; nothing of theirs was cached, so `flowbench build` builds them once this is fixed"
        );
        let built = [not_built("a", "sandbox: one"), not_built("b", "sandbox: two"), not_built("c", "sandbox: one")];
        let e = refuse_machine_failures(&built).unwrap_err().to_string();
        assert!(e.starts_with("sandbox: one (and 1 other reasons)\n3 of 3 problems"), "{e}");
        assert!(refuse_machine_failures(&[Built::failed(Path::new("b"), "error: x".into())]).is_ok());
    }
}
