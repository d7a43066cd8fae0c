//! The pool of pre-warmed workers behind [`Executor::run`]. Each call takes
//! an idle worker (waiting if all are busy), so `run` can be called from as
//! many threads as there are workers without serialising on one zygote.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::protocol::{self, sandbox_error};
use super::worker::{Worker, WorkerError};
use super::{ExecConfig, Job, Outcome};

/// First uid candidates run as; each worker gets its own uid so per-user
/// limits (RLIMIT_NPROC) are per job and jobs cannot signal each other.
const UID_BASE: u32 = 1_900_000_000;

/// Hands out distinct worker uids within this judge process.
static NEXT_UID: AtomicU32 = AtomicU32::new(0);

/// Why the executor could not start.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// No worker could start (interpreter missing, prelude failed, …).
    #[error("cannot start Python worker with {python}: {detail}")]
    Start { python: String, detail: String },
    /// The configuration asks for nothing runnable.
    #[error("invalid executor configuration: {0}")]
    Config(String),
    /// The interpreter is not there (no silent fallback to another one).
    #[error(transparent)]
    NoEnvironment(#[from] super::venv::MissingEnv),
    /// The interpreter was missing and creating its venv failed.
    #[error(transparent)]
    Provision(#[from] super::venv::ProvisionError),
    /// A confinement step failed and weak isolation was not accepted.
    #[error(
        "refusing to run untrusted code: the sandbox could not isolate it ({}). Run the judge as root on Linux \
         with namespaces allowed (in a container: --privileged or CAP_SYS_ADMIN), make the environment \
         world-readable, or accept weaker isolation explicitly with --allow-weak-sandbox (recorded in the results)",
        .0.join("; ")
    )]
    WeakSandbox(Vec<String>),
}

/// Runs [`Job`]s in sandboxed children of pre-warmed Python workers.
/// Shareable across threads: `run` takes `&self`.
pub struct Executor {
    cfg: ExecConfig,
    /// Idle worker slots; `None` is a slot whose worker died and will be
    /// restarted by the next job that takes it.
    idle: Mutex<Vec<(u32, Option<Worker>)>>,
    available: Condvar,
    python: String,
    confinement: BTreeMap<String, String>,
    packages: BTreeMap<String, String>,
    weaknesses: Vec<String>,
    seq: AtomicU64,
}

fn next_uid() -> u32 {
    let slot = NEXT_UID.fetch_add(1, Ordering::Relaxed) % 1000;
    UID_BASE + (std::process::id() % 100_000) * 1000 + slot
}

