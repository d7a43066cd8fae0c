//! What the benchmark phases run code through: the [`Sandbox`] trait (the
//! sandbox runtime of `flowbench-exec` implements it, and so do test
//! doubles), and [`SandboxFailure`], the error that says the machine, not
//! the code, failed.

use std::time::Duration;

use flowbench_exec::{Job, Outcome};

/// Something that runs sandbox jobs; implemented by [`flowbench_exec::Executor`]
/// and by test doubles. Called from several threads at once.
pub trait Sandbox: Sync {
    fn run_job(&self, job: &Job) -> Outcome;

    /// Most jobs one batch of calls is cut into (a kill search's round, a
    /// run of the reference on many inputs) so that every worker gets a
    /// share of it: [`default_batch_jobs`]. A caller that keeps the workers
    /// busy with batches of its own (`variants` proves its problems in
    /// parallel) sets fewer (`LazyExecutor::with_batch_jobs`): each job is a
    /// fork and defines its code again, so a split then only adds work.
    fn batch_jobs(&self) -> usize {
        default_batch_jobs()
    }

    /// Runs a job that carries expected outputs (a custom checker's) where
    /// no candidate runs after it: a worker's memory outlives its jobs and
    /// candidates are forked from it. A sandbox without such a place
    /// refuses (the default), which is no verdict.
    fn run_trusted_job(&self, job: &Job) -> Outcome {
        let _ = job;
        flowbench_exec::Outcome {
            status: flowbench_exec::Status::SandboxError {
                detail: "this sandbox has no separate workers for custom checkers".into(),
            },
            calls: Vec::new(),
            runs: Vec::new(),
            stdout: String::new(),
            stderr: String::new(),
            wall: Duration::ZERO,
        }
    }
}

/// Twice the threads: a batch cut this way keeps every worker busy, with
/// a second job queued behind each.
pub fn default_batch_jobs() -> usize {
    (rayon::current_num_threads() * 2).max(1)
}

/// The sandbox could not run a job at all (it did not start, a worker
/// died): a failure of the machine, never a verdict on the code, so nothing
/// computed from it may be cached as a result.
#[derive(Debug, thiserror::Error)]
#[error("sandbox: {0}")]
pub struct SandboxFailure(pub String);

impl Sandbox for flowbench_exec::Executor {
    fn run_job(&self, job: &Job) -> Outcome {
        self.run(job)
    }
}

impl Sandbox for flowbench_exec::LazyExecutor {
    fn run_job(&self, job: &Job) -> Outcome {
        self.run(job)
    }

    fn run_trusted_job(&self, job: &Job) -> Outcome {
        self.run_trusted(job)
    }

    fn batch_jobs(&self) -> usize {
        self.chosen_batch_jobs().unwrap_or_else(default_batch_jobs)
    }
}
