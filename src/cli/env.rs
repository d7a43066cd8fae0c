//! `flowbench env`: create or update the candidates' virtualenv with the
//! Code-Vision prelude's packages at the authors' pins, or show it.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, bail};

use crate::exec::venv::{self, PINNED};

#[derive(Debug, clap::Args)]
pub struct EnvArgs {
    /// Only show the interpreter the judge will use and its version.
    #[arg(long)]
    print: bool,
    /// Python used to create the virtualenv (default: `python3` on PATH).
    #[arg(long, default_value = "python3")]
    python: PathBuf,
    /// The virtualenv [default: $FLOWBENCH_VENV, else
    /// $XDG_DATA_HOME/flowbench/venv, else ~/.local/share/flowbench/venv].
    #[arg(long)]
    venv: Option<PathBuf>,
}

pub fn run(args: EnvArgs) -> anyhow::Result<ExitCode> {
    if !args.print {
        let dir = venv::venv_dir(args.venv.as_deref());
        venv::create(&dir, &args.python, &super::progress::lines())?;
    }
    show(args.venv.as_deref())
}

fn show(flag: Option<&Path>) -> anyhow::Result<ExitCode> {
    let loc = venv::locate(flag)?;
    let (version, packages) = describe(&loc.python)?;
    println!("python: {}", loc.python.display());
    println!("version: {version}");
    println!("venv: {}", loc.venv.display());
    println!("packages: {packages}");
    // C++ candidates of stdio problems are compiled with it, outside the venv.
    match crate::judge::cpp::compiler_version() {
        Some(version) => println!("c++ compiler: {} ({version})", crate::judge::cpp::COMPILER),
        None => println!("c++ compiler: none ({} not on PATH: C++ samples are refused)", crate::judge::cpp::COMPILER),
    }
    Ok(ExitCode::SUCCESS)
}

/// Version of `python` and the installed versions of the pinned packages.
fn describe(python: &Path) -> anyhow::Result<(String, String)> {
    let names: Vec<&str> = PINNED.iter().filter_map(|p| p.split("==").next()).collect();
    let script = format!(
        "import sys, importlib.metadata as m\nprint(sys.version.split()[0])\n\
         for n in {names:?}:\n    try: print(n + '==' + m.version(n))\n    except Exception: print(n + ' missing')\n"
    );
    let out = Command::new(python)
        .args(["-I", "-c", &script])
        .output()
        .with_context(|| format!("cannot run {}", python.display()))?;
    if !out.status.success() {
        bail!("{} failed: {}", python.display(), String::from_utf8_lossy(&out.stderr).trim());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let version = lines.next().unwrap_or("?").to_string();
    Ok((version, lines.collect::<Vec<_>>().join(" ")))
}
