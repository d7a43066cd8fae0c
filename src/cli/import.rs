//! `flowbench import`: benchmark problems → bank directories.

use std::path::PathBuf;
use std::process::ExitCode;

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
    /// Python that parses the original test code.
    #[arg(long, default_value = "python3")]
    python: PathBuf,
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
    Ok(ExitCode::SUCCESS)
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
