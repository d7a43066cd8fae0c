//! `flowbench import`: benchmark problems → bank directories.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;

use crate::exec::{ExecConfig, LazyExecutor};

use super::choices::Source;

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// Input layout.
    #[arg(value_enum)]
    from: Source,
    /// Problems JSONL.
    input: PathBuf,
    /// Only this subset (e.g. HumanEval-V).
    #[arg(long)]
    subset: Option<String>,
    /// Output directory: one problem directory per task.
    #[arg(short, long)]
    output: PathBuf,
    /// Hand-written `<task id>.toml` specs and `<task id>.py` additions
    /// (e.g. `valid()`), used where present.
    #[arg(long)]
    specs: Option<PathBuf>,
    /// Python that parses the original test code (and, with
    /// `--references-from`, generates the inputs).
    #[arg(long, default_value = "python3")]
    python: PathBuf,
    /// Released samples (`<subset>/<model>.jsonl`): choose a reference for
    /// each problem without one by differential validation
    /// (`bank::references`), in the sandbox.
    #[arg(long)]
    references_from: Option<PathBuf>,
    /// Hand-written references (`<task>.py`) for problems the samples do
    /// not settle.
    #[arg(long, requires = "references_from")]
    hand_refs: Option<PathBuf>,
    /// The references report (JSON; the Markdown summary is written beside
    /// it, `.md`) [default: OUTPUT/references.json].
    #[arg(long, requires = "references_from")]
    report: Option<PathBuf>,
    /// Sandbox workers for the samples [default: all cores].
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
}

pub fn run(args: ImportArgs) -> anyhow::Result<ExitCode> {
    if args.from == Source::Apps {
        return import_apps(&args);
    }
    let done = crate::bank::import::import(
        &args.input,
        args.from.into(),
        args.subset.as_deref(),
        &args.output,
        args.specs.as_deref(),
        &args.python,
    )?;
    eprintln!(
        "imported {} problems into {} ({} without a canonical solution, {} with a hand-written spec or valid())",
        done.dirs.len(),
        args.output.display(),
        done.without_solution,
        done.with_hand_spec.len()
    );
    match &args.references_from {
        Some(samples) => references(&args, samples, &done.dirs),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// `--references-from`: the references chosen (or read back), the report
/// written; a problem whose work failed is named and makes the exit code 1.
fn references(args: &ImportArgs, samples: &Path, dirs: &[PathBuf]) -> anyhow::Result<ExitCode> {
    use crate::bank::references::{Context, choose_references, load_samples, report};
    let samples = load_samples(samples)?;
    let mut cfg = ExecConfig { stop_after_timeout: true, preload_packages: false, ..ExecConfig::default() }
        .with_interpreter(None, None);
    if let Some(j) = args.jobs {
        cfg.workers = j.max(1);
    }
    let bar = super::progress::bar(0, "problems", false);
    let sandbox = LazyExecutor::new(cfg).with_progress(Arc::new(bar.clone()));
    let ctx =
        Context { samples: &samples, hand: args.hand_refs.as_deref(), helper_python: &args.python, sandbox: &sandbox };
    let results = choose_references(dirs, &ctx, &bar);
    bar.finish();
    let mut entries = Vec::new();
    let mut failed = 0;
    for r in results {
        match r {
            Ok(e) => entries.push(e),
            Err(e) => {
                failed += 1;
                eprintln!("error: {}", flowbench_support::chain(&e));
            }
        }
    }
    let json_path = args.report.clone().unwrap_or_else(|| args.output.join("references.json"));
    let md_path = json_path.with_extension("md");
    // The report may be asked for in a directory of its own: make it
    // rather than lose the references just chosen over a missing folder.
    if let Some(parent) = json_path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::write(&json_path, report::json(&entries)).with_context(|| format!("writing {}", json_path.display()))?;
    std::fs::write(&md_path, report::markdown(&entries)).with_context(|| format!("writing {}", md_path.display()))?;
    let c = report::counts(&entries).remove("all").unwrap_or_default();
    eprintln!(
        "references: {} canonical, {} differential, {} hand-written, {} left out; {} probable wrong tests in {} problems; report {}",
        c.canonical,
        c.differential,
        c.hand,
        c.left_out,
        c.wrong_tests,
        c.with_wrong_tests,
        md_path.display()
    );
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `import apps`: data tests, no converter; unreadable records are listed
/// and make the exit code 1, the others are written.
fn import_apps(args: &ImportArgs) -> anyhow::Result<ExitCode> {
    if args.subset.is_some() || args.specs.is_some() {
        anyhow::bail!("--subset and --specs do not apply to APPS records");
    }
    let done = crate::bank::import::import_apps(&args.input, &args.output)?;
    for d in &done.skipped {
        eprintln!("{d}: skipped");
    }
    for why in &done.undrawn {
        eprintln!("warning: no flowchart: {why}");
    }
    eprintln!(
        "imported {} problems into {} ({} stdio, {} call-based); {} records skipped",
        done.dirs.len(),
        args.output.display(),
        done.stdio,
        done.function,
        done.skipped.len()
    );
    Ok(if done.skipped.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
