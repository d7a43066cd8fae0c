//! Where the candidates' Python lives: one virtualenv per user, found the
//! same way from any working directory — `--venv`, else `$FLOWBENCH_VENV`,
//! else `$XDG_DATA_HOME/flowbench/venv` (default
//! `~/.local/share/flowbench/venv`). There is no fallback to `python3` on
//! PATH: its packages are not pinned, so verdicts would silently change.
//!
//! The venv is made on first use ([`provision`]): whatever starts the
//! sandbox on a fresh machine creates it, so the README's two commands need
//! no set-up step. It is built beside its final place and moved in only when
//! every pin is installed, so an interpreter at the final place always means
//! a complete environment; a failed attempt leaves nothing that a later run
//! would mistake for one.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use flowbench_support::progress::Progress;

/// Packages the Code-Vision prelude imports, pinned as the authors did, plus
/// numpy from the authors' requirements.txt (recorded passing samples import it).
pub const PINNED: &[&str] = &["numpy==2.1.1", "sympy==1.13.1", "sortedcontainers==2.4.0"];

/// The interpreter a first-use provisioning creates the venv with.
pub const BASE_PYTHON: &str = "python3";

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

/// The venv whose interpreter `python` is (`<venv>/bin/python`), if it has
/// that shape.
pub fn venv_of(python: &Path) -> Option<&Path> {
    let bin = python.parent().filter(|_| python.file_name().is_some_and(|n| n == "python"))?;
    bin.parent().filter(|_| bin.file_name().is_some_and(|n| n == "bin"))
}

/// Why no interpreter was found.
#[derive(Debug, thiserror::Error)]
#[error(
    "no candidates' Python environment at {0}: create it with `flowbench env` \
     (or point --venv / FLOWBENCH_VENV at one made by `flowbench env`)"
)]
pub struct MissingEnv(pub PathBuf);

/// Why the venv could not be made: the step, the venv and what the step
/// said. One message for the whole run, naming the command to retry.
#[derive(Debug, thiserror::Error)]
#[error(
    "could not create the candidates' Python environment at {venv}: {step} failed: {detail}\n\
     It needs {BASE_PYTHON} with the `venv` module and the Python package index (or pip's own PIP_INDEX_URL / \
     PIP_FIND_LINKS); once that is fixed, retry with `flowbench env` (nothing was cached)"
)]
pub struct ProvisionError {
    pub venv: PathBuf,
    pub step: String,
    pub detail: String,
}

/// The venv's interpreter, or an error naming the command that creates it.
pub fn locate(flag: Option<&Path>) -> Result<PythonLocation, MissingEnv> {
    let venv = venv_dir(flag);
    let python = python_in(&venv);
    if python.exists() { Ok(PythonLocation { python, venv }) } else { Err(MissingEnv(venv)) }
}

/// Makes sure a complete venv exists at `dir`: a no-op when its
/// interpreter is there, else it is created with `base_python` and
/// [`PINNED`] are installed (see the module doc for why that is atomic).
/// Concurrent callers wait for one another on a lock file.
pub fn provision(dir: &Path, base_python: &Path, progress: &dyn Progress) -> Result<(), ProvisionError> {
    if python_in(dir).exists() {
        return Ok(());
    }
    let fail = |step: &str, detail: String| ProvisionError { venv: dir.to_path_buf(), step: step.into(), detail };
    let _lock = lock_beside(dir, progress).map_err(|e| fail("locking", e))?;
    if python_in(dir).exists() {
        return Ok(()); // made by the process we waited for
    }
    let started = Instant::now();
    progress.note(&format!(
        "first use: creating the candidates' Python environment at {} ({BASE_PYTHON} -m venv, then pip install {} \
         from the Python package index: about 23 MB to download, 180 MB installed)",
        dir.display(),
        PINNED.join(" ")
    ));
    let staging = dir.with_extension("partial");
    remove_dir_if_present(&staging).map_err(|e| fail("clearing an earlier attempt", e))?;
    let built = build_staged(&staging, base_python, progress).and_then(|()| {
        move_into_place(&staging, dir).map_err(|e| ("moving the environment into place".to_string(), e))
    });
    if let Err((step, detail)) = built {
        let _ = std::fs::remove_dir_all(&staging); // half an environment is only disk used
        return Err(fail(&step, detail));
    }
    progress.note(&format!("the candidates' Python environment is ready ({:.0} s)", started.elapsed().as_secs_f64()));
    Ok(())
}

