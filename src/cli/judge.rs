//! `flowbench judge` (not yet implemented).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct JudgeArgs {}

pub fn run(_args: JudgeArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
