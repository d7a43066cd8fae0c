//! Where the candidates' Python lives: the `flowbench env` virtualenv
//! (`$FLOWBENCH_VENV` or `.flowbench/venv`), else `python3` on PATH.

use std::path::PathBuf;

/// Packages the Code-Vision prelude imports, pinned as the authors did, plus
/// numpy from the authors' requirements.txt (recorded passing samples import it).
pub const PINNED: &[&str] = &["numpy==2.1.1", "sympy==1.13.1", "sortedcontainers==2.4.0"];

/// A located interpreter.
#[derive(Debug, Clone)]
pub struct PythonLocation {
    /// The interpreter to run.
    pub python: PathBuf,
    /// The virtualenv it belongs to, if any.
    pub venv: Option<PathBuf>,
    /// Set when falling back to `python3` on PATH, for the user to see.
    pub warning: Option<String>,
}

/// The virtualenv directory `flowbench env` manages.
pub fn venv_dir() -> PathBuf {
    std::env::var_os("FLOWBENCH_VENV")
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(".flowbench/venv"), PathBuf::from)
}

/// The venv's interpreter when it exists, else `python3` with a warning.
pub fn locate() -> PythonLocation {
    let dir = venv_dir();
    let python = dir.join("bin").join("python");
    if python.exists() {
        let python = std::path::absolute(&python).unwrap_or(python);
        let venv = std::path::absolute(&dir).unwrap_or(dir);
        return PythonLocation { python, venv: Some(venv), warning: None };
    }
    PythonLocation {
        python: resolve_python3(),
        venv: None,
        warning: Some(format!(
            "no virtualenv at {} (run `flowbench env`); using python3 from PATH, whose packages are not pinned",
            dir.display()
        )),
    }
}

/// The real interpreter behind `python3` on PATH: shims (pyenv, asdf) need
/// environment variables the scrubbed worker environment lacks.
fn resolve_python3() -> PathBuf {
    std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| PathBuf::from(s.trim()))
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| PathBuf::from("python3"))
}