/// Makes a venv at `staging` and installs the pins; an error names the step.
fn build_staged(staging: &Path, base_python: &Path, progress: &dyn Progress) -> Result<(), (String, String)> {
    let mut made = Ok(());
    progress.busy("creating the virtualenv", &mut || {
        made = run_quiet(Command::new(base_python).arg("-m").arg("venv").arg(staging))
    });
    made.map_err(|e| (format!("`{} -m venv`", base_python.display()), e))?;
    let mut installed = Ok(());
    progress.busy(&format!("installing {}", PINNED.join(" ")), &mut || installed = install_pins(&python_in(staging)));
    installed.map_err(|e| ("`pip install`".to_string(), e))
}

/// Creates the venv at `dir` (if missing) with `base_python`, or installs
/// [`PINNED`] into the one there (`flowbench env`'s update); `progress` gets
/// one line per step.
pub fn create(dir: &Path, base_python: &Path, progress: &dyn Progress) -> Result<(), ProvisionError> {
    if !python_in(dir).exists() {
        return provision(dir, base_python, progress);
    }
    let fail = |step: &str, detail: String| ProvisionError { venv: dir.to_path_buf(), step: step.into(), detail };
    let _lock = lock_beside(dir, progress).map_err(|e| fail("locking", e))?;
    let mut installed = Ok(());
    progress.busy(&format!("installing {}", PINNED.join(" ")), &mut || installed = install_pins(&python_in(dir)));
    installed.map_err(|e| fail("`pip install`", e))
}

/// Installs the pins with `python`'s pip and checks they import.
fn install_pins(python: &Path) -> Result<(), String> {
    run_quiet(
        Command::new(python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).args(PINNED),
    )?;
    let imports = pinned_names().join(", ");
    run_quiet(Command::new(python).args(["-I", "-c", &format!("import {imports}")]))
}

/// Takes the lock file beside `dir`, saying so when another process holds it.
fn lock_beside(dir: &Path, progress: &dyn Progress) -> Result<std::fs::File, String> {
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("creating {}: {e}", parent.display()))?;
    }
    let lock_path = dir.with_extension("lock");
    let lock = std::fs::File::create(&lock_path).map_err(|e| format!("creating {}: {e}", lock_path.display()))?;
    if lock.try_lock().is_err() {
        progress.note(&format!("waiting for another flowbench to finish provisioning {}", dir.display()));
        lock.lock().map_err(|e| format!("locking {}: {e}", lock_path.display()))?;
    }
    Ok(lock)
}

fn remove_dir_if_present(dir: &Path) -> Result<(), String> {
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(format!("removing {}: {e}", dir.display())),
        _ => Ok(()),
    }
}

/// Renames the finished venv to `dir`, which may exist only as an empty
/// directory: anything else there is somebody's data, not ours to replace.
fn move_into_place(staging: &Path, dir: &Path) -> Result<(), String> {
    if dir.exists() {
        std::fs::remove_dir(dir)
            .map_err(|e| format!("{} exists and is not a complete environment ({e}); remove it", dir.display()))?;
    }
    std::fs::rename(staging, dir).map_err(|e| format!("renaming {} to {}: {e}", staging.display(), dir.display()))
}

/// Runs `cmd` with its output captured; a failure carries the last lines
/// it printed (pip's reason is at the end).
fn run_quiet(cmd: &mut Command) -> Result<(), String> {
    let shown = format!("{:?}", cmd.get_program());
    let out = cmd.output().map_err(|e| format!("cannot run {shown}: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let tail = lines[lines.len().saturating_sub(3)..].join(" / ");
    Err(format!("{} ({tail})", out.status))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn venv_of_takes_only_a_venv_interpreter_path() {
        assert_eq!(venv_of(Path::new("/a/v/bin/python")), Some(Path::new("/a/v")));
        assert_eq!(venv_of(Path::new("/usr/bin/python3")), None);
        assert_eq!(venv_of(Path::new("/a/v/python")), None);
        assert_eq!(venv_of(Path::new("python")), None);
    }
}
