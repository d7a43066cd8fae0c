//! `flowbench env` (not yet implemented).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct EnvArgs {}

pub fn run(_args: EnvArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
