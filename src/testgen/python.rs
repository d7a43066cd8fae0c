//! Runs the embedded helper scripts (signature reading, generators,
//! mutants) with `python3`. These scripts parse the solution with `ast`
//! and never execute it: every run of reference or mutant code goes
//! through the sandbox.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};

const SIGNATURE: &str = include_str!("signature.py");
const VALUES: &str = include_str!("values.py");
const GEN: &str = include_str!("gen.py");
const MAIN: &str = include_str!("main.py");
const MUTANTS: &str = include_str!("mutants.py");

/// Which helper to run.
#[derive(Debug, Clone, Copy)]
pub enum Helper {
    /// Signature plus candidate inputs (`gen.py`).
    Generate,
    /// Mutants of the reference (`mutants.py`).
    Mutants,
}

fn script(helper: Helper) -> String {
    match helper {
        Helper::Generate => [SIGNATURE, VALUES, GEN, MAIN].join("\n"),
        Helper::Mutants => [SIGNATURE, MUTANTS].join("\n"),
    }
}

/// Sends `request` as JSON to the helper and returns its JSON answer. An
/// answer `{"ok": false, "error": …}` becomes an error with that message.
pub fn call(python: &Path, helper: Helper, request: &serde_json::Value) -> anyhow::Result<serde_json::Value> {
    let mut child = Command::new(interpreter(python))
        .args(["-I", "-S", "-c", &script(helper)])
        .env("PYTHONHASHSEED", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| anyhow::anyhow!("cannot start {}: {e}", python.display()))?;
    let body = serde_json::to_vec(request)?;
    let mut stdin = child.stdin.take().ok_or_else(|| anyhow::anyhow!("no stdin"))?;
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let out = child.wait_with_output()?;
    let _ = writer.join();
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message");
        anyhow::bail!("the test generator failed ({}): {last}", out.status);
    }
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| anyhow::anyhow!("unreadable answer from the test generator: {e}"))?;
    if answer.get("ok") == Some(&serde_json::Value::Bool(false)) {
        anyhow::bail!("{}", answer.get("error").and_then(|e| e.as_str()).unwrap_or("unknown error"));
    }
    Ok(answer)
}

/// The interpreter `python` names, as the interpreter itself reports it
/// (`sys.executable`), asked once per process. A `python3` on `PATH` is
/// often a version manager's shim (pyenv's is a shell script that starts
/// `pyenv exec`), which costs 60–150 ms per start against the 5 ms of the
/// interpreter itself; `tests gen` starts a helper several times per problem.
/// When the question cannot be answered, `python` is used as given (and
/// fails there, with the usual message).
fn interpreter(python: &Path) -> PathBuf {
    static RESOLVED: OnceLock<Mutex<HashMap<PathBuf, PathBuf>>> = OnceLock::new();
    let cache = RESOLVED.get_or_init(Default::default);
    if let Some(known) = cache.lock().unwrap_or_else(PoisonError::into_inner).get(python) {
        return known.clone();
    }
    let resolved = Command::new(python)
        .args(["-I", "-S", "-c", "import sys; sys.stdout.write(sys.executable)"])
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| PathBuf::from(String::from_utf8_lossy(&out.stdout).into_owned()))
        .filter(|p| p.is_absolute() && p.is_file())
        .unwrap_or_else(|| python.to_path_buf());
    cache.lock().unwrap_or_else(PoisonError::into_inner).insert(python.to_path_buf(), resolved.clone());
    resolved
}
