//! `flowbench render` (not yet implemented).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct RenderArgs {}

pub fn run(_args: RenderArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
