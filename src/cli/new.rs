//! `flowbench new SUBSET/SLUG`: scaffold a problem directory.

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// `SUBSET/SLUG`, e.g. `math/gcd`: the subset goes into `[meta]`, the
    /// slug names the directory, the task and the function.
    pub spec: String,
    /// The problem bank to add to.
    #[arg(long, default_value = "problems")]
    pub problems: PathBuf,
}

pub fn run(args: NewArgs) -> anyhow::Result<ExitCode> {
    let dir = crate::bank::scaffold::scaffold(&args.problems, &args.spec)?;
    eprintln!(
        "created {0} (problem.toml, description.md, flowchart.mmd, solution.py, problem.json); edit them, then \
         `flowbench tests gen {0}` and `flowbench check {0}`",
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
