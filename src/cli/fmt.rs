//! `flowbench fmt` (not yet implemented).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct FmtArgs {}

pub fn run(_args: FmtArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