impl Executor {
    /// Start `cfg.workers` workers in parallel, each importing the prelude.
    pub fn start(cfg: ExecConfig) -> Result<Executor, ExecError> {
        if cfg.workers == 0 {
            return Err(ExecError::Config("workers must be at least 1".into()));
        }
        if cfg.python.components().count() > 1 && !cfg.python.exists() {
            match super::venv::venv_of(&cfg.python).filter(|_| cfg.provision) {
                // First use: any phase may be the first to start the sandbox,
                // so the venv is made here, not by each command.
                Some(venv) => {
                    let base = Path::new(super::venv::BASE_PYTHON);
                    super::venv::provision(venv, base, &flowbench_support::progress::Silent)?;
                }
                None => {
                    let venv = cfg.python.parent().and_then(Path::parent).unwrap_or(&cfg.python);
                    return Err(super::venv::MissingEnv(venv.to_path_buf()).into());
                }
            }
        }
        let spawned: Vec<(u32, Result<Worker, WorkerError>)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..cfg.workers)
                .map(|_| {
                    let uid = next_uid();
                    let cfg = &cfg;
                    s.spawn(move || (uid, Worker::spawn(cfg, uid)))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| (0, Err(WorkerError("worker start panicked".into())))))
                .collect()
        });
        let mut idle = Vec::new();
        let mut first_error = None;
        for (uid, w) in spawned {
            match w {
                Ok(w) => idle.push((uid, Some(w))),
                Err(WorkerError(e)) => first_error = first_error.or(Some(e)),
            }
        }
        if let Some(detail) = first_error {
            return Err(ExecError::Start { python: cfg.python.display().to_string(), detail });
        }
        let ready = idle.first().and_then(|(_, w)| w.as_ref()).map(|w| &w.ready);
        let weaknesses = ready.map(|r| r.refused_steps()).unwrap_or_default();
        if !weaknesses.is_empty() && !cfg.allow_weak_sandbox {
            return Err(ExecError::WeakSandbox(weaknesses));
        }
        let python = ready.map(|r| r.python.clone()).unwrap_or_default();
        let confinement = ready.map(|r| r.confinement.clone()).unwrap_or_default();
        let packages = ready.map(|r| r.packages.clone()).unwrap_or_default();
        Ok(Executor {
            cfg,
            idle: Mutex::new(idle),
            available: Condvar::new(),
            python,
            confinement,
            packages,
            weaknesses,
            seq: AtomicU64::new(0),
        })
    }

    /// Version of the candidates' Python (e.g. `3.11.7`), for reports.
    pub fn python_version(&self) -> &str {
        &self.python
    }

    /// Which confinements are in force, by name (`network`, `filesystem`,
    /// `processes`, `user`): `ok: …` or `refused: <why>`.
    pub fn confinement(&self) -> &BTreeMap<String, String> {
        &self.confinement
    }

    /// Installed versions of the pinned packages, by name.
    pub fn packages(&self) -> &BTreeMap<String, String> {
        &self.packages
    }

    /// Confinement steps that failed (`step: why`); empty unless the
    /// configuration accepted weak isolation.
    pub fn weaknesses(&self) -> &[String] {
        &self.weaknesses
    }

    /// The configuration the executor runs with.
    pub fn config(&self) -> &ExecConfig {
        &self.cfg
    }

    /// Run one job. Never panics; problems of the sandbox itself come back
    /// as [`super::Status::SandboxError`].
    pub fn run(&self, job: &Job) -> Outcome {
        let (uid, slot) = {
            let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                if let Some(s) = idle.pop() {
                    break s;
                }
                idle = self.available.wait(idle).unwrap_or_else(PoisonError::into_inner);
            }
        };
        let (slot, outcome) = self.run_on(uid, slot, job);
        self.idle.lock().unwrap_or_else(PoisonError::into_inner).push((uid, slot));
        self.available.notify_one();
        outcome
    }

    fn run_on(&self, uid: u32, slot: Option<Worker>, job: &Job) -> (Option<Worker>, Outcome) {
        let mut worker = match slot {
            Some(w) => w,
            None => match Worker::spawn(&self.cfg, uid) {
                Ok(w) if !self.cfg.allow_weak_sandbox && !w.ready.refused_steps().is_empty() => {
                    let refused = w.ready.refused_steps().join("; ");
                    return (None, sandbox_error(format!("restarted worker is not confined: {refused}")));
                }
                Ok(w) => w,
                Err(WorkerError(e)) => return (None, sandbox_error(format!("worker restart failed: {e}"))),
            },
        };
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let deadline = Instant::now() + backstop(job);
        let reply = worker.send(&protocol::job_frame(job, seq)).and_then(|()| worker.recv(deadline));
        match reply {
            Ok(frame) => (Some(worker), protocol::outcome(&frame)),
            Err(WorkerError(e)) => {
                worker.kill();
                (None, sandbox_error(e))
            }
        }
    }
}

/// How long the worker may take before it is presumed wedged. The worker
/// enforces the real limits; this only bounds the judge's wait.
fn backstop(job: &Job) -> Duration {
    let (wall, n) = match job {
        Job::Script { limits, .. } => (limits.wall, 1),
        Job::Calls { limits, calls, .. } => (limits.wall, calls.len() as u32 + 2),
        Job::Program { limits, stdins, .. } | Job::Binary { limits, stdins, .. } => {
            (limits.wall, stdins.len() as u32 + 1)
        }
    };
    wall.saturating_mul(3).saturating_mul(n) + Duration::from_secs(30)
}
