//! `flowbench build` (not yet implemented).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct BuildArgs {}

pub fn run(_args: BuildArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
