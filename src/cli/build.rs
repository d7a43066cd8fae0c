//! `flowbench build`: build the problem bank into benchmark artefacts.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use rayon::prelude::*;

use crate::bank::build::{BuildOptions, Builder, Summary, to_json};
use crate::exec::{ExecConfig, Executor, Job, Outcome, Status};
use crate::judge::run::Sandbox;
use crate::render::pipeline::Renderer;

#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// The problem bank: one directory per problem.
    #[arg(long, default_value = "problems")]
    problems: PathBuf,
    /// Where the artefacts go.
    #[arg(short, long, default_value = "build")]
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
    /// venv, else python3].
    #[arg(long)]
    python: Option<PathBuf>,
    /// Threads (and sandbox workers) [default: all cores].
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
}

pub fn run(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let dirs = crate::bank::problem_dirs(&args.problems)?;
    if dirs.is_empty() {
        anyhow::bail!("{}: no problems (directories with flowchart.mmd)", args.problems.display());
    }
    if !(args.time_limit.is_finite() && args.time_limit > 0.0) {
        anyhow::bail!("--time-limit must be a positive number of seconds");
    }
    let mut cfg = ExecConfig::default();
    if let Some(p) = args.python {
        cfg.python = p;
    }
    if let Some(j) = args.jobs {
        cfg.workers = j.max(1);
    }
    let threads = cfg.workers;
    let sandbox = LazySandbox { cfg, executor: OnceLock::new() };
    let renderer = Renderer::default();
    let builder = Builder {
        renderer: &renderer,
        sandbox: &sandbox,
        opts: BuildOptions {
            out: args.output.clone(),
            deny_warnings: args.deny,
            allow_ambiguous: args.allow_ambiguous,
            force: args.force,
            time_limit: Duration::from_secs_f64(args.time_limit),
        },
    };
    std::fs::create_dir_all(&args.output).with_context(|| format!("creating {}", args.output.display()))?;
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(dirs.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let reports: Vec<_> = pool.install(|| {
        dirs.par_iter()
            .map(|d| {
                let r = builder.build(d);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    for r in &reports {
        for d in &r.diagnostics {
            eprintln!("{d}");
        }
    }
    let summary = Summary::new(reports);
    let write = |name: &str, text: String| {
        let path = args.output.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    };
    write("problems.jsonl", summary.problems_jsonl(&args.output)?)?;
    write("summary.json", to_json(&summary))?;
    write("summary.md", summary.markdown())?;
    print!("{}", summary.markdown());
    let python = match sandbox.executor.get() {
        Some(Ok(e)) => format!("python {}", e.python_version()),
        Some(Err(e)) => format!("sandbox failed: {e}"),
        None => "all up to date".into(),
    };
    eprintln!(
        "built {} of {} problems into {} in {:.1} s ({python})",
        summary.ok,
        summary.problems,
        args.output.display(),
        started.elapsed().as_secs_f64(),
    );
    Ok(if summary.ok == summary.problems { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Starts the sandbox on first use, so a build with nothing to validate
/// (every problem up to date) spawns no Python at all.
struct LazySandbox {
    cfg: ExecConfig,
    executor: OnceLock<Result<Executor, String>>,
}

impl Sandbox for LazySandbox {
    fn run_job(&self, job: &Job) -> Outcome {
        match self.executor.get_or_init(|| Executor::start(self.cfg.clone()).map_err(|e| format!("{e:#}"))) {
            Ok(executor) => executor.run(job),
            Err(detail) => Outcome {
                status: Status::SandboxError { detail: format!("starting the sandbox: {detail}") },
                calls: Vec::new(),
                stdout: String::new(),
                stderr: String::new(),
                wall: Duration::ZERO,
            },
        }
    }
}
