//! The frames exchanged with a worker (`runner.py`): the worker's start-up
//! configuration, one request per [`Job`], and its reply, turned into an
//! [`Outcome`]. Frames are 4-byte big-endian lengths followed by JSON.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use super::{CallOutcome, CallStyle, ExecConfig, Job, Outcome, RunOutcome, Status};

/// Directories hidden from candidates whatever the configuration says:
/// places where test data, sources and credentials usually live.
const ALWAYS_HIDDEN: &[&str] = &["/root", "/home", "/work", "/mnt", "/srv", "/opt", "/media", "/run"];

/// Group every candidate runs in (`nogroup`).
const CANDIDATE_GID: u32 = 65534;

/// Start-up frame: everything the worker needs before its first job.
pub(crate) fn config_frame(cfg: &ExecConfig, uid: u32) -> Value {
    let mut hide: Vec<PathBuf> = ALWAYS_HIDDEN.iter().map(PathBuf::from).collect();
    if let Ok(cwd) = std::env::current_dir() {
        hide.push(cwd);
    }
    hide.extend(cfg.hide_paths.iter().cloned());
    let hide: Vec<String> =
        hide.iter().filter_map(|p| std::fs::canonicalize(p).ok()).map(|p| p.to_string_lossy().into_owned()).collect();
    json!({
        "prelude": cfg.prelude,
        "memory_bytes": cfg.memory_bytes,
        "output_cap": cfg.output_cap,
        "file_size_cap": cfg.file_size_cap,
        "allow_subprocess": cfg.allow_subprocess,
        "max_processes": cfg.max_processes.max(2),
        "scratch_bytes": cfg.scratch_bytes,
        "human_eval_compat": cfg.human_eval_compat,
        "coerce_numbers": cfg.coerce_numbers,
        "stop_after_timeout": cfg.stop_after_timeout,
        "uid": uid,
        "gid": CANDIDATE_GID,
        "hide": hide,
        // Imported once in the zygote so candidates need not read the
        // (possibly hidden) standard library after dropping privileges.
        "preload": preload(cfg),
        "packages": super::venv::pinned_names(),
        // Test hook (docs/guide/judging.md, "Fail closed"): make one step
        // fail so tests can check that the judge then refuses to run.
        "fail_step": std::env::var("FLOWBENCH_TEST_FAIL_STEP").ok(),
    })
}

/// The pinned third-party packages, loaded in the zygote when
/// [`ExecConfig::preload_packages`] asks for them.
const PRELOAD_PACKAGES: &[&str] = &["sortedcontainers", "numpy", "sympy"];

fn preload(cfg: &ExecConfig) -> Vec<&'static str> {
    let packages = if cfg.preload_packages { PRELOAD_PACKAGES } else { &[] };
    PRELOAD.iter().chain(packages).copied().collect()
}

/// Standard modules candidates commonly import, loaded in the zygote.
const PRELOAD: &[&str] = &[
    "array",
    "bisect",
    "cmath",
    "collections",
    "copy",
    "dataclasses",
    "datetime",
    "decimal",
    "enum",
    "fractions",
    "functools",
    "hashlib",
    "heapq",
    "itertools",
    "json",
    "math",
    "numbers",
    "operator",
    "queue",
    "random",
    "re",
    "statistics",
    "string",
    "struct",
    "sys",
    "textwrap",
    "time",
    "typing",
    "unicodedata",
    "abc",
    "contextlib",
    "io",
    "os",
    "collections.abc",
    "threading",
    "traceback",
    "types",
    "weakref",
    "zlib",
    "base64",
    "binascii",
    "calendar",
    "csv",
    "difflib",
    "pprint",
    "secrets",
    "shutil",
    "string",
    "subprocess",
    "tempfile",
    "uuid",
    "ctypes",
    "socket",
    "signal",
    "resource",
    "platform",
    "faulthandler",
    "builtins",
    "locale",
    "codecs",
    "encodings.idna",
    "warnings",
];

