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

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
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
    pub step: ProvisionStep,
    /// What the step said. (Not a `source`: the message already says it.)
    pub detail: VenvError,
}

/// The provisioning step that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProvisionStep {
    /// Taking the lock file beside the venv.
    Locking,
    /// Removing the staging directory a failed attempt left.
    ClearingEarlierAttempt,
    /// `<base python> -m venv`.
    CreatingVenv { base_python: PathBuf },
    /// `pip install` of the [`PINNED`] packages.
    PipInstall,
    /// Importing the pins once pip has installed them: it is the install
    /// that did not work, so the message names `pip install`.
    CheckingPins,
    /// Renaming the finished venv to its final place.
    MovingIntoPlace,
}

impl fmt::Display for ProvisionStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProvisionStep::Locking => f.write_str("locking"),
            ProvisionStep::ClearingEarlierAttempt => f.write_str("clearing an earlier attempt"),
            ProvisionStep::CreatingVenv { base_python } => write!(f, "`{} -m venv`", base_python.display()),
            ProvisionStep::PipInstall | ProvisionStep::CheckingPins => f.write_str("`pip install`"),
            ProvisionStep::MovingIntoPlace => f.write_str("moving the environment into place"),
        }
    }
}

/// What a provisioning step said when it failed: the file operation or the
/// command, with its path or program.
#[derive(Debug, thiserror::Error)]
pub enum VenvError {
    /// A directory or the lock file could not be created.
    #[error("creating {}: {error}", path.display())]
    Create { path: PathBuf, error: std::io::Error },
    #[error("locking {}: {error}", path.display())]
    Lock { path: PathBuf, error: std::io::Error },
    #[error("removing {}: {error}", path.display())]
    Remove { path: PathBuf, error: std::io::Error },
    /// The final place holds something other than an empty directory.
    #[error("{} exists and is not a complete environment ({error}); remove it", path.display())]
    Occupied { path: PathBuf, error: std::io::Error },
    #[error("renaming {} to {}: {error}", from.display(), to.display())]
    Rename { from: PathBuf, to: PathBuf, error: std::io::Error },
    /// `program` (as `Debug` shows it, quoted) could not be started.
    #[error("cannot run {program}: {error}")]
    Spawn { program: String, error: std::io::Error },
    /// `program` ran and failed; `tail` is the last lines it printed.
    #[error("{status} ({tail})")]
    Exited { program: String, status: ExitStatus, tail: String },
}

/// A step that failed, and what it said.
type StepFailure = (ProvisionStep, VenvError);

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
    let fail = |step: ProvisionStep, detail: VenvError| ProvisionError { venv: dir.to_path_buf(), step, detail };
    let _lock = lock_beside(dir, progress).map_err(|e| fail(ProvisionStep::Locking, e))?;
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
    remove_dir_if_present(&staging).map_err(|e| fail(ProvisionStep::ClearingEarlierAttempt, e))?;
    let built = build_staged(&staging, base_python, progress)
        .and_then(|()| move_into_place(&staging, dir).map_err(|e| (ProvisionStep::MovingIntoPlace, e)));
    if let Err((step, detail)) = built {
        let _ = std::fs::remove_dir_all(&staging); // half an environment is only disk used
        return Err(fail(step, detail));
    }
    progress.note(&format!("the candidates' Python environment is ready ({:.0} s)", started.elapsed().as_secs_f64()));
    Ok(())
}

/// Makes a venv at `staging` and installs the pins; an error names the step.
fn build_staged(staging: &Path, base_python: &Path, progress: &dyn Progress) -> Result<(), StepFailure> {
    let mut made = Ok(());
    progress.busy("creating the virtualenv", &mut || {
        made = run_quiet(Command::new(base_python).arg("-m").arg("venv").arg(staging))
    });
    made.map_err(|e| (ProvisionStep::CreatingVenv { base_python: base_python.to_path_buf() }, e))?;
    let mut installed = Ok(());
    progress.busy(&format!("installing {}", PINNED.join(" ")), &mut || installed = install_pins(&python_in(staging)));
    installed
}

/// Creates the venv at `dir` (if missing) with `base_python`, or installs
/// [`PINNED`] into the one there (`flowbench env`'s update); `progress` gets
/// one line per step.
pub fn create(dir: &Path, base_python: &Path, progress: &dyn Progress) -> Result<(), ProvisionError> {
    if !python_in(dir).exists() {
        return provision(dir, base_python, progress);
    }
    let fail = |step: ProvisionStep, detail: VenvError| ProvisionError { venv: dir.to_path_buf(), step, detail };
    let _lock = lock_beside(dir, progress).map_err(|e| fail(ProvisionStep::Locking, e))?;
    let mut installed = Ok(());
    progress.busy(&format!("installing {}", PINNED.join(" ")), &mut || installed = install_pins(&python_in(dir)));
    installed.map_err(|(step, detail)| fail(step, detail))
}

