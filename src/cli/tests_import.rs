//! `flowbench tests` (not yet implemented).

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct TestsArgs {}

pub fn run(_args: TestsArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
