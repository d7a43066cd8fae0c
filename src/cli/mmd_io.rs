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

/// Write a file atomically (temp file in the same directory, then rename),
/// so an interrupted `--fix`/`--write` never leaves half a chart.
pub fn write_source(path: &Path, text: &str) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).with_context(|| format!("writing {}", path.display()))?;
    std::io::Write::write_all(&mut tmp, text.as_bytes())?;
    tmp.persist(path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
