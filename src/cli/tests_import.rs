//! `flowbench tests import`: legacy assert code → native data tests.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use super::choices::Source;
use crate::judge::import::{Figures, import_file, write_report};

/// `flowbench tests <action>`.
#[derive(Debug, clap::Args)]
pub struct TestsArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Convert legacy tests (asserts in code) to native tests (data).
    ///
    /// A problem gets native tests only when every assert converts exactly;
    /// otherwise it stays legacy-only and is listed. The legacy test is kept
    /// in every problem so `judge --mode auto` can fall back.
    Import(ImportArgs),
    /// Generate validated typical, edge and large tests from each problem's
    /// reference and problem.toml into its tests.jsonl.
    Gen(super::tests_gen::GenArgs),
    /// Mutation score of a problem's tests against AST mutants of its reference.
    Score(super::tests_score::ScoreArgs),
}

#[derive(Debug, clap::Args)]
struct ImportArgs {
    /// Problems JSONL with legacy `test` code.
    input: PathBuf,
    /// Input layout.
    #[arg(long = "from", value_enum, default_value = "codevision")]
    from: Source,
    /// Output native problems JSONL.
    #[arg(short, long)]
    output: PathBuf,
    /// Also write a Markdown report listing every unconverted problem and why.
    #[arg(long)]
    report: Option<PathBuf>,
    /// Python interpreter used to parse the test code.
    #[arg(long, default_value = "python3")]
    python: PathBuf,
}

pub fn run(args: TestsArgs) -> anyhow::Result<ExitCode> {
    match args.action {
        Action::Import(a) => import(a),
        Action::Gen(a) => super::tests_gen::run_gen(a),
        Action::Score(a) => super::tests_score::run_score(a),
    }
}

fn import(args: ImportArgs) -> anyhow::Result<ExitCode> {
    crate::outfile::refuse_overwrite("-o", &args.output, &[&args.input])?;
    if args.from == Source::Apps {
        return import_apps(&args);
    }
    if let Some(report) = &args.report {
        crate::outfile::refuse_overwrite("--report", report, &[&args.input, &args.output])?;
    }
    let (problems, outcomes) = import_file(&args.input, args.from.into(), &args.python)?;
    let mut out = String::new();
    for p in &problems {
        out.push_str(&serde_json::to_string(p)?);
        out.push('\n');
    }
    crate::outfile::write_atomic(&args.output, out.as_bytes())
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    if let Some(path) = &args.report {
        crate::outfile::write_atomic(path, write_report(&outcomes).as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let figures = Figures::from_outcomes(&outcomes);
    eprint!("{}", figures.table());
    let legacy: Vec<&str> = outcomes.iter().filter(|o| !o.converted()).map(|o| o.task_id.as_str()).collect();
    if !legacy.is_empty() {
        eprintln!("legacy-only ({}): {}", legacy.len(), legacy.join(", "));
    }
    eprintln!("wrote {} problems to {}", problems.len(), args.output.display());
    Ok(ExitCode::SUCCESS)
}

/// `tests import --from apps`: the records' data tests as native problems
/// (stdio or function); unreadable records are listed with their line and
/// make the exit code 1, the others are written.
fn import_apps(args: &ImportArgs) -> anyhow::Result<ExitCode> {
    if args.report.is_some() {
        anyhow::bail!("--report lists unconverted test code; APPS records have none (skipped records are printed)");
    }
    let read = crate::judge::import::apps::read_apps(&args.input)?;
    let mut out = String::new();
    for p in &read.problems {
        out.push_str(&serde_json::to_string(&p.native)?);
        out.push('\n');
    }
    crate::outfile::write_atomic(&args.output, out.as_bytes())
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    for d in &read.skipped {
        eprintln!("{d}: skipped");
    }
    eprintln!(
        "wrote {} problems to {} ({} records skipped)",
        read.problems.len(),
        args.output.display(),
        read.skipped.len()
    );
    Ok(if read.skipped.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
