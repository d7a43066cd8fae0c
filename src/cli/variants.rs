//! `flowbench variants`: wiring only; the work is in `variants`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use clap::Args;
use rayon::prelude::*;

use crate::exec::{ExecConfig, LazyExecutor};
use crate::progress::Progress as _;
use crate::variants::{Kind, Options, ProblemReport, make};

#[derive(Debug, Args)]
pub struct VariantsArgs {
    /// Problem directories with generated tests (solution.py, problem.toml,
    /// problem.json, tests.jsonl).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Kinds of variant: rename, constants, logic.
    #[arg(long, value_delimiter = ',', default_value = "rename,constants,logic")]
    kinds: Vec<Kind>,
    /// Variants wanted per kind and problem.
    #[arg(long, default_value_t = 1)]
    count: usize,
    /// Output directory: one `<task>~<kind><k>` problem directory per
    /// variant, and `variants.json` (the summary).
    #[arg(short, long)]
    output: PathBuf,
    /// Seed of the order candidates are tried in.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Least share of inputs on which a variant must differ from the original.
    #[arg(long, default_value_t = 0.2)]
    min_differ: f64,
    /// Candidates fully proven (tests regenerated) per kind at most.
    #[arg(long, default_value_t = 3)]
    tries: usize,
    /// Python for the sandboxed programs [default: the `flowbench env` venv].
    #[arg(long)]
    python: Option<PathBuf>,
    /// Python that runs the helpers (they parse, never run, the solution).
    #[arg(long, default_value = "python3")]
    helper_python: PathBuf,
    /// Sandbox workers [default: all cores].
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// DANGER: run the programs even when a sandbox step fails.
    #[arg(long)]
    allow_weak_sandbox: bool,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

/// The references' sandbox, started now (every problem needs it).
fn sandbox(args: &VariantsArgs, bar: &super::progress::Bar) -> anyhow::Result<LazyExecutor> {
    // A zygote with numpy and sympy loaded makes every fork copy their
    // page tables: they are loaded only when a reference names them.
    let mut cfg = ExecConfig {
        stop_after_timeout: true,
        allow_weak_sandbox: args.allow_weak_sandbox,
        preload_packages: super::tests_gen::uses_packages(&args.dirs),
        ..ExecConfig::default()
    }
    .with_interpreter(args.python.as_deref(), None);
    if let Some(j) = args.jobs {
        cfg.workers = j.max(1);
    }
    let mut sandbox = LazyExecutor::new(cfg).with_progress(Arc::new(bar.clone()));
    if args.dirs.len() > 1 {
        // The problems are proven in parallel and keep the workers busy:
        // one job per batch (within the jobs' own call and time caps).
        sandbox = sandbox.with_batch_jobs(1);
    }
    sandbox.get()?;
    Ok(sandbox)
}

pub fn run(args: VariantsArgs) -> anyhow::Result<ExitCode> {
    if !(0.0..=1.0).contains(&args.min_differ) {
        anyhow::bail!("--min-differ {}: expected a share between 0 and 1", args.min_differ);
    }
    std::fs::create_dir_all(&args.output).with_context(|| format!("creating {}", args.output.display()))?;
    let bar = super::progress::bar(args.dirs.len() as u64, "problems", args.quiet);
    let sandbox = sandbox(&args, &bar)?;
    let opts = Options {
        kinds: args.kinds.clone(),
        count: args.count,
        seed: args.seed,
        min_differ: args.min_differ,
        tries: args.tries.max(1),
        helper_python: args.helper_python.clone(),
    };
    let results: Vec<anyhow::Result<ProblemReport>> = args
        .dirs
        .par_iter()
        .map(|dir| {
            bar.set_message(dir.display().to_string());
            // As anyhow: the message is shown with its chain of causes.
            let r = make(dir, &args.output, &sandbox, &opts).map_err(anyhow::Error::from);
            bar.advance();
            r
        })
        .collect();
    bar.finish();
    crate::timings::report_counts();
    let mut reports = Vec::new();
    let mut failed = 0;
    for (dir, result) in args.dirs.iter().zip(results) {
        match result {
            Ok(r) => {
                println!("{}", crate::variants::summary::line(&r));
                reports.push(r);
            }
            Err(e) => {
                failed += 1;
                eprintln!("error: {}: {e:#}", dir.display());
            }
        }
    }
    let summary = crate::variants::summary::Summary::of(&reports, &opts.kinds, args.count);
    println!("{}", summary.text());
    let path = args.output.join("variants.json");
    let json = serde_json::json!({"summary": summary, "problems": reports});
    crate::outfile::write_atomic(&path, (serde_json::to_string_pretty(&json)? + "\n").as_bytes())
        .with_context(|| format!("writing {}", path.display()))?;
    eprintln!("summary: {}", path.display());
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
