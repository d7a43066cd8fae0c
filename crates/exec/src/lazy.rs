//! The sandbox as every phase sets it up: one [`ExecConfig`] policy for
//! where the interpreter comes from, started on first use (so work with
//! nothing to run starts no Python) and shared by every thread after.

use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use super::{ExecConfig, ExecError, Executor, Job, Outcome, Status, venv};
use flowbench_support::progress::{Progress, Silent};

/// The outcome of a job whose sandbox could not start.
fn start_failed(detail: String) -> Outcome {
    Outcome {
        status: Status::SandboxError { detail },
        calls: Default::default(),
        runs: Vec::new(),
        stdout: String::new(),
        stderr: String::new(),
        wall: Duration::ZERO,
    }
}

impl ExecConfig {
    /// The interpreter: `python` when the user named one (used as given,
    /// never created), else the venv `venv` (default: the per-user one),
    /// created on first use.
    pub fn with_interpreter(mut self, python: Option<&Path>, venv: Option<&Path>) -> ExecConfig {
        match python {
            Some(p) => (self.python, self.provision) = (p.to_path_buf(), false),
            None => (self.python, self.provision) = (venv::python_in(&venv::venv_dir(venv)), true),
        }
        self
    }
}

/// Counts a job under `FLOWBENCH_TIMINGS`: jobs (a fork each), and the
/// calls or runs asked for and those made (a job stops at a timeout).
fn count_work(job: &Job, outcome: &Outcome) {
    if !flowbench_support::timings::enabled() {
        return;
    }
    flowbench_support::timings::count("sandbox jobs", 1);
    let (asked, made) = match job {
        Job::Calls { calls, .. } => (calls.len(), outcome.calls.len()),
        Job::Program { stdins, .. } | Job::Binary { stdins, .. } => (stdins.len(), outcome.runs.len()),
        Job::Script { .. } => (1, 1),
    };
    flowbench_support::timings::count("sandbox calls asked", asked as u64);
    flowbench_support::timings::count("sandbox calls made", made as u64);
}

/// An [`Executor`] started by the first job that needs it.
pub struct LazyExecutor {
    cfg: ExecConfig,
    /// The first start's result; its error is shared by every caller.
    executor: OnceLock<Result<Executor, Arc<ExecError>>>,
    /// A pool of its own for jobs that carry expected outputs (custom
    /// checkers): a worker's memory outlives its jobs, and candidates fork
    /// from it, so such data never passes through a candidates' worker.
    trusted: OnceLock<Result<Executor, ExecError>>,
    progress: Arc<dyn Progress>,
    /// Jobs a batch of calls is cut into, when the caller says
    /// (`judge::run::Sandbox::batch_jobs`).
    batch_jobs: Option<usize>,
}

/// The sandbox could not start (no environment, a refused namespace...):
/// a failure of the machine, never a verdict on the code it was to run.
#[derive(Debug, Clone, thiserror::Error)]
#[error("starting the sandbox: {why}")]
pub struct StartError {
    /// Why, as the first (and only) attempt to start reported it: every
    /// caller gets the same error, so it is shared. (Not a `source`: the
    /// message already says it.)
    pub why: Arc<ExecError>,
}

impl LazyExecutor {
    pub fn new(cfg: ExecConfig) -> LazyExecutor {
        LazyExecutor {
            cfg,
            executor: OnceLock::new(),
            trusted: OnceLock::new(),
            progress: Arc::new(Silent),
            batch_jobs: None,
        }
    }

    /// Cuts each batch of calls into at most `jobs` jobs (at least one), for
    /// a caller that runs several batches at once: the workers are busy
    /// without the split, which would only add forks.
    pub fn with_batch_jobs(mut self, jobs: usize) -> LazyExecutor {
        self.batch_jobs = Some(jobs.max(1));
        self
    }

    /// The cut set by [`LazyExecutor::with_batch_jobs`], if any.
    pub fn chosen_batch_jobs(&self) -> Option<usize> {
        self.batch_jobs
    }

    /// Where the start reports: it may provision the venv first.
    pub fn with_progress(mut self, progress: Arc<dyn Progress>) -> LazyExecutor {
        self.progress = progress;
        self
    }

    /// The executor, started now if it was not; the error says why it
    /// cannot start (the same error to every caller, the start is tried once).
    pub fn get(&self) -> Result<&Executor, StartError> {
        let started = self.executor.get_or_init(|| {
            self.provision()?;
            Executor::start(self.cfg.clone()).map_err(Arc::new)
        });
        started.as_ref().map_err(|why| StartError { why: Arc::clone(why) })
    }

    /// Creates the venv the configuration names when it is missing, with
    /// progress through the caller's bar (`Executor::start` would do it
    /// too, but could only print).
    fn provision(&self) -> Result<(), Arc<ExecError>> {
        match venv::venv_of(&self.cfg.python) {
            Some(dir) if self.cfg.provision && !self.cfg.python.exists() => {
                venv::provision(dir, Path::new(venv::BASE_PYTHON), &*self.progress)
                    .map_err(|e| Arc::new(ExecError::Provision(e)))
            }
            _ => Ok(()),
        }
    }

    /// The executor if a job started it (`None`: nothing needed it yet).
    pub fn started(&self) -> Option<Result<&Executor, &ExecError>> {
        self.executor.get().map(|r| r.as_ref().map_err(|e| &**e))
    }

    /// Runs `job`; a sandbox that cannot start is a [`Status::SandboxError`].
    pub fn run(&self, job: &Job) -> Outcome {
        let outcome = match self.get() {
            Ok(executor) => executor.run(job),
            Err(e) => start_failed(format!("{e:#}")),
        };
        count_work(job, &outcome);
        outcome
    }

    /// Runs a job that carries expected outputs (a custom checker's) on a
    /// one-worker pool no candidate ever runs on, started on first use with
    /// the same confinement.
    pub fn run_trusted(&self, job: &Job) -> Outcome {
        if let Err(e) = self.get() {
            return start_failed(format!("{e:#}"));
        }
        let pool = self.trusted.get_or_init(|| Executor::start(ExecConfig { workers: 1, ..self.cfg.clone() }));
        match pool {
            Ok(executor) => executor.run(job),
            Err(e) => start_failed(format!("starting the checkers' sandbox: {e}")),
        }
    }

    /// The configuration it starts (or started) with.
    pub fn config(&self) -> &ExecConfig {
        &self.cfg
    }

    /// A description of the sandbox for reports: `full`, or `weak: …` when
    /// a confinement step failed and weak isolation was allowed.
    pub fn isolation(&self) -> Option<String> {
        let executor = self.started()?.ok()?;
        Some(if executor.weaknesses().is_empty() {
            "full".into()
        } else {
            format!("weak: {}", executor.weaknesses().join("; "))
        })
    }
}
