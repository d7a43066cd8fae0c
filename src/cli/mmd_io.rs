//! Reading and writing Mermaid files for the CLI (`-` is standard input).

use std::io::Read;
use std::path::Path;

use anyhow::Context;

/// Read a file, or standard input for `-`.
pub fn read_source(path: &Path) -> anyhow::Result<String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).context("reading standard input")?;
        return Ok(s);
    }
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

/// Write a chart in place atomically (see [`crate::outfile::write_atomic`]):
/// an interrupted `--fix`/`--write` never leaves half a chart, the file
/// keeps its mode, and a symlink's target is edited (the link kept).
pub fn write_source(path: &Path, text: &str) -> anyhow::Result<()> {
    crate::outfile::write_atomic(path, text.as_bytes()).with_context(|| format!("writing {}", path.display()))
}