/// Installs the pins with `python`'s pip and checks they import.
fn install_pins(python: &Path) -> Result<(), StepFailure> {
    run_quiet(
        Command::new(python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).args(PINNED),
    )
    .map_err(|e| (ProvisionStep::PipInstall, e))?;
    let imports = pinned_names().join(", ");
    run_quiet(Command::new(python).args(["-I", "-c", &format!("import {imports}")]))
        .map_err(|e| (ProvisionStep::CheckingPins, e))
}

/// Takes the lock file beside `dir`, saying so when another process holds it.
fn lock_beside(dir: &Path, progress: &dyn Progress) -> Result<std::fs::File, VenvError> {
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent).map_err(|error| VenvError::Create { path: parent.to_path_buf(), error })?;
    }
    let lock_path = dir.with_extension("lock");
    let lock =
        std::fs::File::create(&lock_path).map_err(|error| VenvError::Create { path: lock_path.clone(), error })?;
    if lock.try_lock().is_err() {
        progress.note(&format!("waiting for another flowbench to finish provisioning {}", dir.display()));
        lock.lock().map_err(|error| VenvError::Lock { path: lock_path, error })?;
    }
    Ok(lock)
}

fn remove_dir_if_present(dir: &Path) -> Result<(), VenvError> {
    match std::fs::remove_dir_all(dir) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
            Err(VenvError::Remove { path: dir.to_path_buf(), error })
        }
        _ => Ok(()),
    }
}

/// Renames the finished venv to `dir`, which may exist only as an empty
/// directory: anything else there is somebody's data, not ours to replace.
fn move_into_place(staging: &Path, dir: &Path) -> Result<(), VenvError> {
    if dir.exists() {
        std::fs::remove_dir(dir).map_err(|error| VenvError::Occupied { path: dir.to_path_buf(), error })?;
    }
    std::fs::rename(staging, dir).map_err(|error| VenvError::Rename {
        from: staging.to_path_buf(),
        to: dir.to_path_buf(),
        error,
    })
}

/// Runs `cmd` with its output captured; a failure carries the last lines
/// it printed (pip's reason is at the end).
fn run_quiet(cmd: &mut Command) -> Result<(), VenvError> {
    let program = format!("{:?}", cmd.get_program());
    let out = match cmd.output() {
        Ok(out) => out,
        Err(error) => return Err(VenvError::Spawn { program, error }),
    };
    if out.status.success() {
        return Ok(());
    }
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let tail = lines[lines.len().saturating_sub(3)..].join(" / ");
    Err(VenvError::Exited { program, status: out.status, tail })
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

    /// A fresh directory under the system's temporary one, removed on drop.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!("flowbench-venv-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("scratch directory");
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_failed_venv_command_names_its_step_and_leaves_nothing() {
        let scratch = Scratch::new("fails");
        let dir = scratch.0.join("venv");
        let silent = flowbench_support::progress::Silent;
        let err = provision(&dir, Path::new("/bin/false"), &silent).expect_err("`false` makes no venv");
        assert_eq!(err.step, ProvisionStep::CreatingVenv { base_python: PathBuf::from("/bin/false") });
        assert!(matches!(&err.detail, VenvError::Exited { status, .. } if !status.success()), "{err:?}");
        let shown = err.to_string();
        let expected = format!(
            "could not create the candidates' Python environment at {}: `/bin/false -m venv` failed: ",
            dir.display()
        );
        assert!(shown.starts_with(&expected), "{shown}");
        assert!(!python_in(&dir).exists() && !dir.with_extension("partial").exists());
    }

    #[test]
    fn a_missing_base_python_is_a_spawn_failure() {
        let scratch = Scratch::new("missing");
        let dir = scratch.0.join("venv");
        let missing = scratch.0.join("no-python");
        let err = provision(&dir, &missing, &flowbench_support::progress::Silent).expect_err("nothing to run");
        assert!(matches!(err.step, ProvisionStep::CreatingVenv { .. }), "{err:?}");
        let VenvError::Spawn { program, .. } = &err.detail else { panic!("{err:?}") };
        assert_eq!(program, &format!("{:?}", missing.as_os_str()));
        assert!(err.detail.to_string().starts_with(&format!("cannot run {program}: ")), "{err}");
    }
}