/// Request frame for one job; `seq` keeps scratch directory names unique.
pub(crate) fn job_frame(job: &Job, seq: u64) -> Value {
    match job {
        Job::Script { source, limits } => json!({
            "kind": "script",
            "source": source,
            "wall": limits.wall.as_secs_f64(),
            "cpu": limits.cpu.as_secs_f64(),
            "seq": seq,
        }),
        // Each run gets its standard input from the worker (a memory file
        // as fd 0), never anything else of the test.
        Job::Program { source, stdins, limits } => json!({
            "kind": "program",
            "source": source,
            "stdins": &stdins[..],
            "wall": limits.wall.as_secs_f64(),
            "cpu": limits.cpu.as_secs_f64(),
            "seq": seq,
        }),
        Job::Binary { executable, stdins, limits } => {
            use base64::Engine as _;
            json!({
                "kind": "binary",
                "executable": base64::engine::general_purpose::STANDARD.encode(executable),
                "stdins": &stdins[..],
                "wall": limits.wall.as_secs_f64(),
                "cpu": limits.cpu.as_secs_f64(),
                "seq": seq,
            })
        }
        Job::Calls { source, entry_point, call_style, calls, limits } => {
            // Each call's arguments travel as their own JSON text so the child
            // decodes fresh objects per call.
            let calls = calls.texts();
            json!({
                "kind": "calls",
                "source": source,
                "entry_point": entry_point,
                "call_style": match call_style {
                    CallStyle::Function => "function",
                    CallStyle::SolutionMethod => "solution_method",
                },
                "calls": calls,
                "wall": limits.wall.as_secs_f64(),
                "cpu": limits.cpu.as_secs_f64(),
                "seq": seq,
            })
        }
    }
}

/// The worker's first frame.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Ready {
    pub ready: bool,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub python: String,
    #[serde(default)]
    pub confinement: BTreeMap<String, String>,
    /// Installed versions of the pinned packages (`missing` when absent).
    #[serde(default)]
    pub packages: BTreeMap<String, String>,
}

impl Ready {
    /// The confinement steps that failed, as `step: why`.
    pub fn refused_steps(&self) -> Vec<String> {
        self.confinement
            .iter()
            .filter(|(_, v)| !v.starts_with("ok"))
            .map(|(k, v)| format!("{k}: {}", v.strip_prefix("refused: ").unwrap_or(v)))
            .collect()
    }
}

#[derive(Debug, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
enum WireStatus {
    Completed,
    Raised { class: String, message: String },
    Timeout,
    Memory,
    Output,
    Crashed { detail: String },
    Sandbox { detail: String },
}

impl From<WireStatus> for Status {
    fn from(w: WireStatus) -> Status {
        match w {
            WireStatus::Completed => Status::Completed,
            WireStatus::Raised { class, message } => Status::Raised { class, message },
            WireStatus::Timeout => Status::TimedOut,
            WireStatus::Memory => Status::MemoryLimit,
            WireStatus::Output => Status::OutputLimit,
            WireStatus::Crashed { detail } => Status::Crashed { detail },
            WireStatus::Sandbox { detail } => Status::SandboxError { detail },
        }
    }
}

#[derive(Debug, Deserialize)]
struct WireCall {
    status: WireStatus,
    /// Absent when there is no value; present (possibly `null`, i.e.
    /// Python's `None`) when the call returned a plain value.
    #[serde(default, deserialize_with = "present")]
    value: Option<Value>,
    unencodable: Option<String>,
    wall: f64,
}

#[derive(Debug, Deserialize)]
struct WireRun {
    status: WireStatus,
    stdout: String,
    stderr: String,
    wall: f64,
}

#[derive(Debug, Deserialize)]
struct WireReply {
    status: WireStatus,
    calls: Vec<WireCall>,
    #[serde(default)]
    runs: Vec<WireRun>,
    stdout: String,
    stderr: String,
    wall: f64,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

fn secs(s: f64) -> Duration {
    Duration::try_from_secs_f64(s).unwrap_or_default()
}

/// Turn a reply frame into an [`Outcome`]; a malformed frame is a sandbox
/// error (the worker is trusted code, the candidate cannot write to it).
pub(crate) fn outcome(frame: &[u8]) -> Outcome {
    match serde_json::from_slice::<WireReply>(frame) {
        Ok(r) => Outcome {
            status: r.status.into(),
            calls: r
                .calls
                .into_iter()
                .map(|c| CallOutcome {
                    status: c.status.into(),
                    value: c.value,
                    unencodable: c.unencodable,
                    wall: secs(c.wall),
                })
                .collect(),
            runs: r
                .runs
                .into_iter()
                .map(|w| RunOutcome { status: w.status.into(), stdout: w.stdout, stderr: w.stderr, wall: secs(w.wall) })
                .collect(),
            stdout: r.stdout,
            stderr: r.stderr,
            wall: secs(r.wall),
        },
        Err(e) => sandbox_error(format!("unreadable worker reply: {e}")),
    }
}

/// An outcome that blames the sandbox, not the candidate.
pub(crate) fn sandbox_error(detail: String) -> Outcome {
    Outcome {
        status: Status::SandboxError { detail },
        calls: Vec::new(),
        runs: Vec::new(),
        stdout: String::new(),
        stderr: String::new(),
        wall: Duration::ZERO,
    }
}
