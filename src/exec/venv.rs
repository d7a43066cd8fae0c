//! Where the candidates' Python lives: one virtualenv per user, found the
//! same way from any working directory — `--venv`, else `$FLOWBENCH_VENV`,
//! else `$XDG_DATA_HOME/flowbench/venv` (default
//! `~/.local/share/flowbench/venv`). There is no fallback to `python3` on
//! PATH: its packages are not pinned, so verdicts would silently change.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Packages the Code-Vision prelude imports, pinned as the authors did, plus
/// numpy from the authors' requirements.txt (recorded passing samples import it).
pub const PINNED: &[&str] = &["numpy==2.1.1", "sympy==1.13.1", "sortedcontainers==2.4.0"];

/// The names of the [`PINNED`] packages (their versions are reported by the
/// sandbox and recorded with results).
pub fn pinned_names() -> Vec<String> {
    PINNED.iter().filter_map(|p| p.split("==").next()).map(str::to_string).collect()
}

/// A located interpreter.
#[derive(Debug, Clone)]
pub struct PythonLocation {
    /// The interpreter to run.
    pub python: PathBuf,
    /// The virtualenv it belongs to.
    pub venv: PathBuf,
}

/// The virtualenv directory: `flag`, else `$FLOWBENCH_VENV`, else the
/// per-user data directory. Always absolute, so every working directory
/// (and the sandbox, which hides the judge's) sees the same one.
pub fn venv_dir(flag: Option<&Path>) -> PathBuf {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let dir = flag.map(Path::to_path_buf).or_else(|| env("FLOWBENCH_VENV")).unwrap_or_else(|| {
        let data = env("XDG_DATA_HOME")
            .filter(|p| p.is_absolute())
            .or_else(|| env("HOME").map(|h| h.join(".local/share")))
            .unwrap_or_else(|| PathBuf::from("/var/tmp"));
        data.join("flowbench").join("venv")
    });
    std::path::absolute(&dir).unwrap_or(dir)
}

/// The interpreter inside venv `dir`.
pub fn python_in(dir: &Path) -> PathBuf {
    dir.join("bin").join("python")
}

/// Why no interpreter was found.
#[derive(Debug, thiserror::Error)]
#[error(
    "no candidates' Python environment at {0}: create it with `flowbench env` \
     (or point --venv / FLOWBENCH_VENV at one made by `flowbench env`)"
)]
pub struct MissingEnv(pub PathBuf);

/// The venv's interpreter, or an error naming the command that creates it.
pub fn locate(flag: Option<&Path>) -> Result<PythonLocation, MissingEnv> {
    let venv = venv_dir(flag);
    let python = python_in(&venv);
    if python.exists() { Ok(PythonLocation { python, venv }) } else { Err(MissingEnv(venv)) }
}

/// Creates the venv at `dir` (if missing) with `base_python` and installs
/// [`PINNED`], holding a lock so concurrent judges do not race; `progress`
/// gets one line per step.
pub fn create(dir: &Path, base_python: &Path, progress: &mut dyn FnMut(&str)) -> Result<(), String> {
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("creating {}: {e}", parent.display()))?;
    }
    let lock_path = dir.with_extension("lock");
    let lock = std::fs::File::create(&lock_path).map_err(|e| format!("creating {}: {e}", lock_path.display()))?;
    lock.lock().map_err(|e| format!("locking {}: {e}", lock_path.display()))?;
    let python = python_in(dir);
    if !python.exists() {
        progress(&format!("creating virtualenv {}", dir.display()));
        run(Command::new(base_python).arg("-m").arg("venv").arg(dir), "python -m venv")?;
    }
    progress(&format!("installing {}", PINNED.join(" ")));
    run(
        Command::new(&python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).args(PINNED),
        "pip install",
    )
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let status = cmd.status().map_err(|e| format!("cannot run {what}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{what} failed ({status})")) }
}
