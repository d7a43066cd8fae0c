//! `flowbench parse` (not yet implemented).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct ParseArgs {}

pub fn run(_args: ParseArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
